"""Languages: plural forms, numbers, who reads which language, the pseudo-locale, Discord's
command picker, and the rules pages in each language's script."""

from __future__ import annotations

import shutil
import string
import unicodedata
from pathlib import Path
from typing import Any

import discord
import pytest
from babel import Locale
from babel.messages.pofile import write_po
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from bot.client import EXTENSIONS, create_bot
from bot.i18n import (
    LANGUAGES,
    PSEUDO_LANGUAGE,
    CommandTranslator,
    is_valid_command_name,
    language_name,
    picker,
    picker_label,
    resolve_language,
    server_language,
    texts,
)
from bot.i18n.catalogs import po_path, read_catalog, template_path
from bot.presentation.rules_pages import FIRST_HAND_TIP, PAGES, how_to_play, rules_pages
from bot.settings import Settings


@pytest.mark.parametrize(
    ("n", "expected", "category"),
    [
        (1, "1 фішка", "one"),
        (2, "2 фішкі", "few"),
        (5, "5 фішак", "many"),
        (21, "21 фішка", "one"),
        (22, "22 фішкі", "few"),
        (25, "25 фішак", "many"),
        (11, "11 фішак", "many"),
        (112, "112 фішак", "many"),
    ],
)
def test_belarusian_chip_counts_take_the_cldr_plural_form(n: int, expected: str, category: str) -> None:
    assert Locale.parse("be").plural_form(n) == category
    assert texts("be").chips(n) == expected


def test_other_languages_pluralize_chips_their_own_way() -> None:
    assert [texts("en").chips(n) for n in (1, 2)] == ["1 chip", "2 chips"]
    assert [texts("gu").chips(n) for n in (1, 2)] == ["1 ચિપ", "2 ચિપ્સ"]
    assert texts("ko").chips(3) == "칩 3개"


def test_a_chip_amount_lost_takes_the_plural_form_of_its_size() -> None:
    """A season's net of -1 is "-1 chip", as 1 is "1 chip" (the sign is no part of the count)."""
    assert [texts("en").chips(n) for n in (-1, -2)] == ["-1 chip", "-2 chips"]
    assert [texts("be").chips(n) for n in (-2, -21, -25)] == ["-2 фішкі", "-21 фішка", "-25 фішак"]
    assert [texts("gu").chips(n) for n in (-1, -5)] == ["-1 ચિપ", "-5 ચિપ્સ"]
    assert texts("en").at(practice=True).chips(-1) == "-1 practice chip"


def test_chip_amounts_use_each_languages_number_format() -> None:
    assert texts("en").number(1234567) == "1,234,567"
    assert texts("be").number(1234567) == "1\xa0234\xa0567"  # grouped by no-break spaces
    assert texts("gu").number(1234567) == "12,34,567"  # Indian grouping: lakh and crore
    assert texts("be").chips(1200) == "1\xa0200 фішак"
    assert texts(PSEUDO_LANGUAGE).number(1200) == "1,200"


def test_a_rating_that_rounds_to_zero_shows_no_sign() -> None:
    """-0.05 shows as 0.0 (babel rounds half to even), never "-0.0"; a change of +0.05: "0.0", not "+0.0"."""
    from cogs.leaderboards import signed

    en, be = texts("en"), texts("be")
    assert [en.decimal(x) for x in (-0.05, -0.04, -0.06, -2.8)] == ["0.0", "0.0", "-0.1", "-2.8"]
    assert be.decimal(-0.05) == be.decimal(0.0) == "0,0"
    assert [signed(x, en) for x in (0.05, -0.05, 0.06, -0.06, 0.0)] == ["0.0", "0.0", "+0.1", "−0.1", "0.0"]


@pytest.mark.parametrize(
    ("saved", "client", "server", "expected"),
    [
        ("gu", "ko", "be", "gu"),  # a member's own choice comes first
        (None, "ko", "be", "ko"),  # then the client's locale when it is ours
        (None, "en-US", "be", "en"),  # Discord's English locales are English
        (None, "en-GB", "sw", "en"),
        (None, "de", "sw", "sw"),  # an unsupported client locale falls through to the server
        ("xx", None, "fil", "fil"),  # so does a saved code we no longer know
        (None, None, None, "en"),
        (None, "pt-BR", "zz", "en"),
        ("tl", None, None, "fil"),  # Tagalog's own code
    ],
)
def test_language_resolution_order(
    saved: str | None, client: str | None, server: str | None, expected: str
) -> None:
    assert resolve_language(saved, client, server) == expected


def test_public_messages_follow_the_server_only() -> None:
    assert server_language("ko") == "ko"
    assert server_language(None) == "en"
    assert server_language("xx") == "en"


def test_unknown_language_speaks_english() -> None:
    assert texts("xx").language == "en"
    assert texts("xx").gettext(PAGES[0].title) == "The goal and the three pots"
    assert texts("xx").gettext("Your turn.") == "Your turn."  # an English msgid is its own words


def test_a_language_lacking_a_message_says_it_in_english(tmp_path: Path) -> None:
    for language in ("en", "ko"):
        (tmp_path / language / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(po_path(language), po_path(language, tmp_path))
    catalog = read_catalog(po_path("ko", tmp_path), "ko")
    catalog.delete("refusal.table_full")
    with po_path("ko", tmp_path).open("wb") as f:
        write_po(f, catalog)
    korean = texts("ko", tmp_path)
    assert korean.gettext("refusal.table_full") == "The table is full ({seats} players)."
    assert korean.gettext("refusal.table_closed") == texts("ko").gettext("refusal.table_closed") != (
        texts("en").gettext("refusal.table_closed")
    )


def test_pseudo_locale_wraps_every_message_and_keeps_placeholders() -> None:
    pseudo, english = texts(PSEUDO_LANGUAGE), texts("en")
    template = read_catalog(template_path())
    messages = [m for m in template if m.id]
    assert messages
    for message in messages:
        if not isinstance(message.id, str):
            singular, plural = message.id
            for n in (1, 2):
                assert pseudo.ngettext(singular, plural, n) == f"⟦{english.ngettext(singular, plural, n)}⟧"
        elif message.context:
            assert pseudo.pgettext(message.context, message.id) == f"⟦{message.id}⟧"
        else:
            shown, words = pseudo.gettext(message.id), english.gettext(message.id)
            assert shown == f"⟦{words}⟧"  # a message id is wrapped in its English words
            fields = [f for _, f, _, _ in string.Formatter().parse(shown) if f is not None]
            assert fields == [f for _, f, _, _ in string.Formatter().parse(words) if f is not None]
    assert pseudo.gettext("refusal.table_full") == "⟦The table is full ({seats} players).⟧"
    assert pseudo.chips(5) == "⟦5 chips⟧"
    assert pseudo.gettext("Typed inline, never in a catalog") == "Typed inline, never in a catalog"


@pytest.mark.parametrize(
    "name",
    ["flipflop", "start", "leave-now", "buy_in", "플립플롭", "시작", "пачаць", "anza", "शुरू"],
)
def test_valid_command_names(name: str) -> None:
    assert is_valid_command_name(name)


@pytest.mark.parametrize(
    "name",  # "રમો" has a vowel sign: a mark, which Discord refuses
    ["", "Start", "two words", "x" * 33, "Пачаць", "રમો", "/start", "start!"],
)
def test_invalid_command_names(name: str) -> None:
    assert not is_valid_command_name(name)


def context(where: Where) -> Any:
    """A translation context as discord.py builds it (the data is not used by our translator)."""
    return TranslationContext(location=where, data=None)  # type: ignore[call-overload]


async def test_translator_localizes_names_and_descriptions_for_korean_only() -> None:
    translator = CommandTranslator()
    name, desc = app_commands.locale_str("start"), app_commands.locale_str("Play Flip Flop.")
    assert await translator.translate(name, discord.Locale.korean, context(Where.command_name)) == "시작"
    assert await translator.translate(desc, discord.Locale.korean, context(Where.group_description)) == (
        "플립플롭을 플레이합니다."
    )
    for locale in (discord.Locale.american_english, discord.Locale.british_english, discord.Locale.german):
        assert await translator.translate(name, locale, context(Where.command_name)) is None
    assert await translator.translate(name, discord.Locale.korean, context(Where.parameter_name)) is None


async def test_every_real_command_gets_valid_korean_localizations(tmp_path: Path) -> None:
    bot = create_bot(Settings(database_path=tmp_path / "i18n.sqlite3", shard_count=1))
    await bot.db.open()
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        payloads = [
            await command.get_translated_payload(bot.tree, CommandTranslator())
            for command in bot.tree.get_commands()
        ]
    finally:
        await bot.db.close()
    seen = 0

    def check(item: dict[str, Any]) -> None:
        nonlocal seen
        localized = item.get("description_localizations")
        assert isinstance(localized, dict) and 1 <= len(localized["ko"]) <= 100, item["name"]
        if item.get("type") in (1, 2):  # a command, subcommand or group (not an option)
            names = item.get("name_localizations")
            assert isinstance(names, dict) and is_valid_command_name(names["ko"]), item["name"]
            seen += 1
        for option in item.get("options", []) or []:
            assert isinstance(option, dict)
            check(option)

    for payload in payloads:
        check(payload)
    assert seen >= 10


def test_language_picker_shows_each_language_in_its_own_script() -> None:
    assert language_name("ko") == "한국어"
    assert language_name("be") == "Беларуская"  # CLDR writes it in lower case
    assert language_name("gu", "en") == "Gujarati"
    assert picker_label("ko", "en") == "한국어 (Korean)"
    assert picker_label("en", "en") == "English"
    options = picker.options(texts("be"))
    assert options[0] == ("", "Мова сервера")
    assert [value for value, _ in options[1:]] == list(LANGUAGES)
    assert all(1 <= len(label) <= 100 for _, label in options)
    for language in LANGUAGES:
        t = texts(language)
        assert 1 <= len(t.gettext(picker.PLACEHOLDER)) <= 150
        assert "{language}" not in t.gettext(picker.SAVED).format(language=language_name(language))


SCRIPTS = {
    "ko": lambda ch: "HANGUL" in unicodedata.name(ch, ""),
    "be": lambda ch: "CYRILLIC" in unicodedata.name(ch, ""),
    "gu": lambda ch: "GUJARATI" in unicodedata.name(ch, ""),
    "fil": lambda ch: "LATIN" in unicodedata.name(ch, ""),
    "sw": lambda ch: "LATIN" in unicodedata.name(ch, ""),
    "en": lambda ch: "LATIN" in unicodedata.name(ch, ""),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_pages_are_in_the_languages_script_and_fit_an_embed(language: str) -> None:
    t = texts(language)
    pages = rules_pages(t)
    assert len(pages) == len(PAGES) == 9
    in_script = SCRIPTS[language]
    for number, page in enumerate(pages, start=1):
        assert 1 <= len(page.title) <= 256 and 1 <= len(page.body) <= 4096 and len(page.footer) <= 2048
        letters = [ch for ch in page.title + page.body + page.footer if unicodedata.category(ch)[0] in "LM"]
        share = sum(map(in_script, letters)) / len(letters)
        assert share >= 0.9, f"{language} page {number}: only {share:.0%} of its letters in its script"
        if language != "en":
            assert page.body != PAGES[number - 1].body
    assert t.number(2) in pages[1].footer and t.number(len(PAGES)) in pages[1].footer
    tip = t.gettext(FIRST_HAND_TIP).format(rules="</flipflop rules:1>")
    assert "</flipflop rules:1>" in tip and len(tip) <= 200


def test_how_to_play_doc_is_made_from_the_catalogs() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "HOW_TO_PLAY.md").read_text(encoding="utf-8")
    assert doc == how_to_play(), "run: python -m bot.presentation.rules_pages > docs/HOW_TO_PLAY.md"
    for language in LANGUAGES:
        assert f"## {language_name(language)}" in doc
        assert rules_pages(texts(language))[3].body in doc


def test_discord_locales_as_interactions_report_them() -> None:
    assert resolve_language(None, str(discord.Locale.korean), "gu") == "ko"
    assert resolve_language(None, str(discord.Locale.american_english), "gu") == "en"
    assert resolve_language(None, str(discord.Locale.british_english), "gu") == "en"
    assert resolve_language(None, str(discord.Locale.ukrainian), "be") == "be"
    assert resolve_language("sw", str(discord.Locale.korean), "gu") == "sw"
