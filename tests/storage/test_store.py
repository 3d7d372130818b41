"""The store contract: what ``Store`` promises on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

import bot.storage.base
from bot.storage import (
    SCHEMA_VERSION,
    Conflict,
    IntegrityError,
    SchemaTooNew,
    Store,
    StoreError,
    open_store,
    store_target,
)
from bot.storage.migrations import Migration, migrations
from bot.storage.postgres import redact, to_dollar
from bot.storage.sqlite import SqliteStore
from tests.storage.conftest import TEST_DATABASE_URL, with_search_path

BIG = 2**62 + 7  # Discord ids do not fit in 32 bits


async def test_a_new_database_is_migrated_once(
    target: str, dialect: str, sql_for: Callable[[str], str]
) -> None:
    async with open_store(target) as db:
        assert db.dialect == dialect
        assert await db.schema_version() == SCHEMA_VERSION == migrations(dialect)[-1].version
        for name in ("accounts", "ledger", "guild_settings", "tables", "rounds", "round_players"):
            assert await db.fetchone(sql_for("has_table"), (name,)) == (1,), name
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (?, 1, 2, 3, 12, 60, 1, 'thread', 3)", (BIG,))
    async with open_store(target) as again:  # reopening migrates nothing and keeps the data
        assert await again.schema_version() == SCHEMA_VERSION
        assert await again.fetchall("SELECT guild_id, default_buy_in FROM guild_settings") == [(BIG, 12)]


async def test_a_newer_schema_refuses_to_start(target: str, sql_for: Callable[[str], str]) -> None:
    async with open_store(target) as db, db.transaction() as tx:
        await tx.execute(sql_for("set_version"))
    with pytest.raises(
        SchemaTooNew, match=f"schema version 99, but this bot knows only up to {SCHEMA_VERSION}"
    ):
        await open_store(target).open()


async def test_a_failed_migration_is_rolled_back_whole(
    target: str, monkeypatch: pytest.MonkeyPatch, sql_for: Callable[[str], str]
) -> None:
    async with open_store(target):
        pass
    bad = Migration(
        SCHEMA_VERSION + 1, "9999_bad.sql", "CREATE TABLE half (x INTEGER);\nSELECT no_such_function();"
    )
    monkeypatch.setattr(bot.storage.base, "migrations", lambda d: (*migrations(d), bad))
    monkeypatch.setattr(bot.storage.base, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StoreError, match="Migration 9999_bad.sql failed .* rolled back"):
        await open_store(target).open()
    monkeypatch.undo()
    async with open_store(target) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        assert await db.fetchone(sql_for("has_table"), ("half",)) == (0,)


async def test_database_picks_the_store_from_the_target(tmp_path: Path) -> None:
    assert type(open_store(tmp_path / "a.sqlite3")).__name__ == "SqliteStore"
    assert type(open_store(f"sqlite:///{tmp_path}/a.sqlite3")).__name__ == "SqliteStore"
    assert type(open_store("postgresql://u@h/db")).__name__ == "PostgresStore"
    with pytest.raises(StoreError, match="scheme 'mysql' is not supported"):
        open_store("mysql://u@h/db")
    with pytest.raises(StoreError, match="needs a file"):
        open_store("sqlite:///")


def test_database_url_wins_over_database_path() -> None:
    path = Path("data/flipflop.sqlite3")
    assert store_target(None, path) == path
    assert store_target("  ", path) == path
    assert store_target(" postgresql://bot@db/ff ", path) == "postgresql://bot@db/ff"
    assert store_target("sqlite:///other.sqlite3", path) == "sqlite:///other.sqlite3"
    with pytest.raises(StoreError, match="scheme 'redis' is not supported"):
        store_target("redis://localhost", path)


async def test_an_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(
        StoreError, match=r"Can not connect to PostgreSQL at postgresql://u:\*\*\*@127.0.0.1:1/x"
    ):
        await open_store("postgresql://u:secret@127.0.0.1:1/x").open()


def test_placeholders_become_numbered_outside_quotes() -> None:
    assert to_dollar("SELECT '?', \"a?\" FROM t WHERE a = ? AND b = 'it''s?' AND c = ?") == (
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b = 'it''s?' AND c = $2"
    )
    assert redact("postgresql://bot:hunter2@db:5432/ff") == "postgresql://bot:***@db:5432/ff"
    assert redact("redis://cache/0?db=1&password=S3cret") == "redis://cache/0?db=1&password=***"
    assert redact("unix:///tmp/r.sock?password=x") == "unix:///tmp/r.sock?password=***"
    assert redact("postgresql://bot@db/ff?search_path=s") == "postgresql://bot@db/ff?search_path=s"


async def test_a_transaction_commits_whole_or_not_at_all(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings VALUES (1, 1, 1, 1, 4, 60, 1, 'thread', 3)")
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (2, 1, 1, 1, 4, 60, 1, 'thread', 3)")
            assert await tx.fetchone("SELECT COUNT(*) FROM guild_settings") == (2,)  # sees its own write
            raise RuntimeError("boom")
    assert await store.fetchall("SELECT guild_id FROM guild_settings") == [(1,)]


async def test_big_ids_reals_upsert_returning_and_sums(store: Store) -> None:
    """The portable SQL the callers use: ON CONFLICT … DO UPDATE, RETURNING, SUM as a whole number."""
    upsert = (
        "INSERT INTO tables (table_id, guild_id, channel_id, status, chips, refunds, version, state,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
        " status = excluded.status, chips = excluded.chips, updated_at = excluded.updated_at"
    )
    async with store.transaction() as tx:
        assert await tx.execute(upsert, ("t1", BIG, BIG + 1, "lobby", 10, "{}", 1, "{}", 1.5)) == 1
        assert await tx.execute(upsert, ("t1", BIG, BIG + 1, "playing", 30, "{}", 1, "{}", 1000)) == 1
        await tx.execute(upsert, ("t2", BIG, BIG + 1, "closed", 0, "{}", 1, "{}", 2.25))
        row = await tx.fetchone(
            "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
            " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (BIG, "t1", 1, 3.5, "[]", "{}"),
        )
        assert row == (1,)
        assert await tx.execute("UPDATE tables SET chips = chips + ? WHERE guild_id = ?", (1, BIG)) == 2
    assert await store.fetchall(
        "SELECT table_id, guild_id, status, chips, updated_at FROM tables ORDER BY table_id"
    ) == [
        ("t1", BIG, "playing", 31, 1000.0),
        ("t2", BIG, "closed", 1, 2.25),
    ]
    total = await store.fetchone("SELECT COALESCE(SUM(chips), 0) FROM tables WHERE status != 'closed'")
    assert total == (31,) and type(total[0]) is int
    assert await store.fetchone("SELECT table_id FROM tables WHERE table_id = ?", ("nope",)) is None


async def test_checks_and_keys_raise_one_integrity_error(store: Store) -> None:
    for bad in (
        "INSERT INTO tables VALUES ('t', 1, 1, 'lobby', -1, '{}', 1, '{}', 0)",
        "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (1, 1, -5, 0)",
        "INSERT INTO ledger (guild_id, user_id, change, balance_after, reason, created_at)"
        " VALUES (1, 404, 1, 1, 'grant', 0)",  # no such account
    ):
        with pytest.raises(IntegrityError):
            async with store.transaction() as tx:
                await tx.execute(bad)
    assert await store.fetchone("SELECT COUNT(*) FROM tables") == (0,)


async def test_executemany_inserts_every_row(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.executemany(
            "INSERT INTO guild_settings VALUES (?, 1, 1, 1, 4, 60, 1, 'thread', 3)", [(g,) for g in range(50)]
        )
    assert await store.fetchone("SELECT COUNT(*), SUM(guild_id) FROM guild_settings") == (50, sum(range(50)))


async def _bump_slowly(db: Store, lock: bool) -> None:
    """Read a counter, wait, write it back plus one: a lost update unless something serialises us."""
    async with db.transaction() as tx:
        if lock:
            await tx.lock_table("t1")
        row = await tx.fetchone("SELECT chips FROM tables WHERE table_id = 't1'")
        assert row is not None
        await asyncio.sleep(0.01)
        await tx.execute("UPDATE tables SET chips = ? WHERE table_id = 't1'", (row[0] + 1,))


@pytest.mark.parametrize("lock", [True, False])
async def test_lock_table_serialises_two_stores(target: str, dialect: str, lock: bool) -> None:
    """Two pools on one database, as two bot processes: ``lock_table`` lets one at a time in."""
    async with open_store(target) as one, open_store(target) as two:
        async with one.transaction() as tx:
            await tx.execute("INSERT INTO tables VALUES ('t1', 1, 1, 'playing', 0, '{}', 1, '{}', 0)")
        await asyncio.gather(*(_bump_slowly(db, lock) for _ in range(10) for db in (one, two)))
        chips = (await one.fetchone("SELECT chips FROM tables WHERE table_id = 't1'") or (0,))[0]
    if lock or dialect == "sqlite":  # SQLite's one write lock serialises even without it
        assert chips == 20
    else:
        assert chips < 20  # the control: without the lock PostgreSQL loses updates


@pytest.mark.parametrize("dialect", ["postgres"])  # SQLite has one write lock for the whole file
async def test_lock_table_does_not_block_other_tables(target: str) -> None:
    async with open_store(target) as one, open_store(target) as two:
        async with one.transaction() as tx:
            await tx.lock_table("t1")
            async with two.transaction() as other:
                await asyncio.wait_for(other.lock_table("t2"), timeout=2)
            with pytest.raises(TimeoutError):
                async with two.transaction() as other:
                    await asyncio.wait_for(other.lock_table("t1"), timeout=0.3)


@pytest.mark.parametrize("dialect", ["postgres"])
async def test_lock_table_in_another_schema_of_the_database_does_not_wait(target: str) -> None:
    """Advisory locks are the database's; their keys name the schema, so a bot in another schema goes on."""
    schema = f"test_other_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        async with open_store(target) as one, open_store(with_search_path(TEST_DATABASE_URL, schema)) as two:
            assert (one.schema, two.schema) == (target.rsplit("=", 1)[1], schema)  # type: ignore[attr-defined]
            async with one.transaction() as tx:
                await tx.lock_table("t1")
                async with two.transaction() as other:
                    await asyncio.wait_for(other.lock_table("t1"), timeout=2)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@pytest.mark.parametrize("dialect", ["postgres"])  # SQLite's one write lock can not deadlock
async def test_a_deadlock_is_a_conflict_and_writes_nothing(target: str) -> None:
    async with open_store(target) as one, open_store(target) as two:
        async with one.transaction() as tx:
            await tx.executemany(
                "INSERT INTO guild_settings VALUES (?, 1, 1, 1, 4, 60, 1, 'thread', 3)", [(1,), (2,)]
            )
        both_hold_one = asyncio.Barrier(2)

        async def cross(db: Store, first: int, second: int) -> str:
            try:
                async with db.transaction() as tx:
                    await tx.execute(
                        "UPDATE guild_settings SET turn_seconds = 99 WHERE guild_id = ?", (first,)
                    )
                    await both_hold_one.wait()
                    await tx.execute(
                        "UPDATE guild_settings SET turn_seconds = 99 WHERE guild_id = ?", (second,)
                    )
            except Conflict:
                return "conflict"
            return "committed"

        outcomes = await asyncio.gather(cross(one, 1, 2), cross(two, 2, 1))
        assert sorted(outcomes) == ["committed", "conflict"]
        assert await one.fetchall("SELECT turn_seconds FROM guild_settings ORDER BY guild_id") == [
            (99,),
            (99,),
        ]


async def test_a_sqlite_file_locked_too_long_is_a_conflict(tmp_path: Path) -> None:
    """Two processes on one file: the second writer waits out its busy timeout, then gets ``Conflict``."""
    path = tmp_path / "shared.sqlite3"
    async with open_store(path) as one, SqliteStore(path, busy_timeout_ms=50) as two:
        async with one.transaction():
            with pytest.raises(Conflict, match="database is locked"):
                async with two.transaction() as tx:
                    await tx.execute("INSERT INTO guild_settings VALUES (2, 1, 1, 1, 4, 60, 1, 'thread', 3)")
        async with two.transaction() as tx:  # free again once the first lets go
            await tx.execute("INSERT INTO guild_settings VALUES (3, 1, 1, 1, 4, 60, 1, 'thread', 3)")
        assert await one.fetchall("SELECT guild_id FROM guild_settings") == [(3,)]


async def _insert_guild(store: Store, guild: int) -> None:
    async with store.transaction() as tx:
        await tx.execute(f"INSERT INTO guild_settings VALUES ({guild}, 1, 1, 1, 4, 60, 1, 'thread', 3)")
        await tx.execute(f"UPDATE guild_settings SET default_stake = 2 WHERE guild_id = {guild}")


async def test_a_transaction_cancelled_anywhere_leaves_the_store_usable(store: Store) -> None:
    """A task cancelled at any point of a transaction (a shutdown, a timeout) writes all or nothing.

    The next transaction starts as usual: a cancelled ``BEGIN``, statement or ``COMMIT`` still
    runs in the driver, and what it left open is closed before anyone else gets the store.
    """
    turns = [("turns", n) for n in range(12)] + [("ms", n) for n in range(1, 12)]
    for guild, (unit, n) in enumerate(turns, start=1):
        task = asyncio.create_task(_insert_guild(store, guild))
        if unit == "ms":
            await asyncio.sleep(n / 1000)
        for _ in range(n if unit == "turns" else 0):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.wait_for(_insert_guild(store, 1000 + guild), 10)  # the store still writes
        row = await store.fetchone(
            f"SELECT COUNT(*), MIN(default_stake) FROM guild_settings WHERE guild_id = {guild}"
        )
        assert row in ((0, None), (1, 2)), (unit, n, row)  # whole or not at all


async def test_a_sqlite_begin_cancelled_while_waiting_for_the_lock_is_rolled_back(tmp_path: Path) -> None:
    """Cancelled while ``BEGIN IMMEDIATE`` waits for another process: the transaction it opens is closed."""
    path = tmp_path / "shared.sqlite3"
    async with open_store(path) as one, SqliteStore(path, busy_timeout_ms=2000) as two:
        async with one.transaction():
            task = asyncio.create_task(_insert_guild(two, 1))
            await asyncio.sleep(0.2)  # two's BEGIN IMMEDIATE waits in the driver's thread
            task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.wait_for(_insert_guild(two, 2), 10)
        assert await one.fetchall("SELECT guild_id FROM guild_settings") == [(2,)]
