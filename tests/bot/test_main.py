"""``python -m bot`` without a token, and settings errors: plain words, status 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    clean.update(env)
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean,
        timeout=60,
        check=False,
    )


def test_no_token_explains_and_exits_2(tmp_path: Path) -> None:
    proc = run_bot(tmp_path)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert "Reset Token" in proc.stderr and ".env" in proc.stderr and "make play" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_malformed_setting_names_the_variable(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="not-a-number")
    assert proc.returncode == 2
    assert "DEV_GUILD_ID" in proc.stderr and "Traceback" not in proc.stderr


def test_settings_defaults_and_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=debug\nDATABASE_PATH=x/y.db\n")
    s = load_settings({}, env_file)
    assert s == Settings(discord_token="abc", log_level="DEBUG", database_path=Path("x/y.db"))
    assert load_settings({"DISCORD_TOKEN": "env"}, env_file).discord_token == "env"
    assert load_settings({}, tmp_path / "missing").database_path == Path("data/flipflop.sqlite3")


def test_bad_log_level(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        load_settings({"LOG_LEVEL": "loud"}, tmp_path / "none")


def test_a_newer_database_refuses_to_start_in_plain_words(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "newer.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 999")
    proc = run_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"sqlite:///{db}")
    assert proc.returncode == 3
    assert "Database error" in proc.stderr and "newer" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_unreachable_postgresql_is_told_without_a_traceback(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_URL="postgresql://nobody:secret@127.0.0.1:9/none")
    assert proc.returncode == 3
    assert "Can not connect to PostgreSQL" in proc.stderr
    assert "secret" not in proc.stderr and "Traceback" not in proc.stderr


def test_bad_shard_ids_exit_2_naming_the_setting(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="0-5")
    assert proc.returncode == 2
    assert "SHARD_IDS" in proc.stderr and "Traceback" not in proc.stderr


def test_a_database_folder_that_can_not_be_made_is_a_database_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    proc = run_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_PATH="a-file/sub/flipflop.sqlite3")
    assert proc.returncode == 3, proc.stderr
    assert "Database error" in proc.stderr and "DATABASE_PATH" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_malformed_url_setting_never_echoes_its_password(tmp_path: Path) -> None:
    for name, value in (
        ("DATABASE_URL", "postgresq://flipflop:S3cretPw@db/flipflop"),
        ("REDIS_URL", "redsi://:S3cretPw@cache/0"),
    ):
        proc = run_bot(tmp_path, DISCORD_TOKEN="x", **{name: value})
        assert proc.returncode == 2 and name in proc.stderr, proc.stderr
        assert "S3cretPw" not in proc.stderr and "Traceback" not in proc.stderr
