"""A tournament's server chips on either store: fees, refunds and prizes in one transaction, audit clean."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.audit import audit_guild
from bot.ledger import HOUSE_ID, Ledger
from bot.storage import Store
from bot.tournament.model import Tournament, TournamentError, TournamentSettings
from bot.tournament.store import TournamentStore

G, CH = 10, 20


@pytest_asyncio.fixture
async def tours(store: Store) -> AsyncIterator[TournamentStore]:
    yield TournamentStore(Ledger(store, clock=lambda: 1000.0), clock=lambda: 2000.0)


async def opened(
    tours: TournamentStore, seats: int = 6, computers: bool = True, tid: str = "T1"
) -> Tournament:
    settings = TournamentSettings(fee=100, seats=seats, computers=computers, payout="50_30_20")
    return await tours.open(Tournament(tid, G, CH, 1, settings))


async def clean(tours: TournamentStore) -> None:
    audit = await audit_guild(tours.ledger, G)
    assert audit.ok, audit.lines()
    assert audit.difference == 0


async def test_join_takes_the_fee_and_refuses_without_it_twice_and_late(tours: TournamentStore) -> None:
    await opened(tours)
    t = await tours.join("T1", 1, "ann")
    assert await tours.ledger.balance(G, 1) == 900 and t.version == 2
    for member, code in [(1, "tournament_already_entered")]:
        with pytest.raises(TournamentError) as info:
            await tours.join("T1", member, "again")
        assert info.value.code == code
    async with tours.db.transaction() as tx:
        await tours.ledger.debit(tx, G, 2, 950, "take")
    with pytest.raises(TournamentError) as info:
        await tours.join("T1", 2, "ben")
    assert (info.value.code, info.value.params) == ("tournament_no_fee", {"fee": 100, "balance": 50})
    assert await tours.ledger.balance(G, 2) == 50
    await tours.start("T1", random.Random(1))
    with pytest.raises(TournamentError) as info:
        await tours.join("T1", 3, "cat")
    assert info.value.code == "tournament_join_after_start"
    assert await tours.ledger.balance(G, 3) == 1000
    await clean(tours)


async def test_two_tournaments_in_one_channel_are_refused(tours: TournamentStore) -> None:
    await opened(tours)
    with pytest.raises(TournamentError) as info:
        await opened(tours, tid="T2")
    assert info.value.code == "tournament_exists"
    await tours.cancel("T1")
    await opened(tours, tid="T3")  # the channel is free again


async def test_leaving_and_cancelling_refund_every_fee(tours: TournamentStore) -> None:
    await opened(tours)
    for m in (1, 2, 3):
        await tours.join("T1", m, f"m{m}")
    await tours.leave("T1", 2)
    assert await tours.ledger.balance(G, 2) == 1000
    await clean(tours)
    t = await tours.cancel("T1")
    assert t.status == "cancelled"
    assert [await tours.ledger.balance(G, m) for m in (1, 2, 3)] == [1000, 1000, 1000]
    rows = await tours.db.fetchall(
        "SELECT reason, COUNT(*) FROM ledger WHERE reference = 'T1' GROUP BY reason"
    )
    assert dict(rows) == {"tournament_fee": 3, "tournament_refund": 3}
    await clean(tours)
    with pytest.raises(TournamentError):
        await tours.cancel("T1")


async def test_a_tournament_played_out_pays_its_prizes_in_one_go(tours: TournamentStore) -> None:
    await opened(tours, seats=8)
    for m in (1, 2, 3):
        await tours.join("T1", m, f"m{m}")
    house = await tours.ledger.balance(G, HOUSE_ID)
    t = await tours.start("T1", random.Random(2))
    assert len(t.entrants) == 8 and await tours.ledger.balance(G, HOUSE_ID) == house - 500
    assert sorted(len(s) for s in t.tables.values()) == [4, 4]
    await clean(tours)
    rng = random.Random(3)
    while t.status == "running":

        def play(t: Tournament) -> None:
            for n, seats in list(t.tables.items()):
                stacks = {e: t.entrants[e].stack for e in seats}
                winner, loser = rng.sample(seats, 2)
                loss = min(stacks[loser], 4 * t.stake)
                stacks[loser] -= loss
                stacks[winner] += loss
                if t.table_round_ended(n, stacks, t.pots[n]):
                    t.advance()

        t = await tours.update("T1", play)
        await clean(tours)
    prizes = await tours.db.fetchall(
        "SELECT user_id, change FROM ledger WHERE reference = 'T1' AND reason = 'tournament_prize'"
    )
    assert sum(c for _, c in prizes) == 800
    results = await tours.db.fetchall(
        "SELECT user_id, place, prize, entrants FROM tournament_results ORDER BY user_id"
    )
    assert [r[0] for r in results] == [1, 2, 3] and all(r[3] == 8 for r in results)
    assert await tours.ledger.chips_at_tables(G) == 0
    assert (await tours.results(G))[0][3] == max(r[2] for r in results)
    await clean(tours)


async def test_a_stopped_tournament_pays_by_the_stacks(tours: TournamentStore) -> None:
    await opened(tours, seats=6, computers=False)
    for m in range(1, 7):
        await tours.join("T1", m, f"m{m}")
    t = await tours.start("T1", random.Random(4))
    leader = t.tables[1][0]
    t = await tours.update("T1", lambda t: setattr(t.entrants[leader], "stack", t.entrants[leader].stack))
    t = await tours.update("T1", Tournament.stop)
    assert t.status == "finished" and t.stopped
    paid = await tours.db.fetchall("SELECT SUM(change) FROM ledger WHERE reason = 'tournament_prize'")
    assert paid == [(600,)]  # all six even: they share every place
    assert [await tours.ledger.balance(G, m) for m in range(1, 7)] == [1000] * 6
    await clean(tours)


async def test_a_restart_reads_the_tournament_back_where_it_was(tours: TournamentStore, store: Store) -> None:
    await opened(tours, seats=7)
    await tours.join("T1", 1, "ann")
    t = await tours.start("T1", random.Random(5))
    again = TournamentStore(Ledger(store))
    [back] = await again.unfinished()
    assert back.to_json() == t.to_json() and back.version == t.version
    stale = back
    await tours.update("T1", lambda t: None)
    with pytest.raises(TournamentError):  # a copy that missed a save can not overwrite it
        async with store.transaction() as tx:
            await again._save(tx, stale)


async def test_a_restart_between_the_rebalance_and_the_next_deal_reads_the_new_tables(
    tours: TournamentStore, store: Store
) -> None:
    """The round's last table, the count, the busts and the rebalance are one transaction: a restart
    sees either none of it or all of it, never a player at two tables or a round half counted."""
    await opened(tours, seats=11)
    await tours.ledger.grant(G, HOUSE_ID, 1000, actor_id=1)  # eleven computers' fees
    t = await tours.start("T1", random.Random(6))
    victims = [seats[0] for seats in t.tables.values()]

    def round_with_busts(t: Tournament) -> None:
        for n, seats in t.tables.items():
            stacks = {e: t.entrants[e].stack for e in seats}
            out, winner = seats[0], seats[1]
            stacks[winner] += stacks[out] - 5
            stacks[out] = 5  # less than the stake: out
            if t.table_round_ended(n, stacks, {}):
                t.advance()

    after = await tours.update("T1", round_with_busts)
    assert after.round == 1 and all(after.entrants[v].out_round == 1 for v in victims)
    [back] = await TournamentStore(Ledger(store)).unfinished()
    seated = [e for seats in back.tables.values() for e in seats]
    assert sorted(seated) == sorted(back.alive()) and len(seated) == len(set(seated)) == 8
    assert back.tables == after.tables and back.last_moves == after.last_moves
    assert not any(back.played.values()) and back.chips() == 11 * 1000


async def test_a_house_short_of_the_computers_fees_says_its_balance_and_the_fees_and_pays_none(
    tours: TournamentStore,
) -> None:
    settings = TournamentSettings(fee=300, seats=6, computers=True, payout="50_30_20")
    await tours.open(Tournament("T1", G, CH, 1, settings))
    await tours.join("T1", 1, "ann")
    house = await tours.ledger.balance(G, HOUSE_ID)  # the house float: 1,000, short of 5 × 300
    with pytest.raises(TournamentError) as short:
        await tours.start("T1", random.Random(1))
    assert short.value.code == "tournament_house_short"
    assert short.value.params == {"fee": 1500, "balance": house}
    assert await tours.ledger.balance(G, HOUSE_ID) == house
    t = await tours.load("T1")
    assert t is not None and t.status == "open" and list(t.entrants) == [1]
    await clean(tours)
