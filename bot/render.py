"""How cards, chips and tables read in Discord.

Suits are told apart by shape and colour in both light and dark themes: a red
card is its rank in a code box followed by a red suit emoji (``♥️`` ``♦️``); a
black card keeps its suit inside the code box (``A♠``), where Discord draws it
as text in the theme's own colour, so spades and clubs never turn into dark
emoji that vanish on the dark theme.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.cards import RANKS, Card, sort_key

SUIT_MARK = {"H": "♥️", "D": "♦️", "S": "♠\ufe0e", "C": "♣\ufe0e"}
SUIT_WORD = {"H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}


def chips(n: int) -> str:
    """``1,234 chips``."""
    return f"{n:,} chip" + ("" if n == 1 else "s")


def rank_text(card: Card) -> str:
    """The rank as printed on a card: ``A``, ``10``, ``K``."""
    r = RANKS[card.rank - 1]
    return "10" if r == "T" else r


def card(c: Card) -> str:
    """One card for a message: ```10`♥️`` for a red card, ```A♠` `` for a black one."""
    if c.is_red:
        return f"`{rank_text(c)}`{SUIT_MARK[c.suit]}"
    return f"`{rank_text(c)}{SUIT_MARK[c.suit]}`"


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


_RULE_ID = re.compile(r"\s*\((?:R\d+(?:\.\d+)*)(?:[,;]\s*R\d+(?:\.\d+)*)*\)")


def for_players(text: str) -> str:
    """A refusal as players read it: the rule ids it cites (for us) are left out."""
    return _RULE_ID.sub("", text)
