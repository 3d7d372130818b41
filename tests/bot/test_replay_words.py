"""The replay page's words (``web/replay/words/``) are the catalogs' now, and its English is theirs.

The page is static: its words are files made from the catalogs and committed, so a changed
translation (or a new word) must be written out again; this fails until it is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.i18n import LANGUAGES, language_name
from bot.i18n.catalogs import texts
from bot.live import words as live
from bot.presentation import event_words
from bot.presentation.replay_words import FOLDER, WORDS, main, page_words, plain, stale, word_file

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "web" / "replay"
SAY = re.compile(r'say\("(\w+)",\s*"((?:[^"\\]|\\.)*)"')
"""``say("key", "English", …)`` in the page's JavaScript."""
PAIR = re.compile(r'\["(\w+)",\s*"((?:[^"\\]|\\.)*)"\]')
"""``["key", "English"]``: a word named in a table (rules.js ``END_WORDS``)."""
DYNAMIC = re.compile(r"(shows|wins|split|carried)(Game|Flip|Flop)|suit[HDSC]")
"""Words whose key the page makes (``potSays``, ``suitName``): their English must be in the page."""


def page_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((PAGE / "js").glob("*.js")))


def test_the_committed_word_files_are_what_the_catalogs_give_now() -> None:
    assert stale() == [], "run: python -m bot.presentation.replay_words --write"
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(LANGUAGES)
    for language in LANGUAGES:
        assert (FOLDER / f"{language}.json").read_text(encoding="utf-8") == word_file(language)


def test_a_changed_translation_makes_its_file_stale(tmp_path: Path) -> None:
    for language in LANGUAGES:
        (tmp_path / f"{language}.json").write_text(word_file(language), encoding="utf-8")
    assert stale(tmp_path) == []
    edited = json.loads(word_file("ko"))
    edited["verify"] = "Verify this deal"
    (tmp_path / "ko.json").write_text(json.dumps(edited), encoding="utf-8")
    (tmp_path / "sw.json").unlink()
    assert sorted(stale(tmp_path)) == ["ko", "sw"]
    assert main([]) == 0  # the repository's own files are current


def test_each_language_file_holds_every_word_translated() -> None:
    english = page_words("en")
    for language in LANGUAGES:
        words = page_words(language)
        assert words["lang"] == language and set(words) == set(english)
        t = texts(language)
        assert words["verify"] == t.gettext(WORDS["verify"])
        if language in ("be", "ko", "gu"):  # other scripts: nothing may be left in English
            assert [k for k, v in words.items() if k != "lang" and v == english[k]] == []
    # one message, one translation: the captions are the round log's sentences, the table's the live page's
    assert WORDS["drops"] is event_words.DROPS and WORDS["winsGame"] is event_words.WINS["game"]
    assert WORDS["stock"] is live.WORDS["stock"]
    assert page_words("ko")["drops"] == plain(texts("ko").gettext(event_words.DROPS))
    assert "**" not in json.dumps(page_words("be"), ensure_ascii=False)
    be = page_words("be")["chipCount"]
    assert isinstance(be, dict) and set(be) == {"one", "few", "many"}
    assert be["few"] == texts("be").ngettext("{count} chip", "{count} chips", 3)


def test_the_pages_english_is_the_catalogs() -> None:
    """Each ``say("key", "English")`` in the page's JavaScript says its word's English (its fallback)."""
    source = page_source()
    english = page_words("en")
    pairs = SAY.findall(source) + PAIR.findall(source)
    assert len(pairs) > 60
    for key, text in pairs:
        if key in english:
            assert json.loads(f'"{text}"') == english[key], key
    keys = set(re.findall(r'"(\w+)"', source))  # said, or named in a table (app.js FIXED, table.js potName)
    for key in WORDS:
        if DYNAMIC.fullmatch(key):
            assert json.dumps(english[key], ensure_ascii=False) in source, key
        else:
            assert key in keys, f"the page never says {key!r}"


def test_the_language_picker_offers_every_language_in_its_own_name() -> None:
    html = (PAGE / "index.html").read_text(encoding="utf-8")
    offered = re.findall(r'<option value="(\w+)">([^<]+)</option>', html)
    assert offered == [(code, language_name(code)) for code in LANGUAGES]


def test_the_moves_list_names_the_upcard_as_the_table_marks_it() -> None:
    """"Deal: upcard 7♥" heads the moves beside a table whose small print marks the upcard: one word for both
    (Filipino's was left in English, Gujarati's another word than the table's)."""
    for language in LANGUAGES:
        words = page_words(language)
        assert str(words["upcardMark"]).lower() in str(words["dealMove"]).lower(), language


def test_the_first_dealer_line_never_calls_the_seeds_index_a_seat() -> None:
    """The seeds' dealer is an index from 0 (docs/FAIRNESS.md, verify_deal.py); a seat the link names no
    one for is "seat 1" for that same player on the page. The line once read "seat 0 (seat 1)": now the
    index is explained and the name said once, in every language."""
    for language in LANGUAGES:
        words = page_words(language)
        seat = str(words["seat"])
        for index in range(5):
            name = seat.format(number=index + 1)
            for key in ("dealerOk", "dealerBad"):
                blanks = {"index": index, "seat": index, "name": name, "dealer": seat.format(number=9)}
                said = str(words[key]).format(**blanks)  # ("seat": the index's blank until it was renamed)
                assert name in said and said.count(name) == 1, (language, said)
                assert seat.format(number=index) not in said, (language, said)  # "seat 0" is no one's name
                rest = said.replace(name, "")
                assert str(index) in rest and "0" in rest, (language, said)  # the index, and what 0 is
