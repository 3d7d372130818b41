"""The runtime's open tables in memory, their locks, and how one change of a table is made to last.

``OpenTables.commit`` runs a transition (``bot.table.transitions``) on a table,
then its chips, the history of a round or game that ended, and the save, in
**one transaction**, so a chip is always in exactly one place: a balance, a
lobby seat, a stack or a pot. If anything fails, the table in memory is put
back as it was. Only the runtime calls it, under the table's lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

from bot.history import COMPUTER_MEMBERS, record_game, record_round, record_tournament_round
from bot.ledger import HOUSE_ID, InsufficientChips, Ledger
from bot.ratings import Finish
from bot.storage import Unavailable
from bot.table.model import Table, TableError, TableMoved, Unreadable, account
from bot.table.notices import Notice
from bot.table.repository import LockFirst, TableRepository
from bot.table.transitions import Step, logged
from bot.tournament.ref import TableRef
from engine.events import GameOver, RoundEnded

log = logging.getLogger("flipflop.tables")

Told = tuple[Notice, ...] | Callable[[Table, Step], tuple[Notice, ...]]
"""A change's notices, or how to find them once the change is made."""


def members(table: Table, seats: Iterable[str]) -> dict[str, int]:
    """Seat ids to the members history records them under (a computer: its level's pseudo-member)."""
    return {
        seat: COMPUTER_MEMBERS[table.computers[int(seat)].level] if table.is_computer(seat) else int(seat)
        for seat in seats
    }


class OpenTables:
    """Every open table this process runs, by id, with one lock each."""

    def __init__(self, repository: TableRepository, ledger: Ledger, clock: Callable[[], float]) -> None:
        self.repository = repository
        self.ledger = ledger
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, table_id: str) -> asyncio.Lock:
        """One lock per table: a double click never acts twice; tables never block each other."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def idle(self) -> None:
        """Wait until no table has a change in flight (a graceful shutdown)."""
        for lock in list(self._locks.values()):
            async with lock:
                pass

    def get(self, table_id: str) -> Table | None:
        """An open table by id."""
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table in a channel or in its game's thread (one per channel)."""
        for t in self.tables.values():
            if channel_id in (t.channel_id, t.thread_id) and t.status != "closed":
                return t
        return None

    async def commit(
        self, table: Table, change: Callable[[Table], Step], told: Told = ()
    ) -> Step:
        """Apply ``change`` to the table, then its chips, history and save in one transaction.

        ``told``: the notices that explain the change (or how to find them from the changed table
        and its step), after any the transition gave itself; they and the change's events are
        kept in the table's round log, saved with it. If anything fails, the table in memory is
        put back as it was (or, when another writer saved it first, replaced by what is saved:
        ``TableMoved``).
        """
        before, version = table.to_json(), table.version
        moved: list[Table | None] = []
        try:
            step = change(table)
            step.notices = (*step.notices, *(told(table, step) if callable(told) else told))
            if step.bump:
                table.seq += 1
            if table.status == "closed":
                self.tables.pop(table.id, None)
            try:
                async with self.repository.db.transaction() as tx:
                    await self._book(LockFirst(tx, table.id), table, step)
                    logged(table, step)  # after the book: a round's end is told with its history id
                    if not await self.repository.save(tx, table):
                        moved.append(await self.repository.saved(tx, table.id))
                        raise TableMoved("table_moved")
            except Unavailable:
                if moved or not await self.repository.landed(table, version + 1):
                    raise
                table.version = version + 1  # the COMMIT was cut off after it reached the database
                log.warning(
                    "Table %s: the database failed after saving version %d; kept", table.id, version + 1
                )
        except BaseException:
            self._put_back(table, before, version, moved)
            raise
        return step

    def _put_back(
        self, table: Table, before: dict[str, object], version: int, moved: list[Table | None]
    ) -> None:
        if moved:  # what is saved wins: this copy was behind
            self.tables.pop(table.id, None)
            if moved[0] is not None:
                self.tables[table.id] = moved[0]
            return
        if table.version == version and table.to_json() == before:
            return  # refused before any change (the transitions' rule): nothing to put back
        restored = Table.from_json(before)
        restored.version = version
        vars(table).update(vars(restored))  # in place: whoever holds the table sees it as it was
        if table.status != "closed":
            self.tables[table.id] = table

    async def _book(self, tx: LockFirst, table: Table, step: Step) -> None:
        """The chips a change moves, and the history of a round or game it ended."""
        for posting in step.postings:
            try:
                await self.ledger.post(tx, table.guild_id, posting, table.id)
            except InsufficientChips as e:
                if posting.account != HOUSE_ID or posting.reason != "buy_in":
                    raise
                raise TableError("house_short", balance=e.balance, buy_in=-posting.change) from None
        game = table.game
        if table.practice or game is None:
            return  # practice chips never reach the rounds history, stats or ratings
        if any(isinstance(e, RoundEnded) for e in step.events):
            transcript = game.round_transcript()
            seats = [str(seat["id"]) for seat in transcript["seats"]]  # type: ignore[attr-defined]
            if table.tournament:  # nor tournament chips: the chip-dumping report alone sees their rounds
                where = TableRef.parse(table.tournament)
                await record_tournament_round(
                    tx,
                    table.guild_id,
                    where.tournament,
                    table.id,
                    where.played + 1,
                    self.clock(),
                    transcript,
                    members(table, seats),
                )
                return
            number = game.public_view().round_number
            reveal = table.last_reveal if table.last_reveal and table.last_reveal["round"] == number else None
            table.last_round_id = await record_round(
                tx,
                table.guild_id,
                table.id,
                number,
                self.clock(),
                transcript,
                members(table, seats),
                reveal=reveal,
                away=table.away_moves,
            )
        if table.tournament:
            return  # a tournament's games are rated from its final places, not its tables' standings
        if any(isinstance(e, GameOver) for e in step.events):
            finishes = [Finish(str(p), chips, last) for p, (chips, last) in table.finishes.items()]
            await record_game(
                tx,
                table.guild_id,
                finishes,
                members(table, [f.player for f in finishes]),
                self.clock(),
            )

    async def close_unreadable(self, bad: Unreadable) -> None:
        """Close a table that could not be loaded, paying back what it held (saved beside it)."""
        async with self.repository.db.transaction() as tx:
            for user_id, amount in bad.refunds.items():
                if amount:
                    await self.ledger.credit(
                        tx, bad.guild_id, account(user_id), amount, "refund", reference=bad.table_id
                    )
            await self.repository.mark_closed(tx, bad.table_id)

    async def load(self, owns: Callable[[int], bool]) -> tuple[list[Table], list[Unreadable]]:
        """Read the open tables saved for the servers this process ``owns``; keep the readable ones."""
        good, bad = await self.repository.load_open(owns)
        for table in good:
            self.tables[table.id] = table
        return good, bad
