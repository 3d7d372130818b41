"""Words a second playtest in Filipino, Swahili and Belarusian found wrong, each held to its fix."""

from __future__ import annotations

import re

from tests.bot.test_glossary_words import HAND_POINTS, PLACEHOLDER, english
from tests.bot.test_new_user_words import forms_of


def test_belarusian_until_you_click_is_the_future_never_the_imperative() -> None:
    """The away messages said "пакуль вы не націсніце **Вярнуцца**": the imperative (націсніце, "click!")
    where the sentence means "until you click", the future, націснеце."""
    be, en = forms_of("be"), english()
    wrong = {m: f for m, forms in be.items() for f in forms if re.search(r"\bне\s+націсніце\b", f)}
    assert not wrong, wrong
    until = [m for m in be if re.search(r"until you click", en[m])]
    assert len(until) >= 10, until
    for msgid in until:
        for form in be[msgid]:
            assert re.search(r"пакуль вы не\s+націснеце\b", form), (msgid, form)


def test_tagalog_counts_chips_after_a_number_as_the_amounts_do() -> None:
    """Every amount the bot writes says "15 chip" (Tagalog does not inflect a noun after a number), but
    the coach's look back said "+2.0 chips" and the refusals "{needed} chips" beside it: one way."""
    [amount] = {f for f in forms_of("fil")["{count} chip"]}
    assert amount == "{count} chip"
    wrong = {
        m: f
        for m, forms in forms_of("fil").items()
        for f in forms
        if re.search(r"(\{\w+\}|\d)\**\s+chips\b", f)
    }
    assert not wrong, wrong
    [look_back] = {f for f in forms_of("fil")["coach.review_line"]}
    assert "**{difference} chip**" in look_back


def test_tagalog_names_the_computer_players_and_the_house_one_way() -> None:
    """The tournament's messages said "computer player", "ang computer" and "ang house" where every other
    message says *kompyuter na manlalaro*, *kompyuter* and *bahay* (and "ang tournament" beside *torneo*)."""
    fil = forms_of("fil")
    wrong = {
        m: f
        for m, forms in fil.items()
        for f in forms
        if re.search(r"\bcomputers?\b|\bhouse\b|\bang tournament\b(?! chips)", f, re.IGNORECASE)
    }
    assert not wrong, wrong
    said = [f for m, forms in fil.items() if "computer player" in m.lower() for f in forms]
    assert len(said) >= 10 and all("kompyuter" in f for f in said), said
    [short] = fil["refusal.tournament_house_short"]
    assert "ang bahay" in short and "mga kompyuter na manlalaro" in short, short


def test_swahili_the_house_is_the_bots_fund_in_the_tournament_too() -> None:
    """The house, the computer players' chips, is *mfuko wa boti* (the bot's fund) on the balance, the
    grants and the table refusals; the tournament's messages called it *nyumba*, a building."""
    sw, en = forms_of("sw"), english()
    about = [m for m in sw if re.search(r"\bthe house\b|house_short", en[m] + m, re.IGNORECASE)]
    assert len(about) >= 8, about
    for msgid in about:
        for form in sw[msgid]:
            assert re.search(r"mfuko wa boti", form, re.IGNORECASE), (msgid, form)
            assert not re.search(r"\bnyumba\b", form, re.IGNORECASE), (msgid, form)


def test_belarusian_a_drop_names_the_hands_points_as_the_hand_does() -> None:
    """The hand reads "Ваша рука (сума ачкоў 36)" and under it said "абвясціце падзенне (рука 36)", and the
    round "абвяшчае падзенне, рука 27": a drop's number is the hand's points, said as the header says it."""
    be, en = forms_of("be"), english()
    about = [m for m in be if re.search(r"\bdrop(s|ped)? with\b", en[m])]
    assert len(about) >= 5, about
    for msgid in about:
        for form in be[msgid]:
            assert "з сумай ачкоў" in form and not re.search(r"\bрука \{value\}", form), (msgid, form)


def test_swahili_a_hands_points_are_thamani_as_the_hand_says() -> None:
    """The hand reads "Mkono wako (thamani 36)", but the coach said "pointi 46 hadi 17" and a card "yenye
    gharama kubwa zaidi" (the most costly), and the Run / Set menu "unapunguza mkono wako" (lowers your hand
    itself): every message about a card's or a hand's points says thamani."""
    sw, en = forms_of("sw"), english()
    about = [m for m in sw if HAND_POINTS.search(PLACEHOLDER.sub("", en[m]))]
    assert len(about) >= 10, about
    for msgid in about:
        for form in sw[msgid]:
            assert "thamani" in form, (msgid, form)
            assert not re.search(r"\bpointi\b|\bgharama\b|punguza mkono\b", form), (msgid, form)


def test_swahili_the_lobby_is_ukumbi_in_the_help_too() -> None:
    """/flipflop help's first step said "menyu ya lobi" and its second "ukiondoka kwenye ukumbi": the
    lobby is *ukumbi* in every message."""
    sw, en = forms_of("sw"), english()
    about = [m for m in sw if re.search(r"\blobby\b", en[m], re.IGNORECASE)]
    assert len(about) >= 6, about
    for msgid in about:
        for form in sw[msgid]:
            assert "ukumbi" in form.lower() and not re.search(r"\blobi\b", form, re.I), (msgid, form)


def test_practice_level_option_names_the_levels_a_member_types() -> None:
    """/flipflop practice's ``level`` takes basic, strong or random (its autocomplete finds only those);
    Tagalog and Swahili described it as "payak, malakas o sapalaran" / "kawaida, hodari au nasibu", and a
    member who typed those was refused. Every language names the value, then its own word."""
    for language in ("be", "fil", "gu", "ko", "sw"):
        [said] = forms_of(language)["Their level: basic (default), strong or random"]
        assert len(said) <= 100, said  # Discord's limit for an option's description
        assert re.search(r"\bbasic\b.*\bstrong\b.*\brandom\b", said), (language, said)


def test_tagalog_a_deal_is_pamimigay_on_the_replay_page_too() -> None:
    """The table says *pamimigay* (🔒 Patas na pamimigay, "the next deal"), but /flipflop verify and the
    replay page's check said "deal" ("Suriin ang deal na ito", "na siyang nag-deal") and the tournament's
    rules "idinideal ang susunod na round": one word."""
    fil = forms_of("fil")
    deal = re.compile(r"deal(?!er)", re.IGNORECASE)  # "deal", "nag-deal", "idinideal"; a dealer is "dealer"
    wrong = {m: f for m, forms in fil.items() for f in forms if deal.search(PLACEHOLDER.sub("", f))}
    assert not wrong, wrong
    assert fil["Verify this deal"] == ("Suriin ang pamimigay na ito",)
    [check] = fil[
        "Check it yourself in your browser: **Watch the replay** (below) → **Verify this deal** "
        "recomputes this deck from the seeds."
    ]
    assert "**Suriin ang pamimigay na ito**" in check


def test_belarusian_a_set_is_a_set_on_the_hands_buttons_too() -> None:
    """The glossary's set is сэт (the rules, the Run / Set menu); the hand's **Lay down (pick a run or a
    set)** button, its hint and the refusal of a wrong spread said камплект."""
    be, en = forms_of("be"), english()
    about = [
        m
        for m in be
        if re.search(r"\bruns?\b", en[m])
        and re.search(r"\bsets?\b", en[m], re.I)
        and "sit-and-go" not in en[m]
    ]
    assert len(about) >= 6, about
    for msgid in about:
        for form in be[msgid]:
            assert re.search(r"\bсэт|\bсэц", form) and "камплект" not in form, (msgid, form)


def test_tagalog_a_caught_drop_is_not_nag_drop() -> None:
    """The rules' drop page ended "hindi kasali ang nahuling nag-drop": the game's drop is *bumagsak* (a
    file dropped on the replay page may be "i-drop")."""
    fil = forms_of("fil")
    wrong = {m: f for m, forms in fil.items() for f in forms if re.search(r"\b(nag|mag|naka|na)-drop\b", f)}
    assert not wrong, wrong
    [drop] = fil["rules.drop.body"]
    assert "hindi kasali ang nahuling bumagsak" in drop, drop


def test_belarusian_the_house_is_kasa_in_the_tournament_too() -> None:
    """The house is каса on the balance, the grants and the table refusals; the tournament's fee, warning,
    refusal and rules (and the admin audit's "the house") said казіно, a casino."""
    be, en = forms_of("be"), english()
    about = [m for m in be if re.search(r"\bthe house\b|house_short", en[m] + m, re.IGNORECASE)]
    assert len(about) >= 8, about
    for msgid in about:
        for form in be[msgid]:
            assert re.search(r"\bкас[аеуы]\b", form, re.IGNORECASE) and "казіно" not in form, (msgid, form)


def test_belarusian_u_after_a_vowel_is_short() -> None:
    """Belarusian writes ў after a word that ends in a vowel ("**Адысці** ў сваёй руцэ"); the away rules
    and a lobby refusal wrote "у" after a button's name."""
    after_vowel = re.compile(r"[аеёіоуыэюя][*»”)]*\s+у\s", re.IGNORECASE)
    wrong = {m: f for m, forms in forms_of("be").items() for f in forms if after_vowel.search(f)}
    assert not wrong, wrong


def test_belarusian_a_thread_is_gutarka_in_the_tournament_rules_too() -> None:
    """A game's thread is гутарка in every message; the tournament's rules said "у сваёй галіне" (branch)."""
    be = forms_of("be")
    wrong = {m: f for m, forms in be.items() for f in forms if re.search(r"\bгалін", f, re.IGNORECASE)}
    assert not wrong, wrong
    [tournaments] = be["rules.tournaments.body"]
    assert "кожны ў сваёй гутарцы" in tournaments
