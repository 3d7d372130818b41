"""Seasons: UTC calendar months grouped by a server's season length, counted from January.

A season is a stretch of time, nothing more: its leaderboard is read from the
rounds that ended in it and the rating changes of the games that ended in it
(``bot.history.queries.season_leaderboard``), so nothing is reset or copied when
a season ends. Balances and all-time ratings carry on; a past season's
standings can be read again at any time, because the history they come from
is append-only.

With a length of ``months`` (1, 2, 3, 4, 6 or 12, which divide a year), the
seasons of a year start in January, then every ``months`` months: with 3,
January–March, April–June, and so on. Times are Unix seconds, UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

SEASON_LENGTHS = (1, 2, 3, 4, 6, 12)
"""The season lengths a server may choose, in months (each divides a year)."""
WHICH = ("current", "previous", "all")
"""``/leaderboard season:``: the season now, the one before it, or all time (no season)."""


class SeasonError(ValueError):
    """A season length that is not one of ``SEASON_LENGTHS``."""


@dataclass(frozen=True)
class Season:
    """One season: ``start`` ≤ t < ``end`` in Unix seconds, UTC; ``months`` long from ``year``/``month``."""

    year: int
    month: int
    """The first month (1 = January)."""
    months: int
    start: float
    end: float

    @property
    def last_month(self) -> int:
        """The season's last month (1–12)."""
        return self.month + self.months - 1

    def previous(self) -> Season:
        """The season just before this one (the same length)."""
        month = self.month - self.months
        year = self.year
        if month < 1:
            month += 12
            year -= 1
        return _season(year, month, self.months)

    def next(self) -> Season:
        """The season just after this one (the same length)."""
        month = self.month + self.months
        year = self.year
        if month > 12:
            month -= 12
            year += 1
        return _season(year, month, self.months)


def _check(months: object) -> int:
    if isinstance(months, bool) or not isinstance(months, int) or months not in SEASON_LENGTHS:
        raise SeasonError(f"a season lasts {', '.join(map(str, SEASON_LENGTHS))} months, not {months!r}")
    return months


def _season(year: int, month: int, months: int) -> Season:
    start = datetime(year, month, 1, tzinfo=UTC)
    after = month + months
    end = datetime(year + (after - 1) // 12, (after - 1) % 12 + 1, 1, tzinfo=UTC)
    return Season(year, month, months, start.timestamp(), end.timestamp())


def season_at(now: float, months: int = 1) -> Season:
    """The season that holds the moment ``now`` (Unix seconds) for a season length of ``months``."""
    _check(months)
    moment = datetime.fromtimestamp(now, tz=UTC)
    first = (moment.month - 1) // months * months + 1
    return _season(moment.year, first, months)
