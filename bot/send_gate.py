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
- **Counted where they go out**: turns are granted evenly, at most ``limit`` in any second,
  but a busy event loop hands the granted requests on late and bunched (a table rendered,
  discord.py's bucket checked), and Discord counts them as they arrive: turns granted within
  one second may leave within a shorter one, on top of the turns of the next. So the gate also
  counts the requests the moment each one leaves, and holds one back while ``limit`` left
  within the last ``WIRE_SECONDS``: any second then holds at most ``limit`` of this process's
  requests, whatever happened between the turn and the request.
"""

from __future__ import annotations

import asyncio
import contextvars
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
        """When the counted requests of the last ``WIRE_SECONDS`` left (the event loop's time)."""

    def attach(self, budget: ChannelBudget | None) -> None:
        """The budget requests wait for from now on (the notifier's; None: none)."""
        self.budget = budget

    async def before(self, url: str) -> None:
        """Wait for the turn a request to ``url`` needs (none if exempt, or the paced edit's own)."""
        budget = self.budget
        if budget is None or not budget.on:
            return
        if exempt(url):
            self.stats.exempt += 1
            return
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
        await self._leave(budget)

    async def _leave(self, budget: ChannelBudget) -> None:
        """Let the request go once fewer than ``limit`` left within the last ``WIRE_SECONDS``; count it."""
        most = max(1, int(budget.limit * WIRE_SECONDS))
        loop, left = asyncio.get_running_loop(), self._left
        async with self._wire:
            held = False
            while True:
                now = loop.time()
                while left and now - left[0] >= WIRE_SECONDS:
                    left.popleft()
                if len(left) < most:
                    break
                held = True
                await asyncio.sleep(WIRE_SECONDS - (now - left[0]))
            self.stats.spaced += held
            left.append(now)

    def trace(self, into: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """An HTTP-session trace whose ``on_request_start`` waits for the turn (``into``: added to it).

        Put first on the session: the request-duration metric then starts after the wait.
        """
        trace = into or aiohttp.TraceConfig()

        async def start(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
            await self.before(str(params.url))

        trace.on_request_start.append(start)
        return trace
