"""Deadlines kept as asyncio timers: one per table, computed from what the table saved.

A timer only wakes the runtime; the runtime looks at the table again and
decides what is due, so a stale or early wake-up does nothing harmful.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.runtime.ports import Clock

log = logging.getLogger("flipflop.runtime")


class AsyncioScheduler:
    """The production scheduler: a sleeping task per table."""

    def __init__(self, clock: Clock, fire: Callable[[str], Awaitable[None]]) -> None:
        self.clock = clock
        self.fire = fire
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def arm(self, table_id: str, at: float) -> None:
        """Wake ``fire(table_id)`` at ``at``; replaces the table's earlier timer."""
        self.disarm(table_id)
        self.tasks[table_id] = asyncio.create_task(self._wait(table_id, at), name=f"table-{table_id}")

    def disarm(self, table_id: str) -> None:
        """Cancel the table's timer (unless it is the one running now)."""
        task = self.tasks.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _wait(self, table_id: str, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self.clock()))
        if self.tasks.get(table_id) is asyncio.current_task():
            del self.tasks[table_id]
        try:
            await self.fire(table_id)
        except Exception:
            log.exception("Timer for table %s failed", table_id)

    async def close(self) -> None:
        """Cancel every timer."""
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()
