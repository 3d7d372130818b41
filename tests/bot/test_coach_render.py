"""The coach's words: every reason has words, cards read as cards, practice chips say so."""

from __future__ import annotations

from bot.i18n import texts
from bot.presentation.coach_render import REASON_TEXT, analysis_text, hint_text, reason_text, watch_text
from engine import Card, Discard, Draw, Drop, TonkOut
from engine.ai.coach import REASONS, Hint, Reason
from engine.ai.review import Analysis, Review

C = Card.parse
T = texts("en")
SAMPLE = {
    "first": (C("4H"), C("5H"), C("6H")),
    "second": (C("9C"), C("9D"), C("9S")),
    "cards": (C("4H"), C("5H"), C("6H")),
    "card": C("KS"),
    "value": 6,
    "target": 2,
    "near": (C("JH"), C("JC")),
    "chance": 81,
    "with_cards": (C("5H"), C("6H")),
    "before": 27,
    "after": 12,
    "other": C("9D"),
    "other_value": 9,
    "difference": 1.5,
}


def test_every_reason_of_the_engine_has_words_and_fills_them() -> None:
    assert set(REASONS) - {"watch"} == set(REASON_TEXT)
    for code in REASON_TEXT:
        text = reason_text(T, Reason(code, SAMPLE))
        assert text and "{" not in text


def test_a_hint_reads_as_a_move_and_a_reason() -> None:
    far = Reason("discard_far", {"value": 10, "other": C("9D"), "other_value": 9})
    text = hint_text(T, Hint(Discard("1", C("KS")), far))
    assert text.startswith(
        "💡 **Hint:** Discard `K♤` — the highest card that fits no spread: 10 points, "
        "where `9♢`, the next such card, has 9."
    )
    drop = hint_text(T, Hint(Drop("1"), Reason("drop", {"value": 6, "chance": 80})))
    assert "Drop — nobody is likely to beat 6 (a drop wins in about 80%" in drop
    tonk = TonkOut("1", SAMPLE["first"], SAMPLE["second"])  # type: ignore[arg-type]
    tonked = hint_text(T, Hint(tonk, Reason("tonk", SAMPLE)))
    assert tonked.count("`9♤`") == 1 and "every other player pays you one extra stake" in tonked


def test_waiting_players_are_told_what_to_watch_for() -> None:
    text = watch_text(T, Reason("watch", {"wanted": (C("JS"),), "value": 40}), "ben")
    assert "it's **ben**'s" in text and "`J♤`" in text and "worth 40" in text


def test_a_look_back_lists_the_costly_decisions_and_says_when_it_stopped() -> None:
    why = Reason("drop", SAMPLE)
    review = Review(2, (C("KS"), C("2C")), Draw("1", "stock"), Drop("1"), -3.0, 2.5, 40, why)
    text = analysis_text(T, Analysis("1", 5, 3, (review,), True, 1.0), "🔍 **Round #7**")
    assert "Turn 2" in text and "Estimated **+5.5 chips** better" in text
    assert "3 of your 5 decisions checked" in text
    clean = analysis_text(T, Analysis("1", 4, 4, (), False, 1.0), "title")
    assert "agrees with all 4 of your decisions" in clean and "stopped early" not in clean


def test_practice_chip_amounts_say_practice() -> None:
    practice = T.at(True)
    assert (practice.chips(1215), practice.chips(1)) == ("1,215 practice chips", "1 practice chip")
    assert T.at(False).chips(2) == "2 chips" and practice.at(False).chips(2) == "2 chips"
    be = texts("be").at(True)  # in every language, with its plural forms
    assert be.chips(1) != be.chips(2) != be.chips(5) and "1" in be.chips(1)
