"""The tournament as data: seating, rebalancing (property-tested), levels, busts, payouts, the stop rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.model import (
    FIRST_STAKE,
    STARTING_STACK,
    Tournament,
    TournamentError,
    TournamentSettings,
)
from bot.tournament.payouts import PAYOUTS, place_prizes, prizes
from bot.tournament.seating import rebalance, seat, tables_needed


def sizes(tables: dict[int, list[int]]) -> list[int]:
    return sorted(len(s) for s in tables.values())


@pytest.mark.parametrize("n", range(3, 26))
def test_first_seating_is_tables_of_three_to_five(n: int) -> None:
    tables = seat(list(range(1, n + 1)))
    assert len(tables) == tables_needed(n)
    assert all(3 <= s <= 5 for s in sizes(tables)) and sizes(tables)[-1] - sizes(tables)[0] <= 1
    assert sorted(e for s in tables.values() for e in s) == list(range(1, n + 1))


@settings(max_examples=300, deadline=None)
@given(st.integers(6, 25), st.data())
def test_rebalancing_seats_everyone_once_and_moves_chips_with_the_seat(n: int, data: st.DataObject) -> None:
    entrants = list(range(1, n + 1))
    stacks = {e: data.draw(st.integers(0, 3000)) for e in entrants}
    tables = seat(entrants)
    alive = set(entrants)
    while len(alive) >= 3:
        busted = data.draw(st.sets(st.sampled_from(sorted(alive)), max_size=len(alive)))
        alive -= busted
        before = {e: stacks[e] for e in alive}
        tables, moves = rebalance(tables, alive)
        seated = [e for s in tables.values() for e in s]
        if len(alive) < 3:
            assert tables == {} and moves == []
            break
        assert len(seated) == len(set(seated)) and set(seated) == alive  # one table each, nobody lost
        assert all(3 <= s <= 5 for s in sizes(tables)) and sizes(tables)[-1] - sizes(tables)[0] <= 1
        assert len(tables) == tables_needed(len(alive))
        last = {m.entrant: m.to_table for m in moves}  # a seat may move twice (a broken table, then evening)
        assert all(e in tables[to] for e, to in last.items())
        assert {e: stacks[e] for e in alive} == before  # stacks belong to the entrant
        if not data.draw(st.booleans()):
            break


def test_rebalance_refuses_a_player_at_two_tables() -> None:
    with pytest.raises(ValueError):
        rebalance({1: [1, 2, 3], 2: [3, 4, 5]}, {1, 2, 3, 4, 5})


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 10**9),
    st.sampled_from(sorted(PAYOUTS)),
    st.lists(st.integers(1, 4), min_size=1, max_size=25),
)
def test_prizes_add_up_to_the_pool(pool: int, payout: str, group_sizes: list[int]) -> None:
    standings, n = [], 0
    for size in group_sizes:
        standings.append(list(range(n, n + size)))
        n += size
    won = prizes(pool, payout, standings)
    assert sum(won.values()) == pool
    assert sum(place_prizes(pool, payout)) == pool


def test_remainders_go_to_the_higher_place_and_ties_split() -> None:
    assert place_prizes(101, "50_30_20") == [51, 30, 20]
    assert place_prizes(7, "65_35") == [5, 2]
    assert prizes(100, "50_30_20", [[1], [2, 3], [4]]) == {1: 50, 2: 25, 3: 25}
    assert prizes(100, "winner", [[1, 2]]) == {1: 50, 2: 50}


def new(seats: int = 9, level_rounds: int = 2, payout: str = "50_30_20") -> Tournament:
    t = Tournament(
        "t1", 1, 2, 3, TournamentSettings(fee=100, seats=seats, level_rounds=level_rounds, payout=payout)
    )
    for e in range(1, seats + 1):
        t.join(e, f"p{e}")
    return t


def test_entries_are_refused_twice_full_and_late() -> None:
    t = new(seats=7)
    with pytest.raises(TournamentError) as info:
        t.join(1, "again")
    assert info.value.code == "tournament_already_entered"
    with pytest.raises(TournamentError) as info:
        t.join(99, "late")
    assert info.value.code == "tournament_full"
    t.leave(7)
    t.start([1, 2, 3, 4, 5, 6])
    for code, act in [
        ("tournament_join_after_start", lambda: t.join(7, "x")),
        ("tournament_leave_after_start", lambda: t.leave(1)),
        ("tournament_cancel_after_start", t.cancel),
    ]:
        with pytest.raises(TournamentError) as info:
            act()
        assert info.value.code == code


def test_too_few_to_start() -> None:
    t = new(seats=6)
    t.leave(6)
    with pytest.raises(TournamentError) as info:
        t.start([1, 2, 3, 4, 5])
    assert info.value.params == {"low": 6, "entered": 5}


@pytest.mark.parametrize(
    "bad", [{"seats": 5}, {"seats": 26}, {"fee": 0}, {"level_rounds": 0}, {"payout": "x"}]
)
def test_bad_settings(bad: dict[str, object]) -> None:
    values: dict[str, object] = {"fee": 10, "seats": 6, **bad}
    with pytest.raises(TournamentError):
        TournamentSettings(**values).check()  # type: ignore[arg-type]


def play_round(t: Tournament, rng: random.Random) -> None:
    """Each table's round moves chips among its players and its pot, conserving them."""
    for n, seats in list(t.tables.items()):
        stacks = {e: t.entrants[e].stack for e in seats}
        pot = t.pot(n)
        winner = rng.choice(seats)
        for e in seats:
            if e != winner:
                loss = min(stacks[e], rng.choice([0, t.stake, 2 * t.stake, 7 * t.stake]))
                stacks[e] -= loss
                stacks[winner] += loss
        moved = rng.randint(0, pot)
        stacks[winner] += moved
        pot -= moved
        t.table_round_ended(n, stacks, {"game": pot})


@pytest.mark.parametrize("seed", range(20))
def test_a_tournament_plays_to_one_place_each_with_chips_conserved(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(6, 25)
    t = new(seats=n, level_rounds=rng.randint(1, 4))
    total = n * STARTING_STACK
    order = list(t.entrants)
    rng.shuffle(order)
    t.start(order)
    levels = []
    while t.status == "running":
        play_round(t, rng)
        out, moves = t.advance()
        assert t.chips() == total
        levels.append(t.level)
        for e in t.alive():
            assert t.entrants[e].stack >= t.stake or t.status == "finished"
        seated = [e for s in t.tables.values() for e in s]
        assert len(seated) == len(set(seated))
        assert t.round < 500
    assert levels == sorted(levels) and t.stake >= FIRST_STAKE
    places = t.standings()
    assert sorted(e for g in places for e in g) == sorted(t.entrants)
    assert sum(t.prizes().values()) == t.pool == 100 * n
    assert len(t.alive()) < 3


def test_stakes_rise_and_blind_out_short_stacks() -> None:
    t = new(seats=6, level_rounds=1)
    t.start(list(range(1, 7)))
    assert (t.level, t.stake) == (1, 10)
    for n, seats in t.tables.items():
        stacks = {e: t.entrants[e].stack for e in seats}
        first = seats[0]
        stacks[seats[1]] += stacks[first] - 15  # 15 left: covers 10, not the next level's 20
        stacks[first] = 15
        t.table_round_ended(n, stacks, {})
    out, moves = t.advance()
    assert (t.level, t.stake) == (2, 20)
    assert len(out) == 2 and all(t.entrants[e].out_round == 1 for e in out)
    assert t.finish == [sorted(out, key=list(t.entrants).index)]  # equal stacks share a place
    assert t.chips() == 6 * STARTING_STACK  # a leftover joined its pot; a broken table shared its pot out
    assert len(t.tables) == 1 and sorted(t.tables[1]) == sorted(t.alive())
    assert {m.entrant for m in moves} <= set(t.alive())


def test_the_stop_rule_places_by_stack_and_pays_by_it() -> None:
    t = new(seats=6, payout="65_35")
    t.start(list(range(1, 7)))
    for n, seats in t.tables.items():
        stacks = {e: t.entrants[e].stack for e in seats}
        stacks[seats[0]] += 100
        stacks[seats[1]] -= 100
        t.table_round_ended(n, stacks, {})
    t.advance()
    t.entrants[1].stack += 1
    t.entrants[2].stack -= 1
    t.stop()
    assert t.status == "finished" and t.stopped
    won = t.prizes()
    first = t.standings()[0]
    assert sum(won.values()) == 600 and all(e in won for e in first)


def test_save_and_load_round_trip() -> None:
    t = new(seats=7)
    t.start(list(range(1, 8)))
    again = Tournament.from_json(t.to_json(), version=3)
    assert again.to_json() == t.to_json() and again.version == 3
    assert again.tables == t.tables


@pytest.mark.parametrize("seed", range(3))
def test_the_rules_engine_plays_a_tournament_down_to_its_places(seed: int) -> None:
    from bot.tournament.rounds import play_table_round

    rng = random.Random(seed)
    t = new(seats=8, level_rounds=2)
    t.start(list(t.entrants))
    while t.status == "running":
        for n in list(t.tables):
            before = sum(t.entrants[e].stack for e in t.tables[n]) + t.pot(n)
            stacks, pots = play_table_round(t, n, rng)
            assert sum(stacks.values()) + sum(pots.values()) == before
            if t.table_round_ended(n, stacks, pots):
                t.advance()
        assert t.chips() == 8 * STARTING_STACK and t.round < 300
    assert sum(t.prizes().values()) == t.pool


def test_carried_pots_are_shared_before_anyone_is_placed_at_the_end() -> None:
    """R8.3 at the tournament's end: a table's carried pot (R5.6) goes to its players still in before
    the stacks place them (the 300 chips counted for nobody, and the pool went to another table)."""
    tour = Tournament("tid", 1, 2, 1, TournamentSettings(fee=100, seats=6, computers=False, payout="winner"))
    for e in range(1, 7):
        tour.join(e, str(e))
    tour.start([1, 2, 3, 4, 5, 6])
    (n1, first), (n2, second) = list(tour.tables.items())
    tour.table_round_ended(n1, dict(zip(first, (1050, 950, 700), strict=True)), {"flip": 300})
    tour.table_round_ended(n2, dict(zip(second, (1100, 900, 1000), strict=True)), {})
    tour.advance()
    assert tour.pot(n1) == 300 and tour.chips() == 6000
    tour.stop()  # placed by the stacks: table 1's three share its 300 first
    assert not any(tour.pots.values()) and tour.chips() == 6000
    assert tour.entrants[first[0]].stack == 1150 and tour.prizes() == {first[0]: 600}
