"""The contract suite's stores: every test here runs on SQLite and on PostgreSQL.

PostgreSQL is the server named by ``TEST_DATABASE_URL`` (default the local
``test`` database); each test gets its own schema, dropped afterwards, so runs
never collide. When no server answers, the PostgreSQL half is deselected with
one line of explanation — unless ``REQUIRE_POSTGRES=1`` (CI), which fails the run.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest
import pytest_asyncio

from bot.storage import Store, open_store

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
DIALECTS = ("sqlite", "postgres")
_NOT_RUN = pytest.StashKey[str]()


def _postgres_problem() -> str | None:
    """Why PostgreSQL can not be used, or None when it answers."""

    async def probe() -> None:
        conn = await asyncpg.connect(TEST_DATABASE_URL, timeout=5)
        await conn.close()

    try:
        asyncio.run(probe())
    except Exception as e:  # noqa: BLE001 - any failure means "no server"
        return f"{type(e).__name__}: {e}"
    return None


def _dialect(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("dialect") if callspec is not None else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on_postgres = [i for i in items if _dialect(i) == "postgres"]
    if not on_postgres:
        return
    problem = _postgres_problem()
    if problem is None:
        return
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        raise pytest.UsageError(
            f"REQUIRE_POSTGRES=1 but no PostgreSQL answers at {TEST_DATABASE_URL} ({problem})."
        )
    config.hook.pytest_deselected(items=on_postgres)
    items[:] = [i for i in items if _dialect(i) != "postgres"]
    config.stash[_NOT_RUN] = (
        f"PostgreSQL contract tests did not run ({len(on_postgres)}): no server at"
        f" {TEST_DATABASE_URL} ({problem}); set TEST_DATABASE_URL, or REQUIRE_POSTGRES=1 to fail instead."
    )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if _NOT_RUN in config.stash:
        terminalreporter.write_line(config.stash[_NOT_RUN], yellow=True)


def with_search_path(url: str, schema: str) -> str:
    """The URL with asyncpg's ``search_path`` server setting (its query string carries settings)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"] + [("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


@pytest.fixture(params=DIALECTS)
def dialect(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest_asyncio.fixture
async def target(dialect: str, tmp_path: Path) -> AsyncIterator[str]:
    """Where a fresh, empty store lives: a new file, or a new PostgreSQL schema."""
    if dialect == "sqlite":
        yield f"sqlite:///{tmp_path / 'sub' / 'chips.sqlite3'}"
        return
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(TEST_DATABASE_URL, schema)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@pytest_asyncio.fixture
async def store(target: str) -> AsyncIterator[Store]:
    """An open, migrated store."""
    async with open_store(target) as db:
        yield db


@pytest.fixture
def sql_for(dialect: str) -> Callable[[str], str]:
    """The few statements a test needs that differ by dialect (catalogs and versions, never app SQL)."""
    statements = {
        "sqlite": {
            "set_version": "PRAGMA user_version = 99",
            "has_table": "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
        },
        "postgres": {
            "set_version": "UPDATE schema_version SET version = 99",
            "has_table": "SELECT COUNT(*) FROM pg_tables"
            " WHERE schemaname = current_schema() AND tablename = ?",
        },
    }[dialect]
    return statements.__getitem__
