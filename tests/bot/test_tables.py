"""A table's owner on its own: chips move with every change, saved in the same transaction."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.audit import audit_guild
from bot.ledger import InsufficientChips
from bot.runtime import TableClosed, TableRuntime
from bot.storage import open_store
from bot.table.model import Table, TableError
from engine import Draw, Drop, IllegalAction
from tests.bot.runtime.fakes import bare_runtime

G, CH = 1, 2
ANN, BEN, CAT, DAN = 11, 12, 13, 14


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableRuntime]:
    db = open_store(tmp_path / "t.sqlite3")
    await db.open()
    yield bare_runtime(db, clock=lambda: 1000.0)
    await db.close()


async def conserved(s: TableRuntime) -> None:
    result = await audit_guild(s.ledger, G)
    assert result.ok, result.lines()
    assert result.at_tables == sum(t.chips() for t in s.tables.values())


async def started(s: TableRuntime) -> Table:
    t = await s.open(G, CH, ANN, "Ann", 5, 200, 60)
    await s.join(t.id, BEN, "Ben")
    await s.join(t.id, CAT, "Cat")
    await s.start(t.id, ANN, may_manage=False)
    return t


async def test_lobby_moves_buy_ins_and_refunds(service: TableRuntime) -> None:
    t = await service.open(G, CH, ANN, "Ann", 5, 200, 60)
    await service.join(t.id, BEN, "Ben")
    assert await service.ledger.balance(G, BEN) == 800
    assert t.chips() == 400
    await conserved(service)
    await service.leave_lobby(t.id, BEN)
    assert await service.ledger.balance(G, BEN) == 1000
    closed = await service.cancel(t.id, ANN, may_manage=False)
    assert closed.notices == (TableClosed("cancelled", {ANN: 200}, by=ANN),)
    assert service.in_channel(CH) is None
    await conserved(service)


async def test_a_failed_join_changes_nothing(service: TableRuntime) -> None:
    t = await service.open(G, CH, ANN, "Ann", 5, 200, 60)
    await service.ledger.take(G, BEN, 900, actor_id=ANN)
    before = t.to_json()
    with pytest.raises(InsufficientChips):
        await service.join(t.id, BEN, "Ben")
    live = service.get(t.id)
    assert live is not None and live.to_json() == before
    row = await service.db.fetchone("SELECT state FROM tables WHERE table_id = ?", (t.id,))
    assert row is not None and json.loads(row[0]) == before
    await conserved(service)


async def test_start_needs_three_and_the_host(service: TableRuntime) -> None:
    t = await service.open(G, CH, ANN, "Ann", 5, 200, 60)
    await service.join(t.id, BEN, "Ben")
    with pytest.raises(TableError) as refused:
        await service.start(t.id, ANN, may_manage=False)
    assert refused.value.code == "too_few_players"
    await service.join(t.id, CAT, "Cat")
    with pytest.raises(TableError) as refused:
        await service.start(t.id, BEN, may_manage=False)
    assert refused.value.code == "host_starts"
    with pytest.raises(TableError) as refused:
        for u in (DAN, 15, 16):
            await service.join(t.id, u, str(u))

    assert refused.value.code == "table_full"


async def test_illegal_actions_are_refused_and_change_nothing(service: TableRuntime) -> None:
    """Out of turn, and a choice that slipped through after the state moved on."""
    t = await started(service)
    g = t.game
    assert g is not None
    waiting = next(p for p in g.seated if p != g.to_act)
    before = t.to_json()
    with pytest.raises(IllegalAction) as refused:
        await service.apply_action(t, Draw(waiting, "stock"))
    assert refused.value.code == "not_your_turn"
    to_act = g.to_act
    assert to_act is not None
    await service.apply_action(t, Draw(to_act, "stock"))
    with pytest.raises(IllegalAction) as refused:
        await service.apply_action(t, Drop(to_act))
    assert refused.value.code == "drop_after_draw"
    assert t.seq == before["seq"] + 1
    await conserved(service)


async def test_one_of_two_concurrent_clicks_acts(service: TableRuntime) -> None:
    """The cog's pattern: under the table lock, act only if the control's seq is current."""
    t = await started(service)
    g = t.game
    assert g is not None and g.to_act is not None
    seq, player = t.seq, g.to_act
    done: list[bool] = []

    async def click() -> None:
        async with service.lock(t.id):
            if t.seq != seq:
                done.append(False)
                return
            await asyncio.sleep(0)
            await service.apply_action(t, Draw(player, "stock"))
            done.append(True)

    await asyncio.gather(click(), click())
    assert sorted(done) == [False, True]
    assert g.round is not None and len(g.round.hands[player]) == 6


async def test_saved_tables_load_back_equal(service: TableRuntime) -> None:
    t = await started(service)
    other = bare_runtime(service.db)
    good, bad = await other.open_tables.load(lambda _guild: True)
    assert bad == [] and [x.to_json() for x in good] == [t.to_json()]


async def test_unknown_saved_format_is_reported_not_loaded(service: TableRuntime) -> None:
    t = await started(service)
    data = t.to_json()
    data["format"] = 99
    async with service.db.transaction() as tx:
        await tx.execute("UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps(data), t.id))
    fresh = bare_runtime(service.db)
    good, bad = await fresh.open_tables.load(lambda _guild: True)
    assert good == [] and bad[0].table_id == t.id and bad[0].chips == t.chips()
    assert sum(bad[0].refunds.values()) == t.chips()
    await fresh.open_tables.close_unreadable(bad[0])
    assert await fresh.open_tables.load(lambda _guild: True) == ([], [])
    assert sum([await service.ledger.balance(G, u) for u in (ANN, BEN, CAT)]) == 3000
    service.tables.clear()
    await conserved(service)


async def test_game_over_cashes_everyone_out(service: TableRuntime) -> None:
    t = await started(service)
    g = t.game
    assert g is not None
    rng = random.Random(5)
    while not g.over:
        if g.in_round:
            legal = [a for a in g.legal_actions() if not a.__class__.__name__ == "Leave"]
            await service.apply_action(t, rng.choice(legal))
        elif rng.random() < 0.1:
            await service.stop(t.id, ANN, may_manage=False)
        else:
            await service.fire(t.id)  # the next deal (the pause between rounds is 0)
        await conserved(service)
    assert t.status == "closed" and service.in_channel(CH) is None
    assert sum([await service.ledger.balance(G, u) for u in (ANN, BEN, CAT)]) == 3000
