"""``python -m bot`` without a token, and settings errors: plain words, status 2, no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings
from bot.storage import StoreError

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


def test_a_dotenv_line_reads_as_the_same_variable_in_the_environment(tmp_path: Path) -> None:
    """``SHARD_IDS=0`` or ``EDIT_BACKOFF_SECONDS=0.5,4`` in ``.env`` is text, as in the environment."""
    env_file = tmp_path / ".env"
    lines = {"SHARD_COUNT": "2", "SHARD_IDS": "0", "EDIT_BACKOFF_SECONDS": "0.5,4"}
    env_file.write_text("".join(f"{k}={v}\n" for k, v in lines.items()))
    s = load_settings({}, env_file)
    assert (s.shard_ids, s.edit_backoff_seconds) == ((0,), (0.5, 4.0))
    assert s == load_settings(lines, tmp_path / "none")
    env_file.write_text("SHARD_COUNT=2\nSHARD_IDS=one\n")
    with pytest.raises(SettingsError, match="SHARD_IDS"):
        load_settings({}, env_file)


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


@contextmanager
def silent_server() -> Iterator[socket.socket]:
    """A listening socket that accepts connections and never answers (a PostgreSQL that hangs)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        yield server
    finally:
        server.close()


def test_sigterm_stops_a_bot_waiting_for_a_silent_postgresql(tmp_path: Path) -> None:
    with silent_server() as server:
        clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        env = {**clean, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x"}
        env["DATABASE_URL"] = f"postgresql://bot:S3cretPw@127.0.0.1:{server.getsockname()[1]}/flipflop"
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True
        )
        server.settimeout(60)
        waiting, _ = server.accept()  # started (its signal handlers set), and waiting for the database
        with waiting:
            asked = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=20)
        assert time.monotonic() - asked < 5, err  # it waited 60 s for asyncpg's own timeout
        assert proc.returncode == 0 and "Stopped before the database was open" in err
        assert "Traceback" not in err and "S3cretPw" not in err


async def test_a_silent_postgresql_is_told_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.storage import postgres

    monkeypatch.setattr(postgres, "CONNECT_SECONDS", 0.5)
    with silent_server() as server:
        store = postgres.PostgresStore(
            f"postgresql://bot:S3cretPw@127.0.0.1:{server.getsockname()[1]}/flipflop"
        )
        with pytest.raises(StoreError) as told:
            await store.open()
    assert "no answer within 0.5 s" in str(told.value)
    assert "S3cretPw" not in str(told.value)


def test_more_processes_than_calls_a_second_need_redis(tmp_path: Path) -> None:
    """Each process's share would be under one call a second; rounded up, together they'd pass the budget."""
    many = {"SHARD_COUNT": "64", "SHARD_IDS": "0"}
    with pytest.raises(SettingsError, match="REDIS_URL"):
        load_settings(many, tmp_path / "none")
    shared = load_settings({**many, "REDIS_URL": "redis://127.0.0.1:6379/0"}, tmp_path / "none")
    assert shared.processes == 64
    assert load_settings({"SHARD_COUNT": "64", "SHARD_IDS": "0-1"}, tmp_path / "none").processes == 32


def test_the_metrics_and_the_live_table_need_two_ports(tmp_path: Path) -> None:
    same = {"METRICS_PORT": "19571", "LIVE_PORT": "19571", "LIVE_URL": "https://cards.example.org/"}
    with pytest.raises(SettingsError, match="METRICS_PORT and LIVE_PORT are both 19571"):
        load_settings(same, tmp_path / "none")
    assert load_settings({**same, "LIVE_PORT": "19572"}, tmp_path / "none").live_port == 19572


def test_make_run_is_quiet_only_when_no_token_is_set(tmp_path: Path) -> None:
    """``make run`` succeeds on ``python -m bot``'s status 2 only when it means "no token yet"."""

    def unconfigured(**env: str) -> int:
        clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        return subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "unconfigured.py")],
            cwd=tmp_path, env={**clean, "PYTHONPATH": str(ROOT), **env}, capture_output=True, check=False,
        ).returncode  # fmt: skip

    assert unconfigured() == 0  # no token: make run has nothing to fail on
    assert unconfigured(DISCORD_TOKEN="x") == 1  # a token: status 2 was a setting or a port
    assert unconfigured(DISCORD_TOKEN="x", LOG_LEVEL="verbose") == 1
    assert unconfigured(LOG_LEVEL="verbose") == 1  # malformed settings fail make run, token or not
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "python -m bot || { test $$? -eq 2 && $(BIN)/python scripts/unconfigured.py; }" in makefile


def test_a_half_set_activity_is_a_setting_error(tmp_path: Path) -> None:
    """One Activity setting without the other (or without the live table) was ignored in silence."""
    live = {"LIVE_URL": "https://cards.example.org/"}
    with pytest.raises(SettingsError, match="ACTIVITY_CLIENT_SECRET is not set"):
        load_settings({**live, "ACTIVITY_CLIENT_ID": "123"}, tmp_path / "none")
    with pytest.raises(SettingsError, match="ACTIVITY_CLIENT_ID is not set"):
        load_settings({**live, "ACTIVITY_CLIENT_SECRET": "s"}, tmp_path / "none")
    both = {"ACTIVITY_CLIENT_ID": "123", "ACTIVITY_CLIENT_SECRET": "s"}
    with pytest.raises(SettingsError, match="LIVE_URL is not set"):
        load_settings(both, tmp_path / "none")
    assert load_settings({**live, **both}, tmp_path / "none").activity_client_id == "123"
    assert load_settings({}, tmp_path / "none").activity_client_id is None


def test_the_console_script_is_the_same_start_and_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``flipflop-bot`` (pyproject's console script, README "Running on a host") is ``python -m bot``."""
    import importlib
    import tomllib

    target = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = target["flipflop-bot"].partition(":")
    start = getattr(importlib.import_module(module), name)
    for variable in SETTINGS:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert start() == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_a_live_port_in_use_stops_the_start_naming_it(tmp_path: Path) -> None:
    """docs/OPERATORS.md: a clash on ``LIVE_PORT`` stops the bot at start with a message naming it."""
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run_bot(
            tmp_path,
            DISCORD_TOKEN="x",
            LIVE_URL="https://cards.example.org/",
            LIVE_PORT=str(port),
            DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        )
    assert proc.returncode == 2, proc.stderr
    assert f"LIVE_PORT={port} is already in use" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "bot.sqlite3").exists()  # nothing started
