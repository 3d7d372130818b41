"""How cards, chips and tables read in Discord.

A card reads as its reader chose (``bot.cards``: the bot's card faces as emojis,
classic or four-colour, or words for screen readers), carried by the reader's
``Texts`` (``t.faces``). Without emojis a card is text, rank and suit together
in a code box (```10♡` ``, ```A♤` ``): the suits are outlined signs that no
client paints as emoji, so they take the theme's own text colour — readable in
dark and light themes alike, in menus too — and no card looks bigger than
another. Suits are told apart by shape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.cards import DEFAULT_LOOK, SUIT_TEXT, CardEmoji, Look
from bot.i18n import N_, Texts
from engine.cards import Card, sort_key

SUIT_MARK = SUIT_TEXT
"""Each suit as text: ``♤ ♡ ♢ ♧``, never painted as emoji (see ``bot.cards``)."""
SUIT_WORD = {"H": N_("hearts"), "D": N_("diamonds"), "S": N_("spades"), "C": N_("clubs")}
"""Each suit's name (a catalog message: translated where shown)."""


def look(t: Texts | None) -> Look:
    """How the reader of ``t`` sees cards (text in the classic style when ``t`` does not say)."""
    faces = t.faces if t is not None else None
    return faces if isinstance(faces, Look) else DEFAULT_LOOK


def card(c: Card, t: Texts | None = None) -> str:
    """One card for a message, as ``t``'s reader sees cards: an emoji, ```10♡` ``, or "10 of hearts"."""
    seen = look(t)
    return seen.faces.markdown(c, seen.style, t)


def cards(
    cs: Iterable[Card], sort: bool = False, marks: dict[Card, str] | None = None, t: Texts | None = None
) -> str:
    """Several cards for a message; ``marks`` adds a word after some (``new``, ``upcard``)."""
    seq = sorted(cs, key=sort_key) if sort else list(cs)
    marks = marks or {}
    sep = ", " if look(t).words else " "
    return sep.join(card(c, t) + (f" *({marks[c]})*" if c in marks else "") for c in seq) if seq else "—"


def plain(c: Card, t: Texts | None = None) -> str:
    """A card in plain text (select menu labels, buttons): ``10♡``, or "10 of hearts"."""
    seen = look(t)
    return seen.faces.text(c, seen.style, t)


def card_emoji(c: Card, t: Texts | None = None) -> CardEmoji | None:
    """The card's emoji for ``t``'s reader (a select option's picture), or None: text only."""
    seen = look(t)
    return seen.faces.emoji(c, seen.style)


def plain_cards(cs: Iterable[Card], t: Texts | None = None) -> str:
    """Several cards in plain text."""
    return (", " if look(t).words else " ").join(plain(c, t) for c in cs)


def suit_name(suit: str, t: Texts) -> str:
    """``hearts ♡`` in ``t``'s language; only the word for a reader of words (``text`` style)."""
    word = t.gettext(SUIT_WORD[suit])
    return word if look(t).words else f"{word} {SUIT_MARK[suit]}"


_RULE_ID = re.compile(r"\s*\((?:R\d+(?:\.\d+)*)(?:[,;]\s*R\d+(?:\.\d+)*)*\)")


def for_players(text: str) -> str:
    """A refusal as players read it: the rule ids it cites (for us) are left out."""
    return _RULE_ID.sub("", text)
