"""A table's life without Discord: commands in, outcomes out (see ``runtime.py``)."""

from bot.runtime.computers import LEVELS, ComputerPlayers
from bot.runtime.outcomes import (
    NOTHING_SHOWN,
    CameBack,
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Outcome,
    Released,
    Reply,
    Resumed,
    Shown,
    Stopped,
    StopRequested,
    TableClosed,
    TimedOut,
    WentAway,
)
from bot.runtime.ports import Clock, Delivery, Notifier, Scheduler, Sent, Whereabouts
from bot.runtime.runtime import StaleControl, TableRuntime, clicked_at

__all__ = [
    "LEVELS",
    "CameBack",
    "Clock",
    "ComputerPlayers",
    "ComputersOnly",
    "Delivery",
    "GameStarted",
    "NOTHING_SHOWN",
    "LeavingAfterRound",
    "Notice",
    "Notifier",
    "Outcome",
    "Reply",
    "Released",
    "Resumed",
    "Scheduler",
    "Sent",
    "Shown",
    "StaleControl",
    "Stopped",
    "StopRequested",
    "TableClosed",
    "TableRuntime",
    "TimedOut",
    "WentAway",
    "Whereabouts",
    "clicked_at",
]
