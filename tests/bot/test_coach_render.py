"""The coach's words: every reason has words, cards read as cards, practice chips say so."""

from __future__ import annotations

import re

from bot.i18n import texts
from bot.presentation.coach_render import (
    REASON_TEXT,
    analysis_pages,
    hint_text,
    reason_text,
    review_line,
    watch_text,
)
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
    (text,) = analysis_pages(T, Analysis("1", 5, 3, (review,), True, 1.0), "🔍 **Round #7**")
    assert "Turn 2" in text and "Estimated **+5.5 chips** better" in text
    assert "Decisions checked: 3 of 5." in text
    (clean,) = analysis_pages(T, Analysis("1", 4, 4, (), False, 1.0), "title")
    assert "checked 4 decisions of yours and agrees with each" in clean and "stopped early" not in clean


def test_a_long_look_back_goes_on_in_further_messages_each_within_discords_limit() -> None:
    """A review line with a hand of card faces takes hundreds of characters: five of them are told
    whole over two messages (the footer last), not three and "the message is full"."""
    why = Reason("drop", SAMPLE)
    review = Review(2, (C("KS"), C("2C")), Draw("1", "stock"), Drop("1"), -3.0, 2.5, 40, why)
    line = review_line(T, review)
    reviews = (review,) * 5
    pages = analysis_pages(T, Analysis("1", 9, 9, reviews, False, 1.0), "title", limit=len(line) * 3 + 300)
    assert len(pages) == 2 and all(len(p) <= len(line) * 3 + 300 for p in pages)
    assert sum(p.count(line) for p in pages) == 5 and "and more" not in "".join(pages)
    assert pages[0].startswith(
        "title\nThe Strong computer would have chosen differently at 5 of your decisions"
    ) and pages[-1].endswith(
        T.gettext("coach.analysis_footer")
    )
    many = analysis_pages(
        T, Analysis("1", 40, 40, (review,) * 40, False, 1.0), "title", limit=len(line) * 3 + 300
    )
    assert len(many) == 3 and "and more (the message is full)" in many[-1]
    assert all(len(p) <= len(line) * 3 + 300 for p in many)


def test_practice_chip_amounts_say_practice() -> None:
    practice = T.at(True)
    assert (practice.chips(1215), practice.chips(1)) == ("1,215 practice chips", "1 practice chip")
    assert T.at(False).chips(2) == "2 chips" and practice.at(False).chips(2) == "2 chips"
    be = texts("be").at(True)  # in every language, with its plural forms
    assert be.chips(1) != be.chips(2) != be.chips(5) and "1" in be.chips(1)


def test_a_look_back_says_how_many_moves_the_computer_made_while_away_and_when_it_made_them_all() -> None:
    skipped = analysis_pages(T, Analysis("1", 4, 4, (), False, 1.0, skipped=3, own=6), "title")[0]
    assert "checked 4 decisions of yours and agrees with each" in skipped
    assert "💤 3 moves the computer made for you while you were away aren't reviewed" in skipped
    one = analysis_pages(T, Analysis("1", 4, 4, (), False, 1.0, skipped=1, own=6), "title")[0]
    assert "💤 1 move the computer made for you while you were away isn't reviewed" in one
    (everything,) = analysis_pages(T, Analysis("1", 0, 0, (), False, 1.0, skipped=5, own=0), "title")
    assert everything.startswith("title\n💤 You were away for all of your play in this round")
    assert "the computer made your 5 moves" in everything and "agrees" not in everything
    mine = analysis_pages(T, Analysis("1", 4, 4, (), False, 1.0), "title")[0]
    assert "💤" not in mine  # nobody away (or a round stored before it was kept): as before
    for language in ("be", "fil", "gu", "ko", "sw"):  # translated, every plural form with its count
        t = texts(language)
        for count in (1, 2, 5):
            text = analysis_pages(t, Analysis("1", 0, 0, (), False, 1.0, skipped=count, own=0), "t")[0]
            assert "coach." not in text and t.number(count) in text
            text = analysis_pages(t, Analysis("1", 1, 1, (), False, 1.0, skipped=count, own=1), "t")[0]
            assert "coach." not in text and "💤" in text


STRONG = {
    "en": r"\bStrong computer",
    "be": r"моцн\w* камп'ютар",
    "fil": r"malakas na kompyuter",
    "gu": "મજબૂત કમ્પ્યુટર",
    "ko": "강한 컴퓨터",
    "sw": "Kompyuta Hodari",
}
"""How each language names the Strong level, as its tables and lobby do ("Strong computer")."""
COACH_NAMES_IT = (
    "coach.hint_footer",
    "coach.review_line",
    "coach.analysis_agrees",
    "coach.analysis_differs",
    "-# 🎓 Practice table: practice chips only. **Hint** shows what the Strong computer would do.",
    "At a practice table: what the Strong computer would do now (only you see it).",
)


def test_the_coach_names_the_strong_level_as_the_tables_do_in_every_language() -> None:
    """Tables and the lobby say "Strong computer"; the coach said "the strong player" (gu ખેલાડી, sw
    mchezaji): every coach message now uses the level's own words, in every form."""
    from tests.bot.test_new_user_words import forms_of

    for language, words in STRONG.items():
        said = forms_of(language)
        level = said["Strong computer"][0] or "Strong computer"
        assert re.search(words, level, re.IGNORECASE), (language, level)
        for msgid in COACH_NAMES_IT:
            for form in said[msgid]:
                text = form or msgid
                assert re.search(words, text, re.IGNORECASE), (language, msgid, text)
                assert not re.search(r"strong player|ખેલાડી|mchezaji|플레이어", text, re.IGNORECASE), text


ALL_OF = {
    "en": r"\ball \d|\d+ decisions? checked",
    "be": r"\b[ўу]с(е|іх|імі) \d",
    "fil": r"\blahat ng \d",
    "gu": r"બધ[ાી] \d",
    "ko": r"\d+개를? 모두",
    "sw": r"\b(yote|zote) \d",
}
"""A count said as "all 2" (or "2 of your 1 decisions checked"): wrong for small counts."""
COUNTS = (1, 2, 3, 5, 11, 21)


def test_the_look_back_reads_naturally_for_every_count_in_every_language() -> None:
    """"Agrees with all 2 of your decisions checked" read wrong: the agreeing, differing, all-away and
    stopped lines say each count plainly, in every plural form, with the number written the language's way."""
    why = Reason("drop", SAMPLE)
    review = Review(2, (C("KS"), C("2C")), Draw("1", "stock"), Drop("1"), -3.0, 2.5, 40, why)
    for language, all_of in ALL_OF.items():
        t = texts(language)
        for n in COUNTS:
            looks = [
                analysis_pages(t, Analysis("1", n, n, (), False, 1.0), "t")[0],
                analysis_pages(t, Analysis("1", n + 1, n, (review,) * n, True, 1.0), "t")[0],
                analysis_pages(t, Analysis("1", 0, 0, (), False, 1.0, skipped=n, own=0), "t")[0],
                analysis_pages(t, Analysis("1", n, n - 1, (), True, 1.0), "t")[0],
            ]
            for text in looks:
                assert "coach." not in text and "{" not in text and t.number(n) in text, (language, n, text)
                assert not re.search(all_of, text, re.IGNORECASE), (language, n, text)


def test_a_look_back_that_checked_nothing_gives_no_clean_bill() -> None:
    """Stopped before its first check, a look back said "checked 0 decisions of yours and agrees with
    each"; it now says only that it stopped. A round with no choice of the player's says that."""
    (stopped,) = analysis_pages(T, Analysis("1", 6, 0, (), True, 1.0), "title")
    assert "Decisions checked: 0 of 6." in stopped and "agrees" not in stopped and "checked 0" not in stopped
    for language in ("en", "be", "fil", "gu", "ko", "sw"):
        t = texts(language)
        (none,) = analysis_pages(t, Analysis("1", 0, 0, (), False, 1.0), "title")
        assert none.split("\n")[1] == t.gettext("coach.analysis_no_choice") != "coach.analysis_no_choice"
        assert t.number(0) not in none.split("\n")[1]
