"""Load the gettext catalogs with Babel and hand out one ``Texts`` object per language.

Catalogs are the ``locales/<lang>/LC_MESSAGES/flipflop.po`` files. They are compiled with
Babel's own reader and writer (``read_po`` → ``write_mo``) in memory when a language is first
used, so there is no compiled file to go stale or to keep out of git, and a fuzzy entry is
never used. Plural forms come from the catalog header, which Babel writes from CLDR
(Belarusian: one/few/many). Chip amounts are formatted with CLDR's number patterns.
"""

from __future__ import annotations

import copy
import gettext
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path
from typing import Protocol

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from bot.i18n.mentions import link_commands
from engine.assets import asset

SOURCE_LANGUAGE = "en"
"""Messages are written in English: a sentence's msgid is its English text, except the coded
families (engine messages ``engine.*``, refusals ``refusal.*``, rules pages ``rules.*``, the
coach ``coach.*``), whose msgids are message ids worded in the English catalog."""

LANGUAGES: tuple[str, ...] = ("en", "fil", "be", "sw", "ko", "gu")
"""Every language a server or a member may choose, in the picker's order."""

PSEUDO_LANGUAGE = "qps"
"""A pseudo-locale for tests: every catalog message wrapped in markers (see ``catalogs``)."""

DOMAIN = "flipflop"
LOCALES_DIR = asset("locales")
"""The catalogs live at the top of the repository, beside ``babel.cfg``."""

PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


class CardLook(Protocol):
    """How a reader sees cards, as ``Texts`` carries it: a ``bot.cards.Look``.

    Named here by its shape, since ``bot.cards`` reads its words from these catalogs.
    """

    @property
    def style(self) -> str:
        """The reader's card style (``bot.cards.STYLES``)."""
        ...

    @property
    def pictures(self) -> bool:
        """Whether any card may show as an emoji for this reader."""
        ...

    def as_text(self) -> CardLook:
        """The same style without pictures."""
        ...


def po_path(language: str, locales_dir: Path = LOCALES_DIR) -> Path:
    """Where a language's catalog is kept."""
    return locales_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def template_path(locales_dir: Path = LOCALES_DIR) -> Path:
    """The template every catalog follows (made by ``pybabel extract``, see docs/LANGUAGES.md)."""
    return locales_dir / f"{DOMAIN}.pot"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """Parse a .po or .pot file with Babel."""
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def compile_catalog(catalog: Catalog) -> gettext.GNUTranslations:
    """Compile a catalog to .mo bytes with Babel and load them as Python's gettext does."""
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def pseudo_catalog(template: Catalog, english: gettext.NullTranslations) -> Catalog:
    """The pseudo-locale: every template message's English wrapped in ⟦…⟧, placeholders untouched.

    Built at run time from the template, so it always covers every message; a test that
    plays in this language finds any text that bypassed the catalog (it has no markers).
    """
    pseudo = Catalog(locale="en", domain=DOMAIN)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, str):
            words: tuple[str, ...] = (english.gettext(message.id),)
        else:
            one, other = message.id[0], message.id[1]
            words = (english.ngettext(one, other, 1), english.ngettext(one, other, 2))
        wrapped = tuple(f"{PSEUDO_OPEN}{text}{PSEUDO_CLOSE}" for text in words)
        pseudo.add(
            message.id, wrapped if isinstance(message.id, tuple) else wrapped[0], context=message.context
        )
    return pseudo


class Texts:
    """Everything one language says: messages, plurals, contexts and numbers.

    English (the source) words only the message ids (``refusal.table_full``) from its catalog;
    its other messages are the msgids themselves.
    """

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations
        self._number_locale = SOURCE_LANGUAGE if language == PSEUDO_LANGUAGE else language
        self.faces: CardLook | None = None
        """How this reader sees cards (``bot.cards.Look``); None: as text, the classic style."""

    def gettext(self, message: str) -> str:
        """The message in this language (a typed command becomes a mention once ids are known)."""
        return link_commands(self._translations.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of the message for the count ``n`` (CLDR plural rules of the language)."""
        return link_commands(self._translations.ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        """The message as meant in ``context`` (e.g. a slash-command name, not a sentence)."""
        return self._translations.pgettext(context, message)

    def number(self, n: int) -> str:
        """A whole number as this language writes it (``1 200`` in be, ``12,34,567`` in gu)."""
        return _whole_number(n, self._number_locale)

    def decimal(self, x: float, places: int = 1) -> str:
        """A number with ``places`` decimals as this language writes it (a rating: ``12.3``, ``12,3``).

        One that shows as zero (``-0.04``, and ``-0.05``: babel rounds half to even) takes no sign.
        """
        pattern = "#,##0." + "0" * places if places > 0 else "#,##0"
        shown = format_decimal(x, format=pattern, locale=self._number_locale)
        zero = format_decimal(0, format=pattern, locale=self._number_locale)
        return zero if shown.lstrip("-−") == zero else shown

    def percent(self, n: int) -> str:
        """A whole percentage as this language writes it: "80%", "80 %" in Belarusian."""
        return format_percent(n / 100, locale=self._number_locale)

    def chips(self, n: int) -> str:
        """A chip amount with its noun in the right plural form: "1 chip", "5 фішак", "-1 chip"."""
        return self.ngettext("{count} chip", "{count} chips", abs(n)).format(count=self.number(n))

    def at(self, practice: bool) -> Texts:
        """These texts for a table: at a practice table every chip amount says "practice chips"."""
        if practice:
            out: Texts = PracticeTexts(self.language, self._translations)
        elif type(self) is Texts:
            return self
        else:
            out = Texts(self.language, self._translations)
        out.faces = self.faces
        return out

    def with_faces(self, faces: CardLook | None) -> Texts:
        """These texts for a reader who sees cards as ``faces`` (a copy: ``texts()`` are shared)."""
        out = copy.copy(self)
        out.faces = faces
        return out


class PracticeTexts(Texts):
    """A practice table's words: its chips are play money, and every amount says so."""

    def chips(self, n: int) -> str:
        """"15 practice chips": never mistaken for the server's chips."""
        words = self.ngettext("{count} practice chip", "{count} practice chips", abs(n))
        return words.format(count=self.number(n))


@lru_cache(maxsize=4096)
def _whole_number(n: int, locale: str) -> str:
    """``Texts.number``, remembered: the numbers a server shows are few.

    Babel takes ~20 µs a number, and a table message writes dozens (stacks, pots, card counts) at
    every edit.
    """
    return format_decimal(n, locale=locale)


@cache
def english_translations(locales_dir: Path = LOCALES_DIR) -> gettext.GNUTranslations:
    """The English catalog compiled once: English itself, and every other language's fallback."""
    return compile_catalog(read_catalog(po_path(SOURCE_LANGUAGE, locales_dir), SOURCE_LANGUAGE))


@cache
def texts(language: str, locales_dir: Path = LOCALES_DIR) -> Texts:
    """The ``Texts`` of a language (compiled once per process); an unknown code gets English."""
    english = english_translations(locales_dir)
    if language == PSEUDO_LANGUAGE:
        translations: gettext.NullTranslations = compile_catalog(
            pseudo_catalog(read_catalog(template_path(locales_dir)), english)
        )
    elif language in LANGUAGES and language != SOURCE_LANGUAGE:
        translations = compile_catalog(read_catalog(po_path(language, locales_dir), language))
        translations.add_fallback(english)  # a message a language lacks is said in English
    else:
        language, translations = SOURCE_LANGUAGE, english
    return Texts(language, translations)


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Mark a message for the catalog without translating it yet (translated where shown)."""
    return message
