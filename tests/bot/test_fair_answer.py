"""The **Fair deal** answer says what its digits are for and fits Discord's 2,000 characters in any language.

A newcomer's playtest found the answer a wall of seed digits with no word on what a commitment is.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import LANGUAGES, texts
from bot.presentation.limits import CONTENT
from bot.presentation.table_layout import FAIR_HOW, fair_text
from tests.bot.test_round_log_lines import table

BUSY = "-".join(str(1456074443980800000 + i) for i in range(400)) + ":" + "'lucky' " * 60
"""A client seed far longer than any answer could hold: hundreds of clicks and long seed texts."""


def public(client_seed: str) -> dict[str, Any]:
    return {
        "in_play": {"round": 3, "commitment": "a" * 64, "client_seed": client_seed},
        "pending": {"round": 4, "commitment": "b" * 64},
    }


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_answer_explains_itself_before_the_digits_and_fits(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = texts(lang)
    dealt = table()
    for seed in ("1-2:hi", BUSY):
        monkeypatch.setattr(dealt.fair, "to_public", lambda seed=seed: public(seed))
        said = fair_text(dealt, t)
        assert len(said) <= CONTENT, (lang, len(said))
        how = t.gettext(FAIR_HOW)
        assert how != FAIR_HOW or lang == "en"  # translated
        assert said.index(how) < said.index("a" * 64) < said.index("b" * 64)
        assert "/flipflop verify" in said
    assert "SHA-256 fingerprint of a secret server seed" in fair_text(dealt, texts("en"))
