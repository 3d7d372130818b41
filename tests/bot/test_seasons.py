"""Season arithmetic: UTC calendar months grouped by the server's season length, counted from January."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.history.seasons import SEASON_LENGTHS, SeasonError, season_at
from bot.ledger import GuildSettings, LedgerError
from cogs.flipflop.settings_commands import SEASON_CHOICES


def at(*when: int) -> float:
    return datetime(*when, tzinfo=UTC).timestamp()  # type: ignore[misc]


def test_a_month_ends_at_the_last_second_before_the_first_of_the_next() -> None:
    january = season_at(at(2026, 1, 31, 23, 59, 59))
    assert (january.year, january.month, january.months) == (2026, 1, 1)
    assert january.start == at(2026, 1, 1) and january.end == at(2026, 2, 1)
    february = season_at(at(2026, 2, 1))
    assert (february.year, february.month) == (2026, 2)
    assert february.previous() == january and january.next() == february


def test_the_season_before_january_is_last_years_december() -> None:
    january = season_at(at(2026, 1, 1, 0, 0, 0))
    december = january.previous()
    assert (december.year, december.month, december.start, december.end) == (
        2025,
        12,
        at(2025, 12, 1),
        at(2026, 1, 1),
    )
    assert season_at(at(2025, 12, 31, 23, 59, 59)) == december
    assert december.next() == january


@pytest.mark.parametrize(
    ("months", "when", "first", "last"),
    [
        (2, (2026, 4, 30), (2026, 3, 1), (2026, 5, 1)),
        (3, (2026, 1, 15), (2026, 1, 1), (2026, 4, 1)),
        (3, (2025, 12, 31, 23), (2025, 10, 1), (2026, 1, 1)),
        (4, (2026, 8, 31), (2026, 5, 1), (2026, 9, 1)),
        (6, (2026, 7, 1), (2026, 7, 1), (2027, 1, 1)),
        (12, (2026, 6, 15), (2026, 1, 1), (2027, 1, 1)),
    ],
)
def test_longer_seasons_are_counted_from_january(
    months: int, when: tuple[int, ...], first: tuple[int, ...], last: tuple[int, ...]
) -> None:
    season = season_at(at(*when), months)
    assert (season.start, season.end, season.months) == (at(*first), at(*last), months)
    assert season.previous().end == season.start and season.next().start == season.end
    assert season.last_month == season.month + months - 1


def test_a_quarter_before_january_is_october_to_december() -> None:
    first = season_at(at(2026, 2, 10), 3)
    before = first.previous()
    assert (before.year, before.month, before.last_month) == (2025, 10, 12)


@pytest.mark.parametrize("months", [0, 5, 7, 13, -1, True, 1.0])
def test_a_season_length_that_does_not_divide_a_year_is_refused(months: object) -> None:
    with pytest.raises(SeasonError):
        season_at(at(2026, 1, 1), months)  # type: ignore[arg-type]


def test_the_server_setting_takes_the_same_lengths() -> None:
    assert GuildSettings().season_months == 1
    for months in SEASON_LENGTHS:
        assert GuildSettings.build(season_months=months).season_months == months
    for months in (0, 5, 13):
        with pytest.raises(LedgerError) as refused:
            GuildSettings.build(season_months=months)
        assert refused.value.code == "season_months_invalid"
    assert [c.value for c in SEASON_CHOICES] == list(SEASON_LENGTHS)
