"""Runs and sets: recognising spreads, finding them in a hand, laying off (R6.4, R6.5, R7.4)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Literal

from engine.cards import DECK, SUITS, Card, labels
from engine.errors import IllegalAction

SpreadKind = Literal["run", "set"]


def normalise(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The canonical order of a spread's cards: by rank, then suit."""
    return tuple(sorted(cards, key=lambda c: (c.rank, c.suit)))


def spread_kind(cards: Sequence[Card]) -> SpreadKind:
    """Say whether ``cards`` are a run or a set (R6.4); raise ``IllegalAction`` if neither.

    A run is 3 or more cards of one suit in consecutive rank, aces low (R1.2);
    a set is 3 or 4 cards of one rank.
    """
    if len(set(cards)) != len(cards):
        raise IllegalAction("card_twice", cards=labels(cards))
    if len(cards) < 3:
        raise IllegalAction("spread_too_short", cards=labels(cards))
    ranks = {c.rank for c in cards}
    if len(ranks) == 1:
        return "set"  # at most 4 distinct cards share a rank
    suits = {c.suit for c in cards}
    if len(suits) != 1:
        raise IllegalAction("not_a_spread", cards=labels(cards))
    ordered = sorted(c.rank for c in cards)
    if ordered[-1] - ordered[0] != len(ordered) - 1:
        if 1 in ranks and 13 in ranks:
            raise IllegalAction("aces_low", cards=labels(cards))
        raise IllegalAction("not_consecutive", cards=labels(cards))
    return "run"


def takes(kind: SpreadKind, spread: Sequence[Card]) -> tuple[Card, ...]:
    """R6.5: the cards that may be laid off on this spread.

    A run takes the next card of its suit at either end (aces low, so nothing
    below an ace and nothing above a king); a set of three takes its fourth card.
    """
    first = spread[0]
    if kind == "set":
        if len(spread) != 3:
            return ()
        have = {c.suit for c in spread}
        return tuple(_CARD[first.rank, s] for s in SUITS if s not in have)
    last = spread[-1]
    below = (_CARD[first.rank - 1, first.suit],) if first.rank > 1 else ()
    above = (_CARD[last.rank + 1, last.suit],) if last.rank < 13 else ()
    return below + above


_CARD = {(c.rank, c.suit): c for c in DECK}
_RUN_STARTS = sum(0x7FF << (13 * i) for i in range(4))  # ranks A..J of each suit: a run of 3 fits above
_PLUS5 = sum(5 << (4 * i) for i in range(13))
_EIGHTS = sum(8 << (4 * i) for i in range(13))
_SUIT_BITS = (1 << 52) - 1
_COUNTS = {c: 1 << (13 * SUITS.index(c.suit) + c.rank - 1) | 1 << (64 + 4 * (c.rank - 1)) for c in DECK}
"""Each card as one number: its bit in a 52-bit set, and a 1 in its rank's 4-bit counter above."""


def may_hold_spread(hand: Sequence[Card]) -> bool:
    """Say quickly whether ``hand`` holds any spread (R6.4): three in a suit's row, or three of a rank.

    The hand as a 52-bit set has a run where a bit and the two above it are
    set; its rank counters (adding 5 sets a counter's high bit exactly where
    it is 3 or more) show a set.
    """
    total = sum(map(_COUNTS.__getitem__, hand))
    bits = total & _SUIT_BITS
    if bits & (bits >> 1) & (bits >> 2) & _RUN_STARTS:
        return True
    return bool(((total >> 64) + _PLUS5) & _EIGHTS)


def find_spreads(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every new spread that can be laid down from ``hand``, each in canonical order."""
    found: list[tuple[Card, ...]] = []
    if len(hand) < 3 or not may_hold_spread(hand):
        return found
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for c in hand:
        r, su = c
        if r in by_rank:
            by_rank[r].append(c)
        else:
            by_rank[r] = [c]
        if su in by_suit:
            by_suit[su].append(c)
        else:
            by_suit[su] = [c]
    for same in by_rank.values():
        if len(same) >= 3:
            same.sort(key=lambda c: c.suit)
            found.extend(combinations(same, 3))
            if len(same) == 4:
                found.append(tuple(same))
    for suit in SUITS:
        cards = by_suit.get(suit)
        if not cards or len(cards) < 3:
            continue
        cards.sort()
        start = 0
        for i in range(1, len(cards) + 1):
            if i < len(cards) and cards[i].rank == cards[i - 1].rank + 1:
                continue
            stretch = cards[start:i]  # consecutive ranks
            n = len(stretch)
            for size in range(3, n + 1):
                for first in range(0, n - size + 1):
                    found.append(tuple(stretch[first : first + size]))
            start = i
    return found


def two_spread_splits(
    hand: Sequence[Card], found: Sequence[tuple[Card, ...]] | None = None
) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """R7.4: the ways to lay six cards down as exactly two spreads of three.

    ``found`` may pass ``find_spreads(hand)`` when the caller already has it.
    """
    if len(hand) != 6:
        return []
    threes = [s for s in (find_spreads(hand) if found is None else found) if len(s) == 3]
    if len(threes) < 2:
        return []
    whole = set(hand)
    out: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    for i, a in enumerate(threes):
        rest = whole.difference(a)
        for b in threes[i + 1 :]:
            if rest.issuperset(b):
                out.append((a, b))
    return out
