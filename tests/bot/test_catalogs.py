"""The catalogs follow the code: every message extracted from the source is translated in every
language, nothing else is, placeholders match, and the slash commands' texts fit Discord's limits.

The coded families (engine messages, refusals, rules pages, the coach) have message ids for
msgids, worded in the English catalog; every other message's msgid is its English text.

When this fails after adding an English string, update the catalogs (docs/LANGUAGES.md).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural

from bot.i18n import COMMAND_NAME, LANGUAGES, SOURCE_LANGUAGE, is_valid_command_name
from bot.i18n.catalogs import po_path, read_catalog, template_path
from bot.i18n.extract import MessageKey, command_texts, extract_messages

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
MESSAGE_ID = re.compile(r"(engine|refusal|rules|coach)(\.[a-z0-9_]+)+")
"""A message id: its family, then names (``refusal.table_full``, ``coach.analysis_agrees.plural``)."""
CODED = {
    "engine/catalog.py": "engine",
    "bot/presentation/refusals.py": "refusal",
    "bot/presentation/rules_pages.py": "rules",
    "bot/presentation/coach_render.py": "coach",
}
"""The modules whose messages are all message ids, and their family."""


def ids(message: Message) -> tuple[str, ...]:
    """The msgid, or the singular and plural msgids of a plural message."""
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def forms(message: Message) -> tuple[str, ...]:
    """The translation, or its plural forms."""
    return (message.string,) if isinstance(message.string, str) else tuple(message.string or ())


def keys(catalog: Catalog) -> set[MessageKey]:
    return {
        (message.id if isinstance(message.id, str) else ids(message), message.context)
        for message in catalog
        if message.id
    }


def placeholders(text: str) -> list[str]:
    """The ``str.format`` fields of a text, sorted (raises ValueError on a broken brace)."""
    return sorted(field for _, field, _, _ in string.Formatter().parse(text) if field is not None)


@pytest.fixture(scope="module")
def places() -> dict[MessageKey, list[str]]:
    return extract_messages(ROOT)


@pytest.fixture(scope="module")
def extracted(places: dict[MessageKey, list[str]]) -> set[MessageKey]:
    return set(places)


@pytest.fixture(scope="module")
def english() -> Catalog:
    return read_catalog(po_path(SOURCE_LANGUAGE), SOURCE_LANGUAGE)


def is_id(message: Message) -> bool:
    return MESSAGE_ID.fullmatch(ids(message)[0]) is not None


@pytest.fixture(scope="module")
def template() -> Catalog:
    return read_catalog(template_path())


def test_the_template_holds_exactly_the_messages_in_the_code(
    extracted: set[MessageKey], template: Catalog
) -> None:
    missing = extracted - keys(template)
    stale = keys(template) - extracted
    assert not missing, f"new messages not in locales/flipflop.pot (see docs/LANGUAGES.md): {missing}"
    assert not stale, f"locales/flipflop.pot has messages the code no longer uses: {stale}"


def test_the_code_has_the_messages_we_rely_on(extracted: set[MessageKey]) -> None:
    assert (("{count} chip", "{count} chips"), None) in extracted
    assert ("start", COMMAND_NAME) in extracted  # from the cogs' decorators
    assert ("rules.drop.title", None) in extracted  # from bot/presentation/rules_pages.py
    assert ("refusal.table_full", None) in extracted
    assert ("engine.not_held", None) in extracted


def test_the_coded_families_have_message_ids_not_english_sentences(
    places: dict[MessageKey, list[str]],
) -> None:
    found = 0
    for (message, _context), where in places.items():
        for place in where:
            family = CODED.get(place.rsplit(":", 1)[0].replace("\\", "/"))
            if family is None:
                continue
            found += 1
            for text in (message,) if isinstance(message, str) else message:
                assert MESSAGE_ID.fullmatch(text) and text.startswith(family + "."), f"{place}: {text!r}"
    assert found > 200


def test_the_english_catalog_words_every_message_id_and_only_those(
    template: Catalog, english: Catalog
) -> None:
    assert keys(english) == keys(template)
    worded = 0
    for message in english:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        if is_id(message):
            worded += 1
            texts = forms(message)
            assert len(texts) == (2 if message.pluralizable else 1), message.id
            assert all(text.strip() for text in texts), f"not worded in English: {message.id!r}"
            assert not any(MESSAGE_ID.fullmatch(text) for text in texts), message.id
            if message.pluralizable:
                assert placeholders(texts[0]) == placeholders(texts[1]), message.id
        else:  # an English msgid is its own words: nothing to keep twice
            assert not any(forms(message)), f"English msgid worded again: {message.id!r}"
    assert worded > 200


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_is_complete_and_follows_the_template(
    language: str, template: Catalog, english: Catalog
) -> None:
    catalog = read_catalog(po_path(language), language)
    assert keys(catalog) == keys(template)
    assert catalog.plural_forms == get_plural(language).plural_forms
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        translated = forms(message)
        assert len(translated) == (catalog.num_plurals if message.pluralizable else 1), message.id
        assert all(text.strip() for text in translated), f"untranslated in {language}: {message.id!r}"
        source = english.get(ids(message)[0]) if is_id(message) else message
        assert source is not None, message.id
        expected = placeholders((ids(source) if not is_id(message) else forms(source))[-1])
        for text in translated:
            assert placeholders(text) == expected, f"{language}: {text!r} vs {message.id!r}"
    assert not list(catalog.check()), "Babel's own checks"


CLICKED = r"\b[Cc]lick(?:s|ing|ed)?\s+(?:\*\*)?{label}(?:\*\*|\b)"
"""A sentence telling the reader to click a control by its label (``clicks **Start**``)."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_sentence_names_a_button_as_the_button_reads(language: str, english: Catalog) -> None:
    """ "Click **Start**" says the button's own word in every language (not the English one).

    The labels are the catalog's short messages (a control's label is one); a sentence naming
    one after "click" must hold that label's translation, wherever it puts it.
    """
    catalog = read_catalog(po_path(language), language)
    words = {m.id: m.string for m in catalog if isinstance(m.id, str) and isinstance(m.string, str)}
    labels = sorted(
        (
            m
            for m in words
            if m and len(m) <= 30 and "{" not in m and not m.endswith(".") and not MESSAGE_ID.match(m)
        ),
        key=len,
        reverse=True,
    )
    checked = 0
    for message in catalog:
        if not message.id:
            continue
        source = english.get(ids(message)[0]) if is_id(message) else message
        said = forms(source)[0] if is_id(message) and source is not None else ids(message)[0]
        label = next((w for w in labels if re.search(CLICKED.format(label=re.escape(w)), said)), None)
        if label is None or words[label] == label:
            continue
        checked += 1
        for text in forms(message):
            assert words[label] in text, f"{language}: {text!r} names {label!r} but not as {words[label]!r}"
    assert checked > 10


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_button_named_in_bold_is_named_as_the_button_reads(language: str) -> None:
    """ "**Join** pays the entry fee" (the rules) names the button in the reader's words, not in English.

    A sentence that bolds a control's English label where this language labels it otherwise
    sends the reader looking for a button that is not there.
    """
    catalog = read_catalog(po_path(language), language)
    words = {m.id: m.string for m in catalog if isinstance(m.id, str) and isinstance(m.string, str)}
    labels = [
        m
        for m, said in words.items()
        if m
        and said != m
        and len(m) <= 30
        and "{" not in m
        and not m.endswith(".")
        and not MESSAGE_ID.match(m)
    ]
    for message in catalog:
        if not message.id:
            continue
        for text in forms(message):
            for label in labels:
                assert f"**{label}**" not in text or words[label] in text, (
                    f"{language}: {ids(message)[0]!r} bolds {label!r}, which reads {words[label]!r} here"
                )


@pytest.mark.parametrize("language", TRANSLATED)
def test_command_texts_fit_discord_in_every_language(language: str) -> None:
    catalog = read_catalog(po_path(language), language)
    cogs_texts = {
        text
        for path in (ROOT / "cogs").rglob("*.py")
        for _, kind, text, _ in command_texts(path.read_text(encoding="utf-8"))
        if kind == "gettext"
    }
    names = [m for m in catalog if m.context == COMMAND_NAME]
    assert names, "the cogs' command names are in the catalog"
    for message in names:
        assert is_valid_command_name(forms(message)[0]), f"{language}: {message.string!r}"
    for message in catalog:
        if message.id in cogs_texts:
            assert 1 <= len(forms(message)[0]) <= 100, f"{language}: {message.string!r}"


def test_the_extractor_sees_a_new_string_anywhere(tmp_path: Path) -> None:
    (tmp_path / "babel.cfg").write_text((ROOT / "babel.cfg").read_text())
    for folder in ("cogs/flipflop", "bot", "engine"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "cogs/flipflop/_cog.py").write_text(
        "@app_commands.command(name='deal', description='Deal again.')\n"
        "@app_commands.describe(seat='Which seat')\n"
        "async def deal(self, interaction, seat: int) -> None:\n"
        "    await interaction.response.send_message(t.gettext('Dealt.'))\n"
    )
    (tmp_path / "bot/screen.py").write_text(
        "TITLE = N_('Your hand')\nt.ngettext('{n} card', '{n} cards', n)\n"
    )
    (tmp_path / "engine/words.py").write_text("x = 'not a message'\n")
    found = set(extract_messages(tmp_path))
    assert found == {
        ("deal", COMMAND_NAME),
        ("Deal again.", None),
        ("Which seat", None),
        ("Dealt.", None),
        ("Your hand", None),
        (("{n} card", "{n} cards"), None),
    }


def test_placeholders_are_compared_by_name() -> None:
    assert placeholders("{count} chips in {pot}") == ["count", "pot"]
    assert placeholders("{pot}: {count}") == ["count", "pot"]
    assert placeholders("no fields") == []
    with pytest.raises(ValueError):
        placeholders("{broken")


GETTEXT_IN_FSTRING = re.compile(r"""\{[^{}"']*\.n?gettext\(\s*['"]""")
"""``f"**{t.gettext('Standings')}**"``: pybabel does not look inside an f-string, so the words are never
extracted and every language shows them in English."""


def test_no_message_is_written_inside_an_f_string() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("bot", "cogs", "engine")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if GETTEXT_IN_FSTRING.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_tournament_headings_are_extracted(template: Catalog) -> None:
    assert {("Standings", None), ("Prizes", None)} <= keys(template)
