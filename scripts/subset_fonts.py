"""Make the fonts the table's picture draws names and labels with (``bot/fonts``), from Debian's Noto.

    apt-get download fonts-noto-core fonts-noto-cjk && for d in *.deb; do dpkg-deb -x $d x; done
    pip install fonttools && python scripts/subset_fonts.py x

Each font keeps only the scripts it is there for, so the four weigh about 1.5 MB together
instead of 20: Noto Sans for Latin, Greek and Cyrillic (English, Filipino, Kiswahili,
Belarusian), Noto Sans CJK KR cut to Hangul (Korean), Noto Sans Gujarati whole (its shaping
tables are what make its conjuncts) and Noto Sans Symbols 2 for the four suits. Beside each it
writes the code points it covers (``<name>.cover``, ranges ``start-end`` in hex), which the
picture reads to pick a font for each character without loading fontTools at run time.
Licence: SIL Open Font License 1.1 (``bot/fonts/OFL.txt``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parent.parent / "bot" / "fonts"
LATIN = (
    [(0x20, 0x7E), (0xA0, 0x24F), (0x250, 0x2FF), (0x300, 0x36F), (0x370, 0x3FF), (0x400, 0x52F)]
    + [(0x1C80, 0x1C8F), (0x1E00, 0x1EFF), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x214F)]
    + [(0x2190, 0x21FF), (0x2DE0, 0x2DFF), (0xA640, 0xA69F), (0xA720, 0xA7FF)]
)
HANGUL = [
    (0x20, 0x7E),
    (0x1100, 0x11FF),
    (0x3130, 0x318F),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7AF),
    (0xD7B0, 0xD7FF),
]
SUITS = [(0x2660, 0x2667)]
FONTS = {
    "NotoSans-Regular": ("truetype/noto/NotoSans-Regular.ttf", None, LATIN),
    "NotoSansKR-Regular": ("opentype/noto/NotoSansCJK-Regular.ttc", 1, HANGUL),
    "NotoSansGujarati-Regular": ("truetype/noto/NotoSansGujarati-Regular.ttf", None, None),
    "NotoSansSymbols2-Regular": ("truetype/noto/NotoSansSymbols2-Regular.ttf", None, SUITS),
}


def ranges(codes: list[int]) -> list[tuple[int, int]]:
    """Sorted code points as (start, end) runs."""
    out: list[tuple[int, int]] = []
    for c in sorted(codes):
        if out and c == out[-1][1] + 1:
            out[-1] = (out[-1][0], c)
        else:
            out.append((c, c))
    return out


def main(root: Path) -> None:
    """Cut each font to its scripts, save it and its coverage in ``bot/fonts``."""
    for name, (path, index, keep) in FONTS.items():
        source = root / "usr/share/fonts" / path
        font = TTCollection(source).fonts[index] if index is not None else TTFont(source)
        if keep is not None:
            options = subset.Options()
            options.layout_features = ["*"]
            options.name_IDs = ["*"]
            options.notdef_outline = True
            options.hinting = False
            sub = subset.Subsetter(options)
            sub.populate(unicodes=[c for a, b in keep for c in range(a, b + 1)])
            sub.subset(font)
        ext = "otf" if "CFF " in font else "ttf"
        font.save(OUT / f"{name}.{ext}")
        cover = ranges(list(font.getBestCmap()))
        (OUT / f"{name}.cover").write_text(
            "\n".join(f"{a:x}-{b:x}" for a, b in cover) + "\n", encoding="ascii"
        )
        print(name, ext, (OUT / f"{name}.{ext}").stat().st_size)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
