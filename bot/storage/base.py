"""What every store promises, whichever database is behind it.

The ledger, the table store and the runtime see only this: ``async with
store.transaction() as tx`` for atomic work, ``store.fetchall/fetchone`` for
reads, ``?`` placeholders, plain portable SQL. ``bot.storage.open_store(target)``
picks the implementation from the target: a path or ``sqlite:///path`` is the
embedded SQLite file, ``postgresql://…`` is a PostgreSQL server. This module
knows none of the implementations; they import it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, ClassVar, Protocol
from urllib.parse import urlsplit

from bot.storage.migrations import SCHEMA_VERSION, Migration, migration_failed, migrations, too_new_message

Row = tuple[Any, ...]


class StoreError(Exception):
    """The store can not be used; the message tells the operator what to do."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot than this one."""


class IntegrityError(StoreError):
    """A statement broke a rule the schema keeps: a CHECK, a key, or an append-only table."""


class Conflict(StoreError):
    """The transaction lost a race with another writer and was rolled back whole; it may be retried.

    PostgreSQL raises it for a deadlock (two transactions locking the same rows
    in opposite orders); SQLite when another process held the file's write
    lock for longer than the busy timeout.
    """


class Unavailable(StoreError):
    """The database could not be reached or stopped answering mid-transaction; the work was not committed.

    A connection killed or reset, a pool that must reconnect, a statement or
    lock that timed out, SQLite's file failing. The transaction was rolled back
    (or never began); one whose COMMIT was cut off may still have landed, which
    the caller can find out by reading what it wrote.
    """


class Tx(Protocol):
    """The work inside one open transaction."""

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row, or None."""
        ...

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row."""
        ...

    async def lock_table(self, table_id: str) -> None:
        """Hold the table's lock until this transaction ends, across every process on the store."""
        ...


def parse_target(target: str | Path) -> tuple[str, str]:
    """``(dialect, where)`` for a path or a URL; raise ``StoreError`` for anything else."""
    if isinstance(target, Path):
        return "sqlite", str(target)
    if target.startswith("sqlite:///"):
        path = target.removeprefix("sqlite:///")
        if not path:
            raise StoreError("A sqlite URL needs a file: sqlite:///data/flipflop.sqlite3")
        return "sqlite", path
    if target.startswith(("postgresql://", "postgres://")):
        return "postgres", target
    if "://" in target:
        scheme = target.split("://", 1)[0]
        raise StoreError(
            f"DATABASE_URL scheme {scheme!r} is not supported: use sqlite:///path or postgresql://…"
        )
    return "sqlite", target


def store_target(database_url: str | None, database_path: Path) -> str | Path:
    """``DATABASE_URL`` when it is set, else ``DATABASE_PATH`` (the SQLite fallback that always worked).

    A malformed URL raises ``StoreError`` here, at start-up, before anything opens.
    """
    if database_url is None or not database_url.strip():
        return database_path
    parse_target(database_url.strip())
    return database_url.strip()


class Store:
    """The bot's database: one of the implementations in ``bot.storage`` (``open_store`` makes one)."""

    dialect: ClassVar[str]
    """``"sqlite"`` or ``"postgres"``: the folder its migrations live in."""
    driver_errors: ClassVar[tuple[type[Exception], ...]]
    """What the driver raises when a statement fails (a failed migration is reported as ``StoreError``)."""

    async def open(self) -> None:
        """Connect and bring the schema up to date (``SchemaTooNew`` if it is ahead of the code)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Let go of every connection; safe to call twice."""
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One atomic unit of work; rolled back if anything in it raises."""
        raise NotImplementedError

    @property
    def where(self) -> str:
        """The database, named for the operator (never with a password)."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The migration the database is at (0 for a new one)."""
        raise NotImplementedError

    async def migrate(self) -> int:
        """Apply every migration file newer than the database, each in its own transaction."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise SchemaTooNew(too_new_message(self.where, current))
        for m in [m for m in migrations(self.dialect) if m.version > current]:
            try:
                await self._apply(m)
            except self.driver_errors as e:
                raise StoreError(migration_failed(m.name, self.where, e)) from e
        return SCHEMA_VERSION

    async def _apply(self, m: Migration) -> None:
        """Run one migration script and record its version, in one transaction."""
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """A read outside any transaction the caller holds."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row of a read, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def __aenter__(self) -> Store:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not a URL one can read (a bad port): said whole but for what looks like a password
        return url.split("@", 1)[-1] if "@" in url else url
    shown = url
    if password is not None:
        shown = shown.replace(f":{password}@", ":***@", 1)
    if parts.query:  # redis://host/0?password=…
        shown = shown.replace(parts.query, re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parts.query), 1)
    return shown
