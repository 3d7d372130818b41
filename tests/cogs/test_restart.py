"""Restarts: saved tables carry on with the same buttons (a deleted table message is posted again);
unreadable tables and gone channels are closed and refunded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cogs.helpers import (
    Hands,
    buttons,
    card_buttons,
    channel_text,
    conserved,
    displayed,
    message,
    my_hand,
    open_table,
    picture,
    play_step,
    table_in,
    table_message,
)
from tests.cogs.test_game import member_by_pid
from tests.conftest import World, make_bot


async def restart(world: World, db_path: Path, seed: int = 2, settle: float | None = None) -> None:
    """A new bot process on the same database file (the old one's connection is dropped).

    ``settle``: how long (real seconds) to let the new process settle; simcord's default waits out
    timers the resumed tables set within that long (a round's pause) in real time.
    """
    old = world.bot
    await settle_within(world, None)  # restart_bot settles the old process once more, in one window
    await world.env.restart_bot(make_bot(db_path, seed=seed))
    await old.db.close()
    await settle_within(world, settle)


async def settle_within(world: World, window: float | None, tries: int = 6) -> None:
    """Settle with timers beyond ``window`` real seconds left parked, as ``env.settle`` does; work
    already begun (simcord advancing time: computer moves; database work on its thread) that is slow
    on a loaded machine is given up to ``tries`` windows to finish instead of one. Work that never
    finishes still fails, after the last window, with simcord's account of what it waits on."""
    for _ in range(tries - 1):
        try:
            await world.env.settle(timeout=window)
            return
        except TimeoutError as error:
            if "did not settle" not in str(error):
                raise
    await world.env.settle(timeout=window)


async def test_a_game_carries_on_after_a_restart_with_the_same_controls(world: World, db_path: Path) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    actor = member_by_pid(world, g.to_act)  # type: ignore[arg-type]
    hand = await my_hand(world, actor)
    before = table.to_json()
    shown = displayed(table_message(world))
    await restart(world, db_path)
    resumed = table_in(world)
    assert resumed is not None and resumed is not table
    assert resumed.game is not None and resumed.game == g
    assert resumed.seq == before["seq"]
    assert displayed(table_message(world)) == shown  # nothing a player saw is lost, line for line
    assert "🔒 Fair deal: commitment" in shown and "📜" in shown
    # the hand message sent before the restart still works
    result = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    assert len(card_buttons(result.response)) == 6  # each card now discards with a click
    assert len(resumed.game.round.hands[str(actor.id)]) == 6  # type: ignore[union-attr]
    await conserved(world)


async def test_a_turn_that_ran_out_while_down_is_played_at_once(world: World, db_path: Path) -> None:
    table = await open_table(world, world.members[:3])
    absent = table.game.to_act  # type: ignore[union-attr]
    async with world.bot.db.transaction() as tx:  # as if the bot had been down past the deadline
        data = table.to_json()
        data["turn_deadline"] = data["turn_deadline"] - 3600
        await tx.execute("UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps(data), table.id))
    await restart(world, db_path)
    resumed = table_in(world)
    assert resumed is not None and resumed.game is not None
    assert resumed.game.to_act != absent
    assert "ran out of time" in channel_text(world)
    await conserved(world)


async def test_a_lobby_survives_a_restart(world: World, db_path: Path) -> None:
    ann, ben, cat = world.members[:3]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    await restart(world, db_path)
    await cat.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.status == "playing" and len(table.seats) == 3
    await conserved(world)


async def test_a_table_message_deleted_while_down_is_posted_again_and_play_goes_on(
    world: World, db_path: Path
) -> None:
    table = await open_table(world, world.members[:3])
    mid = table.message_id
    assert mid is not None
    await world.admin.delete(message(world, world.channel.id, mid))
    await restart(world, db_path)
    resumed = table_in(world)
    assert resumed is not None and resumed.status == "playing"
    assert resumed.message_id not in (None, mid)  # posted again, and saved
    assert picture(message(world, world.channel.id, resumed.message_id))[0].endswith("table.png")
    assert "table message was deleted" not in channel_text(world)
    hands = Hands(world)
    for _ in range(3):
        assert await play_step(world, hands, drop_below=0)
    await conserved(world)


async def test_a_table_message_deleted_mid_game_is_posted_again_at_once(world: World) -> None:
    table = await open_table(world, world.members[:3])
    mid = table.message_id
    assert mid is not None
    await world.admin.delete(message(world, world.channel.id, mid))  # MESSAGE_DELETE reaches the bot
    await world.env.settle()
    assert table_in(world) is table and table.message_id not in (None, mid)
    assert picture(message(world, world.channel.id, table.message_id))[0].endswith("table.png")
    assert "closed" not in channel_text(world)
    hands = Hands(world)
    for _ in range(3):
        assert await play_step(world, hands, drop_below=0)
    await conserved(world)


async def test_a_table_message_purged_with_others_is_posted_again(world: World) -> None:
    table = await open_table(world, world.members[:3])
    mid = table.message_id
    assert mid is not None
    chat = await world.members[3].send(world.channel, "gg")
    world.env.backend.bulk_delete_messages(world.channel.id, [mid, chat.id])  # a moderator's purge
    await world.env.settle()
    assert table_in(world) is table and table.message_id not in (None, mid)
    assert picture(message(world, world.channel.id, table.message_id))[0].endswith("table.png")
    await conserved(world)


async def test_unreadable_saved_table_is_closed_and_refunded(world: World, db_path: Path) -> None:
    table = await open_table(world, world.members[:3])
    async with world.bot.db.transaction() as tx:
        await tx.execute(
            "UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps({"format": 0}), table.id)
        )
    await restart(world, db_path)
    assert table_in(world) is None
    assert "could not carry on" in channel_text(world)
    total = sum([await world.bot.ledger.balance(world.guild.id, m.id) for m in world.members[:3]])
    assert total == 3000
    await conserved(world)


async def test_a_whole_game_with_a_restart_every_few_turns(world: World, db_path: Path) -> None:
    await open_table(world, world.members[:3], stake=5, buy_in=20)
    hands = Hands(world)
    for step in range(2000):
        if step % 25 == 24 and table_in(world) is not None:
            await restart(world, db_path, seed=step)  # a fresh process shuffles differently
            hands = Hands(world)
        elif not await play_step(world, hands, drop_below=20):
            break
    assert table_in(world) is None
    total = sum([await world.bot.ledger.balance(world.guild.id, m.id) for m in world.members[:3]])
    assert total == 3000


async def test_deleted_channel_closes_the_table_and_refunds(world: World, db_path: Path) -> None:
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    world.env.backend.delete_channel(world.channel.id)  # deleted while the bot was down
    await restart(world, db_path)
    assert table_in(world) is None
    total = sum([await world.bot.ledger.balance(world.guild.id, m.id) for m in world.members[:3]])
    assert total == 3000
    await conserved(world)


async def test_resuming_costs_one_call_per_table_and_plays_at_once(world: World, db_path: Path) -> None:
    table = await open_table(world, world.members[:3])
    mid = table.message_id
    requests: list[Any] = []
    world.env.backend.http_requests = requests
    await restart(world, db_path)
    channel_calls = [(r.method, r.path) for r in requests if r.path.startswith("/channels/")]
    assert channel_calls == [("PATCH", f"/channels/{world.channel.id}/messages/{mid}")]  # the one edit
    resumed = table_in(world)
    assert resumed is not None and resumed.game is not None and resumed.turn_deadline is not None
    g = resumed.game
    actor = member_by_pid(world, g.to_act)  # type: ignore[arg-type]
    hand = await my_hand(world, actor)
    assert "Your turn" in (hand.content or "")
