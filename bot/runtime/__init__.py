"""A table's life without Discord: commands in, outcomes out (see ``runtime.py``)."""

from bot.runtime.computers import LEVEL_LABEL, LEVELS, ComputerPlayers
from bot.runtime.outcomes import (
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Outcome,
    Resumed,
    Stopped,
    StopRequested,
    TableClosed,
    TimedOut,
)
from bot.runtime.ports import Clock, Delivery, Notifier, Scheduler, Sent, Whereabouts
from bot.runtime.runtime import StaleControl, TableRuntime

__all__ = [
    "LEVELS",
    "LEVEL_LABEL",
    "Clock",
    "ComputerPlayers",
    "ComputersOnly",
    "Delivery",
    "GameStarted",
    "LeavingAfterRound",
    "Notice",
    "Notifier",
    "Outcome",
    "Resumed",
    "Scheduler",
    "Sent",
    "StaleControl",
    "Stopped",
    "StopRequested",
    "TableClosed",
    "TableRuntime",
    "TimedOut",
    "Whereabouts",
]
