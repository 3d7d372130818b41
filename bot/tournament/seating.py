"""Seating entrants at tables of 3 to 5, and rebalancing them between rounds (pure functions).

A seat moves only between rounds (the tournament deals every table's next
round together, after the last one ends), so a move never skips a deal a
player paid into, and the chips move with the seat: stacks belong to the
entrant, not to the table. Tables are numbered from 1 and keep their number
while they stand; the final table is the one left when five or fewer remain.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import HOUSE_RULES

MIN_AT_TABLE = HOUSE_RULES.min_players
MAX_AT_TABLE = HOUSE_RULES.max_players

Tables = dict[int, list[int]]
"""Table number → the entrants seated there, in seat order."""


@dataclass(frozen=True)
class Move:
    """One seat moving between rounds, chips with it: announced at both tables."""

    entrant: int
    from_table: int
    to_table: int


def tables_needed(players: int) -> int:
    """How many tables seat ``players``: as few as hold them five to a table (0 when fewer than three)."""
    if players < MIN_AT_TABLE:
        return 0
    return max(1, math.ceil(players / MAX_AT_TABLE))


def seat(entrants: Sequence[int]) -> Tables:
    """The first seating: entrants dealt round the tables in the order given (shuffle it first)."""
    count = tables_needed(len(entrants))
    tables: Tables = {n: [] for n in range(1, count + 1)}
    for i, entrant in enumerate(entrants):
        tables[i % count + 1].append(entrant)
    return tables


def _smallest(tables: Tables) -> int:
    return min(tables, key=lambda n: (len(tables[n]), n))


def _largest(tables: Tables) -> int:
    return max(tables, key=lambda n: (len(tables[n]), n))


def rebalance(tables: Tables, alive: Iterable[int]) -> tuple[Tables, list[Move]]:
    """The tables once the busted have left, broken and evened out; and the seats that moved.

    The busted (anyone not ``alive``) leave their tables. While there are more
    tables than ``tables_needed``, the smallest (the highest-numbered among
    equals) breaks and its players go one by one to the smallest table left.
    Then, while two tables differ by more than one player, the last-seated
    player of the largest moves to the smallest. So every table seats 3 to 5,
    sizes differ by at most one, and each player sits at exactly one table.
    """
    living = set(alive)
    now: Tables = {n: [e for e in seats if e in living] for n, seats in sorted(tables.items())}
    seated = [e for seats in now.values() for e in seats]
    if len(seated) != len(set(seated)) or set(seated) != living:
        raise ValueError("every living entrant must sit at exactly one table")
    moves: list[Move] = []
    need = tables_needed(len(seated))
    if need == 0:  # fewer than three left: no table, the tournament is over
        return {}, []
    while len(now) > need:
        broken = min(now, key=lambda n: (len(now[n]), -n))
        leaving = now.pop(broken)
        for entrant in leaving:
            to = _smallest(now)
            now[to].append(entrant)
            moves.append(Move(entrant, broken, to))
    while now and len(now[_largest(now)]) - len(now[_smallest(now)]) > 1:
        source, to = _largest(now), _smallest(now)
        entrant = now[source].pop()
        now[to].append(entrant)
        moves.append(Move(entrant, source, to))
    return now, moves
