"""Which card style each server and member sees, saved in ``card_styles`` like the language choice.

Public messages (the table, the round log) show the server's style (``/flipflop config
cards:``); a member's private messages (hands, menus, answers) their own (``/flipflop cards``),
else the server's. Choices are read once and kept in memory; a change through this book
updates the memory too (a server is served by one process at a time).
"""

from __future__ import annotations

from bot.cards import DEFAULT_STYLE, STYLES, CardFaces, Look
from bot.storage import Store
from bot.storage.choices import SERVER as SERVER  # the server's own row, as readers here name it
from bot.storage.choices import SavedChoices


class CardStyles(SavedChoices):
    """Saved card styles of servers and members, with a memory in front of the database."""

    def __init__(self, db: Store, faces: CardFaces) -> None:
        super().__init__(db, "card_styles", "style", STYLES)
        self.faces = faces
        """The bot's card faces (its emojis once synced): every ``Look`` this book gives shows them."""

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
