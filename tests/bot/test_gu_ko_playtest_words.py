"""Words a playtest in Gujarati and Korean found wrong in the catalogs, each held to its fix."""

from __future__ import annotations

import re

import pytest

from tests.bot.test_glossary_words import GLOSSARY
from tests.bot.test_new_user_words import forms_of

GAME = {"gu": "ફ્લિપ ફ્લોપ", "ko": "플립플롭"}
"""The game's name as each rule sheet writes it (docs/LANGUAGES.md, "Names are kept")."""


@pytest.mark.parametrize("language", sorted(GAME))
def test_the_game_has_one_name(language: str) -> None:
    """The tournament's message said "Flip Flop ટુર્નામેન્ટ" / "Flip Flop 토너먼트" above tables titled
    "ફ્લિપ ફ્લોપ — રાઉન્ડ 3" / "플립플롭 — 라운드 3"; the live and replay pages' titles, the leaderboard's
    "no records" and the replay's "not a round" likewise. One name, the sheet's."""
    said = forms_of(language)
    latin = [(msgid, form) for msgid, forms in said.items() for form in forms if "Flip Flop" in form]
    assert not latin, latin
    assert sum(GAME[language] in form for forms in said.values() for form in forms) >= 40


def test_gujarati_spells_balance_and_command_one_way() -> None:
    """The audit said બૅલેન્સ where every other message says બેલેન્સ, and two messages said આદેશ for a
    command where the others say કમાન્ડ."""
    said = [form for forms in forms_of("gu").values() for form in forms]
    assert not [s for s in said if "બૅલેન્સ" in s or "આદેશ" in s]
    assert sum("બેલેન્સ" in s for s in said) >= 30 and sum("કમાન્ડ" in s for s in said) >= 5


def test_gujarati_spells_the_bot_one_way() -> None:
    """The privacy messages said બૉટ where the other 29 messages say બોટ."""
    said = [form for forms in forms_of("gu").values() for form in forms]
    assert not [s for s in said if "બૉટ" in s]
    assert sum("બોટ" in s for s in said) >= 30


def test_korean_says_chips_once_before_an_amount() -> None:
    """A chip amount already says 칩 ("칩 25개"): the audit read "들어온 칩 칩 4,250개". A 칩 before a
    placeholder is only for a bare number that 개 follows ("칩 {fee}개")."""
    twice = [
        (msgid, form)
        for msgid, forms in forms_of("ko").items()
        for form in forms
        if re.search(r"칩 \{\w+\}(?!개)", form)
    ]
    assert not twice, twice


def test_korean_calls_a_hand_핸드_when_it_sends_the_live_page() -> None:
    """/flipflop web said 손패 ("hands stay hidden", "with your hand to play") where the table, its buttons
    (**내 핸드**) and the live page itself say 핸드, the glossary's word."""
    said = [form for forms in forms_of("ko").values() for form in forms]
    assert not [s for s in said if "손패" in s]
    assert sum("핸드" in s for s in said) >= 50


@pytest.mark.parametrize("language", sorted(GAME))
def test_the_pages_name_the_discard_pile_as_the_table_does(language: str) -> None:
    """Under the discard pile the replay and live pages said કાઢી નાખેલાં ("the discarded ones") where the
    table's picture and every message say the glossary's કાઢી નાખવાનો ખૂંટો."""
    [label] = forms_of(language)["discard {count}"]
    assert re.search(GLOSSARY[language]["discard pile"], label), label


def test_korean_a_seat_without_a_name_takes_님_as_a_player() -> None:
    """The replay page names a seat it has no name for "seat 2", and says "{name} 님이 …" of whoever sits
    there: "2번 자리 님이 카드를 버렸어요" honoured the seat. A player, numbered, reads as a person."""
    said = forms_of("ko")
    [seat] = said["seat {number}"]
    [discarded] = said["{name} discarded {card}"]
    assert "님" in discarded and "자리" not in seat and "플레이어" in seat, seat


def test_gujarati_writes_a_members_case_ending_apart_as_everywhere() -> None:
    """After a member's name or mention Gujarati's messages write the ending apart ("<@ann> એ <@ben> ને
    50 ચિપ્સ આપી"); the audit's list of grants, the dumping report and a spread's title ran it on
    ("@adminએ @benને"), beside the same grant said spaced in the channel."""
    person = r"\{(name|member|admin|who|taker|player|dealer)\}"
    run_on = [
        (msgid, form)
        for msgid, forms in forms_of("gu").items()
        for form in forms
        if re.search(person + r"(એ|ને|નો|ની|નું|નાં|ના)(?![\u0A80-\u0AFF])", form)
    ]
    assert not run_on, run_on
