"""A member's saved choice per server, with the server's own row beside it: one rule, stated once.

The language (``bot.i18n.languages``) and the card style (``bot.cards.styles``) are both this:
a table of ``(guild_id, user_id, <value>)`` rows, where ``user_id`` 0 is the server's own choice
(its default for members who chose none) and a missing row means "no choice, fall back".
"""

from __future__ import annotations

from collections.abc import Collection

from bot.storage.base import Store

SERVER = 0
"""The ``user_id`` of a server's own row: no Discord id is 0."""


class SavedChoices:
    """One table of saved choices, with a memory in front of the database.

    Choices are read once and kept in memory; a save through this object updates the memory too
    (a server is served by one process at a time). ``table`` and ``column`` are the code's own
    names, never a member's input; ``allowed`` are the values that may be saved.
    """

    def __init__(self, db: Store, table: str, column: str, allowed: Collection[str]) -> None:
        self.db = db
        self._column, self._allowed = column, allowed
        self._select = f"SELECT {column} FROM {table} WHERE guild_id = ? AND user_id = ?"
        self._delete = f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?"
        self._upsert = (
            f"INSERT INTO {table} (guild_id, user_id, {column}) VALUES (?, ?, ?)"
            f" ON CONFLICT (guild_id, user_id) DO UPDATE SET {column} = excluded.{column}"
        )
        self._saved: dict[tuple[int, int], str | None] = {}

    async def saved(self, guild_id: int, user_id: int) -> str | None:
        """The saved choice of a member (or of the server, ``user_id=SERVER``), or None."""
        key = (guild_id, user_id)
        if key not in self._saved:
            row = await self.db.fetchone(self._select, key)
            # A choice saved while this read was in flight is newer than the read: keep it.
            return self._saved.setdefault(key, str(row[0]) if row else None)
        return self._saved[key]

    async def choose(self, guild_id: int, user_id: int, value: str | None) -> None:
        """Save a choice (``None`` forgets it: back to what a member without one reads)."""
        if value is not None and value not in self._allowed:
            raise ValueError(f"unknown {self._column} {value!r}")
        async with self.db.transaction() as tx:
            if value is None:
                await tx.execute(self._delete, (guild_id, user_id))
            else:
                await tx.execute(self._upsert, (guild_id, user_id, value))
        self._saved[(guild_id, user_id)] = value

    def forget_member(self, user_id: int) -> None:
        """Drop a member's remembered choices (the database rows were rewritten: privacy forget)."""
        for key in [k for k in self._saved if k[1] == user_id]:
            del self._saved[key]
