"""Which language each server and member reads, saved in ``language_choices`` (issue 14).

Public messages (the table, the round log, results) are in the server's language; private
ones (hands, refusals, command replies) in the member's: their saved choice, else their
Discord client's locale when it is one of ours, else the server's (``resolve_language``).
Choices are read once and kept in memory; a change through this book updates the memory too
(a server is served by one process at a time, so no other process holds a stale copy).
"""

from __future__ import annotations

from typing import Literal

import discord

from bot.cards.styles import CardStyles
from bot.db import Database
from bot.i18n import LANGUAGES, Texts, resolve_language, server_language, texts
from bot.i18n.languages import normalize

SERVER = 0
"""The ``user_id`` of a server's own row: no Discord id is 0."""

Source = Literal["choice", "client", "server"]
"""Where a member's language comes from, in the order of ``resolve_language``."""


class LanguageBook:
    """Saved language choices of servers and members, with a memory in front of the database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._saved: dict[tuple[int, int], str | None] = {}
        self.cards: CardStyles | None = None
        """How each reader sees cards (``bot.cards``): the ``Texts`` given here carry it, when set."""

    async def saved(self, guild_id: int, user_id: int) -> str | None:
        """The saved choice of a member (or of the server, ``user_id=SERVER``), or None."""
        key = (guild_id, user_id)
        if key not in self._saved:
            row = await self.db.fetchone(
                "SELECT language FROM language_choices WHERE guild_id = ? AND user_id = ?", key
            )
            # A choice saved while this read was in flight is newer than the read: keep it.
            return self._saved.setdefault(key, str(row[0]) if row else None)
        return self._saved[key]

    async def choose(self, guild_id: int, user_id: int, language: str | None) -> None:
        """Save a choice (``None`` forgets it: back to the client's locale or the server's)."""
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}")
        async with self.db.transaction() as tx:
            if language is None:
                await tx.execute(
                    "DELETE FROM language_choices WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )
            else:
                await tx.execute(
                    "INSERT INTO language_choices (guild_id, user_id, language) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET language = excluded.language",
                    (guild_id, user_id, language),
                )
        self._saved[(guild_id, user_id)] = language

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

    async def reader(self, interaction: discord.Interaction) -> Texts:
        """``Texts`` for a private answer to an interaction (the member's language)."""
        return await self.member_texts(interaction.guild_id, interaction.user.id, str(interaction.locale))

    async def public(self, interaction: discord.Interaction) -> Texts:
        """``Texts`` for a public message in an interaction's server (the server's language)."""
        return await self.server_texts(interaction.guild_id)
