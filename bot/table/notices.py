"""The table-life notices around a game's events: no words here, the presentation layer says them.

They are table data: a game's notices are kept in its round log (``bot.table.log``) with
the events they explain, so a restart shows the same log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class GameStarted:
    """The host started the game (R8.1)."""

    players: int


@dataclass(frozen=True)
class TimedOut:
    """A member's turn ran out: the basic strategy played it, or the member was removed (R8.4)."""

    player: int
    count: int
    """Timeouts in a row, this one included."""
    allowed: int
    """Timeouts in a row allowed before removal."""
    removed: bool


@dataclass(frozen=True)
class WentAway:
    """A member is away: the basic computer plays their seat with their chips until they are back."""

    player: int
    timed_out: bool
    """Put away because their turn ran out (not by their own click)."""
    rounds: int
    """Rounds away after which the seat is released (its stack goes home)."""


@dataclass(frozen=True)
class CameBack:
    """An away member is back and plays their own seat again."""

    player: int


@dataclass(frozen=True)
class Released:
    """An away member's seat was released after ``rounds`` rounds away; their stack went home."""

    player: int
    rounds: int


@dataclass(frozen=True)
class LeavingAfterRound:
    """A member asked to leave once this round ends (R8.4), or took it back (``staying``)."""

    player: int
    staying: bool = False


@dataclass(frozen=True)
class StopRequested:
    """The host (or a manager) will stop the game when the round ends (R8.2)."""

    by: int


@dataclass(frozen=True)
class Stopped:
    """The host (or a manager) stopped the game between rounds (R8.2)."""

    by: int


@dataclass(frozen=True)
class ComputersOnly:
    """Only computer players were left, so the game ends (they never play on alone)."""


CloseReason = Literal["cancelled", "empty", "expired", "channel_gone", "message_gone"]


@dataclass(frozen=True)
class TableClosed:
    """A lobby or table closed before its game ended; every chip it held went back."""

    reason: CloseReason
    refunds: dict[int, int]
    by: int | None = None


@dataclass(frozen=True)
class Resumed:
    """The bot restarted and the table carries on."""


Notice = (
    GameStarted
    | TimedOut
    | WentAway
    | CameBack
    | Released
    | LeavingAfterRound
    | StopRequested
    | Stopped
    | ComputersOnly
    | TableClosed
    | Resumed
)
