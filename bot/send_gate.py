"""The budget's turn taken at the start of every HTTP request discord.py makes, where Discord counts it.

A turn taken *before* a call (in the notifier) is not the moment the call reaches Discord:
discord.py may then wait for the route's bucket, and after a 429 it tries again on its own,
up to five times, each try counted by Discord's global limit and by no budget. So the turn is
taken here, on the HTTP session's ``on_request_start`` trace (aiohttp awaits it before the
request goes out, in the task making the call; discord.py's public ``http_trace`` hook), once
per request on the wire: a retry waits its own turn as a must-post (it already waited once).

- **Exempt**: interaction callbacks and follow-ups (``/interactions/{id}/{token}/…``,
  ``/webhooks/{application id}/{token}…``) are not counted by Discord's global limit and
  never wait here (a click must be answered within three seconds).
- **A paced edit's turn**: ``EditPacer`` waits for its turn in the budget itself (the stalest
  table first) and marks the task as holding it (``holding_turn``). The edit's request uses
  that turn if it starts within ``REUSE_SECONDS``; later (discord.py waited on the route's
  bucket meanwhile) the turn is spent and the request takes a fresh one.
- **Counted until Discord has surely seen them**: turns are granted evenly, at most ``limit``
  in any second, but Discord counts requests as they arrive, and a busy event loop (ours
  or, in the bench, the fake Discord's) hands them on late and bunched: turns granted within
  one second may arrive within a shorter one, on top of the turns of the next. So the gate
  lets a request through only while fewer than ``limit`` requests are *on their way* (let
  through, not answered yet) or were answered within the last ``WIRE_SECONDS``. Discord
  counted each one before its answer came, so any of Discord's seconds holds at most ``limit``
  of this process's requests, however late each was written or read. It costs the time an
  answer takes (a few milliseconds of each second at 300 busy tables); the budget grants no
  turn while the gate would hold its request back (``room_in``), so turns still go in order.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import re
import time
from collections import deque
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.budget import ChannelBudget, Priority

REUSE_SECONDS = 0.1
"""How long after the pacer's turn was granted its edit's request may still use it."""
WIRE_SECONDS = 1.0
"""The window leaving requests are counted in (Discord's second; a bench's compressed clock shortens it)."""
RETAKE_STALE_SECONDS = 60.0
"""A request that lost its turn at the gate asks again as if waiting this long (it goes first)."""
LOST_SECONDS = 10.0
"""A request let through and never answered nor failed (cancelled in between) stops counting then."""
EXEMPT = re.compile(r"/interactions/\d+/[^/]+/|/webhooks/\d+/[^/]+")
"""Interaction callbacks and follow-ups: outside Discord's global limit."""

_held: contextvars.ContextVar[float | None] = contextvars.ContextVar("flipflop_turn_held", default=None)


def holding_turn() -> contextvars.Token[float | None]:
    """Mark the running task as holding a turn granted now: its next request uses it (within 0.1 s).

    ``release_turn`` with the token after the call, so an unused turn is not kept.
    """
    return _held.set(time.monotonic())


def release_turn(token: contextvars.Token[float | None]) -> None:
    """The paced call is done: a turn it did not use is not kept."""
    _held.reset(token)


def exempt(url: str) -> bool:
    """Whether a request to ``url`` is outside the global limit (an interaction's answer)."""
    return EXEMPT.search(url) is not None


@dataclass
class GateStats:
    """Requests seen at the gate since start (the bench and tests)."""

    taken: int = 0
    """Requests that waited for a turn of their own."""
    reused: int = 0
    """Requests that used the turn their paced edit had just been granted."""
    expired: int = 0
    """Paced edits whose turn had gone stale before the request started (took a fresh one)."""
    exempt: int = 0
    """Interaction answers, never counted."""
    retaken: int = 0
    """Requests held at the gate past their turn's place in the schedule: they took a fresh turn."""
    spaced: int = 0
    """Requests held back at the gate: ``limit`` had left within the last second (bunched by the loop)."""


class SendGate:
    """Waits for the budget's turn before each counted request; does nothing until a budget is attached."""

    def __init__(self) -> None:
        self.budget: ChannelBudget | None = None
        self.stats = GateStats()
        self._wire = asyncio.Lock()
        """Requests pass one at a time, first come first served."""
        self._left: deque[float] = deque()
        """When the counted requests of the last ``WIRE_SECONDS`` were answered (the event loop's time)."""
        self._in_flight: dict[int, float] = {}
        """Requests let through and not answered yet (by ticket): when they were let through."""
        self._tickets = itertools.count()
        self._moved = asyncio.Event()
        """Set when a request let through is answered (a waiting request looks again)."""
        self._queued = 0
        """Requests waiting at the gate (their turn granted)."""

    def attach(self, budget: ChannelBudget | None) -> None:
        """The budget requests wait for from now on (the notifier's; None: none).

        The budget grants no turn while the gate would hold its request back (``room_in``).
        """
        if self.budget is not None and self.budget is not budget:
            self.budget.gate = None
        self.budget = budget
        if budget is not None:
            budget.gate = self.room_in

    @property
    def in_flight(self) -> int:
        """Requests let through that have not been answered yet."""
        return len(self._in_flight)

    async def before(self, url: str) -> int | None:
        """Wait for the turn a request to ``url`` needs (none if exempt, or the paced edit's own).

        The request's ticket (``answered`` with it once answered), or None: not counted.
        """
        budget = self.budget
        if budget is None or not budget.on:
            return None
        if exempt(url):
            self.stats.exempt += 1
            return None
        held = _held.get()
        reused = False
        if held is not None:
            _held.set(None)  # one request per turn: the next one (a retry) waits its own
            reused = time.monotonic() - held <= REUSE_SECONDS
            if reused:
                self.stats.reused += 1
            else:
                self.stats.expired += 1
        if not reused:
            self.stats.taken += 1
            await budget.take(Priority.MUST)
        return await self._leave(budget)

    async def _leave(self, budget: ChannelBudget) -> int:
        """Let the request through once fewer than ``limit`` were answered lately or are on their way.

        Lately: within the last ``WIRE_SECONDS``. The request is on its way until ``answered``.
        A request the gate held longer than one turn's spacing lost its place in the turns'
        schedule (shared by every process through Redis): it asks for a fresh turn, ahead of
        the calls that have not had one, rather than go out on top of the turns granted since.
        """
        loop = asyncio.get_running_loop()
        while True:
            # a closed budget grants no turns (shutdown): the gate alone keeps to this process's share
            limit = budget.share if budget.closed else budget.limit
            self._queued += 1
            try:
                async with self._wire:
                    start, waited = loop.time(), False
                    while (wait := self._wait(limit)) > 0:
                        waited = True
                        self._moved.clear()
                        try:
                            await asyncio.wait_for(self._moved.wait(), wait)
                        except TimeoutError:
                            pass
                    held = loop.time() - start
                    if budget.closed or held <= 1.0 / max(1, limit):
                        self.stats.spaced += waited
                        ticket = next(self._tickets)
                        self._in_flight[ticket] = loop.time()
                        return ticket
            finally:
                self._queued -= 1
            self.stats.retaken += 1
            await budget.take(Priority.MUST, stale_for=RETAKE_STALE_SECONDS)

    def _wait(self, limit: int, ahead: int = 0) -> float:
        """Seconds until one more request fits (0: now), with ``ahead`` more waiting before it."""
        now = asyncio.get_running_loop().time()
        left, flying = self._left, self._in_flight
        while left and now - left[0] >= WIRE_SECONDS:
            left.popleft()
        for ticket in [k for k, at in flying.items() if now - at >= LOST_SECONDS]:
            del flying[ticket]  # never heard of again (cancelled before it went out)
        over = len(left) + len(flying) + ahead - max(1, int(limit * WIRE_SECONDS))
        if over < 0:
            return 0.0
        if over < len(left):  # the window frees a slot in time (an answer may come sooner)
            return max(0.001, left[over] + WIRE_SECONDS - now)
        return max(0.001, min(flying.values(), default=now) + LOST_SECONDS - now)  # an answer comes sooner

    def room_in(self, limit: int) -> float:
        """Seconds until a turn granted now would be let through at once (0: now), for the budget."""
        return self._wait(limit, ahead=self._queued)

    def answered(self, ticket: int | None) -> None:
        """The request ``ticket`` was answered (or failed): Discord has counted it by now, if at all."""
        if ticket is not None and self._in_flight.pop(ticket, None) is not None:
            self._left.append(asyncio.get_running_loop().time())
            self._moved.set()

    def trace(self, into: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """An HTTP-session trace whose ``on_request_start`` waits for the turn (``into``: added to it).

        Put first on the session: the request-duration metric then starts after the wait. The
        request counts as on its way until its answer is read (or it fails), then for a window.
        """
        trace = into or aiohttp.TraceConfig()

        async def start(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
            ctx.flipflop_ticket = await self.before(str(params.url))

        async def done(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
            self.answered(getattr(ctx, "flipflop_ticket", None))
            ctx.flipflop_ticket = None

        trace.on_request_start.append(start)
        trace.on_request_end.append(done)
        trace.on_request_exception.append(done)
        return trace
