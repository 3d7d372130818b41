"""``bot.dumping``: a pair flagged only when chance does not explain the caught drops, with its evidence."""

from __future__ import annotations

import math
import random

from bot.dumping import MAX_P, PlayedRound, SeatRound, flagged, pairs, poisson_tail

ANN, BEN, CAT, DAN = 11, 12, 13, 14
COMPUTER = -1


def round_of(i: int, table: str, *seats: tuple[int, int, int | None, bool]) -> PlayedRound:
    return PlayedRound(i, table, tuple(SeatRound(m, net, won, caught) for m, net, won, caught in seats))


def honest_round(i: int, rng: random.Random, members: list[int]) -> PlayedRound:
    """A round where anyone is caught 3% of the time and a random other player takes the pot."""
    seats = []
    loser = rng.choice(members) if rng.random() < 0.03 * len(members) else None
    winner = rng.choice([m for m in members if m != loser])
    for m in members:
        seats.append((m, 15 if m == winner else -5, 15 if m == winner else None, m == loser))
    return round_of(i, f"t{i // 10}", *seats)


def dumping_rounds(n: int, first: int = 10_000) -> list[PlayedRound]:
    """ANN drops and is caught every other round; BEN takes the pot each time; a computer is third."""
    out = []
    for k in range(n):
        if k % 2 == 0:
            out.append(
                round_of(
                    first + k, "d", (ANN, -15, None, True), (BEN, 20, 20, False), (COMPUTER, -5, None, False)
                )
            )
        else:
            out.append(
                round_of(
                    first + k, "d", (ANN, -5, None, False), (BEN, -5, None, False), (COMPUTER, 10, 10, False)
                )
            )
    return out


def test_the_poisson_tail() -> None:
    assert poisson_tail(0, 3.0) == 1.0
    assert math.isclose(poisson_tail(1, 1.0), 1 - math.exp(-1))
    assert math.isclose(poisson_tail(2, 0.5), 1 - math.exp(-0.5) * 1.5)
    assert 0 < poisson_tail(60, 1.0) < 1e-60  # tiny tails are summed, not subtracted from 1
    assert poisson_tail(3, 0.0) == 0.0


def test_a_dumping_pair_is_flagged_with_its_evidence() -> None:
    rng = random.Random(1)
    background = [honest_round(i, rng, [CAT, DAN, COMPUTER]) for i in range(500)]
    found = flagged(background + dumping_rounds(20))
    assert [(p.giver, p.taker) for p in found] == [(ANN, BEN)]
    pair = found[0]
    assert (pair.games, pair.rounds, pair.caught, pair.dumps, pair.chips) == (1, 20, 10, 10, 150)
    assert pair.p <= MAX_P and pair.score >= 4 and pair.expected < 1.5


def test_few_rounds_are_never_enough() -> None:
    assert flagged(dumping_rounds(4)) == []  # two caught drops: under MIN_DUMPS, however unlikely


def test_honest_rounds_flag_nobody() -> None:
    rng = random.Random(2)
    members = [ANN, BEN, CAT, DAN, COMPUTER]
    rounds = [honest_round(i, rng, rng.sample(members, 3)) for i in range(3000)]
    assert flagged(rounds) == []
    assert all(p.giver > 0 and p.taker > 0 for p in pairs(rounds))  # computers are never a pair


def test_a_careless_dropper_caught_with_everyone_is_not_a_dumper() -> None:
    """Caught in a third of rounds whoever is there: their rate without the taker explains it."""
    rng = random.Random(3)
    rounds = []
    for i in range(600):
        others = rng.sample([BEN, CAT, DAN], 2)
        caught = i % 3 == 0
        winner = rng.choice(others)
        rounds.append(
            round_of(
                i,
                f"t{i // 10}",
                (ANN, -15 if caught else -5, None, caught),
                *((m, 20 if m == winner else -5, 20 if m == winner else None, False) for m in others),
            )
        )
    assert flagged(rounds) == []
