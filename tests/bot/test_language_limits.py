"""Every control label and select option fits Discord's limits in every language.

Static over the catalogs: the msgids the screens use as labels (``label(t.gettext(...))``) and
as menu options (``COMPUTER_LEVEL``, spread and discard descriptions), filled with the longest
values they take. The whole-game tests (tests/cogs/test_languages_game.py) check every text
actually sent as well; ``fit`` keeps a too-long translation safe (cut, never an error).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, PSEUDO_LANGUAGE, texts
from bot.presentation import controls as models
from bot.presentation import hand_controls
from cogs.flipflop import coach, controls, screens

SOURCE = "".join(Path(m.__file__).read_text(encoding="utf-8") for m in (screens, coach, models))
HAND = Path(hand_controls.__file__).read_text(encoding="utf-8")
OPTIONS = [m for pair in models.COMPUTER_LEVEL.values() for m in pair] + re.findall(
    r'gettext\("((?:Run|Set) · [^"]*|value \{value\})"\)', SOURCE + HAND
)
LABELS = (
    re.findall(r'label\(\s*t\.gettext\(\s*"((?:[^"\\]|\\.)*)"', SOURCE)
    + re.findall(r'(?:_button\([^()]*?|fit\()t\.gettext\(\s*"((?:[^"\\]|\\.)*)"\)(?:, LABEL_CHARS)?', SOURCE)
    + [m for m in re.findall(r'(?:t\.gettext|\bN_)\(\s*"((?:[^"\\]|\\.)*)"', HAND) if m not in OPTIONS]
)  # every message a hand's controls show is a label (``_hand``, ``_label``) or a menu option
LONGEST = {"card": "10♥", "value": "50", "cards": "10♥ J♥ Q♥ K♥", "spread": "9"}


def test_the_screens_labels_are_found() -> None:
    assert "My hand" in LABELS and "Draw from stock" in LABELS and "Take {card}" in LABELS
    assert "Hint" in LABELS and "Analyse my play" in LABELS
    assert "Run · lowers your hand by {value}" in OPTIONS
    assert "Select cards…" in LABELS and "Lay down {cards}" in LABELS
    assert "Lay off {card} on #{spread}" in LABELS
    lobby_and_table = {"Join", "Remove computer", "🤖 Host: add a computer player…", "Open table"}
    assert lobby_and_table <= set(LABELS)


@pytest.mark.parametrize("language", [*LANGUAGES, PSEUDO_LANGUAGE])
def test_labels_and_options_fit_in_every_language(language: str) -> None:
    t = texts(language)
    for msgid in LABELS:
        shown = t.gettext(msgid).format(**LONGEST)
        assert len(shown) <= controls.LABEL_CHARS, (language, msgid, shown)
    for msgid in OPTIONS:
        shown = t.gettext(msgid).format(**LONGEST)
        assert len(shown) <= models.OPTION_CHARS, (language, msgid, shown)


def test_fit_cuts_safely() -> None:
    assert controls.fit("short", 80) == "short"
    cut = controls.fit("x" * 200, 80)
    assert len(cut) == 80 and cut.endswith("…")
    assert len(controls.label("ꯁ" * 300)) == controls.LABEL_CHARS


TABLE_PLURALS = [
    ("{count} card", "{count} cards"),
    (
        "{pointer}**{name}**{marks} — {stack} · {count} card · {status}",
        "{pointer}**{name}**{marks} — {stack} · {count} cards · {status}",
    ),
    ("🎲 The game begins with {count} player!", "🎲 The game begins with {count} players!"),
]
"""Plural messages of the table and the hands (the chips' own are tested in test_i18n)."""


@pytest.mark.parametrize(("singular", "plural"), TABLE_PLURALS)
def test_belarusian_table_words_take_three_plural_forms(singular: str, plural: str) -> None:
    """1 and 21 (one), 2 and 22 (few), 5 and 25 (many): CLDR's Belarusian forms, from the catalog."""
    t = texts("be")

    def form(n: int) -> str:
        return t.ngettext(singular, plural, n).replace(str(n), "#")

    assert form(1) == form(21) and form(2) == form(22) and form(5) == form(25)
    assert len({form(1), form(2), form(5)}) == 3, "be needs its one/few/many forms translated"
