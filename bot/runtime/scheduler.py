"""Deadlines kept as asyncio timers: one per table, computed from what the table saved.

A timer only wakes the runtime; the runtime looks at the table again and
decides what is due, so a stale or early wake-up does nothing harmful.

Each timer runs in the context the scheduler was made in (the bot's own, where the Flip Flop cog
is loaded), not in that of whoever armed it: a move from the live page or a computer's move arms
the turn's timer as a click in Discord does. Under a simulated Discord (simcord, ``make play``)
that is what makes the timer the bot's work, which the simulation's clock drives; armed from the
live page's request it was the page's, slept real seconds, found the simulated clock not yet at
the deadline and was armed again, for ever: the turn never ran out.
"""

from __future__ import annotations

import asyncio
import contextvars
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
        self.context = contextvars.copy_context()
        """The context every timer runs in: the one the scheduler was made in (module docstring)."""

    def arm(self, table_id: str, at: float) -> None:
        """Wake ``fire(table_id)`` at ``at``; replaces the table's earlier timer."""
        self.disarm(table_id)
        wait = self._wait(table_id, at)
        # created from within the context, not given it as ``context=``: simcord tells the bot's tasks
        # by the context they are created in (a ``context=`` it marks as the caller's)
        self.tasks[table_id] = self.context.copy().run(asyncio.create_task, wait, name=f"table-{table_id}")

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
