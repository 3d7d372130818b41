"""The runtime's ports as test doubles: a clock we move, a scheduler we drive, a notifier that records."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from bot.audit import audit_guild
from bot.ledger import HOUSE_ID, Ledger
from bot.runtime import Delivery, Notice, Outcome, Sent, TableRuntime, Whereabouts
from bot.storage import Store, open_store
from bot.table.model import Table, Unreadable

G, CH = 1, 2
ANN, BEN, CAT, DAN = 11, 12, 13, 14
NAMES = {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan"}


class FakeClock:
    """Seconds that pass only when a test says so."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class ManualScheduler:
    """Remembers each table's deadline; ``Harness.run_due`` fires the due ones."""

    def __init__(self) -> None:
        self.armed: dict[str, float] = {}

    def arm(self, table_id: str, at: float) -> None:
        self.armed[table_id] = at

    def disarm(self, table_id: str) -> None:
        self.armed.pop(table_id, None)

    async def close(self) -> None:
        self.armed.clear()


class MemoryNotifier:
    """Records every outcome; answers with whatever delivery a test sets."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.table_messages: list[bool] = []
        """For each outcome told, whether the table's message was to be brought up to date too."""
        self.status = Delivery.OK
        self.missing = ""
        self.where: Whereabouts = "ok"
        self.unreadables: list[Unreadable] = []

    async def publish(self, outcome: Outcome, table_message: bool = True) -> Sent:
        self.outcomes.append(outcome)
        self.table_messages.append(table_message)
        return Sent(self.status, self.missing, posted=True)

    async def locate(self, table: Table) -> Whereabouts:
        return self.where

    async def post_table(self, table: Table) -> int | None:
        return 4242

    async def unreadable(self, bad: Unreadable) -> Sent:
        self.unreadables.append(bad)
        return Sent(self.status)

    def notices(self) -> list[Notice]:
        return [n for o in self.outcomes for n in o.notices]


class Harness:
    """A runtime on a real SQLite file with fake ports."""

    def __init__(self, db: Store, clock: FakeClock, seed: int = 3) -> None:
        self.db = db
        self.ledger = Ledger(db)
        self.clock = clock
        self.scheduler = ManualScheduler()
        self.notifier = MemoryNotifier()
        self.runtime = TableRuntime(
            db,
            self.ledger,
            self.notifier,
            clock=clock,
            rng=random.Random(seed),
            scheduler=self.scheduler,
            computer_pause=(0.0, 0.0),
        )

    async def run_due(self) -> None:
        """Fire every deadline that has come (and those they arm that are due too)."""
        for _ in range(10_000):
            due = [tid for tid, at in self.scheduler.armed.items() if at <= self.clock()]
            if not due:
                return
            for tid in due:
                self.scheduler.armed.pop(tid, None)
                await self.runtime.fire(tid)
        raise AssertionError("deadlines kept coming")

    async def advance(self, seconds: float) -> None:
        self.clock.now += seconds
        await self.run_due()

    async def until(self, done: Callable[[], bool], step: float = 61.0, limit: int = 500) -> None:
        """Let time pass (turns time out, rounds are dealt) until ``done()``."""
        for _ in range(limit):
            if done():
                return
            await self.advance(step)
        raise AssertionError("it never happened")

    async def lobby(self, members: tuple[int, ...] = (ANN, BEN, CAT)) -> Table:
        host = members[0]
        table = await self.runtime.open(G, CH, host, NAMES[host], 5, 200, 60)
        await self.runtime.placed(table.id, 77)
        for m in members[1:]:
            await self.runtime.join(table.id, m, NAMES[m])
        return table

    async def game(self, members: tuple[int, ...] = (ANN, BEN, CAT)) -> Table:
        table = await self.lobby(members)
        await self.runtime.start(table.id, members[0], may_manage=False)
        return table

    async def conserved(self) -> None:
        at_tables = sum(t.chips() for t in self.runtime.tables.values())
        result = await audit_guild(self.ledger, G)
        assert result.ok, result.lines()
        assert result.at_tables == at_tables

    async def fund_house(self, amount: int = 1000) -> None:
        await self.ledger.grant(G, HOUSE_ID, amount, actor_id=ANN)


@asynccontextmanager
async def harness(path: Path, clock: FakeClock | None = None, seed: int = 3) -> AsyncIterator[Harness]:
    db = open_store(path)
    await db.open()
    try:
        yield Harness(db, clock or FakeClock(), seed)
    finally:
        await db.close()


def bare_runtime(
    db: Store, clock: Callable[[], float] | None = None, round_pause: float = 0.0
) -> TableRuntime:
    """A runtime whose timers fire only when a test calls ``fire``: one table driven step by step."""
    return TableRuntime(
        db,
        Ledger(db),
        MemoryNotifier(),
        clock=clock or FakeClock(),
        rng=random.Random(1),
        scheduler=ManualScheduler(),
        round_pause=round_pause,
    )
