"""What only the SQLite file has: its folder, WAL, its version pragma."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import SCHEMA_VERSION, StoreError, open_store


async def test_a_new_file_gets_its_folder_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "new" / "db.sqlite3"
    async with open_store(path) as db:
        assert path.exists()
        assert await db.fetchone("PRAGMA user_version") == (SCHEMA_VERSION,)
        assert await db.fetchone("PRAGMA journal_mode") == ("wal",)
        assert await db.fetchone("PRAGMA foreign_keys") == (1,)


async def test_a_file_made_by_the_old_migration_list_upgrades(tmp_path: Path) -> None:
    """Databases from before the SQL files (user_version 1) get only migration 2."""
    path = tmp_path / "old.sqlite3"
    async with open_store(path) as db, db.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings VALUES (1, 1, 1, 1, 4, 60, 1, 'thread', 3)")
    con = sqlite3.connect(path)
    con.executescript(
        "DROP TABLE tournament_round_seats;"  # migration 17
        " DROP INDEX tables_open_by_guild; DROP INDEX ledger_at_tables;"  # migrations 16 and 15
        " ALTER TABLE rounds DROP COLUMN away;"  # migration 14
        " DROP INDEX rounds_by_table;"  # migration 13
        " DROP TABLE forget_marks; DROP TABLE forget_key;"  # migration 12
        " DROP TABLE tournament_results; DROP TABLE tournaments;"  # migration 11
        "DROP INDEX ledger_by_reason; DROP TRIGGER ledger_is_append_only_u;"  # migration 10
        " ALTER TABLE ledger DROP COLUMN note;"
        " CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger"
        " BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;"
        " DROP TABLE server_welcomes;"  # migration 9
        " ALTER TABLE guild_settings DROP COLUMN away_rounds;"  # migration 8
        " ALTER TABLE guild_settings DROP COLUMN tables;"
        " DROP TABLE turn_pings; DROP TABLE notify_choices; DROP TABLE rating_changes;"  # migration 7
        " ALTER TABLE guild_settings DROP COLUMN season_months;"
        " DROP TABLE card_styles;"  # migration 6
        " DROP TABLE privacy_requests; DROP TABLE forget_permits; DROP INDEX ledger_by_reference;"  # 5
        " DROP TABLE language_choices; DROP TABLE round_seats; DROP TABLE ratings;"  # migrations 4 and 3
        " DROP TABLE round_players; DROP TABLE rounds; PRAGMA user_version = 1;"
    )
    con.close()
    async with open_store(f"sqlite:///{path}") as db:
        assert await db.fetchone("PRAGMA user_version") == (SCHEMA_VERSION,)
        assert await db.fetchone("SELECT COUNT(*) FROM rounds") == (0,)
        assert await db.fetchall("SELECT guild_id FROM guild_settings") == [(1,)]


async def test_an_old_sqlite_is_refused_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 31, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.31.1")
    with pytest.raises(StoreError, match=r"SQLite is 3.31.1; the bot needs 3.35.0 or newer"):
        await open_store(tmp_path / "db.sqlite3").open()
    assert not (tmp_path / "db.sqlite3").exists()
