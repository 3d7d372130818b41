"""Chip dumping noticed: a member who keeps losing to one other member more than chance explains.

Pure (no I/O): it reads rounds as ``bot.history`` stores them (each dealt seat's net,
its game-pot winnings, whether it dropped and was caught) and says which pairs of
members look like one feeding the other. Nothing is done to anyone: the pairs are
listed for the server's managers (``/flipflop admin dumping``), with the evidence.

How one member passes chips to another at Flip Flop: **drop** at the start of a turn,
instead of drawing (R6.1), with a hand that is not the lowest; the dropper is caught,
pays a side stake, and the lowest hand takes the game pot (R7.2). Honest players drop
with a low hand and are seldom caught. So for each ordered pair, giver A and taker B:

- ``rounds``: the rounds both were dealt into (``games``: at how many tables, a tournament counting
  as one);
- ``caught``: the rounds among them in which A dropped and was caught;
- ``dumps``: those in which B took (a share of) the game pot, and ``chips``, what A lost in them
  (``tournament_chips``: what A lost in those at tournament tables, kept apart: tournament chips are
  not server chips, but a member pushed up a tournament wins a prize of server chips);
- ``expected``: how many caught drops chance gives A in the shared rounds: A's rate of caught
  drops times the rounds. A's rate is read from A's rounds **without** B, drawn towards the
  server's rate (a prior worth ``PRIOR_SEATS`` rounds, never below ``FLOOR_RATE``, nor below
  A's own rate without B once A has ``PRIOR_SEATS`` such rounds): a careless honest dropper
  is caught with everyone alike, a dumper mostly when the partner is there;
- ``p``: the chance of at least ``caught`` caught drops if A dropped as they do without B
  (Poisson tail); ``score`` = −log10 ``p``.

A pair is flagged when ``p`` ≤ ``MAX_P`` (chance explains it less than once in 10,000
pairs) and B took the pot in at least ``MIN_DUMPS`` of those rounds. A giver who drops
blindly also pays whoever else is at the table: such a third player is listed too, with the
same giver, and a manager sees who keeps coming back. ``bench/dumping_bench.py`` measures what that means
on 10,000 honest rounds of the computer players, and on a dumping pair.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MIN_DUMPS = 3
"""Fewer caught drops to one member than this are never flagged, however unlikely."""
MAX_P = 1e-4
"""The chance of the dumps under honest play below which a pair is flagged (a score of 4)."""
PRIOR_SEATS = 30.0
"""How many rounds the server's rate of caught drops counts for in a member's own rate."""
FLOOR_RATE = 0.02
"""The lowest rate of caught drops assumed for anyone (a server of few rounds says little)."""


@dataclass(frozen=True)
class SeatRound:
    """One seat of one finished round, as ``round_seats`` keeps it."""

    member: int
    """The member's id (computers and forgotten members have ids below 1: never flagged)."""
    net: int
    won_game: int | None
    """Chips the game pot paid this seat as a winner (None: not a winner of it)."""
    caught: bool
    """Dropped and did not have the lowest hand (R7.2)."""


@dataclass(frozen=True)
class PlayedRound:
    """A finished round: its table (one game) and every seat dealt into it."""

    round_id: int
    """The round's id in ``rounds``; a tournament's round number for a tournament table's round."""
    table_id: str
    """The table, one game; a tournament's id for its tables' rounds (the whole tournament is one game)."""
    seats: tuple[SeatRound, ...]
    tournament: bool = False
    """Played at a tournament's table: its nets are tournament chips, not the server's."""


@dataclass(frozen=True)
class Pair:
    """The evidence that ``giver`` dumps chips to ``taker``."""

    giver: int
    taker: int
    games: int
    rounds: int
    caught: int
    """Rounds with the taker dealt in where the giver dropped and was caught (chance: ``expected``)."""
    dumps: int
    """…and the taker took (a share of) the game pot."""
    chips: int
    """What the giver lost in those rounds (split when the game pot had several winners), in server
    chips: tournament rounds' are in ``tournament_chips``."""
    expected: float
    p: float
    tournament_chips: int = 0
    """What the giver lost in the dumps at tournament tables, in tournament chips (not server chips)."""

    @property
    def score(self) -> float:
        """−log10 of ``p``: 4 is one chance in 10,000."""
        return -math.log10(max(self.p, 1e-300))

    @property
    def flagged(self) -> bool:
        """Enough dumps, and too many for chance (``MIN_DUMPS``, ``MAX_P``)."""
        return self.dumps >= MIN_DUMPS and self.p <= MAX_P


def poisson_tail(k: int, mean: float) -> float:
    """P(X ≥ k) for X ~ Poisson(mean)."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    term = math.exp(-mean)
    below = term
    for i in range(1, k):
        term *= mean / i
        below += term
    return max(0.0, 1.0 - below) if below < 0.999 else _upper(k, mean)


def _upper(k: int, mean: float) -> float:
    """P(X ≥ k) summed from k up (no cancellation when it is tiny)."""
    term = math.exp(k * math.log(mean) - mean - math.lgamma(k + 1))
    total, i = 0.0, k
    while term > total * 1e-17 and i < k + 1000:
        total += term
        i += 1
        term *= mean / i
    return min(1.0, total)


@dataclass
class _Tally:
    """Counts read off the rounds in one pass."""

    dealt: dict[int, int]
    caught: dict[int, int]
    together: dict[tuple[int, int], int]
    tables: dict[tuple[int, int], set[str]]
    caught_with: dict[tuple[int, int], int]
    dumps: dict[tuple[int, int], int]
    chips: dict[tuple[int, int], int]
    tournament_chips: dict[tuple[int, int], int]


def _tally(rounds: Iterable[PlayedRound]) -> _Tally:
    t = _Tally(
        dealt=defaultdict(int),
        caught=defaultdict(int),
        together=defaultdict(int),
        tables=defaultdict(set),
        caught_with=defaultdict(int),
        dumps=defaultdict(int),
        chips=defaultdict(int),
        tournament_chips=defaultdict(int),
    )
    for r in rounds:
        winners = [s for s in r.seats if s.won_game is not None]
        lost = t.tournament_chips if r.tournament else t.chips
        for a in r.seats:
            t.dealt[a.member] += 1
            t.caught[a.member] += a.caught
            for b in r.seats:
                if b.member == a.member or a.member < 1 or b.member < 1:
                    continue
                key = (a.member, b.member)
                t.together[key] += 1
                t.tables[key].add(r.table_id)
                if a.caught:
                    t.caught_with[key] += 1
                    if b.won_game is not None:
                        t.dumps[key] += 1
                        lost[key] += -a.net // max(1, len(winners))
    return t


def pairs(rounds: Sequence[PlayedRound]) -> list[Pair]:
    """Every ordered pair of members who shared a round, with its evidence, most suspicious first."""
    t = _tally(rounds)
    all_dealt, all_caught = sum(t.dealt.values()), sum(t.caught.values())
    out = []
    for (a, b), n in t.together.items():
        others_dealt = all_dealt - t.dealt[a] - t.dealt[b]
        others_caught = all_caught - t.caught[a] - t.caught[b]
        server = max(FLOOR_RATE, others_caught / others_dealt if others_dealt > 0 else 0.0)
        own_dealt = t.dealt[a] - n
        own_caught = t.caught[a] - t.caught_with[(a, b)]
        rate = max(FLOOR_RATE, (own_caught + PRIOR_SEATS * server) / (own_dealt + PRIOR_SEATS))
        if own_dealt >= PRIOR_SEATS:  # enough rounds of their own: never below what they show there
            rate = max(rate, own_caught / own_dealt)
        expected = rate * n
        caught = t.caught_with[(a, b)]
        out.append(
            Pair(
                giver=a,
                taker=b,
                games=len(t.tables[(a, b)]),
                rounds=n,
                caught=caught,
                dumps=t.dumps[(a, b)],
                chips=t.chips[(a, b)],
                expected=expected,
                p=poisson_tail(caught, expected),
                tournament_chips=t.tournament_chips[(a, b)],
            )
        )
    return sorted(out, key=lambda p: (p.p, -p.dumps, p.giver, p.taker))


def flagged(rounds: Sequence[PlayedRound]) -> list[Pair]:
    """The pairs chance does not explain (``Pair.flagged``), most suspicious first."""
    return [p for p in pairs(rounds) if p.flagged]
