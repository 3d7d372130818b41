"""Table-message edits paced per channel: at most 5 in any 5 seconds, the latest state wins.

Discord allows about five message edits per five seconds in a channel. A
table where one person and four computers play fast changes more often than
that, so an edit is never made per change: a change marks the channel's
table message as due, and one worker per channel edits it as soon as the
budget allows, rendering the table as it is *then*. Nothing here is awaited
by the runtime, so no rate-limited call waits while a table's lock is held.

An edit may be asked for no sooner than some time from now (``delay``): the
notifier's backoff after a failed edit. A later request for the same message
keeps that time, so a burst of changes does not cut the backoff short; the
edit made then still renders the latest state.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger("flipflop.pacing")

EDITS_PER_WINDOW = 5
WINDOW_SECONDS = 5.0
BUDGET: tuple[int, float] = (EDITS_PER_WINDOW, WINDOW_SECONDS)
"""The budget new pacers get. A simulated Discord whose clock stands still between
clicks (simcord, the playground) sets a larger one, or no edit would ever come due."""

Edit = Callable[[], Awaitable[object]]
"""Renders the message as it is now and edits it (called when the budget allows)."""


class EditPacer:
    """One worker per channel; ``request`` never waits, ``flush`` waits for all pending edits."""

    def __init__(
        self,
        limit: int | None = None,
        window: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self._limit, self._window = limit, window
        self._clock = clock
        self._due: dict[int, dict[str, tuple[Edit, float]]] = {}
        self._sent: dict[int, deque[float]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}

    @property
    def limit(self) -> int:
        """Edits allowed per window (the module's ``BUDGET`` unless given)."""
        return BUDGET[0] if self._limit is None else self._limit

    @property
    def window(self) -> float:
        """The window's seconds (the module's ``BUDGET`` unless given)."""
        return BUDGET[1] if self._window is None else self._window

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def request(self, channel_id: int, edit: Edit, key: str = "table", delay: float = 0.0) -> None:
        """A message in the channel should be brought up to date (replaces its pending edit).

        Edits of one channel are made one at a time, in the order first asked, each no
        sooner than ``delay`` seconds from now (nor sooner than its pending edit was due).
        """
        due = self._due.setdefault(channel_id, {})
        # No delay is "due now" whatever the clock says: a simulated clock may stand still or
        # start over, and an edit asked for without a backoff must never wait on it.
        at = self._now() + delay if delay > 0 else -math.inf
        if key in due:
            at = max(at, due[key][1])
        due[key] = (edit, at)
        if channel_id not in self._workers:
            self._workers[channel_id] = asyncio.create_task(self._work(channel_id))

    def wait_needed(self, channel_id: int) -> float:
        """Seconds until another edit fits in the channel's window (0: now)."""
        sent = self._sent.get(channel_id)
        now = self._now()
        while sent and now - sent[0] >= self.window:
            sent.popleft()
        if sent is None or len(sent) < self.limit:
            return 0.0
        return self.window - (now - sent[0])

    async def _work(self, channel_id: int) -> None:
        try:
            while channel_id in self._due:
                due = self._due[channel_id]
                now = self._now()
                ready = next((key for key, (_, at) in due.items() if at <= now), None)
                wait = self.wait_needed(channel_id)
                if ready is None:
                    wait = max(wait, min(at for _, at in due.values()) - now)
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                assert ready is not None
                edit, _ = due.pop(ready)
                if not due:
                    del self._due[channel_id]
                self._sent.setdefault(channel_id, deque()).append(self._now())
                try:
                    await edit()
                except Exception:  # an edit's failure is the notifier's to log; the worker carries on
                    log.exception("Table message edit failed in channel %s", channel_id)
        finally:
            self._workers.pop(channel_id, None)
            if not self._sent.get(channel_id):
                self._sent.pop(channel_id, None)

    async def flush(self) -> None:
        """Wait until every requested edit has been made (tests, shutdown)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def close(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for the pending edits, then drop the rest (shutdown).

        True if every edit was made.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._workers and (left := end - loop.time()) > 0:
            await asyncio.wait(list(self._workers.values()), timeout=left)
        dropped = bool(self._workers)
        for worker in list(self._workers.values()):
            worker.cancel()
        await asyncio.gather(*list(self._workers.values()), return_exceptions=True)
        self._due.clear()
        return not dropped
