"""The e2e tests' own checks and clean-up: the fake Discord never fails on its own; readers close."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e import fake_discord
from tests.e2e.test_shards import close_readers


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
