"""A table's open sockets, and the state each is sent when the runtime tells an outcome.

The runtime calls ``told`` from ``TableRuntime._publish`` — the place every outcome is
delivered to Discord, in the order of the table's changes — so the page and the
channel hear the same changes, from one owner. ``told`` never awaits a socket: it
makes each viewer's state (``state.viewer_state``; once for all spectators, once per
player) and leaves it in that socket's one-slot mailbox. A socket's own task sends
the newest state it holds; a slow client skips to the newest state instead of
queueing old ones, and never slows the table or the other sockets.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.i18n import SOURCE_LANGUAGE, Texts, texts
from bot.live.state import seat_of, viewer_state
from bot.runtime.outcomes import Outcome
from bot.table.model import Table

log = logging.getLogger("flipflop.live")

SEND_SECONDS = 10.0
"""A socket that takes longer than this to take one state is closed (its page reconnects)."""

Send = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Watcher:
    """One open page: who looks (a member's id, or None for nobody signed in) and its mailbox."""

    table_id: str
    viewer: int | None
    send: Send
    close: Callable[[], Awaitable[object]]
    latest: str | None = None
    skipped: int = 0
    """States replaced in the mailbox before they were sent (the page was behind)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def offer(self, text: str) -> None:
        """The newest state: replaces one not sent yet."""
        if self.latest is not None:
            self.skipped += 1
        self.latest = text
        self.wake.set()


class LiveHub:
    """Every open page of this process's tables (a table's pages live in the process that runs it)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.watchers: dict[str, set[Watcher]] = {}
        self.languages: dict[str, Texts] = {}
        """Each watched table's language (the server's), read when its first page opened."""
        self.versions: dict[str, int] = {}
        self.seqs: dict[str, int] = {}
        """Each watched table's ``seq`` as last sent: an outcome told after a newer state never shows."""

    def count(self) -> int:
        """Open sockets."""
        return sum(len(w) for w in self.watchers.values())

    def watch(
        self,
        table: Table,
        viewer: int | None,
        send: Send,
        close: Callable[[], Awaitable[object]],
        language: Texts | None = None,
    ) -> Watcher:
        """Register a page and send it the table as it is now (a reconnect resumes here)."""
        if language is not None:
            self.languages[table.id] = language
        self.seqs[table.id] = max(self.seqs.get(table.id, 0), table.seq)
        watcher = Watcher(table.id, viewer, send, close)
        self.watchers.setdefault(table.id, set()).add(watcher)
        watcher.task = asyncio.ensure_future(self._pump(watcher))
        watcher.offer(self._text(table, viewer))
        return watcher

    async def unwatch(self, watcher: Watcher) -> None:
        """Forget a page (its socket closed)."""
        group = self.watchers.get(watcher.table_id)
        if group is not None:
            group.discard(watcher)
            if not group:
                del self.watchers[watcher.table_id]
                self.languages.pop(watcher.table_id, None)
                self.versions.pop(watcher.table_id, None)
                self.seqs.pop(watcher.table_id, None)
        task = watcher.task
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def told(self, outcome: Outcome) -> None:
        """The runtime told ``outcome``: every page of its table gets its own state (never awaited)."""
        table = outcome.table
        group = self.watchers.get(table.id)
        if not group or table.seq < self.seqs.get(table.id, 0):
            return  # nobody watches, or a page already shows a newer state (it opened since)
        self.seqs[table.id] = table.seq
        self.versions[table.id] = self.versions.get(table.id, 0) + 1
        made: dict[str | None, str] = {}
        for watcher in list(group):
            seat = seat_of(table, watcher.viewer)
            text = made.get(seat)
            if text is None:
                text = made[seat] = self._text(table, watcher.viewer)
            watcher.offer(text)

    def _text(self, table: Table, viewer: int | None) -> str:
        t = self.languages.get(table.id) or texts(SOURCE_LANGUAGE)
        state = viewer_state(table, viewer, t, self.clock())
        state["info"]["version"] = self.versions.get(table.id, 0)
        return json.dumps({"type": "state", **state}, separators=(",", ":"))

    async def _pump(self, watcher: Watcher) -> None:
        """Send the newest state whenever there is one; a stuck socket is closed, never waited on long."""
        while True:
            await watcher.wake.wait()
            watcher.wake.clear()
            text, watcher.latest = watcher.latest, None
            if text is None:
                continue
            try:
                await asyncio.wait_for(watcher.send(text), SEND_SECONDS)
            except Exception as e:  # noqa: BLE001 - a socket that fails is closed, whatever failed
                log.info("Live page of table %s dropped: %s", watcher.table_id, type(e).__name__)
                await self.unwatch(watcher)
                try:
                    await watcher.close()
                except Exception:  # noqa: BLE001 - it is gone either way
                    pass
                return

    async def close(self) -> None:
        """Close every page (the bot is stopping)."""
        for group in list(self.watchers.values()):
            for watcher in list(group):
                await self.unwatch(watcher)
                try:
                    await watcher.close()
                except Exception:  # noqa: BLE001
                    pass
