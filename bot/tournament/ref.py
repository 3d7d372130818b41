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

_NUMBER = re.compile("[0-9]+")


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
        """Read a reference back; ``ValueError`` when ``text`` is not one."""
        tournament, table, played = text.rsplit(":", 2)
        if not tournament or not _NUMBER.fullmatch(table) or not _NUMBER.fullmatch(played):
            raise ValueError(f"not a tournament table's reference: {text!r}")
        return cls(tournament, int(table), int(played))

    def __str__(self) -> str:
        return f"{self.tournament}:{self.table}:{self.played}"
