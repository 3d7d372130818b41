"""The chip ledger on its own: every operation, the audit, concurrency, migrations."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.db import SCHEMA_VERSION, Database
from bot.ledger import BadAmount, DailyNotReady, GuildSettings, InsufficientChips, Ledger, LedgerError

G, ANN, BEN = 10, 1, 2


@pytest_asyncio.fixture
async def ledger(tmp_path: Path) -> AsyncIterator[Ledger]:
    db = Database(tmp_path / "sub" / "chips.sqlite3")
    await db.open()
    yield Ledger(db, clock=lambda: 1000.0)
    await db.close()


async def test_migration_from_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "new" / "db.sqlite3"
    db = Database(path)
    await db.open()
    assert path.exists()
    assert await db.fetchone("PRAGMA user_version") == (SCHEMA_VERSION,)
    assert await db.fetchone("PRAGMA journal_mode") == ("wal",)
    assert await db.fetchone("PRAGMA foreign_keys") == (1,)
    names = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"accounts", "ledger", "guild_settings", "tables"} <= names
    await db.close()
    again = Database(path)  # reopening runs no migration twice
    await again.open()
    assert await again.fetchone("PRAGMA user_version") == (SCHEMA_VERSION,)
    await again.close()


async def test_account_opens_with_starting_balance_and_entry(ledger: Ledger) -> None:
    assert await ledger.balance(G, ANN) == 1000
    assert await ledger.balance(G, ANN) == 1000
    rows = await ledger.db.fetchall("SELECT reason, change, balance_after FROM ledger")
    assert rows == [("starting", 1000, 1000)]


async def test_credit_debit_and_insufficient_chips(ledger: Ledger) -> None:
    async with ledger.db.transaction() as tx:
        assert await ledger.credit(tx, G, ANN, 50, "cash_out", reference="t1") == 1050
        assert await ledger.debit(tx, G, ANN, 1050, "buy_in", reference="t1") == 0
    with pytest.raises(InsufficientChips) as info:
        async with ledger.db.transaction() as tx:
            await ledger.debit(tx, G, ANN, 1, "buy_in")
    assert info.value.balance == 0
    assert await ledger.balance(G, ANN) == 0
    assert await ledger.audit(G) == []


async def test_a_failed_transaction_writes_nothing(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    with pytest.raises(InsufficientChips):
        async with ledger.db.transaction() as tx:
            await ledger.credit(tx, G, ANN, 10, "grant")
            await ledger.debit(tx, G, ANN, 5000, "buy_in")
    assert await ledger.balance(G, ANN) == 1000
    assert len(await ledger.db.fetchall("SELECT * FROM ledger")) == 1


@pytest.mark.parametrize("amount", [0, -1, 10**10, True])
async def test_bad_amounts(ledger: Ledger, amount: int) -> None:
    with pytest.raises(BadAmount):
        await ledger.grant(G, ANN, amount, actor_id=BEN)
    with pytest.raises(BadAmount):
        await ledger.take(G, ANN, amount, actor_id=BEN)


async def test_grant_and_take_record_the_actor(ledger: Ledger) -> None:
    assert await ledger.grant(G, ANN, 300, actor_id=BEN) == 1300
    assert await ledger.take(G, ANN, 1300, actor_id=BEN) == 0
    with pytest.raises(InsufficientChips):
        await ledger.take(G, ANN, 1, actor_id=BEN)
    rows = await ledger.db.fetchall("SELECT reason, actor_id FROM ledger ORDER BY id")
    assert rows == [("starting", None), ("grant", BEN), ("take", BEN)]


async def test_balance_can_never_go_negative_even_by_hand(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    with pytest.raises(sqlite3.IntegrityError):
        async with ledger.db.transaction() as tx:
            await tx.execute("UPDATE accounts SET balance = -1")


async def test_ledger_is_append_only(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with ledger.db.transaction() as tx:
            await tx.execute("UPDATE ledger SET change = 5")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with ledger.db.transaction() as tx:
            await tx.execute("DELETE FROM ledger")


async def test_audit_finds_a_balance_that_is_not_the_sum_of_its_entries(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    await ledger.balance(G, BEN)
    assert await ledger.audit(G) == []
    async with ledger.db.transaction() as tx:
        await tx.execute("UPDATE accounts SET balance = 999 WHERE user_id = ?", (BEN,))
    assert await ledger.audit(G) == [f"member {BEN}: balance 999 but entries sum to 1000"]


async def test_100_concurrent_debits_exactly_50_succeed(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)  # 1000 = 50 debits of 20

    async def one() -> bool:
        try:
            async with ledger.db.transaction() as tx:
                await ledger.debit(tx, G, ANN, 20, "buy_in")
        except InsufficientChips:
            return False
        return True

    results = await asyncio.gather(*(one() for _ in range(100)))
    assert results.count(True) == 50
    assert await ledger.balance(G, ANN) == 0
    assert await ledger.audit(G) == []


async def test_daily_once_per_24_hours(ledger: Ledger) -> None:
    assert await ledger.claim_daily(G, ANN, now=0) == (200, 1200)
    with pytest.raises(DailyNotReady) as info:
        await ledger.claim_daily(G, ANN, now=3600)
    assert info.value.next_at == 24 * 3600
    assert await ledger.claim_daily(G, ANN, now=24 * 3600) == (200, 1400)


async def test_leaderboard_and_rank(ledger: Ledger) -> None:
    await ledger.grant(G, BEN, 5, actor_id=ANN)
    await ledger.balance(G, ANN)
    assert await ledger.leaderboard(G) == [(BEN, 1005), (ANN, 1000)]
    assert await ledger.rank(G, ANN) == (2, 2)
    assert await ledger.rank(G + 1, ANN) == (0, 0)


async def test_servers_are_separate(ledger: Ledger) -> None:
    await ledger.grant(G, ANN, 10, actor_id=BEN)
    assert await ledger.balance(G + 1, ANN) == 1000


async def test_settings_defaults_and_validation(ledger: Ledger) -> None:
    assert await ledger.settings(G) == GuildSettings()
    s = await ledger.update_settings(G, default_stake=10, default_buy_in=100, starting_balance=7)
    assert (s.default_stake, s.default_buy_in) == (10, 100)
    assert await ledger.balance(G, ANN) == 7
    with pytest.raises(LedgerError):
        await ledger.update_settings(G, default_buy_in=105)
    with pytest.raises(LedgerError):
        await ledger.update_settings(G, turn_seconds=5)
    assert (await ledger.settings(G)).default_buy_in == 100


async def test_minted_counts_chips_brought_in(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    await ledger.grant(G, ANN, 10, actor_id=BEN)
    async with ledger.db.transaction() as tx:
        await ledger.debit(tx, G, ANN, 100, "buy_in")
    assert await ledger.minted(G) == 1010
    assert await ledger.total_balances(G) == 910
