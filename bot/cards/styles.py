"""Which card style each server and member sees, saved in ``card_styles`` like the language choice.

Public messages (the table, the round log) show the server's style (``/flipflop config
cards:``); a member's private messages (hands, menus, answers) their own (``/flipflop cards``),
else the server's. Choices are read once and kept in memory; a change through this book
updates the memory too (a server is served by one process at a time).
"""

from __future__ import annotations

from bot.cards import DEFAULT_STYLE, STYLES, CardFaces, Look
from bot.storage import Store

SERVER = 0
"""The ``user_id`` of a server's own row: no Discord id is 0."""


class CardStyles:
    """Saved card styles of servers and members, with a memory in front of the database."""

    def __init__(self, db: Store, faces: CardFaces) -> None:
        self.db = db
        self.faces = faces
        """The bot's card faces (its emojis once synced): every ``Look`` this book gives shows them."""
        self._saved: dict[tuple[int, int], str | None] = {}

    async def saved(self, guild_id: int, user_id: int) -> str | None:
        """The saved style of a member (or of the server, ``user_id=SERVER``), or None."""
        key = (guild_id, user_id)
        if key not in self._saved:
            row = await self.db.fetchone(
                "SELECT style FROM card_styles WHERE guild_id = ? AND user_id = ?", key
            )
            # A choice saved while this read was in flight is newer than the read: keep it.
            return self._saved.setdefault(key, str(row[0]) if row else None)
        return self._saved[key]

    async def choose(self, guild_id: int, user_id: int, style: str | None) -> None:
        """Save a style (``None`` forgets a member's: back to the server's)."""
        if style is not None and style not in STYLES:
            raise ValueError(f"unknown card style {style!r}")
        async with self.db.transaction() as tx:
            if style is None:
                await tx.execute(
                    "DELETE FROM card_styles WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )
            else:
                await tx.execute(
                    "INSERT INTO card_styles (guild_id, user_id, style) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET style = excluded.style",
                    (guild_id, user_id, style),
                )
        self._saved[(guild_id, user_id)] = style

    def forget_member(self, user_id: int) -> None:
        """Drop a member's remembered choices (the database rows were rewritten: privacy forget)."""
        for key in [k for k in self._saved if k[1] == user_id]:
            del self._saved[key]

    async def server(self, guild_id: int | None) -> str:
        """The style of a server's public messages (classic until an admin sets one)."""
        saved = None if guild_id is None else await self.saved(guild_id, SERVER)
        return saved if saved is not None and saved in STYLES else DEFAULT_STYLE

    async def member(self, guild_id: int | None, user_id: int) -> str:
        """The style of a member's private messages: their own choice, else the server's."""
        saved = None if guild_id is None else await self.saved(guild_id, user_id)
        return saved if saved is not None and saved in STYLES else await self.server(guild_id)

    async def server_look(self, guild_id: int | None) -> Look:
        """How public messages in a server show cards."""
        return Look(self.faces, await self.server(guild_id))

    async def member_look(self, guild_id: int | None, user_id: int) -> Look:
        """How a member's private messages show cards."""
        return Look(self.faces, await self.member(guild_id, user_id))
