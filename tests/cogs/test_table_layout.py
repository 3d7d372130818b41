"""The lobby and the table as Components V2 layouts: what they show, the Fair deal answer, a draw shown,
and a table message from before the layout (an embed) turned into one after a restart."""

from __future__ import annotations

from pathlib import Path

from cogs.flipflop.notifier import DiscordNotifier
from tests.cogs.helpers import (
    Hands,
    accent,
    buttons,
    displayed,
    message,
    my_hand,
    open_table,
    picture,
    play_step,
    table_in,
    table_message,
)
from tests.cogs.test_restart import restart
from tests.conftest import World


def notifier(world: World) -> DiscordNotifier:
    cog = world.bot.get_cog("FlipFlop")
    assert cog is not None
    found = cog.notifier  # type: ignore[attr-defined]
    assert isinstance(found, DiscordNotifier)
    return found


async def test_the_table_is_a_picture_said_in_its_alt_text_over_a_few_short_lines(world: World) -> None:
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    v = table.game.public_view()
    shown = table_message(world)
    url, alt = picture(shown)
    [attachment] = shown.attachments  # sent with the message, in the same call
    assert attachment.filename == "table.png" and 0 < attachment.size <= 80_000
    assert url.endswith("table.png")
    for pid in v.players:  # each seat said in the alt text: name, stack, cards; the dealer and the turn
        name = table.names[int(pid)]
        assert f"{name}: {v.stacks[pid]} chips, {v.card_counts[pid]} cards" in alt
    assert f"{table.names[int(v.dealer or 0)]}: " in alt and "dealer" in alt and "to act" in alt
    assert f"Stock {v.stock_size}" in alt and "game pot" in alt and "flip pot" in alt
    text = displayed(shown)
    assert text.startswith("### 🃏 Flip Flop — round 1\n")  # the title alone, the picture under it
    assert f"▶️ **{table.names[int(v.to_act or 0)]}**'s turn" in text
    for gone in ("Players", "Pots — game", "**Stock**", "**Spreads**", "Dealer **", "💤 Away"):
        assert gone not in text  # the picture says these; the away rule is told in the lobby
    following = table.fair.to_public()["pending"]["commitment"]
    small = [line for line in text.splitlines() if line.startswith("-# 🔒")]
    assert small == [f"-# 🔒 Round 2 commitment: `{following}`"]  # one small line: the next commitment whole
    assert "stake 5 chips" in text
    assert set(buttons(shown)) >= {"My hand", "Leave after this round", "🔒 Fair deal"}
    assert accent(shown) is not None


async def test_fair_deal_answers_privately_with_the_whole_commitment_and_how_to_check(world: World) -> None:
    table = await open_table(world, world.members[:3])
    public = table.fair.to_public()
    shown = table_message(world)
    before = displayed(shown)
    answer = await world.members[3].click(shown, label="🔒 Fair deal")  # anyone may look, seated or not
    assert answer.ephemeral and answer.response is not None
    said = answer.response.content
    assert public["in_play"]["commitment"] in said and public["in_play"]["client_seed"] in said
    assert public["pending"]["commitment"] in said and "/flipflop verify" in said
    assert displayed(table_message(world)) == before  # nothing changed on the table


async def test_the_lobby_offers_fair_deal_once_a_commitment_is_out(world: World) -> None:
    ann = world.members[0]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    table = table_in(world)
    assert table is not None
    pending = table.fair.to_public()["pending"]
    if pending is None:
        assert "🔒 Fair deal" not in buttons(lobby)
        return
    answer = await ann.click(lobby, label="🔒 Fair deal")
    assert answer.ephemeral and pending["commitment"] in answer.response.content


async def test_a_slow_players_draw_shows_on_the_table(world: World) -> None:
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    notifier(world).calls.acted(table.id, 100)  # room in the table's call budget
    v = table.game.public_view()
    actor = next(m for m in world.members if str(m.id) == v.to_act)
    hand = await my_hand(world, actor)
    await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    await world.env.settle()  # the moment the edit settles for passes with no discard
    await notifier(world).pacer.flush()
    _url, alt = picture(table_message(world))
    assert f"Stock {v.stock_size - 1}" in alt and f"{actor.name}: 185 chips, 6 cards" in alt


async def test_a_draw_waits_while_the_table_has_spent_its_calls(world: World) -> None:
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    v = table.game.public_view()
    actor = next(m for m in world.members if str(m.id) == v.to_act)
    hand = await my_hand(world, actor)
    await notifier(world).pacer.flush()
    before = displayed(table_message(world))
    assert not notifier(world).calls.spare(table.id)  # just dealt: the deal's own calls come first
    await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    await notifier(world).pacer.flush()
    assert displayed(table_message(world)) == before  # shown with the discard instead


async def test_a_table_saved_as_an_embed_message_becomes_the_layout_after_a_restart(
    world: World, db_path: Path
) -> None:
    table = await open_table(world, world.members[:3])
    assert table.message_id is not None
    stored = world.env.backend.get_message(table.plays_in, table.message_id)
    hand_id = f"ff:t:{table.id}:hand"
    stored.flags = 0  # as the bot posted tables before: one embed and a row of buttons
    stored.embeds = [{"title": "🃏 Flip Flop — round 1", "description": "Stake **5 chips**", "type": "rich"}]
    stored.components = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "My hand", "custom_id": hand_id}]}
    ]
    old = message(world, table.plays_in, table.message_id)
    assert not old.flags.components_v2 and old.embeds
    clicked = await world.members[0].click(old, custom_id=hand_id)  # its old button still answers
    assert clicked.ephemeral and "Your hand" in clicked.response.content
    await restart(world, db_path)
    resumed = table_in(world)
    assert resumed is not None and resumed.message_id == table.message_id  # edited in place, not reposted
    now = message(world, resumed.plays_in, resumed.message_id)
    assert now.flags.components_v2 and not now.embeds and not now.content
    assert picture(now)[0].endswith("table.png") and "My hand" in buttons(now)
    hands = Hands(world)
    for _ in range(3):
        assert await play_step(world, hands, drop_below=0)
