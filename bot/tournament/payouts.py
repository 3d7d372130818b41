"""Prizes from the entry fees: the payout table the host picked, in whole chips.

Each place's share is rounded down and the chips left over go to the higher
places, one each from first down. Players who share a place (the stop rule
ranks the players still in by their stacks; equal stacks share) split the
prizes of the places they cover evenly, any remainder to the earlier entrant.
Every chip of the pool is paid: the prizes always add up to it.
"""

from __future__ import annotations

from collections.abc import Sequence

PAYOUTS: dict[str, tuple[int, ...]] = {
    "winner": (100,),
    "65_35": (65, 35),
    "50_30_20": (50, 30, 20),
}
"""The payout tables a host picks from: percent of the pool by place."""


def place_prizes(pool: int, payout: str) -> list[int]:
    """The prize of each paid place, best first; they add up to ``pool``."""
    shares = PAYOUTS[payout]
    prizes = [pool * share // 100 for share in shares]
    left = pool - sum(prizes)
    for i in range(left):
        prizes[i % len(prizes)] += 1
    return prizes


def prizes(pool: int, payout: str, standings: Sequence[Sequence[int]]) -> dict[int, int]:
    """What each entrant wins: ``standings`` are groups that share a place, best first (entry order within).

    Only entrants who win something are in the answer. When fewer entrants
    finish than places are paid (never, with six or more), the unpaid places'
    prizes go to the best place.
    """
    by_place = place_prizes(pool, payout)
    finishers = sum(len(g) for g in standings)
    if finishers and finishers < len(by_place):
        by_place[0] += sum(by_place[finishers:])
        del by_place[finishers:]
    won: dict[int, int] = {}
    place = 0
    for group in standings:
        covered = sum(by_place[place : place + len(group)])
        place += len(group)
        if not covered:
            continue
        each, left = divmod(covered, len(group))
        for i, entrant in enumerate(group):
            share = each + (1 if i < left else 0)
            if share:
                won[entrant] = share
    return won
