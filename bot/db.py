"""One SQLite file through aiosqlite: WAL, foreign keys, versioned forward migrations.

All work goes through ``Database.transaction()``: one connection, one asyncio
lock, ``BEGIN IMMEDIATE`` … ``COMMIT``, so a ledger entry, the balance it
changes and a saved table are written together or not at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS: list[str] = [
    # 1: accounts, the ledger, server settings, saved tables
    """
    CREATE TABLE accounts (
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        balance    INTEGER NOT NULL CHECK (balance >= 0),
        last_daily REAL,
        created_at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE ledger (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        change        INTEGER NOT NULL,
        balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
        reason        TEXT NOT NULL,
        reference     TEXT,
        actor_id      INTEGER,
        created_at    REAL NOT NULL,
        FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
    );
    CREATE INDEX ledger_by_account ON ledger (guild_id, user_id);
    CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_is_append_only_d BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TABLE guild_settings (
        guild_id         INTEGER PRIMARY KEY,
        starting_balance INTEGER NOT NULL,
        daily_amount     INTEGER NOT NULL,
        default_stake    INTEGER NOT NULL,
        default_buy_in   INTEGER NOT NULL,
        turn_seconds     INTEGER NOT NULL
    );
    CREATE TABLE tables (
        table_id   TEXT PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        status     TEXT NOT NULL,
        chips      INTEGER NOT NULL CHECK (chips >= 0),
        refunds    TEXT NOT NULL,
        version    INTEGER NOT NULL,
        state      TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tables_open ON tables (status, guild_id);
    """,
    # 2: finished rounds, append-only: one row per round with its transcript and result
    """
    CREATE TABLE rounds (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        table_id   TEXT NOT NULL,
        number     INTEGER NOT NULL,
        ended_at   REAL NOT NULL,
        transcript TEXT NOT NULL,
        result     TEXT NOT NULL
    );
    CREATE TABLE round_players (
        round_id INTEGER NOT NULL REFERENCES rounds (id),
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (round_id, user_id)
    );
    CREATE INDEX rounds_by_guild ON rounds (guild_id, id);
    CREATE INDEX round_players_by_user ON round_players (guild_id, user_id, round_id);
    CREATE TRIGGER rounds_are_append_only_u BEFORE UPDATE ON rounds
        BEGIN SELECT RAISE(ABORT, 'rounds are append-only'); END;
    CREATE TRIGGER rounds_are_append_only_d BEFORE DELETE ON rounds
        BEGIN SELECT RAISE(ABORT, 'rounds are append-only'); END;
    CREATE TRIGGER round_players_are_append_only_u BEFORE UPDATE ON round_players
        BEGIN SELECT RAISE(ABORT, 'round players are append-only'); END;
    CREATE TRIGGER round_players_are_append_only_d BEFORE DELETE ON round_players
        BEGIN SELECT RAISE(ABORT, 'round players are append-only'); END;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class Database:
    """The bot's one database file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        """Open the file (creating its folder), set WAL and foreign keys, migrate."""
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=5000"):
            await Tx(conn).execute(f"PRAGMA {pragma}")
        self._conn = conn
        await self.migrate()

    async def migrate(self) -> int:
        """Run every migration newer than the file's ``user_version``; return the version."""
        conn = self.conn
        async with conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = int(row[0]) if row else 0
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} has schema version {current}, newer than this bot's {SCHEMA_VERSION}."
            )
        for version in range(current, SCHEMA_VERSION):
            async with self.transaction() as tx:
                await tx.executescript_in_tx(MIGRATIONS[version])
                await tx.execute(f"PRAGMA user_version={version + 1}")
        return SCHEMA_VERSION

    @property
    def conn(self) -> aiosqlite.Connection:
        """The open connection (use ``transaction()`` to write)."""
        if self._conn is None:
            raise RuntimeError("The database is not open.")
        return self._conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One atomic unit of work; rolled back if anything in it raises."""
        async with self._lock:
            tx = Tx(self.conn)
            await tx.execute("BEGIN IMMEDIATE")
            try:
                yield tx
            except BaseException:
                await tx.execute("ROLLBACK")
                raise
            await tx.execute("COMMIT")

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """A read, serialised with the writes."""
        async with self._lock, self.conn.execute(sql, tuple(params)) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of a read, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def close(self) -> None:
        """Checkpoint and close."""
        if self._conn is not None:
            async with self._lock:
                await Tx(self._conn).execute("PRAGMA wal_checkpoint(TRUNCATE)")
                await self._conn.close()
            self._conn = None


class Tx:
    """The connection inside a transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        async with self.conn.execute(sql, tuple(params)) as cur:
            return cur.rowcount

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        """The first row, or None."""
        async with self.conn.execute(sql, tuple(params)) as cur:
            row = await cur.fetchone()
        return tuple(row) if row is not None else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row."""
        async with self.conn.execute(sql, tuple(params)) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def executescript_in_tx(self, script: str) -> None:
        """Run each statement of a script inside the open transaction."""
        for statement in _split(script):
            await self.execute(statement)


def _split(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    out: list[str] = []
    buf = ""
    for piece in script.split(";"):
        buf += piece + ";"
        if buf.strip(" \n;") and buf.count("BEGIN") == buf.count("END;"):
            out.append(buf.strip())
            buf = ""
    return [s for s in out if s.strip(" \n;")]
