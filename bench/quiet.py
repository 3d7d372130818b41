"""A runtime for benches: no Discord, and timers that never fire by themselves (the bench drives them)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from bot.ledger import Ledger
from bot.runtime import Delivery, Outcome, Sent, TableRuntime, Whereabouts
from bot.storage import Store
from bot.table.model import Table, Unreadable


class QuietNotifier:
    """Tells nobody anything."""

    async def publish(self, outcome: Outcome, table_message: bool = True) -> Sent:
        return Sent(Delivery.OK)

    async def locate(self, table: Table) -> Whereabouts:
        return "ok"

    async def post_table(self, table: Table) -> int | None:
        return None

    async def unreadable(self, bad: Unreadable) -> Sent:
        return Sent(Delivery.OK)


class NoTimers:
    """Deadlines are noted nowhere: the bench deals each next round itself (``runtime.fire``)."""

    def arm(self, table_id: str, at: float) -> None:
        pass

    def disarm(self, table_id: str) -> None:
        pass

    async def close(self) -> None:
        pass


def bench_runtime(db: Store, ledger: Ledger, clock: Callable[[], float] = time.time) -> TableRuntime:
    """A runtime with no pause between rounds, telling nobody."""
    return TableRuntime(
        db, ledger, QuietNotifier(), clock=clock, rng=random.Random(1), scheduler=NoTimers(), round_pause=0.0
    )
