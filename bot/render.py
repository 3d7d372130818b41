"""How cards, chips and tables read in Discord.

Suits are told apart by shape and colour in both light and dark themes:
hearts and diamonds are red emoji, spades and clubs are plain text glyphs,
which Discord draws in the theme's text colour (light on dark, dark on light).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import RANKS, Card, sort_key

SUIT_MARK = {"H": "♥️", "D": "♦️", "S": "♠", "C": "♣"}
SUIT_WORD = {"H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}


def chips(n: int) -> str:
    """``1,234 chips``."""
    return f"{n:,} chip" + ("" if n == 1 else "s")


def rank_text(card: Card) -> str:
    """The rank as printed on a card: ``A``, ``10``, ``K``."""
    r = RANKS[card.rank - 1]
    return "10" if r == "T" else r


def card(c: Card) -> str:
    """One card for a message: the rank boxed, then the suit mark."""
    return f"`{rank_text(c)}`{SUIT_MARK[c.suit]}"


def cards(cs: Iterable[Card], sort: bool = False) -> str:
    """Several cards for a message."""
    seq = sorted(cs, key=sort_key) if sort else list(cs)
    return " ".join(card(c) for c in seq) if seq else "—"


def plain(c: Card) -> str:
    """A card in plain text (select menu labels): ``10♥``."""
    return c.label


def plain_cards(cs: Iterable[Card]) -> str:
    """Several cards in plain text."""
    return " ".join(c.label for c in cs)


def suit_name(suit: str) -> str:
    """``hearts ♥️``."""
    return f"{SUIT_WORD[suit]} {SUIT_MARK[suit]}"
