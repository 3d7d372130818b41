"""The runtime's ports: how it tells the world what happened, and what time it is.

A port reports failures as values. A notifier never raises for a Discord
error: it says whether the channel is gone, whether the bot lacks a
permission there, or whether the call failed for another reason, and the
runtime decides what that means for the game (never that it stops).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from bot.runtime.outcomes import Outcome
from bot.table.model import Table, Unreadable

Clock = Callable[[], float]
"""Wall-clock seconds, the same clock the saved deadlines use."""


class Delivery(enum.Enum):
    """How a message to a channel went."""

    OK = "ok"
    GONE = "gone"
    """The channel does not exist any more (404 Unknown Channel)."""
    FORBIDDEN = "forbidden"
    """The bot may not post or edit there (403)."""
    MESSAGE_GONE = "message_gone"
    """The table message was deleted (404 Unknown Message on its edit)."""
    FAILED = "failed"
    """Any other failure (a 5xx, a timeout); the next change tries again."""


@dataclass(frozen=True)
class Sent:
    """What a notifier call achieved; ``missing`` names the permission the bot lacks (the notifier's name).

    The runtime keeps that name as it is and hands it back (``permission_notice``):
    what it is called, and in which language, is the notifier's business.
    """

    status: Delivery
    missing: str = ""
    posted: bool = False
    """A new message reached the channel (an edit alone does not show that posting works)."""

    @property
    def ok(self) -> bool:
        """Everything was delivered."""
        return self.status is Delivery.OK


Whereabouts = Literal["ok", "channel_gone", "message_gone"]


class Notifier(Protocol):
    """Tells a table's channel and players what happened."""

    async def publish(self, outcome: Outcome, table_message: bool = True) -> Sent:
        """Post the outcome to the channel and, with ``table_message``, bring the table message up to date."""
        ...

    async def locate(self, table: Table) -> Whereabouts:
        """After a restart, whether the table's channel and message are still there."""
        ...

    async def post_table(self, table: Table) -> int | None:
        """Post the table message again; its id, or None if that failed."""
        ...

    async def unreadable(self, bad: Unreadable) -> Sent:
        """Say that a saved table this version can not read was closed and refunded."""
        ...


class Scheduler(Protocol):
    """Wakes the runtime when a table's deadline comes (one deadline per table)."""

    def arm(self, table_id: str, at: float) -> None:
        """Call the runtime's ``fire(table_id)`` at ``at`` (replacing any earlier deadline)."""
        ...

    def disarm(self, table_id: str) -> None:
        """Forget a table's deadline."""
        ...

    async def close(self) -> None:
        """Stop waking anything."""
        ...
