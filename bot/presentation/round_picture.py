"""A picture of a round's end: every hand and every spread, drawn with the bot's card faces.

The finished round's record shows it in a media gallery: the moment players most want to look
at rather than read. One row per player in the order the record lists them, named on its left
(the winner's row is marked), then the spreads on the table, each labelled with its number and
owner as on the live table ("#1 ann"). Names are drawn as the live
table's picture draws them (``bot.fonts``: every script the bot speaks; a name the fonts can
not draw whole is "#n" and said in words by the record, ``legend``); the alt text
(``picture_alt``) says it all in the reader's language. A PNG in a palette of 128 colours: a
few tens of KB for five players (``bench/round_picture_bench.py`` measures bytes and render
time; the cap is 200 KB).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot import fonts
from bot.cards import DECKS, HERE
from bot.i18n import Texts
from bot.presentation.render import plain_cards
from engine.cards import Card, sort_key

CARD = 56
"""A card's side in the picture, in pixels (the faces are drawn at 128)."""
GAP = 4
PAD = 12
NAME_W = 150
"""The names' column on the left of the hands."""
SPREADS_PER_ROW = 10
"""Cards in a row of spreads before it wraps."""
BACKGROUND = (43, 45, 49)
"""Discord's dark message background: the picture sits in it without a frame."""
WINNER = (88, 201, 122)
LINE = (78, 80, 88)
NAME = (242, 243, 245)
OWNER = (165, 168, 176)
"""A spread's label: its number (as the round's lines name it) and its owner."""
SPREAD_LABEL = 18
"""Room above a row of spreads for their labels."""
MAX_BYTES = 200_000
"""The most a round's picture may weigh (it is uploaded with the record's edit)."""
ALT_CHARS = 1024
"""Discord's limit for a media gallery item's description."""


@dataclass(frozen=True)
class Ending:
    """What a round's picture shows: each player's hand (in order) and the spreads on the table."""

    number: int
    hands: tuple[tuple[str, tuple[Card, ...], int], ...]
    """(name, cards, value) for each player."""
    spreads: tuple[tuple[str, tuple[Card, ...]], ...]
    """(owner's name, cards) for each spread, in the order laid down."""
    winners: tuple[str, ...] = ()
    """The names of who won the game pot (their rows are marked)."""


@cache
def _face(deck: str, code: str) -> Image.Image:
    """A face from the package, scaled to ``CARD`` pixels (kept: a round draws dozens)."""
    with Image.open(HERE / deck / f"{code}.png") as im:
        return im.convert("RGBA").resize((CARD, CARD), Image.Resampling.LANCZOS)


def _spread_rows(spreads: tuple[tuple[str, tuple[Card, ...]], ...]) -> list[list[int]]:
    """The spreads (by index) row by row: up to ``SPREADS_PER_ROW`` cards a row, a card's gap between two."""
    rows: list[list[int]] = [[]]
    used = 0
    for i, (_owner, cards) in enumerate(spreads):
        if rows[-1] and used + 1 + len(cards) > SPREADS_PER_ROW:
            rows.append([])
            used = 0
        used += len(cards) + (1 if rows[-1] else 0)
        rows[-1].append(i)
    return [row for row in rows if row]


def _slots(ending: Ending, row: list[int]) -> int:
    """A row of spreads' width in cards (with the gaps between them)."""
    return sum(len(ending.spreads[i][1]) for i in row) + len(row) - 1


def render(ending: Ending, style: str = "classic") -> bytes:
    """The round's end as a PNG: a row of cards per hand, a line, then the spreads."""
    deck = style if style in DECKS else "classic"
    step = CARD + GAP
    spread_rows = _spread_rows(ending.spreads)
    widest = max([len(cs) for _n, cs, _v in ending.hands] + [_slots(ending, r) for r in spread_rows] + [1])
    width = PAD * 2 + 8 + NAME_W + widest * step
    below = GAP * 3 + len(spread_rows) * (SPREAD_LABEL + step) if spread_rows else 0
    height = PAD * 2 + len(ending.hands) * step + below
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = PAD
    names = fonts.labels([name for name, _c, _v in ending.hands])
    for (name, cards, _value), shown in zip(ending.hands, names, strict=True):
        won = name in ending.winners
        if won:
            draw.rectangle((PAD - 2, y, PAD + 2, y + CARD), fill=WINNER)
        fonts.draw(
            image,
            (PAD + 10, y + CARD / 2 + 6),
            fonts.fit(shown, 17, NAME_W - 14),
            17,
            WINNER if won else NAME,
        )
        x = PAD + 8 + NAME_W
        for c in sorted(cards, key=sort_key):
            image.alpha_composite(_face(deck, c.code), (x, y))
            x += step
        y += step
    if spread_rows:
        draw.line((PAD, y + GAP, width - PAD, y + GAP), fill=LINE, width=2)
        y += GAP * 3
        labelled = dict(zip([name for name, _c, _v in ending.hands], names, strict=True))
        for row in spread_rows:
            x = PAD + 8 + NAME_W
            for i in row:  # "#1 ann" above each spread, as the live table's picture labels it
                owner, cards = ending.spreads[i]
                room = len(cards) * step - GAP
                label = fonts.fit(f"#{i + 1} {labelled.get(owner, owner)}", 13, room)
                fonts.draw(image, (x, y + SPREAD_LABEL - 5), label, 13, OWNER)
                for k, card in enumerate(cards):
                    image.alpha_composite(_face(deck, card.code), (x + k * step, y + SPREAD_LABEL))
                x += (len(cards) + 1) * step  # a card's gap between two spreads
            y += SPREAD_LABEL + step
    out = io.BytesIO()
    image.convert("RGB").quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(
        out, "PNG", compress_level=6
    )
    return out.getvalue()


def picture_alt(ending: Ending, t: Texts) -> str:
    """The picture said in words, in the reader's language: each hand and its value, then the spreads."""
    lines = [
        t.gettext("Round {number}: every hand and spread at the end.").format(number=t.number(ending.number))
    ]
    for name, cards, value in ending.hands:
        shown = plain_cards(sorted(cards, key=sort_key), t) if cards else t.gettext("no cards")
        lines.append(
            t.gettext("{name}: {cards} (value {value})").format(name=name, cards=shown, value=t.number(value))
        )
    for owner, cards in ending.spreads:
        lines.append(t.gettext("Spread of {name}: {cards}").format(name=owner, cards=plain_cards(cards, t)))
    text = "\n".join(lines)
    return text if len(text) <= ALT_CHARS else text[: ALT_CHARS - 1] + "…"


def legend(ending: Ending) -> list[tuple[str, str]]:
    """(label, name) for each row the picture can not tell apart by its name (the record says who)."""
    return fonts.legend([name for name, _c, _v in ending.hands])


def file_name(number: int) -> str:
    """The attachment's name for round ``number`` (the media gallery points to it)."""
    return f"round-{number}.png"
