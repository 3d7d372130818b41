"""Saved tables: load and save, nothing else (what may change a table is ``bot.table.transitions``).

A table is one row: its JSON state, its version, and beside it what it holds
(``chips``) and what each member would get back if it could not be read again
(``refunds``). Every save is version-checked in one statement, so two
processes never both save from the same version.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.storage import Row, Store, StoreError, Tx
from bot.table.model import Table, TableFormatError, Unreadable


class LockFirst:
    """A transaction that takes its table's cross-process lock before its first statement.

    The version-checked save needs no other lock: it holds the table's row
    until commit, and a second writer finds the version moved. Work before
    the save (chips moving, a round recorded) runs under ``tx.lock_table``, so
    two processes never move one table's chips at once; an action that moves
    none (most of them) is then one statement: the save.
    """

    def __init__(self, tx: Tx, table_id: str) -> None:
        self.tx, self.table_id, self.held = tx, table_id, False

    async def lock_table(self, table_id: str | None = None) -> None:
        """Take this table's lock (once)."""
        if not self.held:
            await self.tx.lock_table(self.table_id)
            self.held = True

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """``Tx.execute``, under the table's lock."""
        await self.lock_table()
        return await self.tx.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """``Tx.executemany``, under the table's lock."""
        await self.lock_table()
        await self.tx.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """``Tx.fetchone``, under the table's lock."""
        await self.lock_table()
        return await self.tx.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """``Tx.fetchall``, under the table's lock."""
        await self.lock_table()
        return await self.tx.fetchall(sql, params)


class TableRepository:
    """Loads and saves tables in a ``Store``."""

    def __init__(self, db: Store, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        """For the rows' ``updated_at``."""

    async def save(self, tx: Tx, table: Table) -> bool:
        """Save the table as version ``table.version + 1`` only if the row is still at ``table.version``.

        One statement is both the save and the version check (a new table's
        insert, or an update guarded by the version it was loaded at): False
        means another writer moved the row first and nothing was written.
        """
        owed = (
            table.refunds() if table.status != "closed" and not (table.practice or table.tournament) else {}
        )
        saved = await tx.execute(
            "INSERT INTO tables (table_id, guild_id, channel_id, status, chips, refunds, version, state,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
            " status = excluded.status, chips = excluded.chips, refunds = excluded.refunds,"
            " version = excluded.version, state = excluded.state, updated_at = excluded.updated_at"
            " WHERE tables.version = ?",
            (
                table.id,
                table.guild_id,
                table.channel_id,
                table.status,
                table.chips(),
                json.dumps({str(u): a for u, a in owed.items()}),
                table.version + 1,
                json.dumps(table.to_json()),
                self.clock(),
                table.version,
            ),
        )
        if saved:
            table.version += 1
        return saved == 1

    async def taken(self, table_id: str) -> bool:
        """Whether a table was ever saved with this id (open or closed, in any server)."""
        return await self.db.fetchone("SELECT 1 FROM tables WHERE table_id = ?", (table_id,)) is not None

    async def tournament_of(self, table_id: str) -> str | None:
        """The tournament reference (``Table.tournament``) of the table saved with this id, if any."""
        row = await self.db.fetchone("SELECT state FROM tables WHERE table_id = ?", (table_id,))
        if row is None:
            return None
        try:
            ref = json.loads(row[0]).get("tournament")
        except (ValueError, AttributeError):
            return None
        return ref if isinstance(ref, str) else None

    async def saved(self, tx: Tx, table_id: str) -> Table | None:
        """The table as it is saved now (None when it is closed, gone or unreadable)."""
        row = await tx.fetchone("SELECT status, version, state FROM tables WHERE table_id = ?", (table_id,))
        if row is None or row[0] == "closed":
            return None
        try:
            table = Table.from_json(json.loads(row[2]))
        except (TableFormatError, ValueError):
            return None
        table.version = int(row[1])
        return table

    async def landed(self, table: Table, version: int) -> bool:
        """After a fault, whether this exact table was saved as ``version`` after all (exactly once)."""
        try:
            row = await self.db.fetchone("SELECT version, state FROM tables WHERE table_id = ?", (table.id,))
        except StoreError:
            return False
        return (
            row is not None
            and int(row[0]) == version
            and json.loads(row[1]) == json.loads(json.dumps(table.to_json()))
        )

    async def load_open(self, owns: Callable[[int], bool]) -> tuple[list[Table], list[Unreadable]]:
        """Open tables of the servers this process ``owns``, and the ones this version can not read."""
        rows = await self.db.fetchall(
            "SELECT table_id, guild_id, channel_id, chips, refunds, version, state FROM tables"
            " WHERE status != 'closed'"
        )
        good: list[Table] = []
        bad: list[Unreadable] = []
        for table_id, guild_id, channel_id, chips, refunds, version, state in rows:
            if not owns(int(guild_id)):
                continue  # another process runs that server's shard, and this table
            try:
                table = Table.from_json(json.loads(state))
            except (TableFormatError, ValueError) as e:
                owed = {int(u): int(a) for u, a in json.loads(refunds).items()}
                bad.append(Unreadable(table_id, guild_id, channel_id, chips, owed, str(e)))
                continue
            table.version = int(version)
            good.append(table)
        return good, bad

    async def ended(self, table_id: str) -> Table | None:
        """A closed table as it was saved; None if unknown, open or unreadable."""
        row = await self.db.fetchone(
            "SELECT state FROM tables WHERE table_id = ? AND status = 'closed'", (table_id,)
        )
        if row is None:
            return None
        try:
            return Table.from_json(json.loads(row[0]))
        except (TableFormatError, ValueError):
            return None

    async def mark_closed(self, tx: Tx, table_id: str) -> None:
        """Close an unreadable table's row (its refunds are paid in the same transaction)."""
        await tx.execute(
            "UPDATE tables SET status = 'closed', chips = 0, refunds = '{}', updated_at = ?"
            " WHERE table_id = ?",
            (self.clock(), table_id),
        )
