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

An edit may also *settle* for a while (``settle``): it is wanted by then, but
a request for the same message that comes sooner takes its place and is made
as soon as it is due. A draw from the stock asks so: when the player's discard
follows within the moment, the table is edited once (showing both); a slow
player's draw still shows when the moment is over.

**The bot's budget.** Every channel's calls together stay within the process's
``ChannelBudget`` (``bot.budget``): when an edit of a channel is due and its window
allows it, the worker asks the budget for a turn, with the moment the channel's
oldest pending edit was first asked for. The table stale the longest is served
first, and while a channel waits its requests keep replacing one another, so the
edit made when the turn comes renders the latest state. A message's key says what
it is (``priority_of``): a round record (``record:…``) must be made (and is the
channel's first), a turn ping (``ping:…``) is skipped when others wait. The channel
waits in the budget from the moment its *oldest* due message was asked for: a record
asked for just now does not send its channel's stale table edit to the back. The edit's own call
uses the turn the worker waited for (``holding_turn``, ``bot.send_gate``): one turn per
request, if the request starts at once.

``CallBudget`` keeps a table's channel calls at most one per player move on
average: a lone draw's edit (the one that may be left out) is asked for only
while the table has calls to spare.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.budget import ChannelBudget, Priority
from bot.send_gate import holding_turn, release_turn

log = logging.getLogger("flipflop.pacing")

EDITS_PER_WINDOW = 5
WINDOW_SECONDS = 5.0
BUDGET: tuple[int, float] = (EDITS_PER_WINDOW, WINDOW_SECONDS)
"""The budget new pacers get. A simulated Discord whose clock stands still between
clicks (simcord, the playground) sets a larger one, or no edit would ever come due."""

Edit = Callable[[], Awaitable[object]]
"""Renders the message as it is now and edits it (called when the budget allows)."""


@dataclass(frozen=True)
class Pending:
    """An edit waiting: not before ``floor`` (a backoff), wanted at ``wanted`` (now, or after settling)."""

    edit: Edit
    floor: float
    wanted: float
    since: float = -math.inf
    """When the message was first asked for since its last edit (the stalest channel goes first), on
    the budget's clock (the pacer's own without a budget)."""

    @property
    def at(self) -> float:
        """When it is due."""
        return max(self.floor, self.wanted)


class EditPacer:
    """One worker per channel; ``request`` never waits, ``flush`` waits for all pending edits."""

    def __init__(
        self,
        limit: int | None = None,
        window: float | None = None,
        clock: Callable[[], float] | None = None,
        budget: ChannelBudget | None = None,
    ) -> None:
        self._limit, self._window = limit, window
        self._clock = clock
        self.budget = budget
        """The process's channel-call budget, which every edit waits its turn in (None: no global budget)."""
        self._due: dict[int, dict[str, Pending]] = {}
        self._sent: dict[int, deque[float]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Future[None]] = {}

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

    def request(
        self, channel_id: int, edit: Edit, key: str = "table", delay: float = 0.0, settle: float = 0.0
    ) -> None:
        """A message in the channel should be brought up to date (replaces its pending edit).

        Edits of one channel are made one at a time, in the order first asked, each no
        sooner than ``delay`` seconds from now (nor sooner than its pending edit's delay).
        ``settle``: made within that many seconds, unless a request for the same message
        comes first (then as that one asks).
        """
        due = self._due.setdefault(channel_id, {})
        # No delay is "due now" whatever the clock says: a simulated clock may stand still or
        # start over, and an edit asked for without a backoff must never wait on it.
        now = self._now()
        floor = now + delay if delay > 0 else -math.inf
        wanted = now + settle if settle > 0 else -math.inf
        since = self.budget.clock() if self.budget is not None else now
        if key in due:
            floor, wanted = max(floor, due[key].floor), min(wanted, due[key].wanted)
            since = min(since, due[key].since)
        due[key] = Pending(edit, floor, wanted, since)
        if channel_id not in self._workers:
            self._workers[channel_id] = asyncio.create_task(self._work(channel_id))
        elif channel_id in self._wake:  # a sleeping worker looks again: this edit may be due sooner
            self._wake[channel_id].cancel()

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
                ready = next((key for key, p in due.items() if p.at <= now), None)
                wait = self.wait_needed(channel_id)
                if ready is None:
                    wait = max(wait, min(p.at for p in due.values()) - now)
                if wait > 0:
                    await self._pause(channel_id, wait)
                    continue
                assert ready is not None
                if self.budget is not None:
                    ready = await self._turn(channel_id)
                    if ready is None:
                        continue
                    due = self._due[channel_id]
                edit = due.pop(ready).edit
                if not due:
                    del self._due[channel_id]
                self._sent.setdefault(channel_id, deque()).append(self._now())
                held = holding_turn() if self.budget is not None else None
                try:
                    await edit()
                except Exception:  # an edit's failure is the notifier's to log; the worker carries on
                    log.exception("Table message edit failed in channel %s", channel_id)
                finally:
                    if held is not None:
                        release_turn(held)
        finally:
            self._workers.pop(channel_id, None)
            self._wake.pop(channel_id, None)
            if not self._sent.get(channel_id):
                self._sent.pop(channel_id, None)

    async def _turn(self, channel_id: int) -> str | None:
        """Wait for the budget's turn; then the message to edit (the latest request), or None.

        None: a ping skipped under pressure (dropped), or nothing due any more.
        """
        assert self.budget is not None
        ready = self._best(channel_id)
        if ready is None:
            return None
        pending = self._due[channel_id][ready]
        now = self._now()
        ping = priority_of(ready) is Priority.PING  # a ping's wait counts only for a ping's turn
        waiting = self._due[channel_id].items()
        oldest = min(p.since for k, p in waiting if p.at <= now and (priority_of(k) is Priority.PING) == ping)
        granted = await self.budget.take(priority_of(ready), since=oldest)
        if not granted:
            due = self._due.get(channel_id, {})
            if priority_of(ready) is Priority.PING and due.get(ready) is pending:
                del due[ready]
                if not due:
                    self._due.pop(channel_id, None)
            return None
        return self._best(channel_id)

    def _best(self, channel_id: int) -> str | None:
        """The channel's message due now that goes first: must-post, then the oldest, pings last."""
        due, now = self._due.get(channel_id, {}), self._now()
        ready = [(priority_of(key), p.since, key) for key, p in due.items() if p.at <= now]
        return min(ready)[2] if ready else None

    async def _pause(self, channel_id: int, seconds: float) -> None:
        """Sleep ``seconds``, or until a new request wakes the channel's worker (it ends the sleep).

        A plain sleep in a task of its own: a simulated clock (simcord) knows a sleep.
        """
        sleep = asyncio.ensure_future(asyncio.sleep(seconds))
        self._wake[channel_id] = sleep
        try:
            await asyncio.wait({sleep})
        finally:
            sleep.cancel()
            if self._wake.get(channel_id) is sleep:
                del self._wake[channel_id]

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


def priority_of(key: str) -> Priority:
    """What a paced message is, by its key: a round record must be made, a ping may be skipped."""
    if key.startswith("record:"):
        return Priority.MUST
    if key.startswith("ping:"):
        return Priority.PING
    return Priority.EDIT


ROUND_END_CALLS = 4
"""What a round's end may still cost a table (its record, the table posted anew, a ping and its removal):
kept in hand before a lone draw's edit is spent."""


@dataclass
class CallBudget:
    """Channel calls per player move, per table: at most one on average, the cost a game may have.

    A lone draw's table edit is the one call that may be left out (the discard's edit shows
    it too): it is asked for only while the table has spent less than a call per move.
    """

    counts: dict[str, list[int]] = field(default_factory=dict)
    """Per table: [moves, channel calls]."""

    def acted(self, table_id: str, moves: int) -> None:
        """``moves`` player moves were made at the table."""
        self.counts.setdefault(table_id, [0, 0])[0] += moves

    def spent(self, table_id: str) -> None:
        """The notifier made a channel call for the table."""
        self.counts.setdefault(table_id, [0, 0])[1] += 1

    def spare(self, table_id: str) -> bool:
        """Whether one more call keeps the table within a call per move, a round's end still to pay."""
        moves, calls = self.counts.get(table_id, [0, 0])
        return calls + 1 + ROUND_END_CALLS <= moves

    def forget(self, table_id: str) -> None:
        """A closed table: nothing to count."""
        self.counts.pop(table_id, None)
