"""A whole game of Flip Flop in a simulated channel, and the ways players go wrong (R-ids cited)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.table.model import TableError
from engine import Drop
from tests.cogs.helpers import (
    Hands,
    buttons,
    card_buttons,
    channel_text,
    conserved,
    displayed,
    highest,
    message,
    my_hand,
    open_table,
    picture,
    play_simple_turn,
    play_step,
    runtime,
    section,
    selects,
    table_in,
    table_message,
)
from tests.conftest import World


def member_by_pid(world: World, pid: str) -> simcord.MemberActor:
    return next(m for m in world.members if str(m.id) == pid)


async def test_a_whole_game_from_start_to_final_standings(world: World) -> None:
    players = world.members[:3]
    opened = await open_table(world, players, stake=5, buy_in=20)
    await conserved(world)
    hands = Hands(world)
    rounds_seen = set()
    for _ in range(2000):
        t = table_in(world)
        if t is None:
            break
        g = t.game
        assert g is not None
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        rounds_seen.add(g.rounds_played)
        actor = member_by_pid(world, g.to_act)  # type: ignore[arg-type]
        hand = await hands.current(actor)
        # the hand shown is exactly the engine's hand, and it is the player's turn in it
        assert g.round is not None
        assert "Your turn" in hand.content
        for c in g.round.hands[str(actor.id)]:
            assert c.label.rstrip("♥♦♠♣").replace("10", "10") in hand.content
        await play_simple_turn(world, actor, drop_below=20, hands=hands)
        await conserved(world)
    else:
        raise AssertionError("the game did not end")
    assert table_in(world) is None
    assert len(rounds_seen) >= 2
    public = channel_text(world)
    assert "Round 1" in public and "deals. Upcard" in public
    assert "shows" in public  # flip and flop reveals (R5.3)
    assert "wins the **game pot**" in public or "split the **game pot**" in public
    assert "Game over!" in public and "Final standings" in public
    # hands are ephemeral: each member sees only the hand messages they asked for
    hand_ids = set(hands.ids.values())
    assert len(hand_ids) == 3
    for p in players:
        seen = {m.id for m in world.channel.history(viewer=p)} & hand_ids
        assert seen == {hands.ids[p.id]}
    assert not {m.id for m in world.channel.history(viewer=world.admin)} & hand_ids
    # every chip went home: balances sum to the starting balances (R2.2, R8.3)
    total = sum([await world.bot.ledger.balance(world.guild.id, p.id) for p in players])
    assert total == 3000
    await conserved(world)
    final = message(world, world.channel.id, opened.message_id)  # type: ignore[arg-type]
    # the game's last table message is its last round's record, with nothing left to click
    assert displayed(final).startswith("### 🃏 Flip Flop — round") and buttons(final) == {}


async def test_second_start_in_the_channel_points_to_the_table(world: World) -> None:
    lobby = await world.members[0].slash(world.channel, "flipflop start")
    early = await world.members[3].slash(world.channel, "flipflop start")  # a lobby: join it
    said = early.response.content
    assert early.ephemeral and "already a table in this channel" in said and "Join it" in said
    assert f"/{world.channel.id}/{lobby.response.message.id}" in said
    await runtime(world).cancel(table_in(world).id, world.members[0].id, may_manage=False)  # type: ignore[union-attr]
    await open_table(world, world.members[:3])
    again = await world.members[3].slash(world.channel, "flipflop start")  # a game in play: watch it
    said = again.response.content
    assert again.ephemeral and "already a game being played from this channel" in said and "Join" not in said


async def test_not_enough_chips_to_join(world: World) -> None:
    ann, ben = world.members[:2]
    await world.admin.slash(world.channel, "chips take", member=ben, amount=950, reason="test")
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    refused = await ben.click(lobby, label="Join")
    assert refused.ephemeral
    assert "You have 50 chips, but the buy-in is 200 chips" in refused.response.content
    assert "/daily" in refused.response.content
    assert table_in(world).seats == [ann.id]  # type: ignore[union-attr]
    await conserved(world)


async def test_join_leave_and_cancel_refund_at_once(world: World) -> None:
    ann, ben, cat = world.members[:3]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    assert await world.bot.ledger.balance(world.guild.id, ben.id) == 800
    again = await ben.click(lobby, label="Join")
    assert again.ephemeral and "already seated" in again.response.content
    await ben.click(lobby, label="Leave")
    assert await world.bot.ledger.balance(world.guild.id, ben.id) == 1000
    await cat.click(lobby, label="Join")
    refused = await cat.click(lobby, label="Cancel")
    assert refused.ephemeral and "Only the host" in refused.response.content
    too_few = await ann.click(lobby, label="Start")
    assert too_few.ephemeral and "needs 3 to 5 players" in too_few.response.content
    await ann.click(lobby, label="Cancel")
    assert table_in(world) is None
    for m in (ann, cat):
        assert await world.bot.ledger.balance(world.guild.id, m.id) == 1000
    await conserved(world)


async def test_idle_lobby_closes_after_ten_minutes_and_refunds(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    await world.env.advance_time(9 * 60)
    assert table_in(world) is not None
    await world.env.advance_time(61)
    assert table_in(world) is None
    assert "closed after 10 minutes" in world.channel.last_message.content
    for m in (ann, ben):
        assert await world.bot.ledger.balance(world.guild.id, m.id) == 1000
    await conserved(world)


async def test_non_player_clicks_are_refused(world: World) -> None:
    await open_table(world, world.members[:3])
    dan = world.members[3]
    hand = await dan.click(table_message(world), label="My hand")
    assert hand.ephemeral and "not playing at this table" in hand.response.content
    leave = await dan.click(table_message(world), label="Leave after this round")
    assert leave.ephemeral and "not playing" in leave.response.content



async def test_lobby_controls_a_client_still_shows_after_the_start_are_refused(world: World) -> None:
    """A client that has not redrawn the lobby yet: every lobby control, and the table message's
    **Stay after all** for someone not leaving, is answered privately and changes nothing."""
    from cogs.flipflop.controls import LobbyButton, LobbySelect, TableButton
    from tests.cogs.test_other_place import posted_in  # they import this module: imported here
    from tests.cogs.test_privacy_admin import dump

    ann, ben, cat, dan = world.members
    table = await open_table(world, [ann, ben, cat])
    before, seq = await dump(world), table.seq
    said = {
        ("join", dan): "This game has already started; wait for the next one.",
        ("leave", ben): "The game has started: use Leave in your hand instead.",
        ("start", ann): "This game has already started.",
        ("cancel", ann): "The game has started: the host can use </flipflop stop:",
        ("cancel", dan): "Only the host or a member with Manage Server can cancel the table.",
        ("removecpu", ann): "Computer players can only be removed before the game starts.",
    }
    for (op, who), words in said.items():
        stale = await posted_in(world, world.channel, LobbyButton(table.id, op, op.title()))
        refused = await who.click(stale, label=op.title())
        assert refused.ephemeral and refused.response.content.startswith(words), (op, refused)
    menu = LobbySelect(table.id, "Add", [discord.SelectOption(label="basic", value="basic")])
    stale = await posted_in(world, world.channel, menu)
    refused = await ann.select(stale, ["basic"], custom_id=f"ff:c:{table.id}:addcpu")
    assert refused.ephemeral
    assert refused.response.content == "Computer players can only join before the game starts."
    stale = await posted_in(world, world.channel, TableButton(table.id, "stay", "Stay after all"))
    stay = await ben.click(stale, label="Stay after all")  # shown only while someone leaves: a stale one
    assert stay.ephemeral and stay.response.content == "You weren't leaving; you stay at the table."
    assert await dump(world) == before and table.seq == seq and table.status == "playing"
    assert [m.id for m in (ann, ben, cat)] == [int(p) for p in table.game.order]  # type: ignore[union-attr]
    await conserved(world)

async def test_double_click_acts_once(world: World) -> None:
    """The second click of a double click on Draw lands on a control that plays nothing."""
    table = await open_table(world, world.members[:3])
    actor = member_by_pid(world, table.game.to_act)  # type: ignore[union-attr, arg-type]
    hand = await my_hand(world, actor)
    rows = [r if isinstance(r, dict) else r.to_dict() for r in hand.message.components]
    place = next(
        (r, i)
        for r, row in enumerate(rows)
        for i, c in enumerate(row["components"])
        if c.get("label") == "Draw from stock"
    )
    first = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    assert card_buttons(first.response)  # the cards are now clickable to discard
    seq = table.seq
    after = [r if isinstance(r, dict) else r.to_dict() for r in first.response.message.components]
    there = after[place[0]]["components"][place[1]]
    assert there["custom_id"].split(":")[4] in ("pick", "refresh")
    if not there.get("disabled"):  # Select cards… with nothing to lay down is disabled: no click at all
        second = await actor.click(first.response.message, custom_id=there["custom_id"])
        assert second.response is not None
    assert len(table.game.round.hands[str(actor.id)]) == 6  # type: ignore[union-attr]
    assert table.seq == seq


async def test_an_older_hand_is_deleted_when_a_newer_one_shows(world: World) -> None:
    table = await open_table(world, world.members[:3])
    actor = member_by_pid(world, table.game.to_act)  # type: ignore[union-attr, arg-type]
    older = await my_hand(world, actor)
    assert "Your turn" in older.content and "Draw from stock" in buttons(older)
    older_id = older.id
    newer = await my_hand(world, actor)
    assert "Your turn" in newer.content
    kept = world.env.backend.messages.get(world.channel.id, {})
    assert older_id not in kept and newer.id in kept  # one hand message each, none left behind
    # the newer one plays on
    drawn = await actor.click(newer.message, custom_id=buttons(newer)["Draw from stock"])
    assert drawn.acknowledged and "Draw from stock" not in buttons(drawn.response)


async def test_waiting_players_see_their_hand_but_no_moves(world: World) -> None:
    table = await open_table(world, world.members[:3])
    waiting = next(m for m in world.members[:3] if str(m.id) != table.game.to_act)  # type: ignore[union-attr]
    hand = await my_hand(world, waiting)
    assert "Not your turn yet" in hand.content
    controls = [
        c for r in hand.message.components for c in (r if isinstance(r, dict) else r.to_dict())["components"]
    ]
    assert {c["label"] for c in controls if not c.get("disabled")} == {"Refresh", "Leave game…", "Away"}
    shown = [c for c in controls if c.get("disabled")]  # the hand, as cards not clickable now
    assert len(shown) == 5 and all(":discard:" in c["custom_id"] for c in shown)
    assert selects(hand) == {}


async def test_turn_timer_plays_for_the_absent_player(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    absent = g.to_act
    before = len(g.round.stock)
    await world.env.advance_time(59)
    assert g.to_act == absent
    await world.env.advance_time(2)
    assert g.to_act != absent
    assert len(g.round.stock) == before - 1 and len(g.round.discard) == 1
    assert len(g.round.hands[absent]) == 5  # type: ignore[index]
    assert "ran out of time" in channel_text(world)
    assert table.timeouts[int(absent)] == 1  # type: ignore[arg-type]
    await conserved(world)


async def test_a_timeout_puts_the_player_away_until_they_click_im_back(world: World) -> None:
    """Away mode instead of removal: the computer plays the seat with the player's chips."""
    table = await open_table(world, world.members[:3], stake=5, buy_in=200)
    g = table.game
    assert g is not None and g.round is not None
    victim = member_by_pid(world, g.to_act)  # type: ignore[arg-type]
    other = next(m for m in world.members[:3] if m is not victim)
    await world.env.advance_time(61)
    assert table.is_away(victim.id) and table.is_seated(victim.id)
    assert "ran out of time and is away" in channel_text(world)
    assert "after 3 rounds away your seat is released" in channel_text(world)  # the table says the rule
    shown = table_message(world)
    # the move the computer made for the seat names it with 💤: not one its member made
    assert f"{victim.name} 💤" in displayed(shown), displayed(shown)
    _url, alt = picture(shown)  # the picture marks the seat; its alt text says so
    assert f"{victim.name}: " in alt and "away 1/3" in alt  # the round they went away in is their first
    assert "I'm back" in buttons(shown)
    seq = table.seq
    refused = await other.click(shown, label="I'm back")  # someone not away
    assert refused.ephemeral and "not away" in refused.response.content
    assert table.seq == seq and table.is_away(victim.id)
    back = await victim.click(table_message(world), label="I'm back")
    assert back.ephemeral and "Welcome back" in back.response.content
    assert not table.is_away(victim.id)
    assert "is back and plays their own seat again" in channel_text(world)
    hand = await my_hand(world, victim)
    stepped = await victim.click(hand, label="Away")
    assert stepped.acknowledged and table.is_away(victim.id)
    assert "stepped away" in channel_text(world)
    await conserved(world)


async def test_acting_again_resets_the_timeout_count(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    victim = g.to_act
    await world.env.advance_time(61)
    assert table.timeouts == {int(victim): 1}  # type: ignore[arg-type]
    hands = Hands(world)
    while g.to_act != victim and g.in_round:
        await play_simple_turn(world, member_by_pid(world, g.to_act), hands=hands)  # type: ignore[arg-type]
    if g.in_round:
        await play_simple_turn(world, member_by_pid(world, victim), hands=hands)  # type: ignore[arg-type]
        assert int(victim) not in table.timeouts  # type: ignore[arg-type]


async def test_leaving_mid_round_forfeits_and_returns_the_stack_at_round_end(world: World) -> None:
    """R8.4."""
    table = await open_table(world, world.members[:4])
    g = table.game
    assert g is not None and g.round is not None
    leaver = next(p for p in g.round.players if p != g.to_act)
    member = member_by_pid(world, leaver)
    hand = await my_hand(world, member)
    asked = await member.click(hand.message, custom_id=buttons(hand)["Leave game…"])
    assert "Leave the game?" in asked.response.content
    assert leaver not in g.round.dead  # asking changes nothing
    assert list(buttons(asked.response))[-2:] == ["Keep playing", "Yes, leave"]
    result = await member.click(asked.response.message, custom_id=buttons(asked.response)["Yes, leave"])
    assert "You left this round" in result.response.content
    assert leaver in g.round.dead
    assert "forfeits this round" in channel_text(world)
    # gone from the round, they are offered no Away (the computer has nothing to play for them),
    # and an Away asked for all the same (an older hand's button) is refused and changes nothing
    assert not {"Away", "I'm back"} & set(buttons(result.response))
    with pytest.raises(TableError) as refused:
        await runtime(world).away(table.id, member.id)
    assert refused.value.code == "not_playing"
    assert not table.is_away(leaver) and "stepped away" not in channel_text(world)
    # nor may they "leave after this round" or take it back: they leave when it ends, whatever they click
    later = await member.click(table_message(world), label="Leave after this round")
    assert later.ephemeral and "You've already left" in later.response.content, later.response.content
    assert member.id not in table.leave_after_round
    with pytest.raises(TableError) as staying:
        await runtime(world).stay(table.id, member.id)
    assert staying.value.code == "left_this_round" and "stays at the table" not in channel_text(world)
    balance = await world.bot.ledger.balance(world.guild.id, member.id)
    assert balance == 800  # the stack comes back when the round ends
    hands = Hands(world)
    while g.in_round:
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=60, hands=hands)  # type: ignore[arg-type]
    assert leaver not in g.seated
    assert await world.bot.ledger.balance(world.guild.id, member.id) == 800 + g.stacks[leaver]
    await conserved(world)
    for _ in range(2):  # between rounds, then in the next round: their hand says they are out
        later = await my_hand(world, member)
        assert "You're no longer playing at this table." in later.content, later.content
        assert "You left this round" not in later.content
        await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert g.in_round and not g.over


async def test_leave_after_this_round(world: World) -> None:
    table = await open_table(world, world.members[:4])
    g = table.game
    assert g is not None and g.round is not None
    quitter = member_by_pid(world, g.round.players[0])
    asked = await quitter.click(table_message(world), label="Leave after this round")
    assert asked.ephemeral and "leave when this round ends" in asked.response.content
    hands = Hands(world)
    while g.in_round:
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=60, hands=hands)  # type: ignore[arg-type]
    assert str(quitter.id) in g.seated  # still seated during the pause
    await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert str(quitter.id) not in g.seated and g.in_round
    assert await world.bot.ledger.balance(world.guild.id, quitter.id) == 800 + g.stacks[str(quitter.id)]
    await conserved(world)


async def test_stop_needs_the_host_or_manage_server(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    other = member_by_pid(world, g.seated[1]) if int(g.seated[0]) == table.host_id else None
    outsider = world.members[3]
    refused = await outsider.slash(world.channel, "flipflop stop")
    assert refused.ephemeral and "Only the host" in refused.response.content
    if other is not None:
        assert (await other.slash(world.channel, "flipflop stop")).ephemeral
    assert table_in(world) is table and g.in_round



async def test_a_second_stop_in_the_same_round_is_refused_privately_and_changes_nothing(world: World) -> None:
    from tests.cogs.test_privacy_admin import dump  # it imports this module: imported here

    ann = world.members[0]
    table = await open_table(world, world.members[:3])
    first = await ann.slash(world.channel, "flipflop stop")
    assert not first.ephemeral and "will stop the game when this round ends" in first.response.content
    before, seq, said = await dump(world), table.seq, channel_text(world)
    for who in (ann, world.admin):  # the host again, then a manager
        again = await who.slash(world.channel, "flipflop stop")
        assert again.ephemeral and again.response.content == (
            "The game already stops when this round ends; nothing was changed."
        )
    assert await dump(world) == before and table.seq == seq and channel_text(world) == said
    assert table.stop_after_round and table.game is not None and table.game.in_round

async def test_host_stops_the_game_after_the_round_and_everyone_is_paid(world: World) -> None:
    """R8.2, R8.3."""
    ann = world.members[0]
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    assert "Round 2 commitment" in displayed(table_message(world))  # shown from the deal on
    said = await ann.slash(world.channel, "flipflop stop")
    assert not said.ephemeral and "when this round ends" in said.response.content
    hands = Hands(world)
    await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=0, hands=hands)  # type: ignore[arg-type]
    await world.env.settle()
    assert g.in_round  # a draw and a discard (no drop): the round goes on
    # no round 2 will be dealt: its commitment is no longer offered, the one in play is
    assert "Round 2 commitment" not in displayed(table_message(world))
    assert "🔒 Round 1 commitment: `" in displayed(table_message(world))  # named, short
    while g.in_round:
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=60, hands=hands)  # type: ignore[arg-type]
    await world.env.advance_time(world.bot.pause_between_rounds + 1)
    assert table_in(world) is None and g.over
    assert "Game over!" in channel_text(world)
    total = sum([await world.bot.ledger.balance(world.guild.id, m.id) for m in world.members[:3]])
    assert total == 3000
    await conserved(world)


async def test_admin_stops_between_rounds_at_once(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    hands = Hands(world)
    while g.in_round:
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=60, hands=hands)  # type: ignore[arg-type]
    stopped = await world.admin.slash(world.channel, "flipflop stop")
    assert not stopped.ephemeral and "stopped the game" in stopped.response.content
    assert table_in(world) is None
    await conserved(world)


async def test_show_table_reposts_it_at_the_bottom(world: World) -> None:
    table = await open_table(world, world.members[:3])
    old = table.message_id
    shown = await world.members[3].slash(world.channel, "flipflop table")
    assert not shown.ephemeral and displayed(shown.response).startswith("### 🃏 Flip Flop")
    assert table.message_id == shown.response.id != old
    assert "moved to the bottom" in displayed(message(world, world.channel.id, old))  # type: ignore[arg-type]
    hand = await world.members[0].click(table_message(world), label="My hand")
    assert hand.ephemeral


async def test_hand_table_and_stop_without_a_table_say_so_privately(world: World) -> None:
    """Each command answers only the member, in its own words, and no table appears."""
    ann = world.members[0]
    for command in ("flipflop hand", "flipflop table"):
        said = await ann.slash(world.channel, command)
        assert said.ephemeral and said.response.content.startswith(
            "There's no table in this channel. Open one with </flipflop start:"
        ), command
    said = await ann.slash(world.channel, "flipflop stop")
    assert said.ephemeral and said.response.content == "There's no table in this channel."
    assert table_in(world) is None and channel_text(world) == ""



async def test_commands_in_a_lobby_before_the_start_say_what_to_do_and_change_nothing(world: World) -> None:
    from tests.cogs.test_privacy_admin import dump  # it imports this module: imported here

    ann, dan = world.members[0], world.members[3]
    await ann.slash(world.channel, "flipflop start")
    table = table_in(world)
    assert table is not None and table.status == "lobby"
    before = await dump(world)
    cancel = "The game hasn't started: use **Cancel** on the lobby instead."
    said = [
        (ann, "flipflop stop", cancel),
        (world.admin, "flipflop stop", cancel),
        (dan, "flipflop stop", "Only the host or a member with **Manage Server** can stop the game."),
        (ann, "flipflop hand", "The game hasn't started yet."),
        (dan, "flipflop hand", "You're not at this table yet: click **Join**."),
        (ann, "flipflop hint", "💡 Hints are for practice tables only: at a table played for real chips,"),
    ]
    for who, command, words in said:
        answer = await who.slash(world.channel, command)
        assert answer.ephemeral and answer.response.content.startswith(words), (command, answer)
    assert await dump(world) == before
    assert table_in(world) is table and table.status == "lobby" and list(table.seats) == [ann.id]

async def test_table_controls_clicked_in_a_lobby_say_the_game_has_not_started(world: World) -> None:
    """A stale or forged table-message button in a lobby: who is seated is told the game hasn't started
    (not "You're not playing at this table"), who is not is told so; nothing changes."""
    from cogs.flipflop.controls import TableButton
    from tests.cogs.test_other_place import posted_in  # they import this module: imported here
    from tests.cogs.test_privacy_admin import dump

    ann, ben, dan = world.members[0], world.members[1], world.members[3]
    opened = await ann.slash(world.channel, "flipflop start")
    await ben.click(opened.response.message, label="Join")
    table = table_in(world)
    assert table is not None and table.status == "lobby"
    before, seq = await dump(world), table.seq
    said = [
        ("leave_next", "Leave after this round", ben,
         "The game hasn't started: use **Leave** on the lobby to give up your seat."),
        ("leave_next", "Leave after this round", dan, "You're not playing at this table."),
        ("stay", "Stay after all", ann, "The game has not started yet."),
        ("stay", "Stay after all", dan, "You're not playing at this table."),
        ("back", "I'm back", ben, "You're not away at this table; nothing to come back from."),
        ("hand", "My hand", ben, "The game hasn't started yet."),
        ("hand", "My hand", dan, "You're not at this table yet: click **Join**."),
    ]
    for op, label, who, words in said:
        stale = await posted_in(world, world.channel, TableButton(table.id, op, label))
        refused = await who.click(stale, label=label)
        assert refused.ephemeral and refused.response.content == words, (op, who.name, refused)
    assert await dump(world) == before and table.seq == seq
    assert table_in(world) is table and table.status == "lobby" and list(table.seats) == [ann.id, ben.id]
    left = await ben.click(opened.response.message, label="Leave")  # the lobby's own Leave still works
    assert left.acknowledged and list(table.seats) == [ann.id]
    await conserved(world)


async def test_two_tables_in_two_channels_at_once(world: World) -> None:
    other_channel = world.guild.create_text_channel("flipflop-2")
    extra = [world.guild.add_member(world.env.create_user(n)) for n in ("xa", "xb", "xc")]
    first = await open_table(world, world.members[:3])
    lobby = (await extra[0].slash(other_channel, "flipflop start")).response.message
    for m in extra[1:]:
        await m.click(lobby, label="Join")
    await extra[0].click(lobby, label="Start")
    second = table_in(world, other_channel)
    assert second is not None and second is not first and second.status == "playing"
    # both tables play turns, interleaved, without affecting each other
    h1 = Hands(world)
    for _ in range(4):
        g1, g2 = first.game, second.game
        assert g1 is not None and g2 is not None
        await play_simple_turn(world, member_by_pid(world, g1.to_act), hands=h1)  # type: ignore[arg-type]
        actor2 = next(m for m in extra if str(m.id) == g2.to_act)
        hand = await my_hand_in(world, other_channel, actor2)
        await actor2.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
        hand = await my_hand_in(world, other_channel, actor2)
        discards = card_buttons(hand)
        await actor2.click(hand.message, custom_id=discards[highest(list(discards))])
    assert len(first.game.round.discard) == 4 and len(second.game.round.discard) == 4  # type: ignore[union-attr]
    await conserved(world)


async def my_hand_in(world: World, channel: simcord.ChannelHandle, player: simcord.MemberActor) -> Any:
    result = await player.click(table_message(world, channel), label="My hand")
    return result.response


async def test_chips_are_conserved_at_every_step_of_a_four_player_game(world: World) -> None:
    await open_table(world, world.members[:4], stake=5, buy_in=40)
    hands = Hands(world)
    for _ in range(300):
        if not await play_step(world, hands, drop_below=25):
            break


async def ended_game(world: World, players: list[simcord.MemberActor]) -> discord.Message:
    """A game stopped after its first round (a drop ends it, R7); its final standings message."""
    table = await open_table(world, players, stake=5, buy_in=200)
    rt = runtime(world)
    assert table.game is not None and table.game.to_act is not None
    await rt.act(table.id, int(table.game.to_act), table.seq, Drop(table.game.to_act))
    await rt.stop(table.id, players[0].id, may_manage=False)
    assert table_in(world) is None
    final = next(m for m in world.channel.history() if "Final standings" in (m.content or ""))
    assert "Play again" in buttons(final)
    return final


async def test_play_again_opens_a_lobby_naming_the_last_players(world: World) -> None:
    ann, ben, cat, dan = world.members[:4]
    final = await ended_game(world, [ann, ben, cat])
    # the server's settings changed since that game: the new lobby keeps its stake and buy-in,
    # and takes today's turn timer and away rule, as any new table does
    await world.admin.slash(world.channel, "flipflop config", turn_seconds=300, away_rounds=5)
    before = await world.bot.ledger.balance(world.guild.id, ben.id)
    again = await ben.click(final, label="Play again")
    assert again.acknowledged and not again.ephemeral
    lobby = table_in(world)
    assert lobby is not None and lobby.status == "lobby" and lobby.host_id == ben.id
    assert (lobby.stake, lobby.buy_in, lobby.seats) == (5, 200, [ben.id])
    assert (lobby.turn_seconds, lobby.away_rounds) == (300, 5)
    assert lobby.invited == [ann.id, cat.id]
    assert await world.bot.ledger.balance(world.guild.id, ben.id) == before - 200  # debited anew
    shown = message(world, world.channel.id, lobby.message_id)  # type: ignore[arg-type]
    assert f"<@{ann.id}>" in section(
        shown, "🔁 Play again: last game's players, click Join"
    )  # until they join
    joined = await ann.click(shown, label="Join")
    assert joined.acknowledged and lobby.seats == [ben.id, ann.id]
    # a second click while the lobby is open opens nothing more
    twice = await cat.click(final, label="Play again")
    assert twice.ephemeral and "already a table" in twice.response.content
    assert table_in(world) is lobby and len(lobby.seats) == 2
    await conserved(world)


async def test_play_again_by_someone_who_cannot_afford_it(world: World) -> None:
    ann, ben, cat, dan = world.members[:4]
    final = await ended_game(world, [ann, ben, cat])
    ledger, g = world.bot.ledger, world.guild.id
    await ledger.take(g, dan.id, await ledger.balance(g, dan.id) - 50, world.admin.id)
    refused = await dan.click(final, label="Play again")
    assert refused.ephemeral and "the buy-in is 200" in refused.response.content
    assert table_in(world) is None and await ledger.balance(g, dan.id) == 50
    await conserved(world)
