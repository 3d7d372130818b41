"""A tournament table's reference (``bot.tournament.ref.TableRef``): made and read back in one place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.presentation.table_render import table_round
from bot.table.model import Table
from bot.table.transitions import tournament_table
from bot.tournament.model import Tournament, TournamentSettings
from bot.tournament.ref import TableRef


def test_a_reference_reads_as_it_always_has_and_back() -> None:
    ref = TableRef("0a1b2c3d4e5f", 2, 7)
    assert str(ref) == "0a1b2c3d4e5f:2:7"  # the form saved tables hold: it must not change
    assert TableRef.parse("0a1b2c3d4e5f:2:7") == ref
    assert TableRef.parse("0a1b2c3d4e5f:2:7").played == 7 and ref.table == 2


@given(st.text(min_size=1), st.integers(0, 10**6), st.integers(0, 10**6))
def test_any_reference_made_is_read_back_the_same(tournament: str, table: int, played: int) -> None:
    ref = TableRef(tournament, table, played)
    assert TableRef.parse(str(ref)) == ref


def test_a_tournaments_table_is_referred_to_in_its_current_round() -> None:
    tour = Tournament("t1", 1, 2, 3, TournamentSettings(fee=10, seats=6))
    tour.round = 4
    assert TableRef.of(tour, 3) == TableRef("t1", 3, 4)


@pytest.mark.parametrize(
    "text",
    ["", "t1", "t1:2", ":2:3", "t1:x:3", "t1:2:", "t1:2:-1", "t1:-2:3", "t1:2:3.0", "t1:٢:3"]
    + ["t1:02:3", "t1:2:007"],  # a leading zero would not read back to the same text
)
def test_what_is_not_a_reference_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        TableRef.parse(text)


def test_a_tournament_tables_rounds_count_on_from_the_rounds_played() -> None:
    seats = [(e, 1000, f"p{e}", 0) for e in (1, 2, 3)]
    table, _ = tournament_table(1, 2, 10, seats, [], 60, 0.0, str(TableRef("t1", 2, 6)))
    assert table_round(table, 1) == 7
    assert table_round(Table(id="x", guild_id=1, channel_id=2, host_id=3, stake=10, buy_in=100), 1) == 1


def test_a_table_whose_reference_does_not_read_is_no_tournaments_table() -> None:
    """Closing a stopped tournament's tables looks at every tournament table: one reference that does
    not read must not stop the others from closing."""
    from cogs.flipflop.tournament_place import of_tournament

    tour = Tournament("t1", 1, 2, 3, TournamentSettings(fee=10, seats=6))
    assert of_tournament("t1:2:0", tour) and not of_tournament("t2:2:0", tour)
    assert not of_tournament("t1", tour) and not of_tournament("t1:02:0", tour)
