"""The runtime's machinery under every command: a table's lock, its one transaction, and the telling.

``RuntimeCore`` holds what every table command goes through (``bot.runtime.runtime.TableRuntime``
adds the commands themselves, the deadlines' work and the recovery after a restart): the open tables
and their locks, ``_run`` (lock, clock, transition, transaction, outcome), ``_commit`` (one transition,
its chips and its save in one transaction), the arming of the next deadline, and the one way out of
every command (``_deliver``): the member answered first, then the channel told through the notifier in
the order of the table's changes, outside the lock. A channel or message found gone on the way closes
the table with every chip refunded (or posts the table again, in the playground).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

from bot.guards import TableCooldown
from bot.ledger import Ledger
from bot.runtime.computers import ComputerPlayers
from bot.runtime.open_tables import OpenTables, Told
from bot.runtime.outbox import Outbox
from bot.runtime.outcomes import NOTHING_SHOWN, Outcome, Reply, TableClosed
from bot.runtime.ports import Clock, Delivery, Notifier, Scheduler, Sent
from bot.runtime.scheduler import AsyncioScheduler
from bot.storage import Store
from bot.table import transitions
from bot.table.model import Table, TableError, Unreadable
from bot.table.repository import TableRepository
from bot.table.transitions import Step

log = logging.getLogger("flipflop.runtime")

Change = Callable[[Table, float], Step]

"""A member's command as a transition: the table and the command's moment in, its step out."""


class RuntimeCore:
    """The open tables, their locks, the transaction that saves a change, and the telling of it."""

    def __init__(
        self,
        db: Store,
        ledger: Ledger,
        notifier: Notifier,
        *,
        clock: Clock,
        rng: random.Random,
        scheduler: Scheduler | None = None,
        computers: ComputerPlayers | None = None,
        computer_pause: tuple[float, float] = (1.0, 2.0),
        round_pause: float = 8.0,
        owns: Callable[[int], bool] | None = None,
        repost_missing_messages: bool = False,
        outbox_wait: float = 5.0,
        table_cooldown: float = 0.0,
    ) -> None:
        self.db = db
        self.ledger = ledger
        self.open_tables = OpenTables(TableRepository(db, clock), ledger, clock)
        """The open tables in memory, their locks, and the transaction that saves a change."""
        self.notifier = notifier
        self.clock = clock
        self.rng = rng
        self.scheduler: Scheduler = scheduler if scheduler is not None else AsyncioScheduler(clock, self.fire)
        self.computers = computers if computers is not None else ComputerPlayers()
        self.computer_pause = computer_pause
        """Seconds (at least, at most) a computer player waits before each move, to feel human."""
        self.round_pause = round_pause
        """Seconds between a round's end and the next deal (saved with the round's end)."""
        self.owns = owns if owns is not None else (lambda _guild_id: True)
        """Whether this process runs a server's shard: it loads and resumes only those tables."""
        self.repost_missing_messages = repost_missing_messages
        """After a restart, post a lost table message again instead of closing the table."""
        self.lacking: dict[str, str] = {}
        """Tables whose channel refuses the bot's messages, and the permission it lacks (as the notifier
        named it)."""
        self._told: set[str] = set()
        self._loaded: list[Table] = []
        self._unreadable: list[Unreadable] = []
        self._resumed = False
        self.outbox = Outbox(outbox_wait)
        """The order in which each table's changes are told, outside its lock (``OUTBOX_WAIT_SECONDS``)."""
        self.cooldown = TableCooldown(table_cooldown)
        """Seconds a member waits between opening two tables (``TABLE_COOLDOWN_SECONDS``)."""
        self.watchers: list[Callable[[Outcome], None]] = []
        """Told every outcome as the channel is, in the same order, before it (the live table, ``bot.live``).

        Each is called without awaiting anything: it must only hand the outcome on."""
        self.closing: list[Callable[[Table], None]] = []
        """Told when a tournament's table closes (its round played, or its thread lost), once, after the save.

        Each is called without awaiting anything: it must only hand the table on."""

    # ---------------------------------------------------------------- lookup

    @property
    def tables(self) -> dict[str, Table]:
        """The open tables by id."""
        return self.open_tables.tables

    def get(self, table_id: str) -> Table | None:
        """An open table by id."""
        return self.open_tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table in a channel (or in its game's thread)."""
        return self.open_tables.in_channel(channel_id)

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock: held while a command changes it, never while Discord is called."""
        return self.open_tables.lock(table_id)

    def _open(self, table_id: str) -> Table:
        table = self.open_tables.get(table_id)
        if table is None:
            raise TableError("table_closed")
        return table

    @asynccontextmanager
    async def _command(self, table_id: str, interaction_id: int | None) -> AsyncIterator[Table]:
        """A member's command on an open table: under the table's lock, the interaction heard."""
        async with self.lock(table_id):
            table = self._open(table_id)
            transitions.heard(table, interaction_id)
            yield table

    async def _run(
        self,
        table_id: str,
        change: Change,
        told: Told = (),
        *,
        interaction_id: int | None = None,
        reply: Reply | None = None,
    ) -> Outcome:
        """A member's command, the one way through: lock, clock, transition, transaction, outcome.

        Under the table's lock: the interaction heard, the clock read once, the transition (its
        checks first) with its chips, history and save in one transaction, the next deadline
        armed, and the outcome booked its turn to be told. Then, the lock released, it is
        delivered (``_deliver``): ``reply`` answers the member, the channel hears the rest.

        A transition that refuses raises before anything changed (``TableError``): nothing is
        saved, nobody is told, and the caller answers the refusal.
        """
        async with self._command(table_id, interaction_id) as table:
            now = self.clock()
            step = await self._commit(table, lambda t: change(t, now), told)
            outcome = self._done(Outcome(table, tuple(step.events), step.notices))
        await self._deliver(outcome, reply)
        return outcome

    async def _commit(self, table: Table, change: Callable[[Table], Step], told: Told = ()) -> Step:
        """One transition, its chips and its save in one transaction (the caller holds the lock).

        ``told``: the notices that explain it, kept with its events in the table's round log.
        """
        was = table.status
        step = await self.open_tables.commit(table, change, told)
        if table.tournament and table.status == "closed" and was != "closed":
            for hear in self.closing:
                hear(table)
        return step

    def permission_notice(self, table_id: str) -> str | None:
        """The permission the bot lacks in this table's channel, once per episode (then None)."""
        missing = self.lacking.get(table_id)
        if missing is None or table_id in self._told:
            return None
        self._told.add(table_id)
        return missing

    async def report(self, table_id: str, sent: Sent) -> None:
        """What a notifier call made outside the table's lock achieved (a gone channel closes the table)."""
        async with self.lock(table_id):
            table = self.get(table_id)
            if table is not None:
                await self._delivered(table, sent)

    # ---------------------------------------------------------------- deadlines

    def _deadline(self, table: Table) -> float | None:
        """When this table next needs the runtime: a computer's paced move, or the table's own deadline."""
        if transitions.computer_to_move(table):
            return self.clock() + self.rng.uniform(*self.computer_pause)
        return transitions.deadline(table)

    def _arm(self, table: Table) -> None:
        """Arm the table's next deadline with the scheduler (disarm it when nothing is due)."""
        at = self._deadline(table) if self.get(table.id) is table else None
        if at is None:
            self.scheduler.disarm(table.id)
        else:
            self.scheduler.arm(table.id, at)

    # ---------------------------------------------------------------- telling

    def _done(self, outcome: Outcome) -> Outcome:
        """Under the table's lock: arm the next deadline, then seal the outcome (``_sealed``)."""
        self._arm(outcome.table)
        return self._sealed(outcome)

    def _sealed(self, outcome: Outcome) -> Outcome:
        """Under the lock: the outcome with a snapshot of the table (never the live one), booked its turn."""
        table = outcome.table
        return replace(outcome, table=table.snapshot(), turn=self.outbox.book(table.id))

    def _placed_now(self, outcome: Outcome) -> Outcome:
        """The outcome with the table's placement as it is now (a reply may have posted the table)."""
        live = self.get(outcome.table.id)
        if live is None or live.placement == outcome.table.placement:
            return outcome
        return replace(outcome, table=replace(outcome.table, placement=live.placement))

    async def _deliver(self, outcome: Outcome, reply: Reply | None) -> None:
        """The one way out of every command, after its lock is released: answer, then tell.

        ``reply`` (the caller's, if any) answers the member first — within Discord's three
        seconds, never behind the channel's queue — and says what its answer showed; the
        channel is then told the rest. If the reply fails, the channel is still told all of
        it before the failure goes on to the caller.
        """
        shown = NOTHING_SHOWN
        try:
            if reply is not None:
                shown = await reply(outcome)
        except BaseException:
            await self._publish(outcome)
            raise
        await self._publish(shown.rest(outcome), table_message=not shown.table_message)

    async def _publish(self, outcome: Outcome, *, table_message: bool = True) -> None:
        """Tell the channel what a change did, after its lock is released, in the order of the changes.

        ``table_message=False``: the table's message already shows it (the member's answer
        was that message). Nothing here holds the table's lock while Discord is called.
        """
        async with self.outbox.turn(outcome.table.id, outcome.turn):
            outcome = self._placed_now(outcome)
            self._watched(outcome)
            try:
                sent = await self.notifier.publish(outcome, table_message)
            except Exception:
                log.exception("Notifier failed at table %s", outcome.table.id)
                sent = Sent(Delivery.FAILED)
        if not (sent.ok and not sent.posted):
            await self.report(outcome.table.id, sent)

    def _watched(self, outcome: Outcome) -> None:
        """Hand the outcome to every watcher (a watcher's fault is logged, never the game's)."""
        for watcher in self.watchers:
            try:
                watcher(outcome)
            except Exception:
                log.exception("A watcher failed at table %s", outcome.table.id)

    async def _tell(self, table: Table, outcome: Outcome) -> None:
        """Tell ``outcome`` of the live ``table`` at once, under its lock (its message is gone)."""
        outcome = replace(outcome, table=table.snapshot())
        self._watched(outcome)
        try:
            sent = await self.notifier.publish(outcome)
        except Exception:
            log.exception("Notifier failed at table %s", table.id)
            sent = Sent(Delivery.FAILED)
        await self._delivered(table, sent)

    async def _delivered(self, table: Table, sent: Sent) -> None:
        if sent.status is Delivery.OK and sent.posted:
            self.lacking.pop(table.id, None)
            self._told.discard(table.id)
        elif sent.status is Delivery.FORBIDDEN:
            self.lacking[table.id] = sent.missing
        elif sent.status is Delivery.GONE and self.get(table.id) is table:
            await self._close_lost(table, "channel_gone")
        elif sent.status is Delivery.MESSAGE_GONE and self.get(table.id) is table:
            await self._message_gone(table)

    async def _close_lost(self, table: Table, reason: str) -> dict[int, int]:
        refunds = table.refunds()
        await self._commit(table, transitions.close)
        self.scheduler.disarm(table.id)
        self.lacking.pop(table.id, None)
        log.warning("Closed table %s (%s); refunded %s", table.id, reason, refunds)
        return refunds

    async def _message_gone(self, table: Table) -> bool:
        """The table message was deleted: post it again (the playground) or close and refund the table."""
        message_id = await self.notifier.post_table(table) if self.repost_missing_messages else None
        if message_id is None:
            refunds = await self._close_lost(table, "message_gone")
            await self._tell(table, Outcome(table, notices=(TableClosed("message_gone", refunds),)))
            return False
        await self._commit(table, lambda t: transitions.message_at(t, message_id))
        return True

    async def fire(self, table_id: str) -> None:
        """A deadline came (the scheduler calls this): ``TableRuntime.fire`` does whatever is due."""
        raise NotImplementedError
