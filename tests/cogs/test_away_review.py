"""A member away for part of a round: "Analyse my play" reviews only their own moves, and
``/flipflop round`` marks their seat with 💤, as the live table did (through simcord)."""

from __future__ import annotations

import json
from typing import Any

from bot.history import round_story
from bot.i18n import texts
from cogs.flipflop import coach
from cogs.flipflop.story import story_lines
from tests.cogs.helpers import Hands, my_hand, open_table, play_simple_turn, table_in
from tests.cogs.test_practice import open_practice, post, quick_coach, searches_in_a_thread, shown
from tests.conftest import World

__all__ = ["quick_coach", "searches_in_a_thread"]  # the coach's fixtures, used here as there


async def ann_goes_away(world: World, own_turns: int, hands: Hands, draw: bool = True) -> int:
    """Play until a round ends in which ann played ``own_turns`` whole turns herself, then drew (with
    ``draw``) and clicked **Away** on her hand: the computer played the rest of her seat. That round's
    number.

    Members other than ann draw and discard (never drop: a long round); computers play by the clock.
    A round that ends before her plan is done (at the deal, say) is left behind: the next one is played.
    """
    ann = world.members[0]
    table = table_in(world)
    assert table is not None and table.game is not None
    game = table.game
    turns = 0
    while True:
        if not game.in_round:
            if table.is_away(ann.id):
                return game.rounds_played
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            turns = 0
            continue
        if game.to_act == str(ann.id) and not table.is_away(ann.id):
            if turns < own_turns:
                turns += 1
                await play_simple_turn(world, ann, hands=hands)
                continue
            hand = (await my_hand(world, ann)).message
            if draw:
                drawn = await ann.click(hand, label="Draw from stock")
                assert drawn.response is not None
                hand = drawn.response.message  # away mid-turn: the computer discards for her
            await ann.click(hand, label="Away")
            assert table.is_away(ann.id)
            continue
        actor = next((m for m in world.members if str(m.id) == game.to_act), None)
        if actor is None or table.is_away(actor.id):
            await world.env.advance_time(2)  # a computer's turn, or ann's played for her
        else:
            await play_simple_turn(world, actor, hands=hands)


async def round_with_ann_away(world: World, own_turns: int, draw: bool = True) -> tuple[int, list[int]]:
    """ann, ben and cat at a table; ``ann_goes_away`` in a round. Its stored id, and her actions the
    computer made (as stored beside the round)."""
    await open_table(world, world.members[:3])
    await ann_goes_away(world, own_turns, Hands(world), draw)
    row = await world.bot.db.fetchone("SELECT id, away FROM rounds ORDER BY id DESC LIMIT 1")
    assert row is not None
    return int(row[0]), json.loads(row[1])[str(world.members[0].id)]


def text_of(result: Any) -> str:
    return "\n".join(m.content for m in shown(result))


async def test_analyse_my_play_skips_the_moves_made_while_i_was_away_and_says_how_many(
    world: World,
) -> None:
    ann, ben = world.members[:2]
    round_id, by_computer = await round_with_ann_away(world, own_turns=1)
    assert by_computer, "the computer made some of ann's moves"
    story = await ann.slash(world.channel, "flipflop round", id=round_id)
    assert story.ephemeral
    head = story.response.content.splitlines()[0]
    # her seat was away for some of the round: 💤, as the live table marked it; ben's was not
    assert f"<@{ann.id}> 💤" in head and f"<@{ben.id}> 💤" not in head, head
    result = await ann.click(story.response.message, label="Analyse my play")
    text = text_of(result)
    assert text.startswith(f"🔍 **Your play in round #{round_id}**"), text
    count = len(by_computer)
    said = (
        f"💤 {count} move the computer made for you while you were away isn't reviewed"
        if count == 1
        else f"💤 {count} moves the computer made for you while you were away aren't reviewed"
    )
    assert said in text, text
    assert "The Strong computer checked" in text or "would have chosen" in text  # her own turn is reviewed
    # the story names the moves the computer made for her with 💤, and her own without
    found = await round_story(world.bot.db, world.guild.id, round_id)
    assert found is not None
    lines = story_lines(found, texts("en"))
    hers = [line for line in lines if line.startswith(f"<@{ann.id}>")]
    assert any(line.startswith(f"<@{ann.id}> 💤 discarded") for line in hers), hers  # from her 2nd turn
    assert any(line.startswith(f"<@{ann.id}> drew") for line in hers), hers  # her first turn, her own
    assert not any("💤" in line for line in lines if line.startswith(f"<@{ben.id}>"))


async def test_a_round_the_computer_played_all_for_me_is_said_so_plainly(world: World) -> None:
    ann = world.members[0]
    round_id, by_computer = await round_with_ann_away(world, own_turns=0, draw=False)
    assert by_computer
    story = await ann.slash(world.channel, "flipflop round", id=round_id)
    assert f"<@{ann.id}> 💤" in story.response.content.splitlines()[0]
    result = await ann.click(story.response.message, label="Analyse my play")
    text = text_of(result)
    assert "You were away for all of your play in this round" in text, text
    assert "no decisions of your own to look back at" in text
    assert "agrees" not in text and "would have chosen" not in text  # no empty review


async def test_a_round_with_nobody_away_analyses_as_before(world: World) -> None:
    """As a round stored before the computer's moves were kept (NULL): every move is reviewed."""
    ann = world.members[0]
    table = await open_table(world, world.members[:3])
    game = table.game
    assert game is not None
    hands = Hands(world)
    while game.rounds_played == 1 and game.in_round:
        actor = next(m for m in world.members if str(m.id) == game.to_act)
        await play_simple_turn(world, actor, drop_below=10, hands=hands)
    row = await world.bot.db.fetchone("SELECT id, away FROM rounds ORDER BY id DESC LIMIT 1")
    assert row is not None and row[1] is None
    story = await ann.slash(world.channel, "flipflop round", id=int(row[0]))
    assert "💤" not in story.response.content
    text = text_of(await ann.click(story.response.message, label="Analyse my play"))
    assert text.startswith(f"🔍 **Your play in round #{row[0]}**") and "💤" not in text, text
    assert "only what you could see then was used" in text


async def test_a_practice_round_played_partly_away_is_looked_back_at_without_those_moves(
    world: World,
) -> None:
    ann = world.members[0]
    lobby = await open_practice(world, computers=2, level="basic")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    number = await ann_goes_away(world, 1, Hands(world))
    kept = table.practice_rounds[-1]
    assert kept["number"] == number
    by_computer = kept["away"][str(ann.id)]
    control = await post(world, coach.practice_view(table.id, number, texts("en")))
    result = await ann.click(control, label="Analyse my last round")
    text = text_of(result)
    assert text.startswith(f"🔍 **Your play in practice round {number}**"), text
    assert f"💤 {len(by_computer)} moves the computer made for you while you were away" in text, text
