"""A tournament table's reference: which tournament, which of its tables, after how many rounds.

A tournament deals each of its tables one round at a time; the runtime's table for that round
carries its reference as text (``Table.tournament``, saved with the table) in the form
``<tournament id>:<table number>:<rounds played>``. ``TableRef`` is the one place that text is
made (``str``) and read back (``parse``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.tournament.model import Tournament

_REF = re.compile("(.+):(0|[1-9][0-9]*):(0|[1-9][0-9]*)", re.DOTALL)
"""The text ``str`` makes: numbers without leading zeros, so a reference reads back to the same text
(a tournament table's id is a hash of it)."""


@dataclass(frozen=True)
class TableRef:
    """Table ``table`` of tournament ``tournament``, dealt after ``played`` tournament rounds."""

    tournament: str
    table: int
    played: int
    """The tournament's rounds played before this table's round (its round is ``played + 1``)."""

    @classmethod
    def of(cls, tour: Tournament, table: int) -> TableRef:
        """Table ``table`` of ``tour`` in the round it deals now."""
        return cls(tour.id, table, tour.round)

    @classmethod
    def parse(cls, text: str) -> TableRef:
        """Read a reference back (its ``str`` is ``text``); ``ValueError`` when ``text`` is not one."""
        if (found := _REF.fullmatch(text)) is None:
            raise ValueError(f"not a tournament table's reference: {text!r}")
        return cls(found[1], int(found[2]), int(found[3]))

    def __str__(self) -> str:
        return f"{self.tournament}:{self.table}:{self.played}"
