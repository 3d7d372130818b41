"""Whether a member is about to see their first hand ever (for the one-line tip).

No table of its own: a member who has played a finished round is in
``round_players`` (bot.history) and has seen hands before. Until their first
round is recorded, the tip is shown once per member by this process.
"""

from __future__ import annotations

from bot.storage import Store


class FirstHands:
    """Who has been shown the tip (here) or has played a round (in the store)."""

    def __init__(self) -> None:
        self._shown: set[tuple[int, int]] = set()

    async def first(self, db: Store, guild_id: int, user_id: int) -> bool:
        """True once for a member who has never played a round in this server."""
        key = (guild_id, user_id)
        if key in self._shown:
            return False
        self._shown.add(key)
        played = await db.fetchone(
            "SELECT 1 FROM round_players WHERE guild_id = ? AND user_id = ? LIMIT 1", (guild_id, user_id)
        )
        return played is None
