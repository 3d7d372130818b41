"""Words in the bot's pictures, in any of its languages' scripts: the fonts and how a line is drawn.

Four Noto fonts are bundled here (SIL Open Font License 1.1, ``OFL.txt``), each cut to what it
is for by ``scripts/subset_fonts.py``: Noto Sans (Latin, Greek, Cyrillic: English, Filipino,
Kiswahili, Belarusian), Noto Sans CJK KR cut to Hangul (Korean), Noto Sans Gujarati and Noto
Sans Symbols 2 for the suits. Each character of a line is drawn with the first font that has it
(``<font>.cover`` lists the code points); a run of one font is shaped as a whole (Pillow's raqm
layout), so Gujarati conjuncts join. A character none of them has (an emoji, a Chinese name)
is left out of the picture: ``drawable`` says whether a name drew whole, and where it did not
the message names it in text beside the picture (Discord's own fonts draw anything).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
FONTS = (
    "NotoSans-Regular.ttf",
    "NotoSansKR-Regular.otf",
    "NotoSansGujarati-Regular.ttf",
    "NotoSansSymbols2-Regular.ttf",
)
"""In the order a character looks for its font."""
ELLIPSIS = "…"

Colour = tuple[int, int, int] | tuple[int, int, int, int]


@cache
def _cover(name: str) -> tuple[list[int], list[int]]:
    """The font's code points as sorted run starts and ends (from its ``.cover`` file)."""
    starts, ends = [], []
    for line in (HERE / name).with_suffix(".cover").read_text(encoding="ascii").split():
        a, b = line.split("-")
        starts.append(int(a, 16))
        ends.append(int(b, 16))
    return starts, ends


def _has(name: str, char: str) -> bool:
    starts, ends = _cover(name)
    i = bisect.bisect_right(starts, ord(char)) - 1
    return i >= 0 and ord(char) <= ends[i]


@cache
def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A bundled font at ``size`` pixels (kept: every picture uses the same few)."""
    return ImageFont.truetype(str(HERE / name), size, layout_engine=ImageFont.Layout.RAQM)


@cache
def _font_of(char: str) -> str | None:
    """The first bundled font that has ``char``; a combining mark or joiner goes with its neighbour."""
    for name in FONTS:
        if _has(name, char):
            return name
    return None


def runs(text: str) -> list[tuple[str, str]]:
    """``text`` as (font, piece) runs; characters no font has are left out."""
    out: list[tuple[str, str]] = []
    for char in text:
        name = _font_of(char)
        if name is None:
            continue
        if char in "\u200c\u200d" or (out and char.isspace()):
            name = out[-1][0] if out else FONTS[0]
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + char)
        else:
            out.append((name, char))
    return out


def drawn(text: str) -> str:
    """What of ``text`` the bundled fonts draw (the characters none has left out)."""
    return "".join(piece for _name, piece in runs(text))


def labels(names: Sequence[str]) -> list[str]:
    """Names as a picture draws them, told apart.

    What the fonts have of each (a computer's 🤖 is left out), with "#n" (its place, from 1)
    before it where that leaves nothing, or the same as another's.
    """
    shown = [" ".join(drawn(name).split()) for name in names]
    return [d if d and shown.count(d) == 1 else f"#{i} {d}".strip() for i, d in enumerate(shown, start=1)]


def legend(names: Sequence[str]) -> list[tuple[str, str]]:
    """(label, name) for each name a picture can not tell apart by what it draws of it (say who in words)."""
    return [(label, name) for label, name in zip(labels(names), names, strict=True) if label.startswith("#")]


def drawable(text: str) -> bool:
    """Whether every character of ``text`` is in a bundled font (else the picture leaves some out)."""
    return all(_font_of(c) is not None or c.isspace() for c in text)


@lru_cache(maxsize=4096)
def width(text: str, size: int) -> float:
    """How wide ``text`` draws at ``size`` pixels."""
    return sum(font(name, size).getlength(piece) for name, piece in runs(text))


@lru_cache(maxsize=1024)
def fit(text: str, size: int, room: float) -> str:
    """``text`` as it fits in ``room`` pixels: whole, or cut with "…" (the longest start that fits)."""
    if width(text, size) <= room:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if width(text[:mid].rstrip() + ELLIPSIS, size) <= room:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS


def shrunk(text: str, size: int, room: float, smallest: int) -> tuple[str, int]:
    """``text`` at the largest size from ``size`` down to ``smallest`` that fits ``room``; else cut there.

    A label whose end tells it apart ("Chungu cha mchezo", "Chungu cha flip") stays whole.
    """
    for at in range(size, smallest - 1, -1):
        if width(text, at) <= room:
            return text, at
    return fit(text, smallest, room), smallest


@lru_cache(maxsize=2048)
def _piece(name: str, size: int, piece: str, fill: Colour) -> tuple[Image.Image, int, int, float]:
    """A run drawn once (a name is drawn on every edit of its table): image, offset from the pen, advance."""
    face = font(name, size)
    left, top, right, bottom = (int(v) for v in face.getbbox(piece, anchor="ls"))
    image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((-left, -top), piece, font=face, fill=fill, anchor="ls")
    return image, left, top, face.getlength(piece)


def draw(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Colour) -> float:
    """Draw ``text`` from ``xy`` on its baseline (run by run, each in its font); returns its width."""
    x, y = xy
    for name, piece in runs(text):
        image, left, top, advance = _piece(name, size, piece, fill)
        canvas.alpha_composite(image, (round(x + left), round(y + top)))
        x += advance
    return x - xy[0]
