"""The chips audit (``bot.audit``, ``python -m bot.audit``) and ``python -m bot.privacy`` on either store."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot import audit, privacy
from bot.audit import audit_all, audit_guild
from bot.ledger import Ledger
from bot.storage import Store, open_store
from tests.bot.runtime.fakes import FakeClock, Harness

G, OTHER, CH = 2**57, 2**57 + 5, 2**57 + 9
ANN, BEN, CAT = 2**57 + 11, 2**57 + 12, 2**57 + 13


async def a_table_in_play(h: Harness) -> str:
    table = await h.runtime.open(G, CH, ANN, "Ann", 5, 40, 60)
    await h.runtime.join(table.id, BEN, "Ben")
    await h.runtime.join(table.id, CAT, "Cat")
    await h.runtime.start(table.id, ANN, may_manage=False)
    return table.id


async def test_a_server_in_play_balances(store: Store) -> None:
    h = Harness(store, FakeClock())
    await h.ledger.grant(G, ANN, 70, actor_id=BEN)
    await h.ledger.take(G, BEN, 20, actor_id=ANN)
    await a_table_in_play(h)
    result = await audit_guild(h.ledger, G)
    assert result.ok and result.lines() == []
    assert (result.minted, result.balances, result.at_tables) == (3050, 3050 - 120, 120)
    assert result.difference == 0


async def test_the_audit_points_at_the_rows_that_do_not_add_up(store: Store) -> None:
    h = Harness(store, FakeClock())
    table_id = await a_table_in_play(h)
    await h.ledger.balance(OTHER, ANN)  # another server, in order
    async with store.transaction() as tx:
        await h.ledger.credit(tx, G, BEN, 25, "cash_out", reference="ghost")  # a table never saved
        await h.ledger.credit(tx, G, CAT, 5, "refund")  # moves chips, names no table
        bump = "UPDATE accounts SET balance = balance + 1 WHERE user_id = ? AND guild_id = ?"
        await tx.execute(bump, (ANN, G))
        await tx.execute("UPDATE tables SET chips = chips - 10 WHERE table_id = ?", (table_id,))
    result = await audit_guild(h.ledger, G)
    assert not result.ok
    assert result.difference == 25 + 5 + 1 - 10
    lines = result.lines()
    assert f"member {ANN}: balance 961 but entries sum to 960" in lines
    ghost = next(t for t in result.tables if t.table_id == "ghost")
    assert (ghost.status, ghost.held, ghost.ledger_sum, ghost.difference) == ("missing", 0, 25, -25)
    playing = next(t for t in result.tables if t.table_id == table_id)
    assert playing.difference == 10 and playing.count == 3 and len(playing.entries) == 3
    assert any(f"table {table_id} (playing): holds 110 chips but would refund 120" in line for line in lines)
    loose = await store.fetchall("SELECT id FROM ledger WHERE reason = 'refund' AND reference IS NULL")
    assert result.loose == (loose[0][0],)
    everything = await audit_all(h.ledger)
    assert [a.guild_id for a in everything] == [G, OTHER]
    assert [a.ok for a in everything] == [False, True]


async def _cli(module: object, *argv: str) -> int:
    return await asyncio.to_thread(module.main, list(argv))  # type: ignore[attr-defined]


async def test_the_command_lines_answer_with_their_exit_status(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = open_store(target)
    await db.open()
    try:
        h = Harness(db, FakeClock())
        await a_table_in_play(h)
        await Ledger(db).grant(OTHER, ANN, 5, actor_id=BEN)
    finally:
        await db.close()
    assert await _cli(audit, "--database", target) == 0
    out = capsys.readouterr().out
    assert f"server {G}: minted 3000 = balances 2880 + at tables 120: OK" in out
    assert "2 of 2 servers balance." in out

    assert await _cli(privacy, "forget", "--user", str(ANN), "--database", target) == 1
    assert "still part of an open table" in capsys.readouterr().err
    out_file = tmp_path / "ben.json"
    argv = ("export", "--user", str(BEN), "--database", target, "--out", str(out_file))
    assert await _cli(privacy, *argv) == 0
    exported = json.loads(out_file.read_text())
    assert exported["member"] == str(BEN)
    assert [r["reason"] for r in exported["tables"]["ledger"] if r["actor_id"] == BEN] == ["grant"]
    assert await _cli(privacy, "export", "--user", "42", "--database", target) == 1
    assert "Nothing is stored about 42" in capsys.readouterr().out
    nowhere = tmp_path / "no-such-folder" / "ben.json"  # a file that can't be written: said, not a traceback
    assert await _cli(privacy, "export", "--user", str(BEN), "--database", target, "--out", str(nowhere)) == 1
    assert f"Could not write {nowhere}" in capsys.readouterr().err and not nowhere.exists()

    async with open_store(target) as store:  # the table ends: the bot closed it, refunding everyone
        h = Harness(store, FakeClock())
        await h.runtime.load()
        await h.runtime.resume()
        (table_id,) = list(h.runtime.tables)
        await h.runtime.close_by_manager(table_id, CAT)
        refunds = await store.fetchall("SELECT DISTINCT actor_id FROM ledger WHERE reason = 'refund'")
        assert refunds == [(CAT,)]
    assert await _cli(privacy, "forget", "--user", str(ANN), "--database", target) == 0
    assert "Forgotten: " in capsys.readouterr().out
    assert await _cli(privacy, "forget", "--user", str(ANN), "--database", target) == 1
    assert "nothing left to forget" in capsys.readouterr().out
    assert await _cli(audit, "--database", target) == 0

    async with open_store(target) as store:  # a chip from nowhere: the audit says so and fails
        async with store.transaction() as tx:
            await tx.execute("UPDATE accounts SET balance = balance + 7 WHERE user_id = ?", (BEN,))
    assert await _cli(audit, "--database", target) == 1
    out = capsys.readouterr().out
    assert f"server {G}: minted 3000 = balances 3007 + at tables 0: DIFFERENCE +7" in out
    assert f"member {BEN}: balance 1007 but entries sum to 1000" in out
    with pytest.raises(SystemExit) as bad:
        privacy.main(["forget", "--user", "-3", "--database", target])
    assert bad.value.code == 2


async def test_the_command_lines_never_make_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    assert await _cli(audit, "--database", str(missing)) == 1
    assert f"There is no database file at {missing}" in capsys.readouterr().err
    assert await _cli(privacy, "export", "--user", str(ANN), "--database", f"sqlite:///{missing}") == 1
    assert "There is no database file" in capsys.readouterr().err
    assert not missing.exists()
