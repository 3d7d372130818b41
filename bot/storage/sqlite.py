"""The default store: one SQLite file through aiosqlite (WAL, foreign keys).

One connection and one asyncio lock; every transaction is ``BEGIN IMMEDIATE``
… ``COMMIT``, so writers never interleave and a ledger entry, the balance it
changes and a saved table are written together or not at all. That global
write lock is also why ``lock_table`` has nothing to do here.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import Conflict, IntegrityError, Row, Store, StoreError, Unavailable, parse_target
from bot.storage.migrations import Migration

MIN_SQLITE = (3, 35, 0)
"""``RETURNING`` (3.35) is part of the portable SQL both stores speak."""
PRAGMAS = ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL")


class SqliteStore(Store):
    """The bot's one database file."""

    dialect = "sqlite"
    driver_errors = (sqlite3.Error,)

    def __init__(self, target: str | Path, *, busy_timeout_ms: int = 5000) -> None:
        self.path = Path(parse_target(target)[1])
        self.busy_timeout_ms = busy_timeout_ms
        """How long to wait for another process's write lock before ``Conflict``."""
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        """Open the file (creating its folder), set WAL and foreign keys, migrate."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(
                f"This Python's SQLite is {sqlite3.sqlite_version}; the bot needs"
                f" {'.'.join(map(str, MIN_SQLITE))} or newer (for INSERT … RETURNING)."
                " Use a newer Python build, or PostgreSQL."
            )
        if str(self.path) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(
                    f"Can not make the database's folder {self.path.parent}: {e.strerror or e}."
                    " Set DATABASE_PATH (or DATABASE_URL) to a file in a folder the bot may write to."
                ) from None
        try:
            conn = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"Can not open the database file {self.path}: {e}.") from None
        try:
            for pragma in (*PRAGMAS, f"busy_timeout={int(self.busy_timeout_ms)}"):
                await SqliteTx(conn).execute(f"PRAGMA {pragma}")
            self._conn = conn
            await self.migrate()
        except BaseException:
            self._conn = None
            await conn.close()
            raise

    async def schema_version(self) -> int:
        """The file's ``PRAGMA user_version``."""
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    @property
    def where(self) -> str:
        """The file's path."""
        return str(self.path)

    async def _apply(self, m: Migration) -> None:
        """``executescript`` runs a whole script; the runner writes the transaction around it."""
        script = f"BEGIN IMMEDIATE;\n{m.sql}\nPRAGMA user_version = {m.version};\nCOMMIT;"
        async with self._lock:
            try:
                await self.conn.executescript(script)
            except BaseException:
                if self.conn.in_transaction:
                    await SqliteTx(self.conn).execute("ROLLBACK")
                raise

    @property
    def conn(self) -> aiosqlite.Connection:
        """The open connection (use ``transaction()`` to write)."""
        if self._conn is None:
            raise StoreError("The database is not open.")
        return self._conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """One atomic unit of work; rolled back if anything in it raises, a cancellation included.

        A statement whose caller is cancelled still runs in aiosqlite's thread (a ``BEGIN``
        waiting for another process's lock opens its transaction later); the rollback queued
        behind it closes whatever it opened before the next transaction may begin.
        """
        async with self._lock:
            tx = SqliteTx(self.conn)
            try:
                await tx.execute("BEGIN IMMEDIATE")
                yield tx
                await tx.execute("COMMIT")
            except BaseException:
                await _rollback(self.conn)
                raise

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """A read, serialised with the writes (they share the one connection)."""
        async with self._lock:
            return await SqliteTx(self.conn).fetchall(sql, params)

    async def close(self) -> None:
        """Checkpoint and close."""
        if self._conn is not None:
            async with self._lock:
                await SqliteTx(self._conn).execute("PRAGMA wal_checkpoint(TRUNCATE)")
                await self._conn.close()
            self._conn = None


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back what is open once the statements queued before it have run, even if cancelled meanwhile.

    sqlite3's ``rollback`` does nothing outside a transaction (a ``BEGIN`` that failed, a ``COMMIT``
    that landed). A driver error here is not raised over the caller's own error: the file's
    transaction ends with the connection at worst. A cancellation meanwhile is raised once it is done.
    """
    done = asyncio.ensure_future(conn.rollback())
    cancelled = False
    while not done.done():
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            cancelled = True  # the rollback still has to finish before the lock is let go
        except sqlite3.Error:
            break
    if cancelled:
        raise asyncio.CancelledError


@contextmanager
def _translated() -> Iterator[None]:
    """Driver errors a caller may handle, as the store's own; anything else as it was."""
    try:
        yield
    except sqlite3.IntegrityError as e:
        raise IntegrityError(str(e)) from e
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):  # another process held the write lock past the timeout
            raise Conflict(str(e)) from e
        raise Unavailable(f"{type(e).__name__}: {e}") from e
    except (sqlite3.DatabaseError, ValueError) as e:  # a failing file; a connection closed under us
        raise Unavailable(f"{type(e).__name__}: {e}") from e


class SqliteTx:
    """The connection inside a transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        with _translated():
            async with self.conn.execute(sql, tuple(params)) as cur:
                return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        with _translated():
            await self.conn.executemany(sql, [tuple(r) for r in rows])

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row, or None."""
        with _translated():
            async with self.conn.execute(sql, tuple(params)) as cur:
                row = await cur.fetchone()
        return tuple(row) if row is not None else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row."""
        with _translated():
            async with self.conn.execute(sql, tuple(params)) as cur:
                return [tuple(r) for r in await cur.fetchall()]

    async def lock_table(self, table_id: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the file's one write lock."""
