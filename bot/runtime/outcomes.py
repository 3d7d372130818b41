"""What the runtime reports: a table's engine events plus the table-life notices around them.

No words here: a notifier (the Discord one in ``cogs/flipflop``) turns an
``Outcome`` into messages. Notices come before the events they explain, so a
reason is always told before its consequence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    "Outcome",
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
