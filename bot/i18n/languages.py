"""The languages Flip Flop speaks, which one a member reads, and the saved choices.

The rule sheet exists in Tagalog, Belarusian, Swahili, Korean and Gujarati; English is the
source language of every message. Language names come from CLDR through Babel, so the picker
shows each language in its own script without a hand-kept list of names.

Public messages (the table, the round log, results) are in the server's language; private
ones (hands, refusals, command replies) in the member's: their saved choice, else their
Discord client's locale when it is one of ours, else the server's (``resolve_language``).
Choices are saved in ``language_choices`` and read once and kept in memory by
``LanguageBook``; a change through it updates the memory too (a server is served by one
process at a time, so no other process holds a stale copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from babel import Locale

from bot.i18n.catalogs import LANGUAGES, PSEUDO_LANGUAGE, SOURCE_LANGUAGE, Texts, texts
from bot.storage import Store
from bot.storage.choices import SERVER as SERVER  # the server's own row, as readers here name it
from bot.storage.choices import SavedChoices

if TYPE_CHECKING:
    from bot.cards.styles import CardStyles

class _User(Protocol):
    @property
    def id(self) -> int: ...


class Asking(Protocol):
    """What a language is read for: an interaction's server, member and client locale.

    A Discord ``Interaction`` is one; no Discord type is needed here.
    """

    @property
    def guild_id(self) -> int | None: ...

    @property
    def user(self) -> _User: ...

    @property
    def locale(self) -> object: ...


__all__ = [
    "LANGUAGES",
    "PSEUDO_LANGUAGE",
    "SERVER",
    "SOURCE_LANGUAGE",
    "LanguageBook",
    "Source",
    "language_name",
    "normalize",
    "picker_label",
    "resolve_language",
    "server_language",
]


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

    Order, most personal first: the member's own saved choice; else their Discord client's locale when
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


Source = Literal["choice", "client", "server"]
"""Where a member's language comes from, in the order of ``resolve_language``."""


class LanguageBook(SavedChoices):
    """Saved language choices of servers and members, with a memory in front of the database."""

    def __init__(self, db: Store) -> None:
        super().__init__(db, "language_choices", "language", LANGUAGES)
        self.cards: CardStyles | None = None
        """How each reader sees cards (``bot.cards``): the ``Texts`` given here carry it, when set."""

    def forget_member(self, user_id: int) -> None:
        """Drop a member's remembered choices, language and card style (privacy forget rewrote them)."""
        super().forget_member(user_id)
        if self.cards is not None:
            self.cards.forget_member(user_id)

    async def server(self, guild_id: int | None) -> str:
        """The language of a server's public messages (English until an admin sets one)."""
        if guild_id is None:
            return server_language(None)
        return server_language(await self.saved(guild_id, SERVER))

    async def member(self, guild_id: int | None, user_id: int, client_locale: str | None) -> str:
        """The language of a member's private messages."""
        saved = None if guild_id is None else await self.saved(guild_id, user_id)
        return resolve_language(saved, client_locale, await self.server(guild_id))

    async def server_texts(self, guild_id: int | None) -> Texts:
        """``Texts`` for a server's public messages (cards in the server's style)."""
        t = texts(await self.server(guild_id))
        return t if self.cards is None else t.with_faces(await self.cards.server_look(guild_id))

    async def member_texts(self, guild_id: int | None, user_id: int, client_locale: str | None) -> Texts:
        """``Texts`` for a member's private messages (cards in the member's style)."""
        t = texts(await self.member(guild_id, user_id, client_locale))
        return t if self.cards is None else t.with_faces(await self.cards.member_look(guild_id, user_id))

    async def member_source(self, guild_id: int | None, user_id: int, client_locale: str | None) -> Source:
        """Why a member reads the language ``member`` gives: their choice, their client, or the server."""
        saved = None if guild_id is None else await self.saved(guild_id, user_id)
        if normalize(saved) is not None:
            return "choice"
        return "client" if normalize(client_locale) is not None else "server"

    async def reader(self, interaction: Asking) -> Texts:
        """``Texts`` for a private answer to an interaction (the member's language)."""
        return await self.member_texts(interaction.guild_id, interaction.user.id, str(interaction.locale))

    async def public(self, interaction: Asking) -> Texts:
        """``Texts`` for a public message in an interaction's server (the server's language)."""
        return await self.server_texts(interaction.guild_id)
