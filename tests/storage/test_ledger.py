"""The ledger's promises on either store: every operation, the audit, concurrency across processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.ledger import (
    MAX_AMOUNT,
    BadAmount,
    DailyNotReady,
    GuildSettings,
    InsufficientChips,
    Ledger,
    LedgerError,
)
from bot.storage import IntegrityError, Store, open_store

G, ANN, BEN = 10, 1, 2


@pytest_asyncio.fixture
async def ledger(store: Store) -> AsyncIterator[Ledger]:
    yield Ledger(store, clock=lambda: 1000.0)


async def test_account_opens_with_starting_balance_and_entry(ledger: Ledger) -> None:
    assert await ledger.balance(G, ANN) == 1000
    assert await ledger.balance(G, ANN) == 1000
    rows = await ledger.db.fetchall("SELECT reason, change, balance_after FROM ledger")
    assert rows == [("starting", 1000, 1000)]


async def test_held_reads_an_open_account_and_opens_none(ledger: Ledger) -> None:
    assert await ledger.held(1, 7) is None
    assert await ledger.held(1, 7) is None  # still none: reading opened nothing
    await ledger.balance(1, 7)
    assert await ledger.held(1, 7) == 1000 and await ledger.held(2, 7) is None


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


async def test_a_debit_can_open_the_account_it_spends_from(ledger: Ledger) -> None:
    async with ledger.db.transaction() as tx:
        assert await ledger.debit(tx, G, ANN, 200, "buy_in") == 800
    with pytest.raises(InsufficientChips) as info:
        async with ledger.db.transaction() as tx:
            await ledger.debit(tx, G, BEN, 1001, "buy_in")
    assert (info.value.balance, info.value.needed) == (1000, 1001)
    assert await ledger.db.fetchall("SELECT user_id FROM accounts") == [(ANN,)]  # BEN's opening rolled back


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
    assert await ledger.db.fetchall("SELECT * FROM ledger") == []


async def test_grant_and_take_record_the_actor(ledger: Ledger) -> None:
    assert await ledger.grant(G, ANN, 300, actor_id=BEN) == 1300
    assert await ledger.take(G, ANN, 1300, actor_id=BEN) == 0
    with pytest.raises(InsufficientChips):
        await ledger.take(G, ANN, 1, actor_id=BEN)
    rows = await ledger.db.fetchall("SELECT reason, actor_id FROM ledger ORDER BY id")
    assert rows == [("starting", None), ("grant", BEN), ("take", BEN)]


async def test_a_grant_never_takes_a_balance_past_the_largest_amount(ledger: Ledger) -> None:
    assert await ledger.grant(G, ANN, MAX_AMOUNT - 1000, actor_id=BEN) == MAX_AMOUNT
    entries = await ledger.db.fetchall("SELECT * FROM ledger")
    with pytest.raises(LedgerError) as refused:
        await ledger.grant(G, ANN, 1, actor_id=BEN)
    assert refused.value.code == "balance_too_large"
    assert refused.value.params == {"maximum": MAX_AMOUNT, "balance": MAX_AMOUNT, "room": 0}
    with pytest.raises(LedgerError) as refused:  # a new account: its starting chips count too
        await ledger.grant(G, BEN, MAX_AMOUNT, actor_id=ANN)
    assert refused.value.params == {"maximum": MAX_AMOUNT, "balance": 1000, "room": MAX_AMOUNT - 1000}
    assert await ledger.balance(G, ANN) == MAX_AMOUNT and await ledger.balance(G, BEN) == 1000
    assert len(await ledger.db.fetchall("SELECT * FROM ledger")) == len(entries) + 1  # BEN's starting chips
    assert await ledger.audit(G) == []


async def test_balance_can_never_go_negative_even_by_hand(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    with pytest.raises(IntegrityError):
        async with ledger.db.transaction() as tx:
            await tx.execute("UPDATE accounts SET balance = -1")
    assert await ledger.balance(G, ANN) == 1000


async def test_ledger_is_append_only(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    for sql in ("UPDATE ledger SET change = 5", "DELETE FROM ledger"):
        with pytest.raises(IntegrityError, match="append-only"):
            async with ledger.db.transaction() as tx:
                await tx.execute(sql)
    assert await ledger.db.fetchall("SELECT change FROM ledger") == [(1000,)]


async def test_audit_finds_a_balance_that_is_not_the_sum_of_its_entries(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    await ledger.balance(G, BEN)
    assert await ledger.audit(G) == []
    async with ledger.db.transaction() as tx:
        await tx.execute("UPDATE accounts SET balance = 999 WHERE user_id = ?", (BEN,))
    assert await ledger.audit(G) == [f"member {BEN}: balance 999 but entries sum to 1000"]


async def _debit(ledger: Ledger, amount: int) -> bool:
    try:
        async with ledger.db.transaction() as tx:
            await ledger.debit(tx, G, ANN, amount, "buy_in")
    except InsufficientChips:
        return False
    return True


async def test_100_concurrent_debits_exactly_50_succeed(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)  # 1000 = 50 debits of 20
    results = await asyncio.gather(*(_debit(ledger, 20) for _ in range(100)))
    assert results.count(True) == 50
    assert await ledger.balance(G, ANN) == 0
    assert await ledger.audit(G) == []


async def test_100_concurrent_debits_from_two_processes(target: str) -> None:
    """Two stores on one database, as two bot processes: still exactly the affordable debits."""
    async with open_store(target) as one, open_store(target) as two:
        ledgers = [Ledger(one), Ledger(two)]
        await ledgers[0].balance(G, ANN)  # 1000 = 40 debits of 25
        results = await asyncio.gather(*(_debit(ledgers[i % 2], 25) for i in range(100)))
        assert results.count(True) == 40
        assert await ledgers[1].balance(G, ANN) == 0
        assert await ledgers[1].audit(G) == []
        assert await one.fetchone("SELECT COUNT(*), MIN(balance_after) FROM ledger") == (41, 0)


async def test_first_use_from_two_processes_at_once_opens_one_account(target: str) -> None:
    async with open_store(target) as one, open_store(target) as two:
        balances = await asyncio.gather(*(Ledger(db).balance(G, ANN) for _ in range(5) for db in (one, two)))
        assert balances == [1000] * 10
        assert await one.fetchall("SELECT reason, change FROM ledger") == [("starting", 1000)]


async def test_daily_once_per_24_hours(ledger: Ledger) -> None:
    assert await ledger.claim_daily(G, ANN, now=0) == (200, 1200)
    with pytest.raises(DailyNotReady) as info:
        await ledger.claim_daily(G, ANN, now=3600)
    assert info.value.next_at == 24 * 3600
    assert await ledger.claim_daily(G, ANN, now=24 * 3600) == (200, 1400)


async def test_concurrent_daily_claims_pay_once(target: str) -> None:
    async with open_store(target) as one, open_store(target) as two:
        await Ledger(one).balance(G, ANN)

        async def claim(db: Store) -> bool:
            try:
                await Ledger(db).claim_daily(G, ANN, now=5.0)
            except DailyNotReady:
                return False
            return True

        results = await asyncio.gather(*(claim(db) for _ in range(5) for db in (one, two)))
        assert results.count(True) == 1
        assert await Ledger(one).balance(G, ANN) == 1200


async def test_leaderboard_and_rank(ledger: Ledger) -> None:
    await ledger.grant(G, BEN, 5, actor_id=ANN)
    await ledger.balance(G, ANN)
    assert await ledger.leaderboard(G) == [(BEN, 1005), (ANN, 1000)]
    assert await ledger.rank(G, ANN) == (2, 2)
    assert await ledger.rank(G + 1, ANN) == (0, 0)


async def test_servers_are_separate_and_discord_sized(ledger: Ledger) -> None:
    big_guild, big_user = 1_234_567_890_123_456_789, 987_654_321_098_765_432
    await ledger.grant(G, ANN, 10, actor_id=BEN)
    assert await ledger.balance(G + 1, ANN) == 1000
    assert await ledger.grant(big_guild, big_user, 5, actor_id=big_user) == 1005
    assert await ledger.leaderboard(big_guild) == [(big_user, 1005)]


async def test_settings_defaults_and_validation(ledger: Ledger) -> None:
    assert await ledger.settings(G) == GuildSettings()
    s = await ledger.update_settings(G, default_stake=10, default_buy_in=100, starting_balance=7)
    assert (s.default_stake, s.default_buy_in) == (10, 100)
    assert await ledger.settings(G) == s
    assert await ledger.balance(G, ANN) == 7
    with pytest.raises(LedgerError) as refused:
        await ledger.update_settings(G, default_buy_in=105)
    assert refused.value.code == "buy_in_not_multiple"
    with pytest.raises(LedgerError) as refused:
        await ledger.update_settings(G, turn_seconds=5)
    assert refused.value.code == "turn_seconds_out_of_range"
    assert await ledger.settings(G) == s


async def test_minted_counts_chips_brought_in(ledger: Ledger) -> None:
    await ledger.balance(G, ANN)
    await ledger.grant(G, ANN, 10, actor_id=BEN)
    async with ledger.db.transaction() as tx:
        await ledger.debit(tx, G, ANN, 100, "buy_in")
    assert await ledger.minted(G) == 1010
    assert await ledger.total_balances(G) == 910
    assert await ledger.chips_at_tables(G) == 0
