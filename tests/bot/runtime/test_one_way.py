"""Calls go one way: a command returns its outcome, the channel is told after the table's lock is released.

A notifier that blocks (a Discord that does not answer) never holds up the
next command at the same table; the channel still hears the changes in the
order they were made; and a change whose caller never told it does not stall
the table for longer than the outbox waits.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.runtime import Outcome, Sent, TableRuntime
from bot.runtime.outcomes import TableClosed
from bot.table.model import Table
from tests.bot.runtime.fakes import ANN, BEN, CAT, CH, DAN, NAMES, FakeClock, G, MemoryNotifier, harness


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


async def test_a_blocked_notifier_never_holds_the_table_and_the_order_is_kept(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        notifier = BlockingNotifier()
        rt = TableRuntime(
            h.db, h.ledger, notifier, clock=h.clock, rng=random.Random(1), scheduler=h.scheduler
        )
        notifier.runtime = rt
        table = await rt.open(G, CH, ANN, NAMES[ANN], 5, 200, 60)
        await rt.placed(table.id, 77)
        first = await rt.join(table.id, BEN, NAMES[BEN])
        telling_first = asyncio.create_task(rt.tell(first))
        await asyncio.sleep(0)
        assert notifier.started == [first]  # Discord is "busy" with it
        # the next command at the same table runs at once: nothing holds its lock
        second = await asyncio.wait_for(rt.join(table.id, CAT, NAMES[CAT]), 1.0)
        telling_second = asyncio.create_task(rt.tell(second))
        await asyncio.sleep(0.05)
        assert notifier.started == [first]  # told after the first, never before it
        notifier.gate.set()
        await asyncio.wait_for(asyncio.gather(telling_first, telling_second), 1.0)
        assert notifier.outcomes == [first, second] and first.turn < second.turn
        assert notifier.locked_while_publishing == [False, False]
        assert rt.outbox.waiting() == 0


async def test_a_change_nobody_told_does_not_stall_its_table(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        h.runtime.outbox.wait = 0.05
        table = await h.lobby((ANN, BEN))
        untold = await TableRuntime.join(h.runtime, table.id, CAT, NAMES[CAT])  # its caller never tells it
        told = await h.runtime.join(table.id, DAN, NAMES[DAN])  # told at once, after waiting 0.05 s at most
        assert untold.turn < told.turn and h.notifier.outcomes[-1] is told
        assert h.runtime.outbox.waiting() == 0  # the untold turn was dropped with it


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
