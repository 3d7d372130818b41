"""Two processes, one table: the same action sent by both at the same instant applies exactly once.

Each side is a whole runtime with its own connection pool on the same store
(as two bot processes would be): neither shares the other's in-process lock,
so only the store's cross-process table lock and the saved version protect
the table. On PostgreSQL both transactions really do run at once.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.storage import open_store
from bot.table.model import TableError, TableMoved
from engine import Draw
from tests.bot.runtime.fakes import ANN, BEN, CAT, FakeClock, G, Harness


async def two_processes(target: str) -> tuple[Harness, Harness]:
    sides = []
    for _ in range(2):
        db = open_store(target)
        await db.open()
        sides.append(Harness(db, FakeClock()))
    return sides[0], sides[1]


async def saved_version(h: Harness, table_id: str) -> tuple[int, int]:
    row = await h.db.fetchone("SELECT version, state FROM tables WHERE table_id = ?", (table_id,))
    assert row is not None
    return int(row[0]), int(json.loads(row[1])["seq"])


async def test_the_same_draw_from_two_processes_applies_once(target: str) -> None:
    a, b = await two_processes(target)
    try:
        table = await a.game()
        await b.runtime.load()
        await b.runtime.resume()
        assert b.runtime.get(table.id) is not None and b.runtime.get(table.id) is not table
        g = table.game
        assert g is not None and g.to_act is not None
        player, seq = g.to_act, table.seq
        version_before, _ = await saved_version(a, table.id)

        results = await asyncio.gather(
            a.runtime.act(table.id, int(player), seq, Draw(player, "stock")),
            b.runtime.act(table.id, int(player), seq, Draw(player, "stock")),
            return_exceptions=True,
        )

        applied = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(applied) == 1 and len(refused) == 1
        assert isinstance(refused[0], TableMoved)
        assert "nothing was done" in str(refused[0])
        version, saved_seq = await saved_version(a, table.id)
        assert version == version_before + 1 and saved_seq == seq + 1
        # the loser now holds what is saved: the player has drawn once, not twice
        for side in (a, b):
            mine = side.runtime.get(table.id)
            assert mine is not None and mine.game is not None and mine.seq == seq + 1
            assert len(mine.game.view(player).hand) == 6
        # and the winner's next move goes through on either side's copy
        assert a.runtime.get(table.id) is not None
        await a.conserved()
    finally:
        await a.db.close()
        await b.db.close()


@pytest.mark.parametrize("attempts", [8])
async def test_many_clicks_across_two_processes_apply_once(target: str, attempts: int) -> None:
    a, b = await two_processes(target)
    try:
        table = await a.game()
        await b.runtime.load()
        g = table.game
        assert g is not None and g.to_act is not None
        player, seq = g.to_act, table.seq
        sides = [a, b] * (attempts // 2)
        results = await asyncio.gather(
            *(s.runtime.act(table.id, int(player), seq, Draw(player, "stock")) for s in sides),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert all(isinstance(r, TableError) for r in results if isinstance(r, BaseException))
        _, saved_seq = await saved_version(a, table.id)
        assert saved_seq == seq + 1
    finally:
        await a.db.close()
        await b.db.close()


async def test_the_same_join_from_two_processes_takes_one_buy_in(target: str) -> None:
    """A change that moves chips: both sides debit inside their transactions; the loser's debit rolls back."""
    a, b = await two_processes(target)
    try:
        lobby = await a.lobby((ANN, BEN))
        await b.runtime.load()
        results = await asyncio.gather(
            a.runtime.join(lobby.id, CAT, "Cat"), b.runtime.join(lobby.id, CAT, "Cat"), return_exceptions=True
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert [type(r) for r in results if isinstance(r, BaseException)] == [TableMoved]
        assert await a.ledger.balance(G, CAT) == 1000 - lobby.buy_in  # one buy-in, not two
        for side in (a, b):
            mine = side.runtime.get(lobby.id)
            assert mine is not None and mine.seats == [ANN, BEN, CAT]
        await a.conserved()
        await b.conserved()
    finally:
        await a.db.close()
        await b.db.close()


async def test_a_process_loads_only_the_tables_of_its_servers(target: str) -> None:
    """A table belongs to the process running its server's shard; the other one never loads it."""
    a, b = await two_processes(target)
    try:
        mine = await a.game()
        theirs = await a.runtime.open(G + 1, 99, ANN, "Ann", 5, 200, 60)
        only_g = b.runtime.open_tables
        good, bad = await only_g.load(lambda guild_id: guild_id == G)
        assert [t.id for t in good] == [mine.id] and bad == []
        assert only_g.get(theirs.id) is None and only_g.get(mine.id) is not None
    finally:
        await a.db.close()
        await b.db.close()
