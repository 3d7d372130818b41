"""One budget for the bot's channel-route calls, shared by every table (and every process through Redis).

Discord allows a bot token about 50 REST calls a second in all, across every shard
and process; interaction callbacks and follow-ups are exempt. Each channel's table
edits are paced on their own (``cogs.flipflop.pacing``); this module keeps the sum
of all channels' calls under ``DISCORD_CALLS_PER_SECOND`` (45 by default).

**Who goes first.** A call asks for a turn (``ChannelBudget.take``) with a priority
and the moment its table went stale. Turns are granted as the budget allows, the call
waiting the longest first: must-post calls (a round record, the final standings, a table
posted anew: never dropped) and table edits alike, each from the moment its table (or the
record) was first asked for, then turn pings, which are skipped outright while half a
second's calls or more wait. A must-post does not jump the queue: a burst of round records
would otherwise hold back every table edit already waiting (at 300 busy tables, whose
rounds end together, by four seconds). While a table waits, its edits coalesce
(``EditPacer`` keeps one per message, rendered when made), so every table converges
whatever the load.

**When.** ``bot.budget_share`` says when the next turn may go: spaced on Redis' clock
and capped by a ``limits`` moving window in Redis (``REDIS_URL``), shared by every
process of the bot; without Redis, or while Redis does not answer, each process keeps
to its share, ``budget / processes`` (``Settings.processes``, from the shard settings).

**Where turns are taken.** Not here: ``bot.send_gate`` takes one at the start of every
HTTP request discord.py makes (a retry after a 429 too), so what Discord counts is
what the budget counts. A paced edit takes its turn in the pacer (the stalest table
first) and its request uses that turn.

**Invalid requests.** Discord blocks an address that gets 10,000 responses of
401, 403 or 429 within 10 minutes. ``InvalidRequests`` counts them (from the HTTP
session's trace, ``trace``); from ``INVALID_REQUESTS_LIMIT`` on it *guards*: the
calls known to fail (a channel that answered 403, a message that answered 404)
are not made again until the count falls.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from types import SimpleNamespace
from typing import Any

import aiohttp
from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from bot.budget_share import BudgetShare, ShareStats

log = logging.getLogger("flipflop.budget")

INVALID_WINDOW_MINUTES = 10
"""Discord's invalid-request window: 10,000 responses of 401, 403 or 429 in 10 minutes block the address."""
INVALID_STATUSES = frozenset({401, 403, 429})
KEY = "flipflop-channel-calls"
CATCH_UP_SECONDS = 0.05
"""Turns are evenly spaced; turns a busy event loop granted late are caught up within this much."""


class Priority(IntEnum):
    """What a channel call is: must-posts and edits are granted the longest waiting first, pings after."""

    MUST = 0
    """A post or edit that must happen: a round record, the final standings, the table posted anew."""
    EDIT = 1
    """A table message brought up to date (left out of nothing, but superseded by later changes)."""
    PING = 2
    """A turn ping: skipped when anything else waits."""


@dataclass(order=True)
class _Turn:
    rank: int
    """0: a must-post or an edit (the longest waiting first), 1: a ping (after them)."""
    since: float
    seq: int
    granted: asyncio.Future[bool] = field(compare=False)


@dataclass
class BudgetStats:
    """Counts since start, for metrics and the bench."""

    granted: dict[str, int] = field(default_factory=lambda: {p.name.lower(): 0 for p in Priority})
    skipped_pings: int = 0
    share: ShareStats = field(default_factory=ShareStats)
    """Switches between Redis and this process's share, Redis failures, turns from the share."""

    @property
    def redis_failures(self) -> int:
        """Redis calls (turns and pings) not answered in time."""
        return self.share.redis_failures


class ChannelBudget:
    """The process's channel-route calls, at most ``per_second`` (shared through Redis) or its share.

    ``per_second`` 0 switches the budget off: every turn is granted at once (as before it existed).
    """

    def __init__(
        self,
        per_second: int,
        processes: int = 1,
        redis_url: str | None = None,
        name: str = KEY,
        clock: Callable[[], float] = time.monotonic,
        index: int = 0,
    ) -> None:
        self.per_second = per_second
        self.clock = clock
        """Ages of stale tables (the limiter keeps its own time: ``limits``' or Redis')."""
        self.processes = processes
        self.redis_url = redis_url
        self.name = name
        self.counter = BudgetShare(per_second, processes, redis_url, name, index)
        """When the next turn may go: Redis' spacing and window, or this process's share."""
        self.share = self.counter.share
        """This process's calls per second when Redis is not shared (or not answering)."""
        self._waiting: list[_Turn] = []
        self._seq = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None
        self._next_at = 0.0
        """The event loop's time before which no turn is granted (turns evenly spaced)."""
        self.stats = BudgetStats(share=self.counter.stats)
        self.closed = False
        """Closed (shutting down): no turn is granted any more; the send gate keeps to the share alone."""
        self.gate: Callable[[int], float] | None = None
        """Seconds until the send gate would let a request through (``bot.send_gate``): no turn before."""

    @property
    def on(self) -> bool:
        """Whether calls are budgeted at all."""
        return self.per_second > 0

    @property
    def limit(self) -> int:
        """Calls per second this process keeps to now: the whole budget (shared) or its share."""
        return self.counter.limit

    @property
    def shared(self) -> bool:
        """Whether the budget is shared through Redis right now (False: this process's share)."""
        return self.counter.shared

    @property
    def queue(self) -> int:
        """Calls waiting for a turn."""
        return sum(1 for t in self._waiting if not t.granted.done())

    def oldest_stale(self) -> float:
        """Seconds the longest-waiting table edit (or must-post call) has waited since its table changed."""
        stale = [t.since for t in self._waiting if not t.granted.done() and t.rank == 0]
        return max(0.0, self.clock() - min(stale)) if stale else 0.0

    async def take(
        self, priority: Priority = Priority.MUST, stale_for: float = 0.0, since: float | None = None
    ) -> bool:
        """Wait for a turn to make one call; False: a ping skipped (the budget is under pressure).

        ``stale_for``: seconds the call's table has been stale already; the stalest goes first.
        ``since``, instead: when it became stale, read off this budget's ``clock`` at the time, so
        two tables asked for a moment apart keep their order (two readings of ``stale_for``, each
        taken a little later, could swap them).
        """
        if not self.on:
            self.stats.granted[priority.name.lower()] += 1
            return True
        loop = asyncio.get_running_loop()
        if priority is Priority.PING and (self._pressed() or not await self._room()):
            self.stats.skipped_pings += 1
            return False
        now = self.clock()
        since = min(now, since) if since is not None else now - max(0.0, stale_for)
        turn = _Turn(int(priority is Priority.PING), since, next(self._seq), loop.create_future())
        heapq.heappush(self._waiting, turn)
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = loop.create_task(self._dispatch())
        granted = await turn.granted
        if granted:
            self.stats.granted[priority.name.lower()] += 1
        else:
            self.stats.skipped_pings += 1
        return granted

    def _pressed(self) -> bool:
        """Whether calls wait half a second's worth of turns or more (a ping is then left out)."""
        return self.queue >= max(1, self.limit // 2)

    async def _dispatch(self) -> None:
        """Grant turns, best first, as the limiter allows and evenly spread; ends when nobody waits.

        The moving window alone lets a second's calls go in one burst, and a burst that the event
        loop or the network delays a little lands in Discord's next second on top of that one's:
        turns are spaced by at least ``1 / limit`` seconds, so calls arrive as evenly as granted.
        """
        loop = asyncio.get_running_loop()
        while self._waiting:
            turn = self._waiting[0]
            if turn.granted.done():  # its caller gave up (cancelled)
                heapq.heappop(self._waiting)
                continue
            early = self._next_at - loop.time()
            if early > 0:
                await asyncio.sleep(early)
                continue
            if self._next_at == 0.0:  # the first turn: processes on their shares interleave
                self._next_at = loop.time() + self.counter.first_delay
                continue
            if self.gate is not None and (held := self.gate(self.limit)) > 0:  # the gate would hold it
                await asyncio.sleep(min(held, self._retry_in()))
                continue
            wait = await self.counter.hit()
            if wait <= 0:
                best = heapq.heappop(self._waiting)  # the best now: one may have come while Redis answered
                if not best.granted.done():
                    best.granted.set_result(True)
                # on a schedule, not from now: a late wake-up (a busy loop) is caught up, a bounded burst
                self._next_at = max(self._next_at, loop.time() - CATCH_UP_SECONDS) + 1.0 / max(1, self.limit)
                continue
            await asyncio.sleep(min(wait, self._retry_in()))

    def _retry_in(self) -> float:
        """The longest wait for room: a share of a second, so a freed slot is taken soon."""
        return min(0.25, max(0.005, 1.0 / max(1, self.limit) / 2))

    async def _room(self) -> bool:
        """Whether a call would fit now (not counted)."""
        return await self.counter.room()

    async def close(self) -> None:
        """Stop granting (shutdown): waiting calls are told no; the Redis connections are closed.

        The requests told no still go out (logging out, the last edits), through the send gate,
        which then keeps them to this process's share (``bot.send_gate``): not a burst.
        """
        self.closed = True
        for turn in self._waiting:
            if not turn.granted.done():
                turn.granted.set_result(False)
        self._waiting.clear()
        if self._dispatcher is not None:
            self._dispatcher.cancel()
        await self.counter.close()


# ------------------------------------------------------------------ invalid requests


@dataclass
class KnownFailure:
    """A call the guard does not make again while it guards: what it answered last (403 or 404)."""

    status: int
    answer: object
    """What the caller made of that answer, handed back instead of calling again."""


class InvalidRequests:
    """401/403/429 responses in Discord's 10-minute window, and the calls stopped near its limit.

    Counted with a ``limits`` moving window of ``limit`` per 10 minutes: the count is what
    the window holds, and from ``limit`` on the guard is up (``guarding``).
    """

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._item = RateLimitItemPerMinute(self.limit, INVALID_WINDOW_MINUTES)
        self._window = MovingWindowRateLimiter(MemoryStorage())
        self._count = 0
        self.by_status: dict[int, int] = {}
        self.by_scope: dict[str, int] = {}
        """429s by ``X-RateLimit-Scope`` (``user``, ``global``, ``shared``) since start."""
        self.refused = 0
        """Calls not made because the guard was up."""
        self._known: dict[str, KnownFailure] = {}

    async def heard(self, status: int, scope: str | None = None) -> None:
        """A response came back with ``status`` (only 401, 403 and 429 count)."""
        if status not in INVALID_STATUSES:
            return
        self.by_status[status] = self.by_status.get(status, 0) + 1
        if status == 429:
            key = scope or "unknown"
            self.by_scope[key] = self.by_scope.get(key, 0) + 1
        await self._window.hit(self._item, "invalid")
        await self.refresh()

    async def refresh(self) -> int:
        """Read the window's count again (it falls as old responses leave the window)."""
        stats = await self._window.get_window_stats(self._item, "invalid")
        self._count = self.limit - stats.remaining
        return self._count

    @property
    def count(self) -> int:
        """Invalid responses in the last 10 minutes (as last read; at most ``limit``)."""
        return self._count

    @property
    def guarding(self) -> bool:
        """Whether calls known to fail are stopped now."""
        return self._count >= self.limit

    def failed(self, target: str, status: int, answer: object) -> None:
        """A call to ``target`` (a channel, a message) answered 403 or 404: not again while guarding."""
        if status in (403, 404):
            self._known[target] = KnownFailure(status, answer)

    def succeeded(self, target: str) -> None:
        """A call to ``target`` went through: it is not known to fail any more."""
        self._known.pop(target, None)

    async def refuses(self, target: str) -> KnownFailure | None:
        """What ``target`` answered last, if the guard is up and it is known to fail; else None."""
        if self.guarding:
            await self.refresh()  # the count falls as old responses leave the window
        if not self.guarding:
            return None
        refusal = self._known.get(target)
        if refusal is not None:
            self.refused += 1
        return refusal

    @property
    def stopped(self) -> int:
        """Targets known to fail (stopped while the guard is up)."""
        return len(self._known)

    def trace(self, into: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """An HTTP-session trace that hears every response (``into``: added to an existing trace)."""
        trace = into or aiohttp.TraceConfig()

        async def end(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
            response = params.response
            scope = response.headers.get("X-RateLimit-Scope")
            if scope is None and response.headers.get("X-RateLimit-Global"):
                scope = "global"
            await self.heard(response.status, scope)

        trace.on_request_end.append(end)
        return trace
