"""What the runtime reports: a table's engine events plus the table-life notices around them.

No words here: a notifier (the Discord one in ``cogs/flipflop``) turns an
``Outcome`` into messages. Notices come before the events they explain, so a
reason is always told before its consequence.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from bot.table.model import Table
from bot.table.notices import (
    CameBack,
    CloseReason,
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Released,
    Resumed,
    Stopped,
    StopRequested,
    TableClosed,
    TimedOut,
    WentAway,
)
from engine.events import Event

__all__ = [
    "CameBack",
    "CloseReason",
    "ComputersOnly",
    "GameStarted",
    "LeavingAfterRound",
    "Notice",
    "NOTHING_SHOWN",
    "Outcome",
    "Reply",
    "Shown",
    "Released",
    "Resumed",
    "StopRequested",
    "Stopped",
    "TableClosed",
    "TimedOut",
    "WentAway",
]


@dataclass(frozen=True)
class Outcome:
    """One change of one table: the notices that explain it, then the engine's events."""

    table: Table
    events: tuple[Event, ...] = ()
    notices: tuple[Notice, ...] = field(default_factory=tuple)
    turn: int = field(default=0, compare=False, repr=False)
    """Its place in the order of the table's changes (set by the runtime): the channel is told in it."""


@dataclass(frozen=True)
class Shown:
    """What a member's own answer to their command showed, so the channel is not told it twice."""

    notices: bool = False
    """The answer said the outcome's notices (a lobby's news, a stop said in public)."""
    table_message: bool = False
    """The answer was the table's own message, already showing the table as it now is (the lobby)."""

    def rest(self, outcome: Outcome) -> Outcome:
        """What the channel still needs to hear of ``outcome``."""
        return replace(outcome, notices=()) if self.notices else outcome


NOTHING_SHOWN = Shown()
"""A private answer (or one Discord refused): the channel is told the whole outcome."""

Reply = Callable[[Outcome], Awaitable[Shown]]
"""How a command's caller answers its member, given the outcome; says what that answer showed."""
