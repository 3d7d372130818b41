"""A whole game of Flip Flop in a simulated channel, and the ways players go wrong (R-ids cited)."""

from __future__ import annotations

import simcord

from tests.cogs.helpers import (
    Hands,
    buttons,
    cog,
    conserved,
    my_hand,
    open_table,
    play_simple_turn,
    selects,
    table_in,
    table_message,
)
from tests.conftest import World


def member_by_pid(world: World, pid: str) -> simcord.MemberActor:
    return next(m for m in world.members if str(m.id) == pid)


async def test_a_whole_game_from_start_to_final_standings(world: World) -> None:
    players = world.members[:3]
    table = await open_table(world, players, stake=5, buy_in=20)
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
    texts = [m.content for m in world.channel.history() if m.content]
    public = "\n".join(texts)
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
    closed = table_message(world) if table_in(world) else None
    assert closed is None


async def test_second_start_in_the_channel_points_to_the_table(world: World) -> None:
    await open_table(world, world.members[:3])
    again = await world.members[3].slash(world.channel, "flipflop start")
    assert again.ephemeral and "already a table in this channel" in again.response.content


async def test_not_enough_chips_to_join(world: World) -> None:
    ann, ben = world.members[:2]
    await world.admin.slash(world.channel, "chips take", member=ben, amount=950)
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


async def test_double_click_acts_once(world: World) -> None:
    """Two hand messages with the same controls: the second click is refused and changes nothing."""
    table = await open_table(world, world.members[:3])
    actor = member_by_pid(world, table.game.to_act)  # type: ignore[union-attr, arg-type]
    first_hand = await my_hand(world, actor)
    second_hand = await my_hand(world, actor)
    first = await actor.click(first_hand.message, custom_id=buttons(first_hand)["Draw from stock"])
    assert "Discard a card" in str(first.response.components)
    seq = table.seq
    second = await actor.click(second_hand.message, custom_id=buttons(second_hand)["Draw from stock"])
    assert "earlier turn" in second.response.content and "nothing was done" in second.response.content
    assert len(table.game.round.hands[str(actor.id)]) == 6  # type: ignore[union-attr]
    assert table.seq == seq


async def test_waiting_players_see_their_hand_but_no_moves(world: World) -> None:
    table = await open_table(world, world.members[:3])
    waiting = next(m for m in world.members[:3] if str(m.id) != table.game.to_act)  # type: ignore[union-attr]
    hand = await my_hand(world, waiting)
    assert "'s turn" in hand.content
    assert set(buttons(hand)) == {"Refresh", "Leave game"}
    assert selects(hand) == {}
