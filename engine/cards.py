"""Cards, ranks, suits and values (R1).

A card is a small immutable value; the 52 of them are made once and shared,
so cards compare and hash quickly and ``Card.parse`` is a dictionary look-up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from itertools import repeat
from typing import NamedTuple

from engine.errors import MalformedInput

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SISTER_SUIT = {"H": "D", "D": "H", "S": "C", "C": "S"}
"""R1.4: each suit's sister is the other suit of its colour."""


class Card(NamedTuple):
    """One playing card: ``rank`` 1 (ace, always low, R1.2) to 13 (king)."""

    rank: int
    suit: str

    @property
    def value(self) -> int:
        """R1.3: ace 1, two to ten face value, jack, queen and king 10."""
        return VALUES[self.rank]

    @property
    def code(self) -> str:
        """R1.5 notation, e.g. ``TH`` for the ten of hearts."""
        return RANKS[self.rank - 1] + self.suit

    @property
    def label(self) -> str:
        """How a person reads it: ``10♥``, ``A♠``."""
        r = RANKS[self.rank - 1]
        return ("10" if r == "T" else r) + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    @staticmethod
    def parse(code: str) -> Card:
        """Read R1.5 notation; raise ``MalformedInput`` for anything else."""
        card = _BY_CODE.get(code.upper() if isinstance(code, str) else "")
        if card is None:
            raise MalformedInput("not_a_card", text=repr(code))
        return card


VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
"""The 52 cards (R1.1), clubs first, ace to king within a suit."""
_BY_CODE = {c.code: c for c in DECK}
CODES: dict[Card, str] = {c: c.code for c in DECK}
"""Each card's R1.5 code, for hot paths."""
_BY_CODE.update({c.code.replace("T", "10"): c for c in DECK if c.rank == 10})


def hand_value(cards: Sequence[Card]) -> int:
    """R1.3: the sum of the cards' values."""
    total = 0
    for c in cards:  # measured cheaper than a look-up per card: a card's hash is not kept
        total += VALUES[c.rank]
    return total


def shuffled(rng: random.Random) -> list[Card]:
    """The 52 cards in a uniformly random order (R3.2), top card first.

    Sorting by random keys is a uniform shuffle, and measured cheaper than
    ``rng.shuffle``: the keys come from ``rng.random`` through C-level calls
    only (``next`` on a ``map`` of the unbound method over the generator:
    cheaper than a callable iterator, which compares each key with its
    sentinel), one per card, in deck order.
    """
    return sorted(DECK, key=partial(next, map(type(rng).random, repeat(rng))))


def sort_key(card: Card) -> tuple[int, int]:
    """Sort for display: by suit, then rank."""
    return SUITS.index(card.suit), card.rank


def labels(cards: Sequence[Card]) -> str:
    """Cards as a person reads them, space separated."""
    return " ".join(c.label for c in cards)


def codes(cards: Sequence[Card]) -> list[str]:
    """Cards in R1.5 notation."""
    return [c.code for c in cards]
