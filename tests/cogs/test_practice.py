"""Practice tables, hints and "Analyse my play" through simcord."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
import pytest

from bot.i18n import PSEUDO_LANGUAGE, texts
from bot.i18n.languages import LanguageBook
from bot.ledger import HOUSE_ID
from bot.runtime import ComputerPlayers
from cogs.flipflop import coach
from engine.actions import Draw, Drop
from tests.cogs.helpers import (
    Hands,
    Sent,
    buttons,
    card_buttons,
    channel_text,
    conserved,
    displayed,
    highest,
    my_hand,
    open_table,
    picture,
    play_simple_turn,
    runtime,
    section,
    table_in,
    table_message,
)
from tests.cogs.test_languages_game import ops, unmarked, within_limits
from tests.conftest import World


@pytest.fixture(autouse=True)
def quick_coach() -> Iterator[None]:
    """Searches of a few milliseconds: the tests check what is said, not how well it plays."""
    saved = coach.BUDGETS
    coach.BUDGETS = coach.Budgets(hint=0.02, review=0.01, review_total=2.0)
    yield
    coach.BUDGETS = saved


@pytest.fixture(autouse=True)
def searches_in_a_thread(world: World) -> Iterator[None]:
    """The coach's searches in one thread here: under simcord's stopped clock, polling a worker
    process (as a process pool does when it starts another) would wait forever."""
    pool = ThreadPoolExecutor(1)
    runtime(world).computers = ComputerPlayers(pool=pool)
    yield
    pool.shutdown(wait=True)


async def ledger_state(world: World) -> tuple[list[Any], int, int]:
    """Every ledger row, every account balance, and the rounds recorded in history."""
    db = world.bot.db
    rows = await db.fetchall("SELECT * FROM ledger ORDER BY 1")
    balances = await db.fetchall("SELECT * FROM accounts ORDER BY 1, 2")
    rounds = await db.fetchone("SELECT COUNT(*) FROM rounds")
    ratings = await db.fetchone("SELECT COUNT(*) FROM ratings")
    assert rounds is not None and ratings is not None
    return [*rows, *balances], int(rounds[0]), int(ratings[0])


async def open_practice(world: World, **options: Any) -> Any:
    ann = world.members[0]
    result = await ann.slash(world.channel, "flipflop practice", **options)
    assert not result.ephemeral, result.response.content if result.response else result
    return result.response.message


REAL_CHIPS = re.compile(r"\d chips?\b")
"""An amount said as real chips ("15 chips"); at a practice table it reads "15 practice chips"."""


async def test_practice_chips_never_reach_the_ledger_history_or_ratings(world: World) -> None:
    ann = world.members[0]
    await world.admin.slash(world.channel, "flipflop config", stake=5, buy_in=20)  # a short game
    await ann.slash(world.channel, "balance")  # ann's account opens (a ledger row) before we look
    before = await ledger_state(world)
    lobby = await open_practice(world)
    shown = displayed(lobby)
    assert shown.startswith("### 🎓 PRACTICE") and "practice chip" in shown
    assert "🤖 Basic 1" in section(lobby, "Seated (3/5)") and "🤖 Basic 2" in section(lobby, "Seated (3/5)")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.practice and table.status == "playing"
    public = table_message(world)
    assert displayed(public).startswith("### 🎓 PRACTICE") and "practice chips, " in picture(public)[1]
    hands = Hands(world)
    rounds_seen = 0
    real_chips: set[str] = set()  # the table message's lines that say "chips", not "practice chips"
    for _ in range(3000):
        t = table_in(world)
        if t is None:
            break
        shown_now = displayed(table_message(world)).splitlines()
        real_chips |= {line for line in shown_now if REAL_CHIPS.search(line)}
        g = t.game
        assert g is not None
        if g.rounds_played != rounds_seen:  # after each round: not one ledger row, balance, round or rating
            rounds_seen = g.rounds_played
            await conserved(world)
            assert await ledger_state(world) == before
        if g.in_round and g.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=12, hands=hands)
        else:
            await world.env.advance_time(10)
    else:
        raise AssertionError("the practice game did not end")
    assert rounds_seen >= 1
    assert not real_chips, real_chips  # its log too: "wins the flop pot (15 practice chips)"
    await conserved(world)
    assert await ledger_state(world) == before
    assert "Game over!" in channel_text(world)
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 1000
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == 1000  # its float, untouched
    stats = await ann.slash(world.channel, "flipflop stats")
    assert "hasn't finished a round" in stats.response.content
    history = await ann.slash(world.channel, "flipflop history")
    assert "No finished rounds" in history.response.content


async def test_practice_bad_inputs_are_refused_privately(world: World) -> None:
    ann, ben = world.members[:2]
    refused = await ann.slash(world.channel, "flipflop practice", level="grandmaster")
    assert refused.ephemeral and "no computer level" in refused.response.content
    assert "`strong`" in refused.response.content and table_in(world) is None
    await open_practice(world)
    again = await ben.slash(world.channel, "flipflop practice")
    assert again.ephemeral and "already a table in this channel" in again.response.content
    real = await ben.slash(world.channel, "flipflop start")
    assert real.ephemeral and "already a table" in real.response.content
    early = await ann.slash(world.channel, "flipflop hint")
    assert early.ephemeral and "hasn't started" in early.response.content


async def test_a_level_typed_in_the_members_language_is_that_level(world: World) -> None:
    """A Tagalog member types "Payak" (what the table calls Basic in Tagalog) or its first letters: the
    choices offer basic, and the table seats Basic computers (it was refused as no such level)."""
    ann = world.members[0]
    await ann.slash(world.channel, "flipflop language", language="fil")
    offered = await ann.autocomplete(world.channel, "flipflop practice", "level", "pay")
    assert [choice["value"] for choice in offered] == ["basic"]
    everything = await ann.autocomplete(world.channel, "flipflop practice", "level", "")
    assert [choice["value"] for choice in everything] == ["basic", "strong", "random"]
    await open_practice(world, computers=2, level=" PAYAK ")
    table = table_in(world)
    assert table is not None and [c.level for c in table.computers.values()] == ["basic", "basic"]


async def test_friends_join_a_practice_table_free_of_charge(world: World) -> None:
    ann, ben = world.members[:2]
    await ben.slash(world.channel, "balance")
    lobby = await open_practice(world, computers=1, level="random")
    joined = await ben.click(lobby, label="Join")
    assert joined.acknowledged
    assert await world.bot.ledger.balance(world.guild.id, ben.id) == 1000
    await ann.click(world.channel.history()[-1], label="Start")
    table = table_in(world)
    assert table is not None and table.status == "playing"
    assert [c.level for c in table.computers.values()] == ["random"]
    await conserved(world)


async def hints_while_waiting(world: World, member: Any, table: Any) -> list[Any]:
    """Click **Hint** in the member's hand until it is their turn (the clock moving on); the answers.

    Each says whose turn it is, as it comes (a later hint deletes it).
    """
    answers = []
    for _ in range(40):
        if table.game.to_act == str(member.id):
            break
        hand = await my_hand(world, member)
        assert "Hint" in buttons(hand)
        waiting = await member.click(hand.message, label="Hint")
        assert waiting.ephemeral and "Not your turn" in waiting.response.content
        answers.append(waiting)
        await world.env.advance_time(5)
    assert table.game.to_act == str(member.id)
    return answers


def shown(result: Any) -> list[Any]:
    """The private messages an interaction's answer left (none once deleted)."""
    return [m for m in (result.response, *result.followups) if m is not None]


async def test_a_hint_names_the_move_and_a_reason_only_to_the_player_to_act(world: World) -> None:
    """The move and one reason, privately; one hint message at a time (a new one deletes the last,
    which was for an earlier turn, as a new hand does)."""
    ann = world.members[0]
    lobby = await open_practice(world, computers=2, level="basic")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    hints = await hints_while_waiting(world, ann, table)
    seq = table.seq
    hand = await my_hand(world, ann)
    hints.append(await ann.click(hand.message, label="Hint"))
    text = shown(hints[-1])[0].content
    assert hints[-1].ephemeral and text.startswith("💡 **Hint:**") and " — " in text
    assert table.seq == seq  # a hint changes nothing
    hints.append(await ann.slash(world.channel, "flipflop hint"))  # asked again: still one hint
    last = shown(hints[-1])
    assert len(last) == 1 and last[0].ephemeral and last[0].content.startswith("💡 **Hint:**")
    assert all(shown(older) == [] for older in hints[:-1])
    refused = await world.members[1].slash(world.channel, "flipflop hint")  # another member's: theirs
    assert shown(refused) and shown(hints[-1])


async def test_a_new_round_takes_the_last_rounds_hint_away(world: World) -> None:
    """Seen in a playtest: a hint stayed on screen into the next round. A new deal deletes the
    members' hints at the table (they were for the last round), as a newer hint does."""
    ann = world.members[0]
    lobby = await open_practice(world, computers=2, level="basic")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    for _ in range(20):  # a round in play at ann's turn (a 49 or 50 at the deal ends one at once)
        if table.game.in_round and table.game.to_act == str(ann.id):
            break
        await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert table.game.in_round and table.game.to_act == str(ann.id)
    hint = await ann.click((await my_hand(world, ann)).message, label="Hint")
    assert shown(hint) and "Hint:" in shown(hint)[-1].content
    rounds, hands = table.game.rounds_played, Hands(world)
    while table.game.in_round:
        if table.game.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=60, hands=hands)
        else:
            await world.env.advance_time(3)
    assert shown(hint), "the hint stays while its round is on"
    await world.env.advance_time(world.bot.pause_between_rounds + 1)
    await world.env.settle()
    assert table.game.rounds_played > rounds or table.game.in_round  # the next round is dealt
    assert shown(hint) == []


async def hint_while_the_table_moves(world: World, move: Any) -> tuple[Any, Any]:
    """ann asks for a hint at her turn and, while the coach searches, ``move(table)`` happens."""
    ann = world.members[0]
    lobby = await open_practice(world, computers=2, level="basic")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    await hints_while_waiting(world, ann, table)
    helper = world.bot.get_cog("FlipFlop").coach  # type: ignore[union-attr]
    search = helper._search

    async def searched_as_the_table_moved(*args: Any) -> Any:
        found = await search(*args)
        await move(table)
        return found

    helper._search = searched_as_the_table_moved
    try:
        return table, await ann.click((await my_hand(world, ann)).message, label="Hint")
    finally:
        helper._search = search


async def test_a_hint_answered_after_the_member_moved_says_the_table_moved_on(world: World) -> None:
    """The member moved while the coach searched: the hint was for a turn that is gone, so it isn't
    shown as one; they are told to ask again."""
    ann = world.members[0]

    async def drew(table: Any) -> None:
        await runtime(world).act(table.id, ann.id, table.seq, Draw(str(ann.id), "stock"))

    _, hint = await hint_while_the_table_moves(world, drew)
    text = shown(hint)[-1].content
    assert hint.ephemeral and "moved on" in text and "Hint:" not in text


async def test_a_hint_answered_after_the_next_deal_is_not_left_behind(world: World) -> None:
    """Noticed in review: a search still running when the next round was dealt left its hint up a
    whole round (the deal had cleared the hints before it answered). It goes with the deal."""
    ann = world.members[0]

    async def dropped_and_dealt(table: Any) -> None:
        tables = runtime(world)
        await tables.act(table.id, ann.id, table.seq, Drop(str(ann.id)))
        async with tables.lock(table.id):  # the deal, as its deadline would (a clock can't move here)
            dealt = tables._done(await tables._deal_next(table))
        await tables._publish(dealt)
        assert table.game.view(str(ann.id)).round_number == 2

    table, hint = await hint_while_the_table_moves(world, dropped_and_dealt)
    await world.env.settle()
    assert shown(hint) == []


async def test_a_hint_answered_after_the_table_closed_is_not_left_behind(world: World) -> None:
    """A manager closed the table while the coach searched: there is no move to ask again for, so
    the answer goes (it said to click **Hint** again for a move at a table that had closed)."""

    async def closed(table: Any) -> None:
        await runtime(world).close_by_manager(table.id, world.admin.id)

    _, hint = await hint_while_the_table_moves(world, closed)
    await world.env.settle()
    assert table_in(world) is None and shown(hint) == []


async def test_hints_are_refused_at_a_real_chip_table(world: World) -> None:
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    player = next(m for m in world.members if str(m.id) == table.game.to_act)
    hand = await my_hand(world, player)
    assert "Hint" not in buttons(hand)
    seq = table.seq
    refused = await player.slash(world.channel, "flipflop hint")
    assert refused.ephemeral and "practice tables only" in refused.response.content
    assert table.seq == seq


async def finish_a_round(world: World, players: list[Any]) -> int:
    """Play a real table's first round to its end; its stored round id."""
    table = await open_table(world, players)
    assert table.game is not None
    hands = Hands(world)
    while table.game.rounds_played == 1 and table.game.in_round:
        actor = next(m for m in world.members if str(m.id) == table.game.to_act)
        await play_simple_turn(world, actor, drop_below=10, hands=hands)
    row = await world.bot.db.fetchone("SELECT MAX(id) FROM rounds")
    assert row is not None and row[0] is not None
    return int(row[0])


async def post(world: World, view: Any) -> Any:
    """A control posted where anyone may click it (as a forged or passed-on control would be)."""
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("control", view=view)
    return next(m for m in world.channel.history() if m.id == sent.id)


async def test_analyse_my_play_reviews_only_my_own_finished_round(world: World) -> None:
    ann, ben, cat, dan = world.members[:4]
    round_id = await finish_a_round(world, [ann, ben, cat])
    before = await ledger_state(world)
    story = await ann.slash(world.channel, "flipflop round", id=round_id)
    assert story.ephemeral and "Analyse my play" in buttons(story.response)
    result = await ann.click(story.response.message, label="Analyse my play")
    assert result.ephemeral
    pages = [m.content for m in shown(result)]  # a long look back goes on
    assert pages[0].startswith(f"🔍 **Your play in round #{round_id}**")
    assert all(len(p) <= 2000 for p in pages)
    assert "only what you could see then was used" in pages[-1]
    assert await ledger_state(world) == before  # a look back changes nothing
    coach.BUDGETS = coach.Budgets(hint=0.02, review=0.01, review_total=0.0)
    again = await ann.click(story.response.message, label="Analyse my play")
    text = "\n".join(m.content for m in shown(again))
    assert "stopped early to keep it quick. Decisions checked: 0 of " in text
    assert "agrees" not in text  # none checked: no clean bill for them
    outsider = await dan.slash(world.channel, "flipflop round", id=round_id)
    assert "Analyse my play" not in buttons(outsider.response)  # not a player: nothing to analyse
    forged = await post(world, coach.analyse_view(round_id, texts("en")))
    refused = await dan.click(forged, label="Analyse my play")
    assert refused.ephemeral and "You didn't play in this round" in refused.response.content


async def test_a_round_still_in_play_is_never_analysed(world: World) -> None:
    ann, ben, cat = world.members[:3]
    round_id = await finish_a_round(world, [ann, ben, cat])
    table = table_in(world)
    assert table is not None and table.game is not None
    await world.env.advance_time(world.bot.pause_between_rounds + 1)  # round 2 is dealt and in play
    assert table.game.in_round and table.game.rounds_played == 2
    forged = await post(world, coach.analyse_view(round_id + 1, texts("en")))  # the id round 2 would get
    refused = await ann.click(forged, label="Analyse my play")
    assert refused.ephemeral and "no finished round" in refused.response.content
    assert "still in play can't be looked back at" in refused.response.content


async def test_a_practice_round_is_analysed_from_the_hand(world: World) -> None:
    ann = world.members[0]
    lobby = await open_practice(world, computers=2, level="random")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    in_play = await post(world, coach.practice_view(table.id, 1, texts("en")))
    refused = await ann.click(in_play, label="Analyse my last round")  # round 1 is in play
    assert refused.ephemeral and "hasn't finished yet" in refused.response.content
    hands = Hands(world)
    while table.game.rounds_played == 1 and table.game.in_round:
        if table.game.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=10, hands=hands)
        else:
            await world.env.advance_time(3)
    assert table.practice_rounds and table.practice_rounds[-1]["number"] == 1
    if table.status != "playing":
        return  # the game ended with its first round: no hand left to click in
    # the same button passed on to another channel is refused there, as any table's control is
    elsewhere = world.guild.create_text_channel("elsewhere")
    channel = world.bot.get_channel(elsewhere.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("control", view=coach.practice_view(table.id, 1, texts("en")))
    passed_on = next(m for m in elsewhere.history() if m.id == sent.id)
    refused = await ann.click(passed_on, label="Analyse my last round")
    assert refused.ephemeral and "belongs to a table in another channel" in refused.response.content
    hand = await my_hand(world, ann)
    result = await ann.click(hand.message, label="Analyse my last round")
    text = result.followups[-1].content if result.followups else result.response.content
    assert text.startswith("🔍 **Your play in practice round 1**"), text


async def test_a_cancelled_practice_lobby_gives_back_practice_chips_only(world: World) -> None:
    ann = world.members[0]
    await ann.slash(world.channel, "balance")
    before = await ledger_state(world)
    lobby = await open_practice(world)
    cancelled = await ann.click(lobby, label="Cancel")
    shown = displayed(cancelled.response if cancelled.response else lobby)
    assert shown.startswith("### 🎓 PRACTICE") and "200 practice chips back" in shown
    assert table_in(world) is None and await ledger_state(world) == before


async def test_practice_hints_and_look_back_come_from_the_catalogs(
    world: World, sent: Sent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the pseudo-locale every word of a practice table, a hint and a look back is marked."""

    async def pseudo(self: LanguageBook, *args: Any) -> str:
        return PSEUDO_LANGUAGE

    monkeypatch.setattr(LanguageBook, "server", pseudo)
    monkeypatch.setattr(LanguageBook, "member", pseudo)
    ann = world.members[0]
    lobby = await open_practice(world, computers=2, level="basic")
    assert (await ann.click(lobby, custom_id=ops(lobby)["start"])).acknowledged
    table = table_in(world)
    assert table is not None and table.game is not None
    hinted = looked_back = 0
    for _ in range(400):
        if table.status != "playing" or (hinted >= 2 and looked_back):
            break
        if not table.game.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        if table.game.to_act != str(ann.id):
            await world.env.advance_time(3)
            continue
        sent.edits_private = False
        shown = await ann.click(table_message(world), custom_id=ops(table_message(world))["hand"])
        hand = shown.response
        assert hand is not None
        sent.edits_private = True
        controls = ops(hand)
        analyse = [
            c["custom_id"]
            for row in hand.components
            for c in row["components"]
            if c.get("custom_id", "").startswith("ff:y:p:")
        ]
        if analyse and not looked_back:
            await ann.click(hand, custom_id=analyse[0])
            looked_back += 1
        await ann.click(hand, custom_id=controls["hint"])
        hinted += 1
        drawn = (await ann.click(hand, custom_id=controls["stock"])).response
        assert drawn is not None
        await ann.click(drawn, custom_id=ops(drawn)["hint"])
        cards = card_buttons(drawn)
        if cards:
            await ann.click(drawn.message, custom_id=cards[highest(list(cards))])
        sent.edits_private = False
    assert hinted >= 2 and looked_back, (hinted, looked_back)
    private = " ".join(text for aud, _kind, text in sent.texts if aud == "private")
    assert "⟦💡 **Hint:**" in private
    leaks = {(kind, text) for _aud, kind, text in sent.texts if unmarked(text)}
    assert not leaks, sorted(leaks)[:20]
    within_limits(sent)


async def test_the_coach_answers_outsiders_busy_members_and_failed_searches_privately(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben = world.members[:2]
    lobby = await open_practice(world, computers=2, level="basic")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    seq = table.seq
    outsider = await ben.slash(world.channel, "flipflop hint")  # not seated, mid-round
    assert outsider.ephemeral and "not playing at this table" in outsider.response.content
    while table.game.to_act != str(ann.id):
        waiting = await ann.slash(world.channel, "flipflop hint")  # names the computer in ann's words
        assert waiting.ephemeral and "Not your turn" in waiting.response.content
        assert "🤖" in waiting.response.content
        await world.env.advance_time(3)
    seq = table.seq
    cog: Any = next(c for c in world.bot.cogs.values() if hasattr(c, "coach"))
    cog.coach._asking.add(ann.id)  # a search of hers is still running
    busy = await ann.slash(world.channel, "flipflop hint")
    assert busy.ephemeral and "still working on your last question" in busy.response.content
    cog.coach._asking.discard(ann.id)

    async def broken(*args: Any) -> Any:
        raise KeyError("a stored round it can't read")

    monkeypatch.setattr(runtime(world).computers, "run", broken)
    failed = await ann.slash(world.channel, "flipflop hint")
    text = (failed.followups[-1] if failed.followups else failed.response).content
    assert failed.ephemeral and "coach is busy" in text
    assert ann.id not in cog.coach._asking and table.seq == seq  # nothing changed, nothing stuck


async def test_a_member_who_did_not_play_a_practice_round_is_told_so(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await open_practice(world, computers=2, level="random")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    hands = Hands(world)
    while table.game.rounds_played == 1 and table.game.in_round:
        if table.game.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=10, hands=hands)
        else:
            await world.env.advance_time(3)
    finished = await post(world, coach.practice_view(table.id, 1, texts("en")))
    refused = await ben.click(finished, label="Analyse my last round")
    assert refused.ephemeral and "didn't play in this round" in refused.response.content


class FakeHint:
    """An answered hint's interaction: its id (a snowflake: later clicks are larger) and its deletion."""

    def __init__(self, snowflake: int) -> None:
        self.id = snowflake
        self.user = type("User", (), {"id": 11})()
        self.created_at = discord.utils.utcnow()
        self.deleted = False

    async def delete_original_response(self) -> None:
        self.deleted = True


async def test_a_hint_answered_after_a_later_one_is_the_one_deleted(world: World) -> None:
    """A search is slower than "not your turn": the later click's answer stays, whichever came first."""
    helper = coach.Coach(world.bot, runtime(world))
    later, earlier, next_one = FakeHint(200), FakeHint(100), FakeHint(300)
    await helper._replace_hint("t1", later)  # type: ignore[arg-type]
    await helper._replace_hint("t1", earlier)  # type: ignore[arg-type]  # answered last
    assert earlier.deleted and not later.deleted
    await helper._replace_hint("t1", next_one)  # type: ignore[arg-type]
    assert later.deleted and not next_one.deleted


async def ended_practice(world: World) -> Any:
    """A practice game of ann, ben and two computers (basic and random) stopped after its first
    round; its final standings."""
    ann, ben = world.members[:2]
    await open_practice(world, computers=1, level="basic")
    table = table_in(world)
    assert table is not None
    tables = runtime(world)
    await tables.add_computer(table.id, ann.id, may_manage=False, level="random")
    await ben.click(world.channel.history()[-1], label="Join")
    await ann.click(world.channel.history()[-1], label="Start")
    assert table.game is not None and table.game.to_act is not None
    await tables.act(table.id, int(table.game.to_act), table.seq, Drop(table.game.to_act))
    await tables.stop(table.id, ann.id, may_manage=False)
    assert table_in(world) is None
    return next(m for m in world.channel.history() if "Final standings" in (m.content or ""))


async def test_play_again_after_a_practice_game_opens_the_same_practice_table(world: World) -> None:
    """Seen in a playtest: a practice game ended with no **Play again**, where a chip game has one.
    It opens a practice lobby with the same computers at their levels, and names the friends."""
    ann, ben = world.members[:2]
    before = await ledger_state(world)
    final = await ended_practice(world)
    assert "Play again" in buttons(final)
    again = await ben.click(final, label="Play again")
    assert again.acknowledged and not again.ephemeral
    lobby = table_in(world)
    assert lobby is not None and lobby.practice and lobby.status == "lobby" and lobby.host_id == ben.id
    assert [c.level for _, c in sorted(lobby.computers.items(), reverse=True)] == ["basic", "random"]
    assert lobby.invited == [ann.id] and lobby.seats[0] == ben.id and len(lobby.seats) == 3
    assert displayed(table_message(world)).startswith("### 🎓 PRACTICE")
    assert await ledger_state(world) == before  # practice chips: nothing in the ledger
    await conserved(world)

