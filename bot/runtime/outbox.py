"""The order in which a table's changes are told, kept without holding the table's lock.

A command changes a table under its lock and takes a numbered turn there
(``book``); the lock is released before anything is sent to Discord. Telling
then waits for the previous turn of the same table (``turn``), so the channel
hears the changes in the order they were saved, while the next click at the
table is already being answered. A turn nobody claims (its command's reply to
the member is stuck) is waited for ``wait`` seconds at most, so no table waits
forever, and is dropped once a later turn of its table has been told.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

log = logging.getLogger("flipflop.runtime")


class Outbox:
    """Numbered turns per table; each is told after the one before it (or after ``wait`` seconds)."""

    def __init__(self, wait: float = 5.0) -> None:
        self.wait = wait
        self._next: dict[str, int] = {}
        self._pending: dict[tuple[str, int], asyncio.Future[None]] = {}

    def book(self, table_id: str) -> int:
        """The next turn of a table (call under its lock, where the order of changes is known)."""
        number = self._next.get(table_id, 0) + 1
        self._next[table_id] = number
        self._pending[(table_id, number)] = asyncio.get_running_loop().create_future()
        return number

    @asynccontextmanager
    async def turn(self, table_id: str, number: int) -> AsyncIterator[None]:
        """Wait until the turn before has been told (bounded), tell, then let the next one go."""
        before = self._pending.get((table_id, number - 1)) if number else None
        if before is not None and not before.done():
            try:
                await asyncio.wait_for(asyncio.shield(before), self.wait)
            except TimeoutError:
                log.warning(
                    "Table %s: turn %d told without waiting for turn %d", table_id, number, number - 1
                )
        try:
            yield
        finally:
            self.release(table_id, number)

    def release(self, table_id: str, number: int) -> None:
        """A turn is over: the next one may be told (and any earlier one never claimed is dropped)."""
        for key in [k for k in self._pending if k[0] == table_id and k[1] <= number]:
            done = self._pending.pop(key)
            if not done.done():
                done.set_result(None)

    def waiting(self) -> int:
        """Turns booked and not yet told (a test's way to see that every change was told)."""
        return len(self._pending)
