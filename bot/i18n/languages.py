"""The languages Flip Flop speaks, and which one a member reads (issue 14).

The rule sheet exists in Tagalog, Belarusian, Swahili, Korean and Gujarati; English is the
source language of every message. Language names come from CLDR through Babel, so the picker
shows each language in its own script without a hand-kept list of names.
"""

from __future__ import annotations

from babel import Locale

SOURCE_LANGUAGE = "en"
"""Messages are written in English; the English "translation" is the message itself."""

LANGUAGES: tuple[str, ...] = ("en", "fil", "be", "sw", "ko", "gu")
"""Every language a server or a member may choose, in the picker's order."""

PSEUDO_LANGUAGE = "qps"
"""A pseudo-locale for tests: every catalog message wrapped in markers (see ``catalogs``)."""


def normalize(code: str | None) -> str | None:
    """Turn a Discord locale or a saved code into one of ``LANGUAGES``, or None.

    Discord reports ``en-US``/``en-GB`` and ``ko``; it has no locale for fil, be, sw or gu
    (hence the member's saved choice), but a region suffix is dropped so ``ko-KR`` or a
    future ``fil-PH`` would still match.
    """
    if not code:
        return None
    base = code.replace("_", "-").split("-", 1)[0].lower()
    if base == "tl":  # Tagalog's own code; CLDR and Babel file it under Filipino
        base = "fil"
    return base if base in LANGUAGES else None


def resolve_language(saved: str | None, client_locale: str | None, server: str | None) -> str:
    """The language a member reads their private messages in.

    Order (issue 14): the member's own saved choice; else their Discord client's locale when
    it is one of ours; else the server's language; else English. A value we do not support
    (an old saved code, an unsupported client locale) is skipped, never an error.
    """
    for candidate in (saved, client_locale, server):
        language = normalize(candidate)
        if language is not None:
            return language
    return SOURCE_LANGUAGE


def server_language(configured: str | None) -> str:
    """The language of a server's public messages (table, round log, results); English by default."""
    return normalize(configured) or SOURCE_LANGUAGE


def language_name(code: str, reader: str | None = None) -> str:
    """A language's name from CLDR: in its own script, or as ``reader``'s language calls it.

    ``language_name("ko")`` is "한국어"; ``language_name("ko", "be")`` is "карэйская".
    The first letter is raised because CLDR writes some names in lower case ("беларуская").
    """
    name = Locale.parse(code).get_display_name(reader or code) or code
    return name[:1].upper() + name[1:]


def picker_label(code: str, reader: str) -> str:
    """One option of the language picker: the endonym, then the name in the reader's language.

    A reader who cannot read the current language still finds their own (e.g. "한국어 (Korean)").
    """
    own, theirs = language_name(code), language_name(code, normalize(reader) or SOURCE_LANGUAGE)
    return own if own == theirs else f"{own} ({theirs})"
