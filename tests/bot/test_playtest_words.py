"""Words a playtest in Filipino, Belarusian and Swahili found wrong in the catalogs, each held to its fix."""

from __future__ import annotations

import re

import pytest

from tests.bot.test_catalogs import TRANSLATED
from tests.bot.test_glossary_words import PLACEHOLDER, english
from tests.bot.test_new_user_words import forms_of

WON = re.compile(r"\b(won|wins?|winning)\b")
"""English that speaks of winning (chips, rounds, pots won)."""


def test_swahili_never_says_what_was_won_was_lost() -> None:
    """*kushindwa*, the passive of *kushinda*, is read as "to be beaten, to fail": "raundi 5 zilizoshindwa"
    said "5 rounds lost" where the leaderboard meant rounds won. What a member won is what they won
    (*alizoshinda*)."""
    sw, en = forms_of("sw"), english()
    wrong = {
        msgid: form
        for msgid, forms in sw.items()
        if WON.search(en.get(msgid, msgid))
        for form in forms
        if re.search(r"\w+shindwa\b", form)
    }
    assert not wrong, wrong


def test_swahili_a_round_won_by_catching_a_drop_is_not_being_caught() -> None:
    """/flipflop stats lists the ways a member won rounds; the one won by catching another's drop said
    *kukamatwa* ("being caught"), as if they had been caught."""
    [ways] = forms_of("sw")[
        "out {out} · tonk {tonk} · drop {drop} · caught drop {caught} · stock {stock} · 49/50 {deal}"
    ]
    caught = re.search(r"· ([^·]*)\{caught\}", ways)
    assert caught is not None, ways
    assert "kukamatwa" not in caught.group(1) and "kukamata" in caught.group(1), ways


def test_belarusian_writes_one_apostrophe() -> None:
    """камп'ютар in the lobby and камп’ютар in a tournament: one apostrophe in every message (as the
    glossary writes круп'е)."""
    curly = [m for m, forms in forms_of("be").items() if any("’" in f for f in forms)]
    assert not curly, curly


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_live_pages_title_says_live_as_its_badge_does(language: str) -> None:
    """The live page's tab title and the badge beside its heading say "live" with one word; Swahili's
    title said *meza hai* ("a living table") beside the badge's *moja kwa moja*."""
    forms = forms_of(language)
    [title], [badge] = forms["Flip Flop live table"], forms["live"]
    assert badge.casefold() in title.casefold(), (title, badge)


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_first_hands_tip_is_not_named_as_the_hint_is(language: str) -> None:
    """A practice hand shows both "💡 Tip: on your turn draw a card…" and the coach's "💡 **Hint:** …";
    Swahili named both *Kidokezo*, so the tip read as the coach's answer."""
    forms = forms_of(language)
    [tip] = forms["rules.first_hand_tip"]
    [hint] = forms["coach.hint"]
    [button] = forms["Hint"]
    tip_word = tip.split(":")[0].strip()
    assert tip_word, tip
    assert tip_word != (button or "Hint") and tip_word not in hint.split(":")[0], (tip, hint, button)


COMMITMENT = {"fil": "pangako", "be": "абавязацельств", "sw": "ahadi"}
"""The word each catalog uses for the fair deal's commitment, as the table says it (🔒 Fair deal: …)."""


@pytest.mark.parametrize("language", sorted(COMMITMENT))
def test_the_commitment_has_one_name_on_discord_and_on_the_replay_page(language: str) -> None:
    """Filipino's table says *pangako* and /flipflop verify "pangako: OK", but the replay page's own
    check said "✔ commitment: …" (and named it so in its how-to): every message says the table's word."""
    en, word = english(), COMMITMENT[language]
    [table] = forms_of(language)["🔒 Fair deal: commitment `{commitment}`"]
    assert word in table.casefold()
    wrong = {
        msgid: form
        for msgid, forms in forms_of(language).items()
        if re.search(r"\bcommitment", PLACEHOLDER.sub("", en.get(msgid, msgid)), re.I)
        for form in forms
        if word not in PLACEHOLDER.sub("", form).casefold()
    }
    assert not wrong, wrong


AMOUNT = r"\**\{(chips|amount|prize|balance|stack|fee)\}"
"""A Belarusian amount of chips, written in the nominative ("1 фішка", "21 фішка", "5 фішак")."""
NOT_NOMINATIVE = re.compile(
    r"\b(налічвае|забірае|забраць|атрымлівае|выйграе|захоўвае|назад|са стала|з)\s+" + AMOUNT
)
"""Where Belarusian needs another case: the object of a verb ("1 фішку"), after "з" ("з 1 фішкай")."""


def test_belarusian_writes_an_amount_where_the_nominative_is_right() -> None:
    """An amount is formatted in the nominative, so "налічвае **1 фішка** удзельніку" (a grant of one
    chip, or 21) read wrong; such sentences put the amount after a colon or as the subject instead.
    And the preposition у is ў after a vowel ("Банк гульні у гэтым раўндзе" was one left)."""
    wrong = {
        msgid: form
        for msgid, forms in forms_of("be").items()
        for form in forms
        if NOT_NOMINATIVE.search(form) or re.search(r"[аеёіоуыэюя] у ", PLACEHOLDER.sub("", form))
    }
    assert not wrong, wrong


def test_swahili_a_lone_host_is_not_told_1_have_sat() -> None:
    """The host who clicks Start alone reads how many are seated: 1. Swahili said "1 wamekaa" (a plural
    verb after the number); the count now follows a colon ("waliokaa hadi sasa: 1")."""
    [refusal] = forms_of("sw")["refusal.too_few_players"]
    assert not re.search(r"\{seated\} wa", refusal), refusal


def test_swahili_tells_an_away_member_hupo() -> None:
    """The hand said "Hupo kwa muda" ("you're not here for a while") in one message and "Haupo kwa muda"
    in the next: "hupo" is "you are not here" (the negative of "upo"), in every message."""
    wrong = {m: f for m, forms in forms_of("sw").items() for f in forms if re.search(r"\bhaupo\b", f, re.I)}
    assert not wrong, wrong


def test_belarusian_calls_a_round_a_round_in_a_tournament_too() -> None:
    """A tournament's message said "Турнір Flip Flop — раздача 3" while its tables' titles said
    "Flip Flop — раўнд 3" for the same round (the glossary's word is раўнд): раздача is a deal, and only
    where the English says deal."""
    en = english()
    wrong = {
        msgid: form
        for msgid, forms in forms_of("be").items()
        if re.search(r"\brounds?\b", en.get(msgid, msgid)) and not re.search(r"\bdeal", en.get(msgid, msgid))
        for form in forms
        if "раздач" in form
    }
    assert not wrong, wrong
