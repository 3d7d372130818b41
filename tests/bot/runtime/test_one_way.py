"""Calls go one way: a command returns its outcome, the channel is told after the table's lock is released.

A notifier that blocks (a Discord that does not answer) never holds up the
next command at the same table; the channel still hears the changes in the
order they were made; every command is told on its way out, after the caller's reply; and a reply
that never returns does not stall the table for longer than the outbox waits.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.runtime import NOTHING_SHOWN, Outcome, Sent, Shown, TableRuntime
from bot.runtime.outcomes import TableClosed
from bot.table.model import Table
from tests.bot.runtime.fakes import (
    ANN,
    BEN,
    CAT,
    CH,
    DAN,
    NAMES,
    FakeClock,
    G,
    Harness,
    MemoryNotifier,
    harness,
)


class BlockingNotifier(MemoryNotifier):
    """Records each outcome, then waits until the test opens the gate (Discord not answering)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.started: list[Outcome] = []
        self.locked_while_publishing: list[bool] = []
        self.runtime: TableRuntime | None = None

    async def publish(self, outcome: Outcome, table_message: bool = True) -> Sent:
        assert self.runtime is not None
        self.locked_while_publishing.append(self.runtime.lock(outcome.table.id).locked())
        self.started.append(outcome)
        await self.gate.wait()
        return await super().publish(outcome, table_message)


async def until(condition: Callable[[], bool], seconds: float = 1.0) -> None:
    """Let the loop run until ``condition`` holds (a test failure after ``seconds``)."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0)


async def test_a_blocked_notifier_never_holds_the_table_and_the_order_is_kept(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        notifier = BlockingNotifier()
        rt = TableRuntime(
            h.db, h.ledger, notifier, clock=h.clock, rng=random.Random(1), scheduler=h.scheduler
        )
        notifier.runtime = rt
        table = await rt.open(G, CH, ANN, NAMES[ANN], 5, 200, 60)
        await rt.placed(table.id, 77)
        joining_first = asyncio.create_task(rt.join(table.id, BEN, NAMES[BEN]))
        await until(lambda: len(notifier.started) == 1)  # Discord is "busy" with it
        # the next command at the same table runs at once: nothing holds its lock
        joining_second = asyncio.create_task(rt.join(table.id, CAT, NAMES[CAT]))
        await until(lambda: rt.tables[table.id].is_seated(CAT))
        await asyncio.sleep(0.05)
        assert len(notifier.started) == 1  # told after the first, never before it
        notifier.gate.set()
        first, second = await asyncio.wait_for(asyncio.gather(joining_first, joining_second), 1.0)
        assert notifier.started == [first, second] and first.turn < second.turn
        assert notifier.outcomes == [first, second]
        assert notifier.locked_while_publishing == [False, False]
        assert rt.outbox.waiting() == 0


async def test_every_command_is_told_on_its_way_out_after_its_reply(tmp_path: Path) -> None:
    """The caller's reply answers the member first; the channel hears only what it did not show."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN, BEN))
        seen: list[int] = []

        async def shows_the_lobby(outcome: Outcome) -> Shown:
            seen.append(len(h.notifier.outcomes))  # nothing told yet when the member is answered
            return Shown(notices=True, table_message=True)

        joined = await h.runtime.join(table.id, CAT, NAMES[CAT], reply=shows_the_lobby)
        told = h.notifier.outcomes[-1]
        assert seen == [len(h.notifier.outcomes) - 1]
        assert told.turn == joined.turn and told.notices == () and told.events == joined.events
        assert h.notifier.table_messages[-1] is False  # the answer was the table's own message
        left = await h.runtime.leave_lobby(table.id, CAT)  # no reply: the channel hears it all
        assert h.notifier.outcomes[-1] == left and h.notifier.table_messages[-1] is True
        assert h.runtime.outbox.waiting() == 0


async def test_a_failing_reply_still_tells_the_channel_everything(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN, BEN))

        async def broken(outcome: Outcome) -> Shown:
            raise RuntimeError("the member's answer failed")

        with pytest.raises(RuntimeError):
            await h.runtime.join(table.id, CAT, NAMES[CAT], reply=broken)
        told = h.notifier.outcomes[-1]
        assert rt_seated(h, table.id, CAT) and told.turn > 0
        assert h.runtime.outbox.waiting() == 0


def rt_seated(h: Harness, table_id: str, user_id: int) -> bool:
    return h.runtime.tables[table_id].is_seated(user_id)


async def test_a_reply_that_never_returns_does_not_stall_its_table(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        h.runtime.outbox.wait = 0.05
        table = await h.lobby((ANN, BEN))
        hanging = asyncio.Event()

        async def never(outcome: Outcome) -> Shown:
            await hanging.wait()
            return NOTHING_SHOWN

        stuck = asyncio.create_task(h.runtime.join(table.id, CAT, NAMES[CAT], reply=never))
        await until(lambda: rt_seated(h, table.id, CAT))
        told = await h.runtime.join(table.id, DAN, NAMES[DAN])  # told at once, after waiting 0.05 s at most
        assert h.notifier.outcomes[-1] is told
        assert h.runtime.outbox.waiting() == 0  # the stuck turn was dropped with it
        hanging.set()
        late = await asyncio.wait_for(stuck, 1.0)
        assert late.turn < told.turn


class LockWatchingNotifier(MemoryNotifier):
    """Notes whether the table's lock is held each time Discord would be called."""

    def __init__(self) -> None:
        super().__init__()
        self.runtime: TableRuntime | None = None
        self.locked: list[bool] = []

    def _watch(self, table_id: str) -> None:
        assert self.runtime is not None
        self.locked.append(self.runtime.lock(table_id).locked())

    async def post_table(self, table: Table) -> int | None:
        self._watch(table.id)
        return await super().post_table(table)

    async def publish(self, outcome: Outcome, table_message: bool = True) -> Sent:
        self._watch(outcome.table.id)
        return await super().publish(outcome, table_message)


async def test_a_table_without_its_message_after_a_restart_is_posted_again_outside_its_lock(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with harness(tmp_path / "t.db", clock) as h:
        await h.game()
    async with harness(tmp_path / "t.db", clock) as h:
        notifier = LockWatchingNotifier()
        notifier.where = "message_gone"
        rt = TableRuntime(
            h.db,
            h.ledger,
            notifier,
            clock=h.clock,
            rng=random.Random(1),
            scheduler=h.scheduler,
            repost_missing_messages=True,
        )
        notifier.runtime = rt
        await rt.load()
        await rt.resume()
        [table] = rt.tables.values()
        assert table.message_id == 4242  # posted again, play goes on
        assert len(notifier.locked) == 2 and not any(notifier.locked)  # the post, then "resumed"


async def test_a_table_that_cannot_be_posted_again_is_closed_and_told_outside_its_lock(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with harness(tmp_path / "t.db", clock) as h:
        await h.game()
    async with harness(tmp_path / "t.db", clock) as h:
        notifier = LockWatchingNotifier()
        notifier.where = "message_gone"
        rt = TableRuntime(
            h.db, h.ledger, notifier, clock=h.clock, rng=random.Random(1), scheduler=h.scheduler
        )
        notifier.runtime = rt
        await rt.load()
        await rt.resume()
        assert rt.tables == {}
        closed = [n for n in notifier.notices() if isinstance(n, TableClosed)]
        assert len(closed) == 1 and closed[0].reason == "message_gone"
        assert notifier.locked == [False]
        await h.conserved()


async def test_an_outcome_carries_a_snapshot_never_the_live_table(tmp_path: Path) -> None:
    """What a command returns shows the table as that change left it, whatever changes after."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN, BEN))
        joined = await h.runtime.join(table.id, CAT, NAMES[CAT])
        live = h.runtime.get(table.id)
        assert live is not None and joined.table is not live
        assert joined.table.to_json() == live.to_json() and joined.table.version == live.version
        seats = list(joined.table.seats)
        await h.runtime.leave_lobby(table.id, CAT)  # a later change leaves the first outcome as it was
        assert joined.table.seats == seats == [ANN, BEN, CAT] and live.seats == [ANN, BEN]
        assert h.notifier.outcomes[-2].table is not live  # what the channel was told: snapshots too


async def test_the_channel_is_told_where_the_table_is_when_it_is_told(tmp_path: Path) -> None:
    """A reply that posts the table message (a deal) saves where; the publish after it posts there."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN, BEN, CAT))

        async def posts_the_table(outcome: Outcome) -> Shown:
            assert outcome.table.message_id == 77  # the snapshot: the lobby's message at the deal
            await h.runtime.placed(table.id, 88)  # the table posted anew below the lobby
            return NOTHING_SHOWN

        dealt = await h.runtime.start(table.id, ANN, may_manage=False, reply=posts_the_table)
        told = h.notifier.outcomes[-1]
        assert told.turn == dealt.turn and told.events == dealt.events
        assert told.table.message_id == 88  # published where the table is now
        assert dealt.table.message_id == 77  # the returned snapshot is the deal's, untouched
        assert told.table.game is not None and told.table.to_json()["game"] == dealt.table.to_json()["game"]
