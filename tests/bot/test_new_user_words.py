"""What new users ran into, in words: the timeout line, two-player rounds in the rules, catalog terms."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import texts
from bot.i18n.languages import LANGUAGES
from bot.presentation.replay_words import page_words
from bot.presentation.rules_pages import PAGES, rules_pages
from bot.presentation.table_render import notice_line
from bot.runtime.outcomes import TimedOut
from bot.table.model import AWAY_ROUNDS_BEFORE_RELEASE, TIMEOUTS_BEFORE_REMOVAL, Table

ROOT = Path(__file__).resolve().parents[2]


def catalog(code: str) -> dict[str, str]:
    """msgid -> msgstr (the first form of a plural) of one language's catalog."""
    with (ROOT / "locales" / code / "LC_MESSAGES" / "flipflop.po").open("rb") as f:
        cat = read_po(f, locale=code)
    out: dict[str, str] = {}
    for m in cat:
        if not m.id:
            continue
        key = m.id if isinstance(m.id, str) else m.id[0]
        out[key] = m.string if isinstance(m.string, str) else m.string[0]
    return out


def a_table() -> Table:
    return Table(
        "t1", 1, 2, 10, stake=5, buy_in=200, seats=[10, 11, 12], names={10: "ann", 11: "ben", 12: "cy"}
    )


def test_the_timeout_line_and_the_readme_say_the_same_limit() -> None:
    """The line counts the timeouts in a row and names the one that removes; the README says the same."""
    t = texts("en")
    first = notice_line(a_table(), TimedOut(10, 1, TIMEOUTS_BEFORE_REMOVAL - 1, False), t)
    assert first is not None
    assert "timeouts in a row: 1" in first and f"at {TIMEOUTS_BEFORE_REMOVAL} they are removed" in first
    assert "allowed" not in first  # "1 of 2 allowed" read as if two more were fine
    removed = notice_line(
        a_table(), TimedOut(10, TIMEOUTS_BEFORE_REMOVAL, TIMEOUTS_BEFORE_REMOVAL - 1, True), t
    )
    assert removed is not None and f"{TIMEOUTS_BEFORE_REMOVAL} turns in a row" in removed
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    timer = readme[readme.index("- **Turn timer and away mode**") :].split("\n- ", 1)[0]
    # a turn that runs out puts the player away now (never removed): the README says the table's rule
    assert "never\n  removed" in timer and f"after {AWAY_ROUNDS_BEFORE_RELEASE} rounds away" in timer
    assert "basic computer player" in timer and "highest" not in timer


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_timeout_line_names_the_limit_in_every_language(language: str) -> None:
    t = texts(language)
    line = notice_line(a_table(), TimedOut(10, 2, TIMEOUTS_BEFORE_REMOVAL - 1, False), t)
    assert line is not None and "ann" in line
    assert t.number(2) in line and t.number(TIMEOUTS_BEFORE_REMOVAL) in line


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_explain_a_game_finished_by_two(language: str) -> None:
    """R8.1: a game starts with 3 to 5 and goes on while two remain; a page says so in every language."""
    t = texts(language)
    english = rules_pages(texts("en"))
    page = next(i for i, p in enumerate(english) if "the last rounds may be played by two" in p.body)
    assert texts("en").gettext(PAGES[page].title) == "Chips, stakes and leaving"
    body = rules_pages(t)[page].body
    assert t.number(2) in body or language == "ko" and "두 명" in body
    assert len(body) <= 4096


def test_swahili_says_dealer_buy_in_and_house_with_the_glossary_words() -> None:
    sw = catalog("sw")
    strings = "\n".join(sw.values()).lower()
    assert "muuzaji" not in strings and "kundi la kuanzia" not in strings and "benki" not in strings
    # with the table picture's "dealer" and the replay page's two first-dealer checks
    assert sum("mgawaji" in s.lower() for s in sw.values()) == 10
    assert sum("mtaji" in s.lower() for s in sw.values()) >= 13
    assert "mfuko wa boti" in sw["Bots don't have chips. Pick a person (or this bot, for the house account)."]
    glossary = (ROOT / "docs" / "LANGUAGES.md").read_text(encoding="utf-8")
    assert "| mtaji wa kuanzia" in glossary and "| mgawaji" in glossary and "mfuko wa boti" in glossary


def forms_of(code: str) -> dict[str, tuple[str, ...]]:
    """msgid (the singular of a plural) -> every form of its msgstr, of one language's catalog."""
    with (ROOT / "locales" / code / "LC_MESSAGES" / "flipflop.po").open("rb") as f:
        cat = read_po(f, locale=code)
    out: dict[str, tuple[str, ...]] = {}
    for m in cat:
        if m.id:
            key = m.id if isinstance(m.id, str) else m.id[0]
            out[key] = (m.string,) if isinstance(m.string, str) else tuple(m.string)
    return out


PERSON = re.compile(r"\{(name|member|who|admin|dealer)\}")
"""A message that names a member: they may be anyone."""
ON_A_SEAT = (
    "Away",
    "I'm back",
    "left",
    "won {pot}",
    "showed {cards}",
    "· 💤 away ({rounds} of {allowed} rounds)",
)
"""Labels a member clicks about themselves, and what a seat's badges say of whoever sits there."""
MASCULINE = re.compile(
    r"\b(яго|ён|яму|адышоў|вярнуўся|адсутнічаў|выбыў|выйшаў|паспеў|раздаваў|пайшоў|паказаў|выйграў|выдаў|"
    r"спісаў|гуляў|першым)\b"
)
"""He, him, his and a man's past tense: what a member who is not a man must not read about themselves."""


def test_belarusian_speaks_of_a_member_whoever_they_are() -> None:
    """A named member, a seat's badges and the away buttons in Belarusian, in no masculine form: present
    tense, "у {name}", nouns. A message naming the away buttons says their new labels."""
    be, english = forms_of("be"), catalog("en")
    about = [
        msgid
        for msgid in be
        if msgid in ON_A_SEAT
        or PERSON.search(english.get(msgid) or msgid)
        or "I'm back" in msgid
        or "away" in msgid.lower()
    ]
    assert len(about) > 80
    for msgid in about:
        for said in be[msgid]:
            assert not MASCULINE.search(said), (msgid, said)
    assert be["Away"] == ("Адысці",) and be["I'm back"] == ("Вярнуцца",)  # infinitives, as «Пачаць»
    assert not any(re.search("Я вярнуўся|[Аа]дышоў", s) for forms in be.values() for s in forms)


GU_MASCULINE = re.compile(
    r"(?<![\u0A80-\u0AFF])(પાછો|આવ્યો|જોડાયો|જીત્યો|હાર્યો|બેઠો|બેઠેલો|રહ્યો|નીકળ્યો|પહોંચ્યો|(?<!થઈ )ગયો)"
    r"(?![\u0A80-\u0AFF])"
)
"""A man's perfect tense (…યો) and "પાછો" (back): what a member who is not a man must not read."""


def test_gujarati_speaks_of_a_member_whoever_they_are() -> None:
    """Gujarati marks a man or a woman in the perfect tense ("હું પાછો આવ્યો", a woman "પાછી આવી"). The
    buttons a member clicks about themselves say the present (**દૂર છું**, **હું હાજર છું**); a named member
    and "you" take the honorific plural (…યા) or the present. Every message naming the button says it."""
    gu, english = forms_of("gu"), catalog("en")
    about = [
        msgid
        for msgid in gu
        if msgid in ON_A_SEAT
        or PERSON.search(english_of(msgid, english))
        or "I'm back" in english_of(msgid, english)
        or "away" in english_of(msgid, english).lower()
    ]
    assert len(about) > 80
    for msgid in about:
        for said in gu[msgid]:
            assert not GU_MASCULINE.search(said), (msgid, said)
    assert gu["Away"] == ("દૂર છું",) and gu["I'm back"] == ("હું હાજર છું",)
    back = [m for m in gu if "I'm back" in english_of(m, english) and m != "I'm back"]
    assert len(back) >= 15
    for msgid in back:
        for said in gu[msgid]:
            assert "હું હાજર છું" in said, (msgid, said)
    assert not any(re.search("પાછો આવ્યો|પાછી આવી", s) for forms in gu.values() for s in forms)


def test_gujarati_says_away_as_the_button_does() -> None:
    """A seat's badge and the table picture said ગેરહાજર ("absent") where the button (**દૂર છું**) and every
    explanation say દૂર; the tournament page said "ગેરહાજર બેઠક". One word, the glossary's."""
    gu = forms_of("gu")
    assert gu["away"] == ("દૂર",) and gu["away {rounds}/{allowed}"] == ("દૂર {rounds}/{allowed}",)
    assert not any("ગેરહાજર" in s for forms in gu.values() for s in forms)
    glossary = (ROOT / "docs" / "LANGUAGES.md").read_text(encoding="utf-8")
    gujarati = glossary[glossary.index("### Gujarati") : glossary.index("### Cards said in words")]
    assert re.search(r"\| away \(.*\| \*\*દૂર છું\*\*.*દૂર wherever", gujarati)


def english_of(msgid: str, english: dict[str, str]) -> str:
    """The English a message says: its msgid, or a coded message's words in the English catalog."""
    return english.get(msgid) or msgid


def test_swahili_names_the_upcard_and_the_ace_one_way() -> None:
    """The upcard is the glossary's "kadi iliyofichuliwa" wherever a message names it (the card's mark is
    the term's own adjective, as be, fil, ko and gu shorten theirs), never "karata ya wazi" or "wazi"; the
    ace and the face cards are what a card's name calls them ("ekari", "mzungu wa …"), never English."""
    sw, english = forms_of("sw"), catalog("en")
    upcard = [m for m in sw if "upcard" in english_of(m, english).lower()]
    ace = [m for m in sw if re.search(r"\baces?\b", english_of(m, english))]
    faces = [m for m in sw if re.search(r"\b(jack|queen|king)\b", english_of(m, english))]
    assert len(upcard) >= 10 and len(ace) >= 3 and len(faces) >= 3
    for msgid in upcard:
        for said in sw[msgid]:
            assert "iliyofichuliwa" in said and not re.search(r"\bwazi\b", said), (msgid, said)
    for msgid in ace:
        for said in sw[msgid]:
            assert "ekari" in said and not re.search(r"\baces?\b", said), (msgid, said)
    for msgid in faces:
        for said in sw[msgid]:
            assert "mzungu" in said and not re.search(r"\b(jack|queen|king)\b", said), (msgid, said)
    glossary = (ROOT / "docs" / "LANGUAGES.md").read_text(encoding="utf-8")
    swahili = glossary[glossary.index("### Swahili") : glossary.index("### Korean")]
    assert re.search(r"\| upcard \|.*\| kadi iliyofichuliwa", swahili)
    assert re.search(r"\| ace \|.*\| ekari", swahili)


def test_swahili_calls_a_card_kadi_in_every_message() -> None:
    """A playing card is the glossary's "kadi", as the sheet and the upcard's "kadi iliyofichuliwa" say it;
    a few messages said "karata" beside it (the hand's "Karata zako", the replay's face-down card)."""
    sw = forms_of("sw")
    said = [s for forms in sw.values() for s in forms]
    assert [s for s in said if re.search(r"\bkarata\b", s, re.IGNORECASE)] == []
    assert sum(bool(re.search(r"\bkadi\b", s, re.IGNORECASE)) for s in said) >= 70
    assert sw["Your cards: press a card to select it"] == ("Kadi zako: bonyeza kadi ili kuichagua",)
    assert "karata" not in json.dumps(page_words("sw"), ensure_ascii=False).lower()
    glossary = (ROOT / "docs" / "LANGUAGES.md").read_text(encoding="utf-8")
    swahili = glossary[glossary.index("### Swahili") : glossary.index("### Korean")]
    assert re.search(r"\| card \|.*\| kadi \(pl\. kadi\)", swahili)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tournament_page_says_what_happens_to_an_away_seat(language: str) -> None:
    """A tournament table's away seat is played by the computer in every later round until **I'm back**
    and never let go (``transitions.next_round`` ends a tournament table before any release; each
    round's table starts its rounds away anew); the page once said it was "blinded out" as the stake
    rose, which it is not: the computer plays the hand, and the stack may still win a prize."""
    t = texts(language)
    page = next(i for i, p in enumerate(PAGES) if p.title == "rules.tournaments.title")
    body = rules_pages(t)[page].body
    for button in ("Away", "I'm back"):
        assert f"**{t.gettext(button)}**" in body, (language, button)
    assert "blinded" not in rules_pages(texts("en"))[page].body


def test_suits_come_from_one_system() -> None:
    assert catalog("be")["hearts"] == "чырвы"
    gu = catalog("gu")
    assert [gu[s] for s in ("spades", "hearts", "diamonds", "clubs")] == ["કાળી", "લાલ", "ચોકટ", "ચીડી"]


def test_korean_chat_lines_are_in_haeyo_style() -> None:
    ko = catalog("ko")
    assert ko["I don't speak that language. Please choose one from the list."].startswith(
        "지원하지 않는 언어예요."
    )
    follows = [s for i, s in ko.items() if i.startswith("You now follow")]
    assert len(follows) == 2 and all("따라요" in s for s in follows)
    standing = [s for s in ko.values() if "{place}위" in s]
    assert standing and not any(re.search(r"칩은 \*\*\{chips\}", s) for s in standing)


def test_tagalog_chips_go_back_to_the_balance_not_the_table() -> None:
    fil = catalog("fil")
    assert not any("ang chips mo sa mesa" in s or "chips niya sa mesa" in s for s in fil.values())
    left = fil["You left this round; your stack comes back when it ends."]
    assert "balanse" in left
