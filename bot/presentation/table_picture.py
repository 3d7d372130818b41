"""A picture of the live table: the seats around it, the middle of the table and the spreads.

The table message shows it in a media gallery, so a glance says what a log would take lines to:
each seat's name, stack and cards (as backs), the dealer's button, whose turn it is (a gold
frame and ▶), who is away or leaving; in the middle the stock, the top of the discard pile, the
upcard and the three pots with the flip and flop suits; below, the spreads as card faces,
numbered as the hand's **Lay off on #n** buttons name them. Seats go clockwise from the top
left, in the order of play.

Names and the few words (the pots, "stock", "away") are drawn with the bundled Noto fonts
(``bot.fonts``), so every language's script reads right; a name none of them can draw whole
(an emoji) is named beside the picture by the message (``undrawn``). The alt text (``alt``)
says all of it in words, in the server's language, for screen readers. The card faces are the
server's style (four-colour, else classic: the ``text`` style is read through the alt text).

A 600-pixel-wide PNG in a palette of 128 colours (one per deck, found once): ~20–25 KB for five players
(``bench/table_picture_bench.py`` measures bytes and render time; the cap is ``MAX_BYTES``).
The same scene drawn twice is drawn once (``render`` keeps the last few), and a seat's fan of card
backs is composed once for the pixels it covers (``_fan``), the same picture to the pixel.
Each seat, each pile of the middle, the pots and the spreads are drawn once as panels, put in the
palette and pasted (``picture``): a move redraws one or two seats of five and a pile, a lay the
spreads, a deal or a win the pots; the same picture, byte for byte, in half the time.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot import fonts
from bot.cards import DECKS, HERE
from bot.i18n import N_, Texts
from bot.presentation.event_words import POT_NAME
from bot.presentation.limits import MEDIA_DESCRIPTION
from bot.presentation.render import plain, plain_cards, suit_name
from bot.presentation.table_render import seat_name
from bot.table.model import Table
from engine.cards import Card

WIDTH = 600
PAD = 10
GAP = 8
SEAT_H = 78
MIDDLE_H = 112
CARD = 56
"""The stock, the discard pile and the upcard, in pixels."""
SPREAD_CARD = 40
BACK = 26
"""A seat's cards, face down."""
BACKGROUND = (43, 45, 49)
"""Discord's dark message background."""
FELT = (31, 94, 64)
SEAT = (30, 31, 34)
SEAT_DIM = (37, 38, 42)
TURN = (240, 191, 63)
WHITE = (242, 243, 245)
GREY = (165, 168, 176)
AMBER = (250, 166, 26)
CHIP = (214, 69, 65)
SUIT_COLOUR = {
    "classic": {"S": WHITE, "C": WHITE, "H": (237, 66, 69), "D": (237, 66, 69)},
    "four": {"S": WHITE, "C": (87, 200, 110), "H": (237, 66, 69), "D": (88, 145, 255)},
}
SUIT_SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
MAX_BYTES = 200_000
"""The most a table picture may weigh (it is uploaded with every table edit; the goal is 80 KB)."""
ALT_CHARS = MEDIA_DESCRIPTION
"""Discord's limit for a media gallery item's description."""
FILE_NAME = "table.png"
"""The attachment's name (the media gallery points to it as ``attachment://table.png``)."""


@dataclass(frozen=True)
class Seat:
    """One seat as the picture shows it."""

    name: str
    stack: int
    shown: str
    """The stack as the server's language writes numbers."""
    cards: int
    """Cards in hand (drawn as backs)."""
    dealer: bool = False
    to_act: bool = False
    away: str = ""
    """Empty, else the away mark ("away 1/3") in the server's language."""
    leaving: bool = False
    out: bool = False
    """Not in this round (left it, or seated after the deal)."""


@dataclass(frozen=True)
class Scene:
    """Everything the table's picture shows, with its words already in the server's language."""

    seats: tuple[Seat, ...]
    pots: tuple[tuple[str, str, str | None], ...]
    """(label, chips as written, suit or None) for the game, flip and flop pots."""
    upcard: Card | None
    top_discard: Card | None
    stock: str | None
    """The stock's cards as written; None before the first deal."""
    spreads: tuple[tuple[int, str, tuple[Card, ...]], ...]
    """(number from 1, owner's name, cards)."""
    words: tuple[str, str, str, str]
    """The labels: stock, discard pile, upcard, leaving."""


STOCK, PILE, UPCARD, LEAVING = N_("Stock"), N_("Discard pile"), N_("Upcard"), N_("leaving")
AWAY = N_("away {rounds}/{allowed}")


def away_label(table: Table, pid: str, t: Texts) -> str:
    """``away 1/3`` on an away member's seat (``Table.away_round``, of the rounds before release), else "".

    A tournament table's away seat is played until its member is back, never released: ``away``.
    """
    if not (pid.isdigit() and int(pid) not in table.computers and table.is_away(pid)):
        return ""
    if not table.releases_away_seats:  # a tournament's: no rounds to count
        return t.gettext("away")
    return t.gettext(AWAY).format(rounds=t.number(table.away_round(pid)), allowed=t.number(table.away_rounds))
POT_LABEL = {"game": N_("Game pot"), "flip": N_("Flip pot"), "flop": N_("Flop pot")}


def scene(table: Table, t: Texts) -> Scene:
    """The scene of ``table`` now, its names and words in ``t``'s language."""
    assert table.game is not None
    v = table.game.public_view()
    seats = []
    for pid in [*v.players, *(p for p in v.seated if p not in v.players)]:
        away = away_label(table, pid, t)
        dealt = v.in_round and pid in v.players and pid not in v.dead
        seats.append(
            Seat(
                name=seat_name(table, t, pid),
                stack=v.stacks.get(pid, 0),
                shown=t.number(v.stacks.get(pid, 0)),
                cards=v.card_counts.get(pid, 0) if dealt else 0,
                dealer=bool(v.players) and pid == v.dealer,
                to_act=v.in_round and v.to_act == pid,
                away=away,
                leaving=pid.isdigit() and int(pid) in table.leave_after_round,
                out=not dealt,
            )
        )
    suits = {"game": None, "flip": v.flip_suit, "flop": v.flop_suit}
    return Scene(
        seats=tuple(seats),
        pots=tuple(
            (t.gettext(POT_LABEL[p]), t.number(v.pots[p]), suits[p]) for p in ("game", "flip", "flop")
        ),
        upcard=v.upcard if v.players else None,
        top_discard=v.top_discard if v.players else None,
        stock=t.number(v.stock_size) if v.players else None,
        spreads=tuple((s.index + 1, seat_name(table, t, s.owner), s.cards) for s in v.spreads),
        words=(t.gettext(STOCK), t.gettext(PILE), t.gettext(UPCARD), t.gettext(LEAVING)),
    )


def labels(s: Scene) -> list[str]:
    """Each seat's name as the picture draws it (``bot.fonts.labels``; "#n": its place in the play)."""
    return fonts.labels([seat.name for seat in s.seats])


def undrawn(s: Scene) -> list[tuple[str, str]]:
    """(label, name) for each seat the picture can not tell apart by its name: the message says who."""
    return fonts.legend([seat.name for seat in s.seats])


@cache
def _face(deck: str, code: str, size: int) -> Image.Image:
    """A card face (or ``back``) at ``size`` pixels (kept: a picture draws dozens)."""
    with Image.open(HERE / deck / f"{code}.png") as im:
        return im.convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)


def _rows(count: int) -> tuple[int, int]:
    """Seats on the top row and on the bottom row (the top one gets the odd one)."""
    top = (count + 1) // 2
    return top, count - top


def _spread_rows(spreads: tuple[tuple[int, str, tuple[Card, ...]], ...]) -> list[list[int]]:
    """The spreads (by position) in rows that fit the picture's width."""
    rows: list[list[int]] = [[]]
    x = PAD
    for i, (_n, _o, cards) in enumerate(spreads):
        w = _spread_width(len(cards))
        if rows[-1] and x + w > WIDTH - PAD:
            rows.append([])
            x = PAD
        rows[-1].append(i)
        x += w + GAP * 2
    return [r for r in rows if r]


def _spread_width(cards: int) -> int:
    return max(cards * (SPREAD_CARD + 2), 64)


def _seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    seat: Seat,
    name: str,
    leaving: str,
    deck: str,
) -> None:
    x0, y0, x1, y1 = box
    dim = seat.out or bool(seat.away)
    draw.rounded_rectangle(
        box, 10, fill=SEAT_DIM if dim else SEAT, outline=TURN if seat.to_act else None, width=3
    )
    text_x = x0 + 10
    room = x1 - x0 - 20 - (26 if seat.dealer else 0)
    if seat.to_act:
        draw.polygon([(text_x, y0 + 12), (text_x, y0 + 28), (text_x + 12, y0 + 20)], fill=TURN)
        text_x += 18
        room -= 18
    fonts.draw(canvas, (text_x, y0 + 27), fonts.fit(name, 18, room), 18, GREY if dim else WHITE)
    if seat.dealer:
        cx, cy = x1 - 20, y0 + 20
        draw.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=WHITE, outline=(120, 120, 120))
        fonts.draw(canvas, (cx - fonts.width("D", 16) / 2, cy + 6), "D", 16, (30, 31, 34))
    cy = y0 + 46
    draw.ellipse((x0 + 10, cy - 8, x0 + 26, cy + 8), fill=CHIP, outline=WHITE, width=2)
    used = fonts.draw(canvas, (x0 + 32, cy + 6), seat.shown, 16, WHITE)
    bx = int(x0 + 32 + used + 12)
    step = min(12, max(4, (x1 - 10 - BACK - bx) // max(1, seat.cards - 1))) if seat.cards > 1 else 0
    if seat.cards:
        _backs(canvas, (bx, cy - BACK // 2), seat.cards, step, deck)
    marks = [m for m in (seat.away, leaving if seat.leaving else "") if m]
    if marks:
        fonts.draw(canvas, (x0 + 10, y1 - 8), fonts.fit(" · ".join(marks), 14, x1 - x0 - 20), 14, AMBER)


def _backs(canvas: Image.Image, xy: tuple[int, int], cards: int, step: int, deck: str) -> None:
    """``cards`` backs from ``xy`` rightwards, ``step`` apart, each over the one before.

    The fan is composed once for the pixels it covers (``_fan``, keyed by them: the same fan over
    the same ground is the same picture, pixel for pixel) and pasted whole.
    """
    x, y = xy
    box = (x, y, x + (cards - 1) * step + BACK, y + BACK)
    canvas.paste(_fan(deck, cards, step, canvas.crop(box).tobytes()), box)


@lru_cache(maxsize=64)
def _fan(deck: str, cards: int, step: int, ground: bytes) -> Image.Image:
    """``_backs``'s fan laid over ``ground`` (the RGBA pixels it covers), as the canvas would draw it."""
    image = Image.frombytes("RGBA", ((cards - 1) * step + BACK, BACK), ground)
    for i in range(cards):
        image.alpha_composite(_face(deck, "back", BACK), (i * step, 0))
    return image


def _suit(canvas: Image.Image, xy: tuple[float, float], suit: str, style: str) -> float:
    return fonts.draw(canvas, xy, SUIT_SIGN[suit], 18, SUIT_COLOUR[style][suit])


def slots(s: Scene) -> list[tuple[str, str]]:
    """The middle's piles left to right, none before a deal: (face, ``back`` or "" for none; label)."""
    if s.stock is None:
        return []
    return [
        ("back" if s.stock != "0" else "", f"{s.words[0]} {s.stock}"),
        (s.top_discard.code if s.top_discard is not None else "", s.words[1]),
        (s.upcard.code if s.upcard is not None else "", s.words[2]),
    ]


SLOT_X = PAD + 24
SLOT_STEP = 100
"""The first pile's left edge, and from one pile to the next."""


def pots_x(s: Scene) -> int:
    """Where the pots' labels begin: right of the piles, 190 pixels from the felt's right edge at most."""
    return max(SLOT_X + SLOT_STEP * len(slots(s)) + 6, WIDTH - PAD - 190)


def _felt(draw: ImageDraw.ImageDraw, top: int) -> None:
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + MIDDLE_H), 40, fill=FELT)


def _slot(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], code: str, label: str, deck: str
) -> None:
    """A pile at ``xy`` (its face, or an outline where it is empty) with its label under it."""
    x, y = xy
    if code:
        canvas.alpha_composite(_face(deck, code, CARD), (x, y))
    else:
        draw.rounded_rectangle((x, y, x + CARD, y + CARD), 6, outline=(80, 140, 105), width=2)
    text, size = fonts.shrunk(label, 13, 92, 10)
    fonts.draw(canvas, (x + CARD / 2 - fonts.width(text, size) / 2, y + CARD + 22), text, size, WHITE)


Pots = tuple[tuple[str, str, str | None], ...]


CHIPS_RIGHT = WIDTH - PAD - 22
"""Where the pots' chips end."""


def _pots(canvas: Image.Image, xy: tuple[int, int], right: int, pots: Pots, style: str) -> None:
    """The three pots from ``xy`` down, a line each: label, suit, chips (ending at ``right``)."""
    px, py = xy
    for label, chips, suit in pots:
        chips_x = right - fonts.width(chips, 18)
        sign = 6 + fonts.width(SUIT_SIGN[suit], 18) if suit is not None else 0
        text, size = fonts.shrunk(label, 16, min(110, chips_x - 8 - px - sign), 10)  # never under the chips
        used = fonts.draw(canvas, (px, py), text, size, WHITE)
        if suit is not None:
            _suit(canvas, (px + used + 6, py), suit, style)
        fonts.draw(canvas, (chips_x, py), chips, 18, TURN)
        py += 30


Spreads = tuple[tuple[int, str, tuple[Card, ...]], ...]


def _spreads(canvas: Image.Image, top: int, spreads: Spreads, deck: str) -> None:
    y = top
    for row in _spread_rows(spreads):
        x = PAD
        for i in row:
            number, owner, cards = spreads[i]
            w = _spread_width(len(cards))
            fonts.draw(canvas, (x, y + 14), fonts.fit(f"#{number} {owner}", 13, w), 13, GREY)
            for k, c in enumerate(cards):
                canvas.alpha_composite(_face(deck, c.code, SPREAD_CARD), (x + k * (SPREAD_CARD + 2), y + 20))
            x += w + GAP * 2
        y += SPREAD_ROW


def height(s: Scene) -> int:
    """The picture's height for ``s``: the seats above and below the middle, then the spreads' rows."""
    _top, bottom = _rows(len(s.seats))
    spreads = len(_spread_rows(s.spreads))
    return PAD * 2 + SEAT_H * (1 + (bottom > 0)) + MIDDLE_H + GAP * (1 + (bottom > 0)) + spreads * SPREAD_ROW


SPREAD_ROW = SPREAD_CARD + 26 + GAP


Box = tuple[int, int, int, int]
MIDDLE_TOP = PAD + SEAT_H + GAP
BOTTOM_ROW = MIDDLE_TOP + MIDDLE_H + GAP
"""Where the bottom row of seats begins, and the spreads when there is no bottom row."""


def seat_boxes(s: Scene) -> list[Box]:
    """Each seat's box, in the order of ``s.seats``: clockwise, the bottom row right to left."""
    top, bottom = _rows(len(s.seats))
    w = (WIDTH - PAD * 2 - GAP * 2) // 3
    boxes = []
    for y, count, flip in ((PAD, top, False), (BOTTOM_ROW, bottom, True)):
        x = (WIDTH - (count * w + (count - 1) * GAP)) // 2
        row = [(x + i * (w + GAP), y, x + i * (w + GAP) + w, y + SEAT_H) for i in range(count)]
        boxes += row[::-1] if flip else row
    return boxes


def spreads_top(s: Scene) -> int:
    """Where the spreads begin on the picture: under the bottom row of seats, if there is one."""
    return BOTTOM_ROW + (SEAT_H + GAP if _rows(len(s.seats))[1] else 0)


MARGIN = GAP // 2
"""The ground a panel has around its box: half the gap between two seats, so ink a hair past the
box is pasted with it and two seats' panels never overlap."""


def _origin(x: int, y: int) -> tuple[int, int]:
    """Where a panel whose box starts at ``(x, y)`` goes on the picture: at least ``MARGIN`` before it, even.

    The panel is the picture's own drawing moved by an even number of pixels: a word's place is
    rounded half to even (``bot.fonts.draw``), which an even shift leaves where it was.
    """
    x, y = x - MARGIN, y - MARGIN
    return x - x % 2, y - y % 2


@lru_cache(maxsize=128)
def _seat_panel(seat: Seat, name: str, leaving: str, deck: str, box: Box) -> Image.Image:
    """``seat`` drawn in ``box`` on a panel of the picture's ground, to be pasted at ``_origin``.

    Kept (~17 KB a seat): a move redraws one or two seats of five, the others are as they were.
    """
    left, top = _origin(box[0], box[1])
    x0, y0, x1, y1 = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)
    panel = Image.new("RGBA", (x1 + MARGIN, y1 + MARGIN), BACKGROUND)
    _seat(panel, ImageDraw.Draw(panel), (x0, y0, x1, y1), seat, name, leaving, deck)
    return _indexed(panel, deck)


@cache
def _felt_band() -> Image.Image:
    """The middle's felt on the picture's ground, as tall as it is drawn: pasted at ``MIDDLE_TOP``."""
    band = Image.new("RGBA", (WIDTH, MIDDLE_H + 1), BACKGROUND)
    _felt(ImageDraw.Draw(band), 0)
    return band


def _column(place: int) -> int:
    """The left edge of the ``place``-th pile's column: even (``_origin``), before its label."""
    x = SLOT_X + SLOT_STEP * place - (SLOT_STEP - CARD) // 2
    return x - x % 2


@lru_cache(maxsize=64)
def _slot_panel(place: int, code: str, label: str, deck: str) -> Image.Image:
    """The ``place``-th pile (from 0) drawn on its column of the felt band, pasted at ``_column(place)``.

    Kept (~11 KB a pile): a move changes one pile, the stock or the discard pile, not the other two.
    """
    left = _column(place)
    panel = _felt_band().crop((left, 0, left + SLOT_STEP, MIDDLE_H + 1))
    _slot(panel, ImageDraw.Draw(panel), (SLOT_X + SLOT_STEP * place - left, 14), code, label, deck)
    return _indexed(panel, deck)


@lru_cache(maxsize=32)
def _pots_panel(pots: Pots, px: int, deck: str) -> Image.Image:
    """The pots drawn from ``px`` on the felt band's right part, to be pasted at ``_origin(px, MIDDLE_TOP)``.

    Kept: the pots change with a deal and a win, not with every move.
    """
    left = _origin(px, MIDDLE_TOP)[0]
    panel = _felt_band().crop((left, 0, WIDTH, MIDDLE_H + 1))
    _pots(panel, (px - left, 32), CHIPS_RIGHT - left, pots, deck)
    return _indexed(panel, deck)


@lru_cache(maxsize=16)
def _spreads_panel(spreads: Spreads, deck: str, y: int, bottom: int) -> Image.Image:
    """``spreads`` drawn from ``y`` to the picture's ``bottom`` on a panel of its ground (``_origin``).

    Kept (~47 KB a row of spreads): they change when a card is laid, not with every move.
    """
    _left, top = _origin(0, y)
    panel = Image.new("RGBA", (WIDTH, bottom - top), BACKGROUND)
    _spreads(panel, y - top, spreads, deck)
    return _indexed(panel, deck)


@cache
def _palette(deck: str) -> Image.Image:
    """The picture's 128 colours, found once per deck.

    Every face of the deck and each colour of the table blended into each background it is
    drawn on: mapping to a known palette is about twice as fast as finding one per picture.
    """
    faces = [_face(deck, f"{r}{s}", CARD) for r in "A8TQ" for s in "SHDC"] + [_face(deck, "back", CARD)]
    inks = [WHITE, GREY, AMBER, TURN, CHIP, *SUIT_COLOUR["four"].values(), *SUIT_COLOUR["classic"].values()]
    grounds = [BACKGROUND, FELT, SEAT, SEAT_DIM, WHITE]
    width = CARD * len(faces)
    swatch = Image.new("RGB", (width, CARD + len(inks) * len(grounds)), BACKGROUND)
    for i, face in enumerate(faces):
        swatch.paste(face, (i * CARD, 0), face)
    fades = [min(1.0, x / (width / 3)) for x in range(width)]  # each ink from its ground to full, in a third
    rows = bytearray()
    for ink, ground in ((i, g) for i in inks for g in grounds):
        for a in fades:
            rows.extend(round(g * (1 - a) + c * a) for c, g in zip(ink, ground, strict=True))
    swatch.paste(Image.frombytes("RGB", (width, len(inks) * len(grounds)), bytes(rows)), (0, CARD))
    return swatch.quantize(colors=128, method=Image.Quantize.FASTOCTREE)


def _indexed(image: Image.Image, deck: str) -> Image.Image:
    """``image`` in the deck's palette (``_palette``): each pixel the nearest colour there, undithered.

    A pixel's colour decides its index alone: a picture pasted from panels in the palette is the
    picture drawn whole and then put in the palette, index for index.
    """
    return image.convert("RGB").quantize(palette=_palette(deck), dither=Image.Dither.NONE)


@cache
def _ground(deck: str) -> Image.Image:
    """A row of the picture's ground, then the middle's felt band under it, in the deck's palette."""
    ground = Image.new("RGBA", (WIDTH, MIDDLE_H + 2), BACKGROUND)
    ground.paste(_felt_band(), (0, 1))
    return _indexed(ground, deck)


def picture(s: Scene, deck: str) -> Image.Image:
    """The table in the deck's palette (``render`` encodes it), pasted from the panels of its parts."""
    ground = _ground(deck)
    image = Image.new("P", (WIDTH, height(s)), ground.getpixel((0, 0)))
    image.putpalette(ground.getpalette() or [])
    for seat, name, box in zip(s.seats, labels(s), seat_boxes(s), strict=True):
        image.paste(_seat_panel(seat, name, s.words[3], deck, box), _origin(box[0], box[1]))
    image.paste(ground.crop((0, 1, WIDTH, MIDDLE_H + 2)), (0, MIDDLE_TOP))
    for place, (code, label) in enumerate(slots(s)):
        image.paste(_slot_panel(place, code, label, deck), (_column(place), MIDDLE_TOP))
    px = pots_x(s)
    image.paste(_pots_panel(s.pots, px, deck), (_origin(px, MIDDLE_TOP)[0], MIDDLE_TOP))
    if s.spreads:
        y = spreads_top(s)
        image.paste(_spreads_panel(s.spreads, deck, y, image.height), (0, _origin(0, y)[1]))
    return image


@lru_cache(maxsize=32)
def render(s: Scene, style: str = "classic") -> bytes:
    """The table as a PNG (the same scene twice is drawn once)."""
    deck = style if style in DECKS else "classic"
    out = io.BytesIO()
    picture(s, deck).save(out, "PNG", compress_level=3)
    return out.getvalue()


HAND_CARD = 72
"""A card in the picture of a player's hand: three times an emoji's size, so 8♣ and 9♣ read apart."""
HAND_FILE = "hand.png"


@lru_cache(maxsize=256)
def render_hand(cards: tuple[Card, ...], style: str = "classic", marked: Card | None = None) -> bytes:
    """A hand's cards in a row, large (``HAND_CARD``), in the order given.

    ``marked`` (the card just drawn) is raised a little. Shown over the hand's buttons, whose
    emojis are small.
    """
    deck = style if style in DECKS else "classic"
    lift = 8
    image = Image.new("RGBA", (PAD * 2 + len(cards) * (HAND_CARD + 6) - 6, HAND_CARD + lift + 8), BACKGROUND)
    for i, c in enumerate(cards):
        y = 4 if c == marked else 4 + lift
        image.alpha_composite(_face(deck, c.code, HAND_CARD), (PAD + i * (HAND_CARD + 6), y))
    out = io.BytesIO()
    image.convert("RGB").quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(
        out, "PNG", compress_level=3
    )
    return out.getvalue()


def alt(s: Scene, table: Table, t: Texts) -> str:
    """The picture said in words, in the server's language: the seats, the middle, the pots, the spreads."""
    assert table.game is not None
    v = table.game.public_view()
    lines = [t.gettext("The table, seats in the order of play:")]
    for seat in s.seats:
        marks = [t.gettext("dealer")] if seat.dealer else []
        if seat.to_act:
            marks.append(t.gettext("to act"))
        marks += [m for m in (seat.away, s.words[3] if seat.leaving else "") if m]
        held = (
            t.ngettext("{count} card", "{count} cards", seat.cards).format(count=t.number(seat.cards))
            if not seat.out
            else t.gettext("not in this round")
        )
        lines.append(
            t.gettext("{name}: {stack}, {cards}").format(
                name=seat.name, stack=t.chips(seat.stack), cards=held
            )
            + (f" ({', '.join(marks)})" if marks else "")
        )
    if s.stock is not None:
        top = plain(s.top_discard, t) if s.top_discard is not None else t.gettext("empty")
        lines.append(
            t.gettext("Stock {count} · discard pile {card} · upcard {upcard}").format(
                count=s.stock, card=top, upcard=plain(s.upcard, t) if s.upcard else "—"
            )
        )
    pots = []
    for pot in ("game", "flip", "flop"):
        suit = {"flip": v.flip_suit, "flop": v.flop_suit}.get(pot)
        named = t.gettext(POT_NAME[pot]) + (f" ({suit_name(suit, t)})" if suit else "")
        pots.append(f"{named} {t.number(v.pots[pot])}")
    lines.append(" · ".join(pots))
    for number, owner, cards in s.spreads:
        lines.append(
            t.gettext("Spread #{number} of {name}: {cards}").format(
                number=t.number(number), name=owner, cards=plain_cards(cards, t)
            )
        )
    text = "\n".join(lines)
    return text if len(text) <= ALT_CHARS else text[: ALT_CHARS - 1] + "…"
