"""Play feel: no click costs a round, open hands stay current, the words read right."""

from __future__ import annotations

from typing import Any

import simcord

from bot.i18n import texts
from bot.presentation.render import for_players
from bot.presentation.table_render import last_move
from bot.table.model import Table
from cogs.flipflop.open_hands import STOPPED_UPDATING
from cogs.flipflop.placement import PUSHED_UP_AFTER
from engine.cards import Card
from engine.events import LaidOff
from tests.cogs.helpers import (
    Hands,
    buttons,
    channel_text,
    conserved,
    displayed,
    message,
    my_hand,
    open_table,
    picture,
    play_simple_turn,
    runtime,
    table_in,
    table_message,
    walk,
)
from tests.conftest import World


def member(world: World, pid: str | None) -> simcord.MemberActor:
    return next(m for m in world.members if str(m.id) == pid)


def grid(msg: Any) -> list[list[dict[str, Any]]]:
    """The message's controls, row by row."""
    rows = [r if isinstance(r, dict) else r.to_dict() for r in msg.components]
    return [list(r["components"]) for r in rows]


def first_control(msg: Any) -> dict[str, Any]:
    """The first component of the first row."""
    return grid(msg)[0][0]


def place_of(msg: Any, label: str) -> tuple[int, int]:
    return next(
        (r, i) for r, row in enumerate(grid(msg)) for i, c in enumerate(row) if c.get("label") == label
    )


def control_at(msg: Any, place: tuple[int, int]) -> dict[str, Any] | None:
    rows = grid(msg)
    r, i = place
    return rows[r][i] if r < len(rows) and i < len(rows[r]) else None


async def test_a_double_click_on_draw_never_leaves(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    actor = member(world, g.to_act)
    hand = await my_hand(world, actor)
    place = place_of(hand, "Draw from stock")
    drawn = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    # the second click of a double-click lands on whatever now sits where Draw was
    there = control_at(drawn.response, place)
    if there is not None:
        assert not there["custom_id"].split(":")[4].startswith("leave")
        if there["type"] == 2 and not there.get("disabled"):  # a disabled one takes no click at all
            await actor.click(drawn.response.message, custom_id=there["custom_id"])
    assert str(actor.id) in g.seated and str(actor.id) not in (g.round.dead if g.round else ())
    assert "left the game" not in channel_text(world)


async def test_leaving_asks_first_and_keep_playing_takes_its_place(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    leaver = next(p for p in g.round.players if p != g.to_act)
    m = member(world, leaver)
    hand = await my_hand(world, m)
    leave_at = place_of(hand, "Leave game…")
    asked = await m.click(hand.message, custom_id=buttons(hand)["Leave game…"])
    assert "Leave the game?" in asked.response.content and "forfeits this round" in asked.response.content
    # a double click on Leave never lands on Yes, leave: whatever sits there keeps you in the round
    there = control_at(asked.response, leave_at)
    assert there is None or there.get("label") != "Yes, leave"
    where = place_of(asked.response, "Keep playing")
    kept = await m.click(asked.response.message, custom_id=buttons(asked.response)["Keep playing"])
    assert "Leave the game?" not in kept.response.content
    assert (control_at(kept.response, where) or {}).get("label") not in ("Yes, leave", "Leave game…")
    assert leaver in g.seated and leaver not in g.round.dead


async def test_the_leave_question_expires(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    leaver = next(p for p in g.round.players if p != g.to_act)
    m = member(world, leaver)
    hand = await my_hand(world, m)
    asked = await m.click(hand.message, custom_id=buttons(hand)["Leave game…"])
    await world.env.advance_time(31)
    late = await m.click(asked.response.message, custom_id=buttons(asked.response)["Yes, leave"])
    assert "expired; nothing was done" in late.response.content
    assert g.round is not None and leaver not in g.round.dead


async def test_a_hand_opened_out_of_turn_updates_when_the_turn_comes(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    order = list(g.round.players)
    waiting = order[(order.index(g.to_act or "") + 1) % len(order)]
    m = member(world, waiting)
    hand = await my_hand(world, m)
    assert "Not your turn yet" in hand.content and "Draw from stock" not in buttons(hand)
    await play_simple_turn(world, member(world, g.to_act))
    assert g.to_act == waiting
    now = message(world, table.channel_id, hand.id)
    assert "Your turn" in now.content and "Draw from stock" in buttons(now)


async def test_open_hands_follow_a_new_deal_and_say_when_the_game_is_over(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    host = world.members[0]
    hands = {p: await my_hand(world, member(world, p)) for p in g.round.players}
    kept = Hands(world)
    kept.ids = {int(p): h.id for p, h in hands.items()}
    await host.slash(world.channel, "flipflop stop")
    while g.in_round:
        await play_simple_turn(world, member(world, g.to_act), drop_below=60, hands=kept)
    await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert table_in(world) is None
    for hand in hands.values():
        now = message(world, table.channel_id, hand.id)
        assert "game is over" in now.content and not now.components
    closed = (
        table_message(world) if table_in(world) else message(world, table.channel_id, table.message_id or 0)
    )
    assert buttons(closed) == {} and displayed(closed).startswith("### 🃏 Flip Flop — round")  # its record
    said = channel_text(world)
    assert "Next deal" not in said.split("stop the game")[-1]


async def test_a_new_deal_refreshes_an_open_hand(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    watcher = g.round.players[0]
    hand = await my_hand(world, member(world, watcher))
    kept = Hands(world)
    kept.ids = {int(watcher): hand.id}
    while g.in_round:
        await play_simple_turn(world, member(world, g.to_act), drop_below=60, hands=kept)
    await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert g.in_round and g.public_view().round_number == 2
    now = message(world, table.channel_id, hand.id)
    view = g.view(watcher)
    assert now.content.count("`") >= 2 * len(view.hand)  # the new round's cards
    assert "round is over" not in now.content


async def test_leave_after_this_round_shows_and_can_be_taken_back(world: World) -> None:
    table = await open_table(world, world.members[:3])
    ben = world.members[1]
    result = await ben.click(table_message(world), label="Leave after this round")
    assert "Stay after all" in result.response.content
    shown = table_message(world)
    assert "leaving" in next(line for line in picture(shown)[1].splitlines() if line.startswith(ben.name))
    stayed = await ben.click(shown, label="Stay after all")
    assert "you stay" in stayed.response.content
    assert table.leave_after_round == []
    again = await ben.click(table_message(world), label="Leave after this round")
    assert again.ephemeral


async def test_a_hand_says_it_stopped_updating_before_its_token_runs_out(world: World) -> None:
    table = await open_table(world, world.members[:3])
    m = world.members[0]
    hand = await my_hand(world, m)
    notifier: Any = world.bot.get_cog("FlipFlop").notifier  # type: ignore[union-attr]
    key = (table.id, m.id)
    await notifier.expire_hand(key, notifier.open_hands[key])
    now = message(world, table.channel_id, hand.id)
    assert STOPPED_UPDATING in now.content and "Refresh" in buttons(now)
    assert key not in notifier.open_hands


def test_rule_ids_never_reach_players() -> None:
    assert (
        for_players("The buy-in is four stakes (20 chips) (R2.1).") == "The buy-in is four stakes (20 chips)."
    )
    assert for_players("Draw first (R6, R6.2). Nothing was done.") == "Draw first. Nothing was done."


async def test_spreads_are_numbered_from_one(world: World) -> None:
    table = await open_table(world, world.members[:3])
    line = last_move(table, [LaidOff(str(world.members[0].id), Card.parse("5H"), 0)], texts("en"))
    assert line.endswith("off on #1")
    assert runtime(world).get(table.id) is table


async def drawn_from_stock(world: World) -> tuple[Table, simcord.MemberActor, Any, Any]:
    """A table of three where the member to act opened their hand and drew from the stock.

    The table, that member, their hand as opened and the answer to the draw.
    """
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    actor = member(world, table.game.to_act)
    hand = await my_hand(world, actor)
    drawn = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    return table, actor, hand, drawn


async def test_the_card_just_drawn_is_marked_and_cards_look_alike(world: World) -> None:
    _, _, _, drawn = await drawn_from_stock(world)
    assert drawn.response.content.count("*(just drawn)*") == 1
    assert "\ufe0f" not in drawn.response.content.split("\n")[0]  # no emoji suits: one look for all four


async def test_the_card_just_drawn_stays_marked_when_the_hand_is_shown_again(world: World) -> None:
    # Refresh, My hand again or a draw made on the live page: the hand is drawn anew, and the
    # card the turn brought is still the one marked (as the live page marks it, from the engine)
    table, actor, hand, drawn = await drawn_from_stock(world)
    assert table.game is not None
    just = table.game.view(str(actor.id)).just_drawn
    assert just is not None
    await actor.click(drawn.response.message, label="Refresh")
    refreshed = message(world, table.channel_id, hand.id)
    again = await my_hand(world, actor)
    for shown in (refreshed, again):
        assert shown.content.count("*(just drawn)*") == 1, shown.content
        ids = [str(c.get("custom_id", "")).split(":") for c in walk(shown) if c.get("style") == 1]
        assert [p[5] for p in ids if len(p) > 5 and p[4] == "discard"] == [just.code]  # the one blue card


async def test_away_is_said_once_on_the_hand_that_clicked_it(world: World) -> None:
    # a playtest: the answer to Away said "You're away" twice, the click's note and the hand's own line
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    m = next(x for x in world.members[:3] if str(x.id) != g.to_act)  # not on their turn
    hand = await my_hand(world, m)
    await m.click(hand, label="Away")
    shown = message(world, table.channel_id, hand.id)
    assert table.is_away(m.id)
    assert shown.content.count("You're away") == 1, shown.content
    assert "After 3 rounds away your seat is released" in shown.content  # the click's note, whole
    again = await my_hand(world, m)  # shown again later: the hand's own line says it
    assert again.content.count("You're away") == 1, again.content


async def test_the_dealer_sees_the_upcard_marked_in_their_hand(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    view = g.public_view()
    assert view.dealer is not None and view.upcard_held
    hand = await my_hand(world, member(world, view.dealer))
    assert "*(upcard, seen by all)*" in hand.content


async def test_rules_are_short_private_pages_with_buttons(world: World) -> None:
    ann = world.members[0]
    shown = await ann.slash(world.channel, "flipflop rules")
    assert shown.ephemeral
    page = shown.response
    assert page.embeds[0].footer.text == "Page 1 of 9"
    assert "(R" not in (page.embeds[0].description or "")
    turned = await ann.click(page.message, label="Next ▶")
    assert turned.response.embeds[0].footer.text == "Page 2 of 9"
    back = await ann.click(turned.response.message, label="◀ Back")
    assert back.response.embeds[0].footer.text == "Page 1 of 9"


async def test_a_first_hand_ever_carries_one_tip(world: World) -> None:
    await open_table(world, world.members[:3])
    ben = world.members[1]
    first = await my_hand(world, ben)
    assert first.content.startswith("**Your hand**")
    assert first.content.splitlines()[-1].startswith("💡 Tip:") and "/flipflop rules" in first.content
    again = await my_hand(world, ben)
    assert "Tip:" not in again.content


async def test_the_countdown_comes_from_the_saved_deadline(world: World) -> None:
    table = await open_table(world, world.members[:3])
    assert table.turn_deadline is not None
    saved = Table.from_json(table.to_json())
    assert saved.turn_deadline == table.turn_deadline
    shown = displayed(table_message(world))
    assert f"<t:{int(table.turn_deadline)}:R>" in shown


async def test_chat_that_pushes_the_table_up_moves_it_to_the_bottom(world: World) -> None:
    table = await open_table(world, world.members[:3])
    old_id = table.message_id
    chatter = world.members[0]
    for i in range(PUSHED_UP_AFTER - 1):
        await chatter.send(world.channel, f"nice hand {i}")
    await world.env.settle()
    assert table_in(world) is not None and table_in(world).message_id == old_id  # type: ignore[union-attr]
    await chatter.send(world.channel, "one more")
    await world.env.settle()
    moved = table_in(world)
    assert moved is not None and moved.message_id not in (None, old_id)
    newest = world.channel.history()[-1]
    assert newest.id == moved.message_id and "My hand" in buttons(newest)  # the live table, at the bottom
    old = message(world, world.channel.id, old_id)  # type: ignore[arg-type]
    assert "moved to the bottom" in displayed(old) and buttons(old) == {}  # nothing left to click there


async def test_two_sentences_in_one_last_move_read_as_two(world: World) -> None:
    from engine.events import PlayerLeft

    ann, ben = world.members[:2]
    table = await open_table(world, world.members[:3])
    both = [PlayerLeft(str(ann.id), False), PlayerLeft(str(ben.id), False)]
    line = last_move(table, both, texts("en"))
    assert ".;" not in line and line.count("left the game.") == 2, line


async def test_no_next_deal_is_told_for_a_seat_that_leaves_after_the_round(world: World) -> None:
    """The next dealer asked to leave when the round ends: the round's end names no next dealer (it
    named them, and someone else dealt); the deal says who deals."""
    table = await open_table(world, world.members[:4])
    g = table.game
    assert g is not None and g.round is not None
    going = g.next_dealer()
    leaver = member(world, going)
    left = await leaver.click(table_message(world), label="Leave after this round")
    assert left.ephemeral
    hands = Hands(world)
    while g.in_round:
        await play_simple_turn(world, member(world, g.to_act), drop_below=60, hands=hands)
    said = channel_text(world)
    assert "🏁" in said and f"Next deal: **{table.names[int(going)]}**" not in said, said
    await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert g.round is not None and g.round.dealer != going and g.in_round
    await conserved(world)
