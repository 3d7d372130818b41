"""Draw the bot's card faces: 52 faces and a back, in two sets (classic and four-colour).

    python scripts/draw_cards.py            # writes bot/cards/<set>/<code>.png and SHA256SUMS
    python scripts/draw_cards.py --sheet docs/screenshots/cards.png   # also a contact sheet
    python scripts/draw_cards.py --out DIR  # somewhere else (the tests compare with the committed set)

The art is the project's own, drawn here: suits are polygons and circles computed below, the
ranks are set in Aileron Regular, the font Pillow embeds for ``ImageFont.load_default`` (by
Sora Sagano, dotcolon.net, released as CC0 — public domain), thickened with a stroke. So the
faces need nothing but Pillow, and the same Pillow draws the same pixels on any machine.

Each face is 128×128 (Discord's application emoji size) and made to be read at ~22 px, the
size of an emoji in a line of text or on a button: a white card with a dark edge (seen on dark
and light themes), a big rank over a big suit, nothing else. Classic: hearts and diamonds red,
spades and clubs black. Four-colour: clubs green and diamonds blue, so no two suits share a
colour (a common choice of colour-blind players). Drawn at 4× and scaled down once, for
clean edges at every size.
"""

from __future__ import annotations

import argparse
import hashlib
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SIZE = 128
SCALE = 4
BIG = SIZE * SCALE
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SETS = {
    "classic": {"S": (17, 17, 17), "H": (204, 0, 20), "D": (204, 0, 20), "C": (17, 17, 17)},
    "four": {"S": (17, 17, 17), "H": (204, 0, 20), "D": (0, 84, 214), "C": (0, 128, 40)},
}
"""Each set's ink per suit (``four`` is the four-colour deck)."""
BACK = {"classic": (170, 20, 40), "four": (20, 70, 160)}
"""The back's colour in each set (the two backs differ, so each set's emoji names its own)."""
PAPER = (255, 255, 255)
EDGE = (70, 70, 70)
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bot" / "cards"


def _card(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int]) -> None:
    """The card's shape: a rounded square with a dark edge, filling the emoji."""
    m = 2 * SCALE
    draw.rounded_rectangle(
        (m, m, BIG - m, BIG - m), radius=16 * SCALE, fill=fill, outline=EDGE, width=3 * SCALE
    )


def _suit(
    draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float, ink: tuple[int, int, int]
) -> None:
    """One suit sign centred on (cx, cy), about 2r wide and high."""
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + 0.78 * r, cy), (cx, cy + r), (cx - 0.78 * r, cy)], fill=ink)
        return
    if suit == "H" or suit == "S":
        flip = -1 if suit == "S" else 1  # a spade is a heart upside down, with a stem
        lobe = 0.52 * r
        top = cy - flip * 0.42 * r
        for side in (-1, 1):
            x = cx + side * 0.47 * r
            draw.ellipse((x - lobe, top - lobe, x + lobe, top + lobe), fill=ink)
        # The point: tangent-ish lines from the lobes' outer sides to the tip.
        tip = cy + flip * 0.98 * r
        draw.polygon(
            [
                (cx - 0.985 * r, top + flip * 0.12 * r),
                (cx + 0.985 * r, top + flip * 0.12 * r),
                (cx, tip),
            ],
            fill=ink,
        )
        draw.rectangle((cx - 0.3 * r, top - 0.2 * r, cx + 0.3 * r, top + 0.3 * r), fill=ink)
        if suit == "S":
            _stem(draw, cx, cy + 0.25 * r, cy + 1.0 * r, r, ink)
        return
    # Club: three balls and a stem.
    ball = 0.36 * r
    for x, y in ((cx, cy - 0.52 * r), (cx - 0.52 * r, cy + 0.12 * r), (cx + 0.52 * r, cy + 0.12 * r)):
        draw.ellipse((x - ball, y - ball, x + ball, y + ball), fill=ink)
    draw.polygon([(cx, cy - 0.4 * r), (cx - 0.2 * r, cy + 0.2 * r), (cx + 0.2 * r, cy + 0.2 * r)], fill=ink)
    draw.ellipse((cx - 0.2 * r, cy - 0.2 * r, cx + 0.2 * r, cy + 0.3 * r), fill=ink)
    _stem(draw, cx, cy + 0.05 * r, cy + 1.0 * r, r, ink)


def _stem(
    draw: ImageDraw.ImageDraw, cx: float, y0: float, y1: float, r: float, ink: tuple[int, int, int]
) -> None:
    """A flared stem from y0 down to y1 (spades and clubs)."""
    draw.polygon([(cx - 0.1 * r, y0), (cx + 0.1 * r, y0), (cx + 0.36 * r, y1), (cx - 0.36 * r, y1)], fill=ink)


def _rank(
    draw: ImageDraw.ImageDraw, rank: str, box: tuple[float, float, float, float], ink: tuple[int, int, int]
) -> None:
    """The rank, as big as fits ``box`` (left, top, right, bottom); "10" is set narrow."""
    text = "10" if rank == "T" else rank
    left, top, right, bottom = box
    stroke = 5 * SCALE
    size = 400
    font = ImageFont.load_default(size=size)
    tracking = -9 * SCALE if text == "10" else 0
    # Scale the font so the ink fills the box's height, or its width if that is tighter.
    widths = [font.getbbox(ch, stroke_width=stroke) for ch in text]
    ink_w = sum(b[2] - b[0] for b in widths) + tracking * (len(text) - 1)
    b = font.getbbox(text, stroke_width=stroke)
    ink_h = b[3] - b[1]
    k = min((bottom - top) / ink_h, (right - left) / ink_w)
    font = ImageFont.load_default(size=size * k)
    stroke = max(1, round(stroke * k))
    widths = [font.getbbox(ch, stroke_width=stroke) for ch in text]
    tracking = round(tracking * k)
    ink_w = sum(w[2] - w[0] for w in widths) + tracking * (len(text) - 1)
    b = font.getbbox(text, stroke_width=stroke)
    x = (left + right) / 2 - ink_w / 2
    y = (top + bottom) / 2 - (b[1] + b[3]) / 2
    for ch, w in zip(text, widths, strict=True):
        draw.text((x - w[0], y), ch, font=font, fill=ink, stroke_width=stroke, stroke_fill=ink)
        x += w[2] - w[0] + tracking


def face(rank: str, suit: str, deck: str) -> Image.Image:
    """One card face, 128×128 RGBA."""
    img = Image.new("RGBA", (BIG, BIG), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    _card(draw, PAPER)
    ink = SETS[deck][suit]
    s = SCALE
    _rank(draw, rank, (10 * s, 7 * s, 118 * s, 58 * s), ink)
    _suit(draw, suit, BIG / 2, 92 * s, 30 * s, ink)
    return img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def back(deck: str) -> Image.Image:
    """The back of a card: a lattice of diamonds inside a white frame."""
    img = Image.new("RGBA", (BIG, BIG), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    _card(draw, PAPER)
    s = SCALE
    colour = BACK[deck]
    inner = (14 * s, 14 * s, BIG - 14 * s, BIG - 14 * s)
    draw.rounded_rectangle(inner, radius=8 * s, fill=colour)
    pattern = Image.new("L", (BIG, BIG), 0)
    p = ImageDraw.Draw(pattern)
    step = 20 * s
    for i in range(-BIG, 2 * BIG, step):
        p.line([(i, 0), (i + BIG, BIG)], fill=255, width=3 * s)
        p.line([(i, BIG), (i + BIG, 0)], fill=255, width=3 * s)
    mask = Image.new("L", (BIG, BIG), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (22 * s, 22 * s, BIG - 22 * s, BIG - 22 * s), radius=5 * s, fill=255
    )
    lattice = Image.new("RGBA", (BIG, BIG), tuple(min(255, c + 90) for c in colour) + (255,))
    img.paste(lattice, (0, 0), Image.composite(pattern, Image.new("L", (BIG, BIG), 0), mask))
    draw.rounded_rectangle(
        (22 * s, 22 * s, BIG - 22 * s, BIG - 22 * s), radius=5 * s, outline=PAPER, width=2 * s
    )
    return img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def faces() -> dict[str, Image.Image]:
    """Every image by its path under bot/cards: ``classic/AS.png`` … ``four/back.png`` (106)."""
    out: dict[str, Image.Image] = {}
    for deck in SETS:
        for suit in SUITS:
            for rank in RANKS:
                out[f"{deck}/{rank}{suit}.png"] = face(rank, suit, deck)
        out[f"{deck}/back.png"] = back(deck)
    return out


def png_bytes(img: Image.Image) -> bytes:
    """The PNG as committed: 48 colours (a face has few), no metadata, the same bytes every run."""
    buf = BytesIO()
    img.quantize(colors=48, method=Image.Quantize.FASTOCTREE).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def sheet(images: dict[str, Image.Image], cell: int = SIZE) -> Image.Image:
    """A contact sheet: one row per suit and set (13 faces and the back), on a dark and a light half."""
    rows = [(deck, suit) for deck in SETS for suit in SUITS]
    pad = 6
    w = 14 * (cell + pad) + pad
    h = len(rows) * (cell + pad) + pad
    img = Image.new("RGB", (w, 2 * h), (49, 51, 56))  # Discord's dark theme
    img.paste((255, 255, 255), (0, h, w, 2 * h))  # and its light one
    for half in (0, h):
        for y, (deck, suit) in enumerate(rows):
            names = [f"{deck}/{rank}{suit}.png" for rank in RANKS] + [f"{deck}/back.png"]
            for x, name in enumerate(names):
                face_img = images[name].resize((cell, cell), Image.Resampling.LANCZOS)
                img.paste(face_img, (pad + x * (cell + pad), half + pad + y * (cell + pad)), face_img)
    return img


def write(out: Path) -> dict[str, str]:
    """Write every face under ``out`` and a SHA256SUMS beside them; the sums by path."""
    sums: dict[str, str] = {}
    for name, img in faces().items():
        data = png_bytes(img)
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        sums[name] = hashlib.sha256(data).hexdigest()
    (out / "SHA256SUMS").write_text("".join(f"{h}  {n}\n" for n, h in sorted(sums.items())))
    return sums


def main() -> None:
    """Draw the faces (and a contact sheet when asked)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: bot/cards)")
    parser.add_argument("--sheet", type=Path, help="also write a contact sheet PNG here")
    parser.add_argument(
        "--sheet-size", type=int, default=SIZE, help="face size on the sheet (22: as in chat)"
    )
    args = parser.parse_args()
    sums = write(args.out)
    print(f"{len(sums)} images in {args.out}, {sum((args.out / n).stat().st_size for n in sums)} bytes")
    if args.sheet:
        contact = sheet({n: Image.open(args.out / n).convert("RGBA") for n in sums}, args.sheet_size)
        contact.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(args.sheet, optimize=True)
        print(f"contact sheet: {args.sheet}")


if __name__ == "__main__":
    main()
