"""Which computer levels a table seats: Random at practice tables only, never for the house's real chips.

A member playing soundly beats Random by about 6.8 chips a round, so seating Random computers at a
real-chip table, whose buy-ins the house pays, would farm the house. A table saved with one already
seated (before the rule) loads and plays on; **Play again** after a real-chip game seats no computers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.ledger import HOUSE_ID
from bot.table import transitions
from bot.table.model import LEVELS, ComputerSeat, TableError
from engine import Drop
from tests.bot.runtime.fakes import ANN, BEN, CH, FakeClock, G, harness


async def test_a_real_chip_table_refuses_a_random_computer_and_changes_nothing(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN, BEN))
        before = table.to_json()
        balances = [await h.ledger.balance(G, who) for who in (HOUSE_ID, ANN)]
        told = len(h.notifier.outcomes)
        with pytest.raises(TableError) as refused:  # a forged or stale pick of the lobby's menu
            await h.runtime.add_computer(table.id, ANN, False, "random")
        assert refused.value.code == "practice_only_level"
        assert table.to_json() == before and table.computers == {} and table.seats == [ANN, BEN]
        assert [await h.ledger.balance(G, who) for who in (HOUSE_ID, ANN)] == balances  # no posting
        assert len(h.notifier.outcomes) == told
        saved = await h.db.fetchone("SELECT state FROM tables WHERE table_id = ?", (table.id,))
        assert saved is not None and json.loads(saved[0])["computers"] == {}
        await h.runtime.add_computer(table.id, ANN, False, "basic")  # the levels that play properly
        await h.runtime.add_computer(table.id, ANN, False, "strong")
        assert [c.level for c in table.computers.values()] == ["basic", "strong"]
        assert await h.ledger.balance(G, HOUSE_ID) == balances[0] - 2 * table.buy_in
        await h.conserved()


def test_the_transition_states_the_rule_for_any_caller() -> None:
    """``seat_computer`` (the host's pick, a practice lobby, Play again) refuses Random for real chips."""
    table = transitions.open_lobby("t1", 1, 2, ANN, 5, 200, 60, 1000.0)
    transitions.join(table, ANN, "Ann", 1000.0)
    before = table.to_json()
    for seat in (
        lambda: transitions.add_computer(table, ANN, False, "random", 1000.0),
        lambda: transitions.seat_computer(table, "random", 1000.0),
    ):
        with pytest.raises(TableError) as refused:
            seat()
        assert refused.value.code == "practice_only_level"
    assert table.to_json() == before
    assert table.computer_levels == ("basic", "strong")
    with pytest.raises(TableError) as unknown:
        transitions.add_computer(table, ANN, False, "perfect", 1000.0)
    assert unknown.value.code == "pick_a_level"


async def test_a_practice_table_still_seats_random_computers(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        house = await h.ledger.balance(G, HOUSE_ID)
        table = await h.runtime.open(G, CH, ANN, "Ann", 5, 200, 60, practice=(1, "random"))
        await h.runtime.add_computer(table.id, ANN, False, "random")  # the host's pick in its lobby menu
        assert table.practice and table.computer_levels == LEVELS
        assert list(table.computers.values()) == [ComputerSeat("random", 1), ComputerSeat("random", 2)]
        assert await h.ledger.balance(G, HOUSE_ID) == house  # practice chips: the house pays nothing


async def test_a_table_saved_with_a_random_computer_plays_on_and_play_again_seats_no_computer(
    tmp_path: Path,
) -> None:
    """Saved before the rule: its Random computer stays (its buy-in is paid) and plays; no more join it.

    **Play again** after a real-chip game never copies its computers (the host seats them anew,
    from the menu's Basic and Strong); after a practice game it copies them at their levels.
    """
    clock = FakeClock()
    async with harness(tmp_path / "t.db", clock) as h:
        await h.fund_house()
        table = await h.lobby((ANN, BEN))
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        async with h.db.transaction() as tx:  # as the bot saved a Random computer before the rule
            data = table.to_json()
            data["computers"] = {"-1": {"level": "random", "number": 1}}
            await tx.execute("UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps(data), table.id))
    async with harness(tmp_path / "t.db", clock) as h:
        await h.runtime.load()
        await h.runtime.resume()
        table = h.runtime.tables[table.id]
        assert table.computers == {-1: ComputerSeat("random", 1)} and table.seats == [ANN, BEN, -1]
        with pytest.raises(TableError) as refused:
            await h.runtime.add_computer(table.id, ANN, False, "random")
        assert refused.value.code == "practice_only_level" and len(table.seats) == 3
        await h.runtime.start(table.id, ANN, may_manage=False)
        await h.run_due()
        assert table.game is not None and table.game.to_act is not None
        if table.game.to_act != "-1":
            await h.runtime.act(table.id, int(table.game.to_act), table.seq, Drop(table.game.to_act))
        await h.runtime.stop(table.id, ANN, may_manage=False)
        await h.until(lambda: h.runtime.get(table.id) is None)
        assert table.status == "closed"
        again = await h.runtime.play_again(table.id, BEN, "Ben", guild_id=G, channel_id=CH)
        assert again.computers == {} and again.seats == [BEN] and again.invited == [ANN]
        await h.conserved()
