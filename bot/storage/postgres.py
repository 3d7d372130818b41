"""The shared store: PostgreSQL through an asyncpg connection pool.

Several bot processes may write at once, so safety comes from the database,
not from an in-process lock:

- each ``transaction()`` is one PostgreSQL transaction on one pooled
  connection (READ COMMITTED), committed whole or rolled back whole;
- a debit is one conditional ``UPDATE … WHERE balance >= ?``: a concurrent
  writer of the same account waits on its row lock, then the condition is
  checked again against the committed balance, so two debits can never both
  spend the same chips, and ``CHECK (balance >= 0)`` backs that up;
- everything that reads, decides, then writes one table's state takes
  ``tx.lock_table(table_id)`` first: ``pg_advisory_xact_lock``, held by one
  transaction in any process until it commits or rolls back. Advisory locks
  belong to the whole database, so their keys name the schema too: two bots
  (or two test runs) in two schemas of one database never wait on each other.

Callers write SQLite-style ``?`` placeholders; they become ``$1, $2, …`` here.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from decimal import Decimal
from functools import lru_cache
from typing import Any

import asyncpg

from bot.storage.base import Conflict, IntegrityError, Row, Store, StoreError, Unavailable, redact
from bot.storage.migrations import Migration

SCHEMA = "SELECT COALESCE(current_schema(), current_setting('search_path'))"
"""The schema new tables go in (before the first migration it may not exist yet: the search path then)."""
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")
MIGRATION_LOCK = "\0migrating"
"""The advisory lock held while migrating (no table id starts with NUL): two processes starting together
migrate once."""
CONNECT_SECONDS = 10.0
"""A PostgreSQL server that has not answered a new connection by then is not answering."""


@lru_cache(maxsize=2048)
def to_dollar(sql: str) -> str:
    """``?`` placeholders as ``$1, $2, …``, leaving quoted text alone."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def lock_key(table_id: str, schema: str = "") -> int:
    """A table id in a schema as the 64-bit key ``pg_advisory_xact_lock`` takes (every process alike)."""
    named = f"{schema}\0{table_id}".encode()
    return int.from_bytes(hashlib.blake2b(named, digest_size=8).digest(), "big", signed=True)


def _value(v: Any) -> Any:
    """SQLite's types for PostgreSQL's: ``SUM`` of BIGINT is NUMERIC, read back as an int."""
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v


def _row(record: asyncpg.Record) -> Row:
    return tuple(_value(v) for v in record.values())


BROKEN = (
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    OSError,
)
"""A connection that can not go on: killed or reset (the server's "terminating connection" comes as an
operator intervention, or the client finds its protocol mid-operation), a pool reconnecting, a
timeout (``TimeoutError`` is an ``OSError``). A query cancelled by a statement timeout is also an
operator intervention, but a ``Conflict`` (caught first): the connection itself is fine."""


def _rowcount(status: str) -> int:
    """The row count at the end of a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


@contextmanager
def _translated() -> Iterator[None]:
    """Driver errors a caller may handle, as the store's own; anything else as it was."""
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as e:
        raise IntegrityError(str(e)) from e
    except (
        asyncpg.DeadlockDetectedError,
        asyncpg.SerializationError,
        asyncpg.LockNotAvailableError,
        asyncpg.QueryCanceledError,
    ) as e:
        raise Conflict(str(e)) from e
    except BROKEN as e:
        raise Unavailable(f"{type(e).__name__}: {e}") from e


class PostgresStore(Store):
    """One PostgreSQL database (or schema, via ``?search_path=``) shared by every bot process."""

    dialect = "postgres"
    driver_errors = (asyncpg.PostgresError,)

    def __init__(self, target: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = str(target)
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None
        self.schema = ""
        """The schema the store's tables are in (its advisory locks' keys name it)."""

    async def open(self) -> None:
        """Open the pool and bring the schema up to date."""
        try:
            self._pool = await asyncpg.create_pool(
                self.url, min_size=self.min_size, max_size=self.max_size, timeout=CONNECT_SECONDS
            )
            self.schema = str(await self._pool.fetchval(SCHEMA))
        except TimeoutError:  # its text is empty: say what happened
            raise StoreError(
                f"Can not connect to PostgreSQL at {self.where}: no answer within {CONNECT_SECONDS:g} s"
            ) from None
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise StoreError(f"Can not connect to PostgreSQL at {self.where}: {e}") from None
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    @property
    def pool(self) -> asyncpg.Pool:
        """The open pool."""
        if self._pool is None:
            raise StoreError("The database is not open.")
        return self._pool

    async def schema_version(self) -> int:
        """The row in ``schema_version`` (0 before the first migration)."""
        row = await self.fetchone("SELECT to_regclass('schema_version') IS NOT NULL")
        if not row or not row[0]:
            return 0
        row = await self.fetchone("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    @property
    def where(self) -> str:
        """The URL without its password."""
        return redact(self.url)

    async def _apply(self, m: Migration) -> None:
        """One migration and its version in one transaction, under the migration lock."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", lock_key(MIGRATION_LOCK, self.schema))
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            done = await conn.fetchval("SELECT version FROM schema_version")
            if done is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
            elif done >= m.version:
                return  # another process got there first
            await conn.execute(m.sql)  # a whole script: asyncpg sends it as one simple query
            await conn.execute("UPDATE schema_version SET version = $1", m.version)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        """One PostgreSQL transaction on one pooled connection.

        Faults of the connection itself (acquiring it, BEGIN, COMMIT) come out as
        the store's own errors; the caller's errors pass through unchanged. A
        rollback on a connection that is already dead has nothing left to undo.
        """
        with _translated():
            conn = await self.pool.acquire()
        try:
            transaction = conn.transaction()
            with _translated():
                await transaction.start()
            try:
                yield PostgresTx(conn, self.schema)
            except BaseException:
                try:
                    await transaction.rollback()
                except BROKEN:
                    pass  # the connection died with the transaction: nothing was committed
                raise
            with _translated():
                await transaction.commit()
        finally:
            try:
                await self.pool.release(conn)
            except BROKEN:
                pass  # a broken connection is closed by the pool, which opens a new one when asked

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """A read on any free connection of the pool."""
        with _translated():
            records = await self.pool.fetch(to_dollar(sql), *params)
        return [_row(r) for r in records]

    async def close(self) -> None:
        """Close the pool (waiting for connections in use to be released)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()


class PostgresTx:
    """One pooled connection inside its transaction."""

    def __init__(self, conn: asyncpg.pool.PoolConnectionProxy[asyncpg.Record], schema: str = "") -> None:
        self.conn = conn
        self.schema = schema

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        with _translated():
            status = await self.conn.execute(to_dollar(sql), *params)
        return _rowcount(status)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters (one round trip)."""
        with _translated():
            await self.conn.executemany(to_dollar(sql), [tuple(r) for r in rows])

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row, or None."""
        with _translated():
            record = await self.conn.fetchrow(to_dollar(sql), *params)
        return _row(record) if record is not None else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row."""
        with _translated():
            records = await self.conn.fetch(to_dollar(sql), *params)
        return [_row(r) for r in records]

    async def lock_table(self, table_id: str) -> None:
        """``pg_advisory_xact_lock``: wait until no other transaction, in any process, holds this table."""
        with _translated():
            await self.conn.execute("SELECT pg_advisory_xact_lock($1)", lock_key(table_id, self.schema))
