"""Card faces: the one place a card becomes a picture or text, for every message the bot sends.

Three **styles** a reader can choose (``/flipflop cards``; the server's choice, ``/flipflop
config cards:``, for public messages):

- ``classic``: the bot's own card faces as application emojis, hearts and diamonds red;
- ``four``: the four-colour deck, clubs green and diamonds blue (no two suits alike);
- ``text``: words, for screen readers — "king of spades" in the reader's language.

The faces are PNGs in this package (``classic/KS.png``, ``four/back.png``…), drawn by
``scripts/draw_cards.py`` and listed with their SHA-256 in ``SHA256SUMS``. At start-up the bot
uploads the missing ones as application emojis (``cogs.flipflop.emojis``); an emoji's name
carries a short hash of its image (``ff_KS_c_1a2b3c``), so a redrawn face is a new emoji and
an unchanged one is never uploaded twice.

The API, used by every renderer (``bot.presentation.render`` turns a card into message text through it)::

    faces = CardFaces()                    # one per bot; the emoji sync fills it
    faces.emoji(card, "classic")           # a CardEmoji, or None until uploaded
    faces.emoji(None, "four")              # the back of a card
    faces.text(card, "classic", t)         # plain text, any place: "K♤", "10♡"; "king of spades"
    faces.markdown(card, "four", t)        # for a message: the emoji, else "`K♤`" (or the words)
    Look(faces, "text")                    # what a reader's ``Texts`` carries (``Texts.faces``)

Until the emojis exist — or when they can not be created — every style falls back to text,
which reads the same on dark and light themes everywhere, select menus and buttons included:
the suits are the outlined signs ♤ ♡ ♢ ♧, which no Discord client paints as emoji (the filled
♠ and ♣ become black pictures, invisible on the dark theme).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot.i18n.catalogs import N_
from engine.cards import RANKS, SUITS, Card

if TYPE_CHECKING:
    from bot.i18n.catalogs import Texts

Style = Literal["classic", "four", "text"]
STYLES: tuple[Style, ...] = ("classic", "four", "text")
DEFAULT_STYLE: Style = "classic"
STYLE_NAME = {"classic": N_("classic"), "four": N_("four-colour"), "text": N_("words for screen readers")}
"""Each style's name as a reader sees it (a catalog message)."""
DECKS = {"classic": "c", "four": "f"}
"""The two sets of pictures and the letter an emoji's name gives each."""

HERE = Path(__file__).resolve().parent
SUIT_TEXT = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}
"""Each suit as text: signs that are never emoji (see the module's docstring)."""

RANK_WORD = {1: N_("ace"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")}
"""Ranks said as words in the ``text`` style; the others are numbers in the reader's digits."""
CARD_WORDS = {
    "S": N_("{rank} of spades"),
    "H": N_("{rank} of hearts"),
    "D": N_("{rank} of diamonds"),
    "C": N_("{rank} of clubs"),
}
"""A card in words; one message per suit, so each language can inflect the suit its own way."""
BACK_WORDS = N_("a card face down")


def rank_text(card: Card) -> str:
    """The rank as printed on a card: ``A``, ``10``, ``K``."""
    r = RANKS[card.rank - 1]
    return "10" if r == "T" else r


def short_text(card: Card) -> str:
    """A card as text that reads on any theme: ``K♤``, ``10♡``."""
    return rank_text(card) + SUIT_TEXT[card.suit]


def words(card: Card | None, t: Texts) -> str:
    """A card in words in ``t``'s language: "king of spades"; ``None`` is a card face down."""
    if card is None:
        return t.gettext(BACK_WORDS)
    rank = t.gettext(RANK_WORD[card.rank]) if card.rank in RANK_WORD else t.number(card.rank)
    return t.gettext(CARD_WORDS[card.suit]).format(rank=rank)


@dataclass(frozen=True)
class Face:
    """One picture: its set (``classic``/``four``), card code (``KS``) or ``back``, file and hash."""

    deck: str
    code: str
    path: Path
    digest: str

    @property
    def name(self) -> str:
        """The application emoji's name: ``ff_KS_c_1a2b3c`` (2–32 characters, letters, digits, _)."""
        return f"ff_{self.code}_{DECKS[self.deck]}_{self.digest[:6]}"

    def image(self) -> bytes:
        """The PNG's bytes (for the upload)."""
        return self.path.read_bytes()


@cache
def all_faces() -> tuple[Face, ...]:
    """The 106 pictures (52 faces and a back in each set), each named by its content's hash."""
    out = []
    for deck in DECKS:
        for code in [r + s for s in SUITS for r in RANKS] + ["back"]:
            path = HERE / deck / f"{code}.png"
            out.append(Face(deck, code, path, hashlib.sha256(path.read_bytes()).hexdigest()))
    return tuple(out)


def recorded_sums() -> dict[str, str]:
    """``SHA256SUMS`` as recorded by the drawing script: path under bot/cards → SHA-256."""
    lines = (HERE / "SHA256SUMS").read_text().splitlines()
    return {name: digest for digest, name in (line.split("  ", 1) for line in lines if line)}


@dataclass(frozen=True)
class CardEmoji:
    """An uploaded card face: an application emoji, written ``<:name:id>`` in a message's text.

    A plain value: the Discord side turns it into a button's emoji (``cogs.flipflop.controls``).
    """

    name: str
    id: int

    def __str__(self) -> str:
        return f"<:{self.name}:{self.id}>"


class CardFaces:
    """The faces a bot can show: its uploaded emojis by face, and the text every card falls back to."""

    def __init__(self) -> None:
        self._emojis: dict[tuple[str, str], CardEmoji] = {}

    def add(self, face: Face, emoji_id: int) -> None:
        """The emoji ``emoji_id`` shows ``face`` from now on."""
        self._emojis[(face.deck, face.code)] = CardEmoji(face.name, emoji_id)

    def __len__(self) -> int:
        return len(self._emojis)

    def emoji(self, card: Card | None, style: str) -> CardEmoji | None:
        """The card's emoji in ``style`` (``None``: the back), or None: not uploaded, or the text style."""
        if style not in DECKS:
            return None
        return self._emojis.get((style, card.code if card is not None else "back"))

    def text(self, card: Card | None, style: str, t: Texts | None = None) -> str:
        """The card as plain text (menus, buttons, alt text): ``K♤``; words in the ``text`` style."""
        if style == "text" and t is not None:
            return words(card, t)
        return short_text(card) if card is not None else "🂠"

    def markdown(self, card: Card | None, style: str, t: Texts | None = None) -> str:
        """The card in a message: its emoji when there is one, else "`K♤`" (or its words)."""
        emoji = self.emoji(card, style)
        if emoji is not None:
            return str(emoji)
        if style == "text" and t is not None:
            return words(card, t)
        return f"`{self.text(card, style)}`"


TEXT_ONLY = CardFaces()
"""Faces with no emoji: every card as text (before the sync, in tests, and for pure renderers)."""


@dataclass(frozen=True)
class Look:
    """How one reader sees cards: the bot's faces in the reader's style (``Texts.faces``)."""

    faces: CardFaces
    style: str = DEFAULT_STYLE

    @property
    def words(self) -> bool:
        """Whether cards are said in words (the ``text`` style): lists are separated by commas."""
        return self.style == "text"

    @property
    def pictures(self) -> bool:
        """Whether any card may show as an emoji for this reader."""
        return self.style in DECKS and len(self.faces) > 0

    def as_text(self) -> Look:
        """The same style without pictures (where an emoji does not fit: a long list)."""
        return Look(TEXT_ONLY, self.style)


DEFAULT_LOOK = Look(TEXT_ONLY)
