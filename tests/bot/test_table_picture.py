"""The live table's picture: names in every script, told apart, within its size, and quick enough."""

from __future__ import annotations

import dataclasses
import io
import random
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bench.table_picture_bench import DECK, NAMES, a_table
from bot import fonts
from bot.i18n import LANGUAGES, texts
from bot.presentation import table_picture
from bot.presentation.table_picture import (
    AMBER,
    BACK,
    BACKGROUND,
    CARD,
    CHIP,
    FELT,
    GAP,
    GREY,
    LEAVING,
    MAX_BYTES,
    MIDDLE_H,
    PAD,
    PILE,
    POT_LABEL,
    SEAT,
    SEAT_DIM,
    SEAT_H,
    STOCK,
    SUIT_COLOUR,
    TURN,
    UPCARD,
    WHITE,
    WIDTH,
    Scene,
    Seat,
    away_label,
    height,
    labels,
    render,
    undrawn,
)

LATIN, HANGUL, GUJARATI = "NotoSans-Regular.ttf", "NotoSansKR-Regular.otf", "NotoSansGujarati-Regular.ttf"


def test_each_languages_script_is_drawn_by_a_bundled_font() -> None:
    assert fonts.runs("Anneliese") == [(LATIN, "Anneliese")]
    assert fonts.runs("Аляксандра Міхайлаўна") == [(LATIN, "Аляксандра Міхайлаўна")]  # Belarusian: ў, і
    assert fonts.runs("김민수") == [(HANGUL, "김민수")]
    assert fonts.runs("똠얌꿍") == [(HANGUL, "똠얌꿍")]  # rare syllables too: all 11,172 are there
    assert fonts.runs("પ્રિયંકા ક્ષત્રિય") == [(GUJARATI, "પ્રિયંકા ક્ષત્રિય")]
    assert fonts.runs("ann 김") == [(LATIN, "ann "), (HANGUL, "김")]
    for name in ("Anneliese", "Аляксандра", "김민수", "પ્રિયંકા", "Juan dela Cruz", "Wanjiru"):
        assert fonts.drawable(name) and fonts.width(name, 18) > 0
    assert not fonts.drawable("🦊 fox") and fonts.drawn("🦊 fox") == " fox"


def test_gujarati_is_shaped_a_conjunct_is_one_glyph_not_three() -> None:
    apart = sum(fonts.width(c, 18) for c in "ક્ષ")
    assert fonts.width("ક્ષ", 18) < apart  # raqm joined them (unshaped, the virama would show)


def test_a_drawn_name_leaves_ink_in_every_script() -> None:
    for name in ("ann", "Аляксандра", "김민수", "પ્રિયંકા"):
        canvas = Image.new("RGBA", (300, 40), (0, 0, 0, 255))
        fonts.draw(canvas, (5, 28), name, 18, (255, 255, 255))
        assert canvas.convert("L").getextrema()[1] > 200, name


def test_names_the_fonts_can_not_draw_are_told_apart_and_said_in_words() -> None:
    assert fonts.labels(["🤖 Basic 1", "🤖 Basic 2", "ann"]) == ["Basic 1", "Basic 2", "ann"]
    assert fonts.labels(["🦊", "🐱", "ann"]) == ["#1", "#2", "ann"]
    assert fonts.labels(["🦊 ann", "🐱 ann", "ben"]) == ["#1 ann", "#2 ann", "ben"]
    assert fonts.legend(["🦊", "ben", "狐"]) == [("#1", "🦊"), ("#3", "狐")]
    assert fonts.legend(["🤖 Basic 1", "김민수"]) == []


def test_fit_cuts_a_long_name_with_an_ellipsis_within_its_room() -> None:
    for name in NAMES:
        shown = fonts.fit(name, 18, 150)
        assert fonts.width(shown, 18) <= 150 and (shown == name or shown.endswith("…"))


def test_the_biggest_table_is_light_and_drawn_as_tall_as_it_says() -> None:
    rng = random.Random(5)
    for _ in range(5):
        scene = a_table(rng)
        for style in ("classic", "four", "text"):
            data = render(scene, style)
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= 80_000 <= MAX_BYTES
            with Image.open(io.BytesIO(data)) as im:
                assert im.size == (600, height(scene))
        assert labels(scene)[4] == "Kitsune no Mori — the fox!!"  # the fox emoji and 狐 left out
        assert undrawn(scene) == []  # what is left is its own: no legend needed


def test_the_same_scene_is_drawn_once() -> None:
    scene = a_table(random.Random(9))
    first = render(scene, "classic")
    start = time.perf_counter()
    again = render(scene, "classic")
    assert again is first and time.perf_counter() - start < 0.005


def test_a_fan_of_backs_is_the_same_pixels_as_the_backs_drawn_one_by_one() -> None:
    """The composed fan (``_backs``) over any ground, the canvas's edge too, against each back in turn."""
    rng = random.Random(3)
    for cards, step, x in [(1, 0, 40), (2, 12, 40), (6, 12, 9), (9, 4, 560), (13, 4, 590)]:
        alpha = (0, 90, 255)
        noise = bytes(rng.randrange(256) if i % 4 != 3 else rng.choice(alpha) for i in range(80 * 60 * 4))
        ground = Image.frombytes("RGBA", (80, 60), noise).resize((600, 60))
        fanned, one_by_one = ground.copy(), ground.copy()
        table_picture._backs(fanned, (x, 17), cards, step, "classic")
        for i in range(cards):
            one_by_one.alpha_composite(table_picture._face("classic", "back", BACK), (x + i * step, 17))
        assert fanned.tobytes() == one_by_one.tobytes(), (cards, step, x)


def drawn_in_place(s: Scene, deck: str) -> Image.Image:
    """The picture drawn as it was before panels: each seat, the middle and the spreads straight onto it."""
    image = Image.new("RGBA", (WIDTH, height(s)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    top = (len(s.seats) + 1) // 2
    seats = list(zip(s.seats, labels(s), strict=True))
    w = (WIDTH - PAD * 2 - GAP * 2) // 3
    y = PAD
    for first, row in ((True, seats[:top]), (False, seats[top:][::-1])):  # the bottom row right to left
        x = (WIDTH - (len(row) * w + (len(row) - 1) * GAP)) // 2
        for seat, name in row:
            table_picture._seat(image, draw, (x, y, x + w, y + SEAT_H), seat, name, s.words[3], deck)
            x += w + GAP
        y += (SEAT_H + GAP) if row else 0
        if first:  # the felt, its piles (100 pixels apart) and the pots
            draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + MIDDLE_H), 40, fill=FELT)
            for i, (code, label) in enumerate(table_picture.slots(s)):
                table_picture._slot(image, draw, (PAD + 24 + 100 * i, y + 14), code, label, deck)
            table_picture._pots(image, (table_picture.pots_x(s), y + 32), WIDTH - PAD - 22, s.pots, deck)
            y += MIDDLE_H + GAP
    if s.spreads:
        table_picture._spreads(image, y, s.spreads, deck)
    return image


def a_varied_table(rng: random.Random, k: int) -> Scene:
    """The benchmark's table with 1 to 6 seats (a sixth holds 13 cards), 0 to 10 spreads (to three rows)."""
    scene = a_table(rng)
    sixth = Seat(name="Wanjiru wa Kamau", stack=0, shown="0", cards=13, to_act=k % 4 == 0, away="away 1/3")
    cards = rng.sample(DECK, 40)
    spreads = tuple((n + 1, NAMES[n % 5], tuple(cards[n * 4 : n * 4 + 3 + n % 2])) for n in range(k % 11))
    return dataclasses.replace(scene, seats=(*scene.seats, sixth)[: 1 + k % 6], spreads=spreads)


def test_the_picture_pasted_from_panels_is_the_one_drawn_in_place() -> None:
    """Each seat, pile, the pots and the spreads drawn once as panels in the palette, then pasted: the
    picture drawn whole and then put in the palette, index for index, and the same PNG."""
    rng = random.Random(11)
    for k in range(33):
        scene = a_varied_table(rng, k)
        for deck in ("classic", "four"):
            pasted = table_picture.picture(scene, deck)
            whole = drawn_in_place(scene, deck).convert("RGB")
            indexed = whole.quantize(palette=table_picture._palette(deck), dither=Image.Dither.NONE)
            assert pasted.tobytes() == indexed.tobytes(), (k, deck)
            assert pasted.getpalette() == indexed.getpalette()
            png = io.BytesIO()
            indexed.save(png, "PNG", compress_level=3)
            assert render.__wrapped__(scene, deck) == png.getvalue(), (k, deck)


def test_a_draw_draws_again_only_the_seat_and_the_pile_it_changed() -> None:
    scene = a_table(random.Random(4))
    render(scene, "four")
    panels = (table_picture._seat_panel, table_picture._slot_panel, table_picture._pots_panel)
    before = [panel.cache_info().misses for panel in (*panels, table_picture._spreads_panel)]
    one = dataclasses.replace(scene.seats[2], cards=scene.seats[2].cards + 1)
    drew = dataclasses.replace(scene, seats=(*scene.seats[:2], one, *scene.seats[3:]), stock="7")
    render(drew, "four")
    after = [panel.cache_info().misses for panel in (*panels, table_picture._spreads_panel)]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 0, 0]  # the seat and the stock


def test_the_palette_is_the_one_found_pixel_by_pixel() -> None:
    """The swatch the palette is found in, built row by row, is the one ``putpixel`` drew."""
    for deck in ("classic", "four"):
        faces = [table_picture._face(deck, f"{r}{s}", CARD) for r in "A8TQ" for s in "SHDC"]
        faces.append(table_picture._face(deck, "back", CARD))
        suits = [*SUIT_COLOUR["four"].values(), *SUIT_COLOUR["classic"].values()]
        inks = [WHITE, GREY, AMBER, TURN, CHIP, *suits]
        grounds = [BACKGROUND, FELT, SEAT, SEAT_DIM, WHITE]
        swatch = Image.new("RGB", (CARD * len(faces), CARD + len(inks) * len(grounds)), BACKGROUND)
        for i, face in enumerate(faces):
            swatch.paste(face, (i * CARD, 0), face)
        for j, (ink, ground) in enumerate((i, g) for i in inks for g in grounds):
            for x in range(swatch.width):
                a = min(1.0, x / (swatch.width / 3))
                swatch.putpixel(
                    (x, CARD + j), tuple(round(g * (1 - a) + c * a) for c, g in zip(ink, ground, strict=True))
                )
        found = swatch.quantize(colors=128, method=Image.Quantize.FASTOCTREE)
        assert table_picture._palette(deck).getpalette() == found.getpalette()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_middles_labels_are_drawn_whole_in_every_language(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pots' and the piles' labels shrink to fit rather than cut ("Chungu cha…" three times)."""
    t = texts(language)
    scene = dataclasses.replace(
        a_table(random.Random(3)),
        pots=tuple(
            (t.gettext(POT_LABEL[pot]), "99,999", suit)
            for pot, suit in (("game", None), ("flip", "S"), ("flop", "H"))
        ),
        words=(t.gettext(STOCK), t.gettext(PILE), t.gettext(UPCARD), t.gettext(LEAVING)),
        stock="29",
    )
    drawn: list[str] = []
    real = fonts.draw

    def noted(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Any) -> float:
        drawn.append(text)
        return real(canvas, xy, text, size, fill)

    monkeypatch.setattr(fonts, "draw", noted)
    table_picture._slot_panel.cache_clear()  # every label drawn here, none pasted from an earlier picture
    table_picture._pots_panel.cache_clear()
    render.__wrapped__(scene, "classic")
    middle = [label for label, _, _ in scene.pots] + [f"{scene.words[0]} 29", *scene.words[1:3]]
    assert all(label in drawn for label in middle), (middle, drawn)


async def test_the_round_a_member_went_away_in_is_their_first_of_the_rounds_away(tmp_path: Path) -> None:
    """Seen in a playtest: "away 0/3" on the seat of someone just gone away read as not away yet.
    The round in play is counted when it ends, so it is the first; between rounds, the rounds ended."""
    from bot.presentation.table_layout import table_page
    from engine import Drop
    from tests.bot.runtime.fakes import harness

    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None and table.away_rounds == 3
        away = next(p for p in table.game.order if p != table.game.to_act)
        await h.runtime.away(table.id, int(away))
        table = h.runtime.tables[table.id]
        en = texts("en")
        assert away_label(table, away, en) == "away 1/3"
        assert "💤 away (1 of 3 rounds)" in "\n".join(table_page(table, en, picture=False).displays())
        assert table.game is not None and (to_act := table.game.to_act) is not None and to_act != away
        await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))  # the round ends
        table = h.runtime.tables[table.id]
        assert table.game is not None and not table.game.in_round and table.away[int(away)] == 1
        assert away_label(table, away, en) == "away 1/3"  # one ended away, none in play
        await h.until(lambda: h.runtime.tables[table.id].game.in_round, step=1.0)  # type: ignore[union-attr]
        table = h.runtime.tables[table.id]
        assert table.is_away(away) and away_label(table, away, en) == "away 2/3"
