"""Cards as numbers and hands as sets of bits, for the fast play-out (``engine.ai.rollout``).

A card is its place in ``engine.cards.DECK`` (13 a suit, ace to king) and a hand an
``int`` with one bit a card, so a hand's value, what is near a card, whether a card
makes a spread (R6.4), which spread the basic policy lays down and which card it
throws are a few integer operations. Each function says which rule or which
``engine.ai.strategies`` choice it restates; ``tests/engine/test_play_out.py``
checks the play-out built on them against the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.inference import KEY
from engine.cards import DECK, VALUES, Card

INDEX = {c: i for i, c in enumerate(DECK)}
"""Each card's number: 13 times its suit's place in ``SUITS``, plus its rank less one."""
VAL = [VALUES[c.rank] for c in DECK]
ORDER = [sorted(DECK, key=KEY.__getitem__).index(c) for c in DECK]
"""The basic policy's discard order (value, rank, suit) as one number per card."""
NEAR = [
    sum(
        1 << j
        for j, o in enumerate(DECK)
        if o != c and (o.rank == c.rank or (o.suit == c.suit and abs(o.rank - c.rank) <= 2))
    )
    for c in DECK
]
"""For each card, the cards that make it "near" (``engine.ai.inference.NEAR``), as bits."""
RANK = [sum(1 << (13 * s + c.rank - 1) for s in range(4)) for c in DECK]
"""For each card, the four cards of its rank, as bits."""
ROW = (1 << 13) - 1
RUN_STARTS = sum(0x7FF << (13 * i) for i in range(4))
"""Ranks ace to jack of each suit: a run of three starting there stays in the suit."""
SUIT_EDGE = [i % 13 for i in range(52)]
"""A card's rank less one: 0 has nothing below it in its suit, 12 nothing above."""


def bits_of(cards: Sequence[Card]) -> int:
    """The hand ``cards`` as a set of bits."""
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def takes(is_set: bool, m: int) -> int:
    """R6.5 as bits (``engine.spreads.takes``): a set of three takes its fourth card, a run either end."""
    low = (m & -m).bit_length() - 1
    if is_set:
        return RANK[low] & ~m if m.bit_count() == 3 else 0
    high = m.bit_length() - 1
    out = 0
    if SUIT_EDGE[low]:
        out |= 1 << (low - 1)
    if SUIT_EDGE[high] != 12:
        out |= 1 << (high + 1)
    return out


def is_a_set(m: int) -> bool:
    """Whether the cards ``m`` are all of one rank (a set, R6.4), not a run."""
    low = (m & -m).bit_length() - 1
    return m & RANK[low] == m


def makes_spread(hand: int, c: int) -> bool:
    """Whether card ``c`` is in a spread (R6.4) of ``hand`` (which holds it): three of its rank or a run."""
    if (hand & RANK[c]).bit_count() >= 3:
        return True
    size = 1
    i = c
    while SUIT_EDGE[i] and hand >> (i - 1) & 1:
        i -= 1
        size += 1
    i = c
    while SUIT_EDGE[i] != 12 and hand >> (i + 1) & 1:
        i += 1
        size += 1
    return size >= 3


def best_spread(hand: int) -> int:
    """``engine.ai.strategies.drawn_move``'s spread: the most value, then the most cards; 0 if none.

    ``engine.spreads.find_spreads`` lists sets before runs (runs by suit, then rank) and the
    first of equals is laid down; the best set or run of a stretch is always all of it, and two
    equal groups that share no card need six cards, when the hand tonks out instead (R7.4), so
    a set beats a run only when they share a card, and then it comes first: it is kept on a tie.
    """
    best = 0
    best_key = (0, 0)
    a, b, c, d = hand & ROW, hand >> 13 & ROW, hand >> 26 & ROW, hand >> 39
    threes = (a & b & (c | d)) | (c & d & (a | b))  # ranks held three or four times
    while threes:
        low = threes & -threes
        r = low.bit_length() - 1
        threes ^= low
        group = hand & RANK[r]
        size = group.bit_count()
        key = (size * VAL[r], size)
        if key > best_key:
            best, best_key = group, key
    starts = hand & hand >> 1 & hand >> 2 & RUN_STARTS  # the lowest card of each run of three
    while starts:
        low = starts & -starts
        i = low.bit_length() - 1  # the first card of a stretch: a lower one would start a run too
        group = 0
        total = 0
        while True:
            group |= 1 << i
            total += VAL[i]
            if SUIT_EDGE[i] == 12 or not hand >> (i + 1) & 1:
                break
            i += 1
        starts &= ~group
        key = (total, group.bit_count())
        if key > best_key:
            best, best_key = group, key
    return best


def tonk_split(hand: int) -> int:
    """R7.4: a spread of three from six cards whose other three are a spread too; 0 if none."""
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        group = hand & RANK[c]
        if group.bit_count() >= 3:  # a set of three of these (of four: any three)
            rest_m = group
            while rest_m:
                drop = rest_m & -rest_m
                rest_m ^= drop
                three = group & ~drop if group.bit_count() == 4 else group
                if is_three(hand & ~three):
                    return three
                if group.bit_count() == 3:
                    break
        if SUIT_EDGE[c] <= 10 and hand >> (c + 1) & 1 and hand >> (c + 2) & 1:
            three = 7 << c
            if is_three(hand & ~three):
                return three
    return 0


def is_three(m: int) -> bool:
    """Whether the three cards ``m`` are a spread: one rank, or one suit in a row."""
    low = (m & -m).bit_length() - 1
    if m & RANK[low] == m:
        return True
    return SUIT_EDGE[low] <= 10 and m == 7 << low


def throw(hand: int, banned: int) -> int:
    """``engine.ai.strategies.throw``: the highest card not near a spread, else the highest (not banned)."""
    pick = -1
    top = -1
    far = False
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if c == banned:
            continue
        is_far = not NEAR[c] & hand
        if is_far and not far:
            pick, top, far = c, ORDER[c], True
        elif is_far == far and ORDER[c] > top:
            pick, top = c, ORDER[c]
    assert pick >= 0
    return pick
