"""Refusals in the reader's language: every code of both catalogs, every language."""

from __future__ import annotations

import gettext
import string

import pytest

from bot.fair_deal import FairDealError, check_player_seed
from bot.i18n import LANGUAGES, PSEUDO_LANGUAGE, Texts, texts
from bot.ledger import GuildSettings, LedgerError
from bot.presentation.refusals import MESSAGES, Refusal, explain
from bot.table.model import TableError
from bot.table.transitions import seed_refusal
from engine.catalog import MESSAGES as ENGINE_MESSAGES
from engine.catalog import english
from engine.errors import IllegalAction, MalformedInput

SAMPLE: dict[str, object] = {"player": "Ann", "card": "10♥", "cards": "2♣ 3♣", "dealer": "Ben"}
"""Display-text parameters as the engine gives them; any other parameter is a number."""


def params(message_id: str) -> dict[str, object]:
    """Sample parameters for every field of the message's English words."""
    names = {name for _, name, _, _ in string.Formatter().parse(english()[message_id]) if name}
    return {name: SAMPLE.get(name, 1234) for name in names}


@pytest.mark.parametrize("language", [*LANGUAGES, PSEUDO_LANGUAGE])
def test_every_refusal_code_renders_in_every_language(language: str) -> None:
    t = texts(language)
    for code, template in MESSAGES.items():
        said = explain(Refusal(code, **params(template)), t)
        assert said and "{" not in said.replace("{{", ""), (language, code, said)
        assert "(R" not in said, (language, code)  # rule ids are for us
    for code, template in ENGINE_MESSAGES.items():
        said = explain(IllegalAction(code, **params(template)), t)
        assert said and "(R" not in said, (language, code, said)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_refusal(language: str) -> None:
    """A translator may move a placeholder but not drop or rename one (else the English is shown)."""
    t = texts(language)
    for template in [*MESSAGES.values(), *ENGINE_MESSAGES.values()]:
        translated = t.gettext(template)
        names = {n for _, n, _, _ in string.Formatter().parse(english()[template]) if n}
        assert {n for _, n, _, _ in string.Formatter().parse(translated) if n} == names, (language, template)


def test_refusals_pass_through_the_catalog() -> None:
    qps = texts(PSEUDO_LANGUAGE)
    assert explain(TableError("table_full", seats=5), qps) == "⟦The table is full (5 players).⟧"
    assert explain(LedgerError("buy_in_too_small", minimum=20), qps) == (
        "⟦The buy-in must be at least four stakes (20 chips).⟧"
    )
    assert explain(IllegalAction("not_your_turn", player="Ben"), qps) == "⟦It's Ben's turn.⟧"
    not_a_card = MalformedInput("not_a_card", text="ZZ")
    assert explain(not_a_card, qps) == "⟦ZZ is not a card (write it like TH or AS).⟧"
    assert explain(ValueError("a bug (R1)"), qps) == "a bug"  # no code: its own words, rule ids left out


def test_numbers_are_written_the_readers_way() -> None:
    error = LedgerError("insufficient_chips", needed=12000, balance=1500)
    assert "12,000" in explain(error, texts("en")) and "1,500" in explain(error, texts("en"))
    said = explain(error, texts("be"))
    assert "12\xa0000" in said and "1\xa0500" in said
    assert str(error) == "That needs 12,000 chips, but the balance is 1,500."  # str() stays English


class Dropping(Texts):
    """A faulty translation that lost every placeholder's name."""

    def gettext(self, message: str) -> str:
        words = english().get(message, message)
        return "{oops}" if "{" in words else words


def test_a_translation_that_lost_a_placeholder_falls_back_to_english() -> None:
    t = Dropping("be", gettext.NullTranslations())
    assert explain(TableError("table_full", seats=5), t) == "The table is full (5 players)."


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("   ", "seed_empty", "Your seed text is empty: write 1 to 64 characters. Nothing was changed."),
        (
            "x" * 70,
            "seed_too_long",
            "Your seed text is 70 characters long; the limit is 64. Nothing was changed.",
        ),
        (
            "a\nb",
            "seed_invisible",
            "Your seed text has an invisible or control character (U+000A) at position 2;"
            " use letters, digits, symbols and spaces only. Nothing was changed.",
        ),
        ("zero\u200bwidth", "seed_invisible", None),
        (
            "x` **free chips** `y",
            "seed_backtick",
            "Your seed text has a backtick (`) at position 2: Discord reads it as formatting, so a seed"
            " can't hold one. Use other letters, digits, symbols and spaces. Nothing was changed.",
        ),
    ],
)
def test_bad_seed_texts_are_refusals_with_their_own_code(text: str, code: str, expected: str | None) -> None:
    with pytest.raises(FairDealError) as raised:
        check_player_seed(text)
    refusal = seed_refusal(raised.value)
    assert refusal.code == code
    if expected is not None:
        assert str(refusal) == expected
    assert explain(refusal, texts(PSEUDO_LANGUAGE)).startswith("⟦Your seed text")


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"starting_balance": -1}, "starting_balance_out_of_range"),
        ({"daily_amount": -1}, "daily_amount_out_of_range"),
        ({"default_stake": 0}, "stake_out_of_range"),
        ({"default_buy_in": 2}, "buy_in_out_of_range"),
        ({"turn_seconds": 5}, "turn_seconds_out_of_range"),
    ],
)
def test_each_setting_has_its_own_whole_sentence(values: dict[str, int], code: str) -> None:
    with pytest.raises(LedgerError) as raised:
        GuildSettings.build(**values)
    assert raised.value.code == code and set(raised.value.params) == {"low", "high"}
    assert explain(raised.value, texts(PSEUDO_LANGUAGE)).startswith("⟦The ")
