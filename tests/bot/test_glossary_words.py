"""Each catalog says the game's key terms with its glossary's word (docs/LANGUAGES.md), in every message.

A translation that drifts to the sheet's other words (Tagalog "stake", Swahili "rundo" for a stack) or to
English left in place is caught here, term by term; a message about a transcript's JSON fields keeps
their English names (``stake``, ``pots``, ``stock``), which are code, not words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot.test_new_user_words import forms_of

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{\{?[a-z_]*\}?\}")
JSON_FIELDS = re.compile(r"JSON|^seats\b|seats\[|\{where\}|rounds\[|^pots must")
"""English of a message that names a transcript's fields (their names stay English in every language)."""


def english() -> dict[str, str]:
    """msgid -> the English a message says: its msgid, or a coded message's words in the English catalog."""
    return {k: v[0] or k for k, v in forms_of("en").items()}


TERMS = {
    "stake": r"\bstakes?\b",
    "pot": r"\bpots?\b",
    "upcard": r"\bupcard",
    "discard pile": r"\bdiscard pile\b|\btop discard\b",
    "drop": r"\b(drop|drops|dropped|dropping)\b(?! (it|the JSON))",
}
"""Each key term and how the English says it (a drag-and-drop of a file is not the game's drop)."""
GLOSSARY = {
    "fil": {
        "stake": r"\bpusta\b",
        "pot": r"\bpot\b",
        "upcard": r"\bnakaharap\b",
        "discard pile": r"\bdiscard pile\b",
        "drop": r"b(um)?agsak",  # bumagsak, pagbagsak
    },
    "be": {
        "stake": r"стаў|став",
        "pot": r"банк",
        "upcard": r"адкрыт",
        "discard pile": r"куч\w+ скіду",
        "drop": r"падзен",
    },
    "sw": {
        "stake": r"\b(ma)?dau\b",
        "pot": r"\b(chungu|vyungu)\b",
        "upcard": r"\biliyofichuliwa\b",
        "discard pile": r"\brundo la kutupa\b",
        "drop": r"angush|kukamatwa",
    },
    "ko": {"stake": "스테이크", "pot": "팟", "upcard": "공개", "discard pile": "버린 더미", "drop": "드롭"},
    "gu": {
        "stake": "દાવ",
        "pot": "પોટ",
        "upcard": "ફેસઅપ",
        "discard pile": "કાઢી નાખવાન[ોા] ખૂંટ",
        "drop": "ડ્રોપ",
    },
}
"""The word each glossary chose for each term (any inflection)."""
NEVER = {
    "fil": r"\bstakes?\b|\bbaraha",  # the sheet's other word for the stake; a card is "card"
    "be": r"\bдроп|\bстос\b",  # a drop is падзенне, a stack стэк
    "sw": r"\brundo\b(?! la kutupa)|\b(stacks?|pots?)\b|\brangi ya\b",  # a stack is chipsi, a pot chungu
    "ko": r"\(으\)로|을\(를\)|버린 카드 더미|무늬",  # a particle after a value; a suit is 수트
    # સ્ટેક is "stake" (the stake is દાવ, a stack સ્ટૅક); a card is કાર્ડ; away is દૂર (not "absent")
    "gu": r"સ્ટેક|પત્ત|ઢગલ|ગેરહાજર",
}
"""What a catalog must not say, outside its placeholders and a transcript's field names."""


@pytest.mark.parametrize("language", sorted(GLOSSARY))
@pytest.mark.parametrize("term", sorted(TERMS))
def test_every_message_says_a_key_term_with_the_glossary_word(language: str, term: str) -> None:
    said, en = forms_of(language), english()
    about = [
        m
        for m in said
        if re.search(TERMS[term], PLACEHOLDER.sub("", en[m]), re.IGNORECASE) and not JSON_FIELDS.search(en[m])
    ]
    assert len(about) >= 5, (language, term)
    for msgid in about:
        for form in said[msgid]:
            assert re.search(GLOSSARY[language][term], form, re.IGNORECASE), (msgid, form)


@pytest.mark.parametrize("language", sorted(NEVER))
def test_no_message_says_a_word_the_glossary_ruled_out(language: str) -> None:
    said, en = forms_of(language), english()
    for msgid, forms in said.items():
        if JSON_FIELDS.search(en[msgid]):
            continue
        for form in forms:
            assert not re.search(NEVER[language], PLACEHOLDER.sub("", form), re.IGNORECASE), (msgid, form)


def test_tagalog_and_swahili_stakes_and_stacks_as_their_glossaries_say() -> None:
    """The drift this file was written for: Tagalog's tournament stake levels said "stake", Swahili's
    tournament leave and close messages "rundo lako" / "marundo" for a stack."""
    fil, sw = forms_of("fil"), forms_of("sw")
    assert fil["The stake rises after {count} more round."][0].startswith("Tataas ang pusta")
    assert fil["Level {level}: stake **{stake}** · {tables} table · {players} players in"][0].startswith(
        "Level {level}: pusta **{stake}**"
    )
    stays = [s for m, forms in sw.items() if "your stack stays in the tournament" in m for s in forms]
    assert len(stays) >= 4 and all("hipsi zako zinabaki" in s for s in stays)
    assert sw["Discard pile"] == ("Rundo la kutupa",)
    glossary = (ROOT / "docs" / "LANGUAGES.md").read_text(encoding="utf-8")
    tagalog = glossary[glossary.index("### Tagalog") : glossary.index("### Belarusian")]
    swahili = glossary[glossary.index("### Swahili") : glossary.index("### Korean")]
    assert re.search(r"\| stake \|.*\| pusta \|", tagalog)
    assert re.search(r"\| stack .*\| chipsi zake / chipsi zao", swahili)
    assert re.search(r"\| discard pile \|.*\| rundo la kutupa \|", swahili)


HAND_POINTS = re.compile(
    r"\bpoints\b|\bworth\b|\bcard values\b|\bvalue\b(?! \{)|costs the most|\blowers your hand\b"
)
"""English about a card's or a hand's points (a hand "worth 23", "value **23**", "the card values")."""


def test_belarusian_counts_a_hands_points_in_achki_never_a_price() -> None:
    """Belarusian said a hand's points as кошт, a price (and a card "costs" the most): a card player
    counts ачкі, a hand's сума ачкоў; кошт stays only where a price is meant, the stake "what one pot
    costs"."""
    be, en = forms_of("be"), english()
    about = [m for m in be if HAND_POINTS.search(PLACEHOLDER.sub("", en[m]))]
    assert len(about) >= 8, about
    for msgid in about:
        for form in be[msgid]:
            assert re.search(r"\bачк", form, re.IGNORECASE), (msgid, form)
    priced = [m for m, forms in be.items() for form in forms if re.search(r"\bкошт|\bкашту", form, re.I)]
    assert priced == ["rules.chips.body"] and "what one pot costs" in en["rules.chips.body"]
