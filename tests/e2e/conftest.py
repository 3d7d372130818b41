"""The e2e tests' own checks, clean-up and PostgreSQL schemas: the fake Discord never fails on its own."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest
import pytest_asyncio

from tests.e2e import fake_discord
from tests.e2e.test_shards import close_readers
from tests.storage.conftest import TEST_DATABASE_URL, with_search_path


@pytest.fixture(autouse=True)
def fake_discord_without_server_errors() -> Iterator[None]:
    """Fail the test during which a fake Discord answered a 500 nobody injected (its handler raised).

    Such a 500 is the fake's bug or a request it could not read; discord.py would retry it or give
    up quietly, so without this the test could pass on a request that real Discord would have taken.
    """
    seen = {id(fake): len(fake.server_errors) for fake in fake_discord.STARTED}
    yield
    errors = [e for fake in fake_discord.STARTED for e in fake.server_errors[seen.get(id(fake), 0) :]]
    fake_discord.STARTED[:] = [f for f in fake_discord.STARTED if not f.stopped]
    assert not errors, "the fake Discord failed on its own:\n" + "\n".join(errors)


@pytest.fixture(autouse=True)
def readers_closed() -> Iterator[None]:
    """The test's PostgreSQL readers (``tests.e2e.test_shards.read``) are closed when it ends."""
    yield
    close_readers()


@pytest_asyncio.fixture
async def postgres_schema() -> AsyncIterator[str]:
    """A fresh schema in the test PostgreSQL, dropped afterwards (skipped, with why, when there is none)."""
    try:
        admin = await asyncpg.connect(TEST_DATABASE_URL, timeout=5)
    except Exception as e:  # noqa: BLE001 - any failure means "no server"
        why = f"no PostgreSQL at {TEST_DATABASE_URL} ({type(e).__name__}: {e})"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {why}")
        pytest.skip(f"this PostgreSQL test did not run: {why}")
    schema = f"e2e_{uuid.uuid4().hex[:16]}"
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield schema
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@pytest.fixture
def database_url(postgres_schema: str) -> str:
    """The test PostgreSQL's address with a fresh schema as its search path (a bot process's DATABASE_URL)."""
    return with_search_path(TEST_DATABASE_URL, postgres_schema)
