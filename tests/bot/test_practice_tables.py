"""Practice tables in the table service: their chips are never the server's."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.ledger import HOUSE_ID, Ledger
from bot.storage import open_store
from bot.tables import PRACTICE_ROUNDS_KEPT, Table, TableService
from engine import Leave

G, CH = 1, 2
ANN, BEN = 11, 12


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    db = open_store(tmp_path / "t.sqlite3")
    await db.open()
    yield TableService(db, Ledger(db), clock=lambda: 1000.0)
    await db.close()


async def ledger_rows(s: TableService) -> list[object]:
    return [*await s.db.fetchall("SELECT * FROM ledger"), *await s.db.fetchall("SELECT * FROM accounts")]


async def test_a_practice_game_moves_no_chip_and_records_no_round(service: TableService) -> None:
    before = await ledger_rows(service)
    t = await service.create(G, CH, ANN, "Ann", 5, 200, 60, practice=True)
    await service.join(t, BEN, "Ben")  # no balance pays a practice buy-in (Ben has no account at all)
    await service.add_computer(t, "basic", "Basic")  # nor does the house
    await service.start(t, ANN, may_manage=False)
    g = t.game
    assert g is not None and t.chips() == 0
    rng = random.Random(3)
    while not g.over:
        if g.in_round:
            await service.apply(t, rng.choice([a for a in g.legal_actions() if not isinstance(a, Leave)]))
        else:
            await service.next_round(t)
        row = await service.db.fetchone("SELECT chips, refunds FROM tables WHERE table_id = ?", (t.id,))
        assert row is not None and row[0] == 0 and json.loads(row[1]) == {}  # nothing to refund, ever
    assert await ledger_rows(service) == before
    assert await service.ledger.balance(G, HOUSE_ID) == 0
    rounds = await service.db.fetchone("SELECT COUNT(*) FROM rounds")
    ratings = await service.db.fetchone("SELECT COUNT(*) FROM ratings")
    assert rounds == (0,) and ratings == (0,)
    assert 1 <= len(t.practice_rounds) <= PRACTICE_ROUNDS_KEPT
    assert t.practice_rounds[-1]["number"] == g.rounds_played


async def test_a_practice_table_survives_a_restart_as_practice(service: TableService) -> None:
    t = await service.create(G, CH, ANN, "Ann", 5, 200, 60, practice=True)
    good, bad = await TableService(service.db, service.ledger).load_open()
    assert bad == [] and [x.practice for x in good] == [True]
    assert Table.from_json(t.to_json()).practice
