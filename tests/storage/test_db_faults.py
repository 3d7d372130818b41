"""A move while the database fails: rolled back whole or applied exactly once, and said which.

On PostgreSQL the move's own connection is killed mid-transaction (the pool
must reconnect for the retry); on SQLite another connection holds the file's
write lock past the busy timeout. Either way the move raises one of the
store's own errors (never a driver's), the table in memory and the saved row
are as before, and the member's retry applies once. A COMMIT cut off after it
reached the database is kept, once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Conflict, StoreError, Unavailable, open_store
from bot.storage.sqlite import SqliteStore
from engine import Discard, Draw
from tests.bot.runtime.fakes import FakeClock, Harness
from tests.storage.conftest import TEST_DATABASE_URL


async def saved(h: Harness, table_id: str) -> tuple[int, dict[str, Any]]:
    row = await h.db.fetchone("SELECT version, state FROM tables WHERE table_id = ?", (table_id,))
    assert row is not None
    return int(row[0]), json.loads(row[1])


@asynccontextmanager
async def harness_on(target: str) -> AsyncIterator[Harness]:
    db = open_store(target)
    await db.open()
    try:
        yield Harness(db, FakeClock())
    finally:
        await db.close()


async def test_a_move_whose_connection_dies_is_rolled_back_and_the_retry_applies_once(
    target: str, dialect: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with harness_on(target) as h:
        table = await h.game()
        g = table.game
        assert g is not None and g.to_act is not None
        player, seq = g.to_act, table.seq
        version, state = await saved(h, table.id)
        hand = list(g.view(player).hand)
        real = h.db.transaction
        released: list[Any] = []

        @asynccontextmanager
        async def failing() -> AsyncIterator[Any]:
            monkeypatch.setattr(h.db, "transaction", real)  # once
            if dialect == "postgres":  # the move's own connection is killed under it
                async with real() as tx:
                    pid = (await tx.fetchone("SELECT pg_backend_pid()"))[0]  # type: ignore[index]
                    admin = await asyncpg.connect(TEST_DATABASE_URL)
                    await admin.execute("SELECT pg_terminate_backend($1)", pid)
                    await admin.close()
                    yield tx
            else:  # another connection holds the file's write lock past the busy timeout
                assert isinstance(h.db, SqliteStore)
                other = sqlite3.connect(h.db.path, isolation_level=None)
                other.execute("BEGIN IMMEDIATE")
                released.append(other)
                await h.db.conn.execute("PRAGMA busy_timeout = 50")
                try:
                    async with real() as tx:
                        yield tx
                finally:
                    other.execute("ROLLBACK")
                    other.close()
                    await h.db.conn.execute("PRAGMA busy_timeout = 5000")

        monkeypatch.setattr(h.db, "transaction", failing)
        with pytest.raises(StoreError) as refused:
            await h.runtime.act(table.id, int(player), seq, Draw(player, "stock"))
        assert isinstance(refused.value, Unavailable if dialect == "postgres" else Conflict)
        now = h.runtime.get(table.id)
        assert now is not None and now.seq == seq and now.game is not None
        assert list(now.game.view(player).hand) == hand  # nothing applied in memory
        assert await saved(h, table.id) == (version, state)  # nor saved
        await h.runtime.act(table.id, int(player), seq, Draw(player, "stock"))  # the pool reconnects
        assert (await saved(h, table.id))[0] == version + 1 and now.seq == seq + 1
        assert len(now.game.view(player).hand) == len(hand) + 1  # once
        await h.conserved()


async def test_a_commit_cut_off_after_it_landed_is_kept_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with harness_on(str(tmp_path / "t.db")) as h:
        table = await h.game()
        g = table.game
        assert g is not None and g.to_act is not None
        player, seq = g.to_act, table.seq
        version, _ = await saved(h, table.id)
        real = h.db.transaction

        @asynccontextmanager
        async def lost_after_commit() -> AsyncIterator[Any]:
            monkeypatch.setattr(h.db, "transaction", real)
            async with real() as tx:
                yield tx
            raise Unavailable("ConnectionResetError: the answer to COMMIT never came")

        monkeypatch.setattr(h.db, "transaction", lost_after_commit)
        outcome = await h.runtime.act(table.id, int(player), seq, Draw(player, "stock"))
        assert outcome.events  # answered as done: it was
        now = h.runtime.get(table.id)
        assert now is table and table.seq == seq + 1 and table.version == version + 1
        saved_version, state = await saved(h, table.id)
        assert saved_version == version + 1 and state["seq"] == seq + 1
        discard = table.game.view(player).hand[0]  # type: ignore[union-attr]
        await h.runtime.act(table.id, int(player), table.seq, Discard(player, discard))  # no "table moved"
        assert (await saved(h, table.id))[0] == version + 2
        await h.conserved()
