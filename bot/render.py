"""How cards, chips and tables read in Discord.

Every card has one look, whatever its suit: rank and suit together in a code
box (``10♥︎``, ``A♠︎``). The suit is drawn as text (variation selector 15), so
Discord paints it in the theme's own text colour: readable in dark and light
themes alike, no dark emoji vanishing on the dark theme, and no card looking
bigger than another. Suits are told apart by shape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.i18n import N_, Texts
from engine.cards import RANKS, Card, sort_key

SUIT_MARK = {"H": "♥\ufe0e", "D": "♦\ufe0e", "S": "♠\ufe0e", "C": "♣\ufe0e"}
SUIT_WORD = {"H": N_("hearts"), "D": N_("diamonds"), "S": N_("spades"), "C": N_("clubs")}
"""Each suit's name (a catalog message: translated where shown)."""


def rank_text(card: Card) -> str:
    """The rank as printed on a card: ``A``, ``10``, ``K``."""
    r = RANKS[card.rank - 1]
    return "10" if r == "T" else r


def card(c: Card) -> str:
    """One card for a message: ```10♥︎` ``, ```A♠︎` ``: the same look for all four suits."""
    return f"`{rank_text(c)}{SUIT_MARK[c.suit]}`"


def cards(cs: Iterable[Card], sort: bool = False, marks: dict[Card, str] | None = None) -> str:
    """Several cards for a message; ``marks`` adds a word after some (``new``, ``upcard``)."""
    seq = sorted(cs, key=sort_key) if sort else list(cs)
    marks = marks or {}
    return " ".join(card(c) + (f" *({marks[c]})*" if c in marks else "") for c in seq) if seq else "—"


def plain(c: Card) -> str:
    """A card in plain text (select menu labels): ``10♥``."""
    return c.label


def plain_cards(cs: Iterable[Card]) -> str:
    """Several cards in plain text."""
    return " ".join(c.label for c in cs)


def suit_name(suit: str, t: Texts) -> str:
    """``hearts ♥︎`` in ``t``'s language."""
    return f"{t.gettext(SUIT_WORD[suit])} {SUIT_MARK[suit]}"


_RULE_ID = re.compile(r"\s*\((?:R\d+(?:\.\d+)*)(?:[,;]\s*R\d+(?:\.\d+)*)*\)")


def for_players(text: str) -> str:
    """A refusal as players read it: the rule ids it cites (for us) are left out."""
    return _RULE_ID.sub("", text)
