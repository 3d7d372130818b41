"""Where a table's messages are in Discord: the table's own record, apart from its game and lobby.

The runtime owns it (it changes only through ``transitions.shown``, ``message_at`` and
``in_thread``, each a reported fact: a message posted, moved, a thread opened); the
game and the lobby never read it. An outcome's snapshot carries the placement as it
was when the change was told, so whoever delivers it posts where the table is now.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Placement:
    """The table message, the game's thread and the lobby message left in the channel."""

    message_id: int | None = None
    """The table's message (the lobby's, then the game's; a new one each round)."""
    thread_id: int | None = None
    """The public thread the game is played in (opened from the lobby message at Start), if any."""
    lobby_message_id: int | None = None
    """With a thread: the lobby message in the channel, which shows the final standings at the end."""

    def plays_in(self, channel_id: int) -> int:
        """Where the table's messages go: its thread, else its channel (``channel_id``)."""
        return self.thread_id if self.thread_id is not None else channel_id
