"""Practice tables in the runtime: their chips are never the server's."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.ledger import HOUSE_ID
from bot.runtime import TableRuntime
from bot.storage import open_store
from bot.table.model import PRACTICE_ROUNDS_KEPT, Table
from engine import Leave
from tests.bot.runtime.fakes import bare_runtime

G, CH = 1, 2
ANN, BEN = 11, 12


@pytest_asyncio.fixture
async def runtime(tmp_path: Path) -> AsyncIterator[TableRuntime]:
    db = open_store(tmp_path / "t.sqlite3")
    await db.open()
    yield bare_runtime(db, clock=lambda: 1000.0)
    await db.close()


async def ledger_rows(rt: TableRuntime) -> list[object]:
    return [*await rt.db.fetchall("SELECT * FROM ledger"), *await rt.db.fetchall("SELECT * FROM accounts")]


async def test_a_practice_game_moves_no_chip_and_records_no_round(runtime: TableRuntime) -> None:
    before = await ledger_rows(runtime)
    t = await runtime.open(G, CH, ANN, "Ann", 5, 200, 60, practice=(1, "basic"))  # the house pays nothing
    await runtime.join(t.id, BEN, "Ben")  # no balance pays a practice buy-in (Ben has no account at all)
    await runtime.start(t.id, ANN, may_manage=False)
    g = t.game
    assert g is not None and t.chips() == 0
    rng = random.Random(3)
    while not g.over:
        if g.in_round:
            legal = [a for a in g.legal_actions() if not isinstance(a, Leave)]
            await runtime.apply_action(t, rng.choice(legal))
        else:
            await runtime.fire(t.id)  # the next deal (the pause between rounds is 0)
        row = await runtime.db.fetchone("SELECT chips, refunds FROM tables WHERE table_id = ?", (t.id,))
        assert row is not None and row[0] == 0 and json.loads(row[1]) == {}  # nothing to refund, ever
    assert await ledger_rows(runtime) == before
    assert await runtime.ledger.balance(G, HOUSE_ID) == 1000  # its float, untouched
    rounds = await runtime.db.fetchone("SELECT COUNT(*) FROM rounds")
    ratings = await runtime.db.fetchone("SELECT COUNT(*) FROM ratings")
    assert rounds == (0,) and ratings == (0,)
    assert 1 <= len(t.practice_rounds) <= PRACTICE_ROUNDS_KEPT
    assert t.practice_rounds[-1]["number"] == g.rounds_played


async def test_a_practice_table_survives_a_restart_as_practice(runtime: TableRuntime) -> None:
    t = await runtime.open(G, CH, ANN, "Ann", 5, 200, 60, practice=(1, "basic"))
    again = bare_runtime(runtime.db)
    await again.load()
    assert again.open_tables.get(t.id) is not None and again.tables[t.id].practice
    assert again._unreadable == []
    assert Table.from_json(t.to_json()).practice
