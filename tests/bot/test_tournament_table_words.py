"""A tournament table says what a tournament does: stacks are the tournament's, an away seat is never let go.

Seen by a helper: a tournament table's away seat read "away 1/10" (and the words-only table "1 of 10
rounds", and **Away**'s answer "after 10 rounds away … your stack goes back to your balance"), its
header named a buy-in no one paid, and its closed page sent players to `/flipflop start`.
"""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, texts
from bot.presentation.table_layout import closed_page, table_page
from bot.presentation.table_picture import away_label
from bot.presentation.table_render import notice_line
from bot.table.model import Table
from bot.table.notices import WentAway
from bot.table.transitions import released, tournament_round, tournament_table
from cogs.flipflop.hands import away_note
from tests.bot.test_round_log_lines import table as cash_table

ANN, BEN, CAT = 11, 12, 13


def tournament(away: tuple[int, ...] = (ANN,)) -> Table:
    """A tournament's table, dealt, with ``away`` played by the computer."""
    players = [(ANN, 400, "ann", 0), (BEN, 300, "ben", 0), (CAT, 300, "cat", 0)]
    table, seats = tournament_table(1, 2, 10, players, away, 60, 1_000.0, "7:1:0")
    tournament_round(table, seats, {"game": 0, "flip": 0, "flop": 0}, 1_000.0)
    return table


def words(table: Table, lang: str = "en") -> str:
    return "\n".join(table_page(table, texts(lang), picture=False).displays())


def test_an_away_seat_at_a_tournament_table_counts_no_rounds_to_a_release() -> None:
    table, en = tournament(), texts("en")
    assert away_label(table, str(ANN), en) == "away"
    assert "💤 away (the computer plays)" in words(table)
    assert "of 10 rounds" not in words(table)
    note = away_note(en, table)
    assert "tournament chips" in note and "I'm back" in note
    assert "released" not in note and "balance" not in note
    for timed_out in (True, False):  # what the table is told when ann goes away
        told = notice_line(table, WentAway(ANN, timed_out, table.away_rounds), en)
        assert told is not None and "tournament chips" in told and "released" not in told, told


def test_a_tournament_table_never_lets_an_away_seat_go_however_long_it_is_away() -> None:
    """The one fact the words above follow (``Table.releases_away_seats``): the deal releases none."""
    table = tournament()
    table.away[ANN] = table.away_rounds + 5
    assert not table.releases_away_seats and released(table) == []
    cash = cash_table(away={ANN: 3}, away_rounds=3)
    assert cash.releases_away_seats and released(cash) == [ANN]


def test_a_tournament_table_names_no_buy_in_and_no_new_table_to_open() -> None:
    table, en = tournament(), texts("en")
    assert "Stake **10 chips**" in words(table) and "buy-in" not in words(table)
    table.status = "closed"
    footer = closed_page(table, en).footer
    assert "/flipflop start" not in footer and "tournament's message" in footer


def test_other_tables_keep_their_count_buy_in_and_way_back() -> None:
    en = texts("en")
    cash = cash_table(away={ANN: 0}, away_rounds=3)
    assert away_note(en, cash).endswith("your stack goes back to your balance.")
    practice = cash_table(practice=True, away_rounds=3)
    assert "balance" not in away_note(en, practice) and "After 3 rounds away" in away_note(en, practice)
    cash.status = "closed"
    assert "open a new one with /flipflop start" in closed_page(cash, en).footer


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_says_it(lang: str) -> None:
    table, t = tournament(), texts(lang)
    said = [away_label(table, str(ANN), t), words(table, lang), away_note(t, table)]
    went = [notice_line(table, WentAway(ANN, timed_out, table.away_rounds), t) for timed_out in (True, False)]
    said += [line or "" for line in went]
    table.status = "closed"
    said.append(closed_page(table, t).footer)
    for line in said:
        assert line and "{" not in line, line
    for line in (said[0], said[2], said[3], said[4]):  # no count of rounds to a release that never comes
        assert t.number(10) not in line, line
    assert away_label(table, str(ANN), t) != away_label(table, str(BEN), t)
    if lang != "en":  # translated, not the English
        assert away_note(t, table) != away_note(texts("en"), table)
        assert closed_page(table, t).footer != closed_page(table, texts("en")).footer
