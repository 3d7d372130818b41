"""The table runtime on its own: a fake clock, a recording notifier, no Discord, fast."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ledger import HOUSE_ID, LedgerError
from bot.runtime import (
    CameBack,
    ComputersOnly,
    Delivery,
    GameStarted,
    LeavingAfterRound,
    Released,
    Resumed,
    StaleControl,
    Stopped,
    StopRequested,
    TableClosed,
    WentAway,
)
from bot.table.model import AWAY_ROUNDS_BEFORE_RELEASE, LOBBY_IDLE_SECONDS, ComputerSeat, Table, TableError
from engine import Draw, Drop, IllegalAction
from engine.events import Drew
from tests.bot.runtime.fakes import ANN, BEN, CAT, CH, DAN, FakeClock, G, harness


async def test_lobby_join_leave_and_computers(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        await h.fund_house()
        table = await h.lobby((ANN, BEN))
        assert await h.ledger.balance(G, BEN) == 800
        with pytest.raises(TableError) as refused:
            await h.runtime.add_computer(table.id, BEN, False, "basic")
        assert refused.value.code == "host_adds_computers"
        with pytest.raises(TableError) as refused:
            await h.runtime.add_computer(table.id, ANN, False, "grandmaster")
        assert refused.value.code == "pick_a_level"
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        assert list(table.computers.values()) == [ComputerSeat("basic", 1)] and len(table.seats) == 3
        await h.runtime.remove_computer(table.id, ANN, False)
        assert table.computers == {}
        await h.runtime.leave_lobby(table.id, BEN)
        assert await h.ledger.balance(G, BEN) == 1000 and table.seats == [ANN]
        await h.conserved()


async def test_an_idle_lobby_expires_with_refunds(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN, BEN))
        await h.advance(LOBBY_IDLE_SECONDS - 5)
        assert h.runtime.get(table.id) is table
        await h.advance(10)
        assert h.runtime.get(table.id) is None
        closed = [n for n in h.notifier.notices() if isinstance(n, TableClosed)]
        assert closed == [TableClosed("expired", {ANN: 200, BEN: 200})]
        assert await h.ledger.balance(G, ANN) == await h.ledger.balance(G, BEN) == 1000
        await h.conserved()


async def test_start_reports_the_deal_and_arms_the_turn(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        last = h.notifier.outcomes[-1]
        assert last.notices == (GameStarted(3),) and last.events
        assert h.scheduler.armed[table.id] == table.turn_deadline == h.clock() + 60


async def test_stale_and_illegal_moves_change_nothing(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        to_act = table.game.public_view().to_act
        assert to_act is not None
        other = next(u for u in (ANN, BEN, CAT) if str(u) != to_act)
        seq = table.seq
        with pytest.raises(StaleControl):
            await h.runtime.act(table.id, int(to_act), seq - 1, Draw(to_act, "stock"))
        with pytest.raises(IllegalAction):
            await h.runtime.act(table.id, other, seq, Draw(str(other), "stock"))
        with pytest.raises(TableError) as refused:
            await h.runtime.act(table.id, DAN, seq, Draw(str(DAN), "stock"))
        assert refused.value.code == "not_playing"
        table = h.runtime.get(table.id)  # a refused change puts back the table as it was saved
        assert table is not None and table.seq == seq
        await h.runtime.act(table.id, int(to_act), seq, Draw(to_act, "stock"))
        assert table.seq == seq + 1
        await h.conserved()


async def test_a_timeout_puts_the_member_away_and_the_computer_plays_on(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        absent = table.game.public_view().to_act
        assert absent is not None
        await h.advance(61)
        went = [n for n in h.notifier.notices() if isinstance(n, WentAway)]
        assert went == [WentAway(int(absent), True, AWAY_ROUNDS_BEFORE_RELEASE)]
        assert table.is_away(absent) and table.is_seated(int(absent))
        assert table.game.public_view().to_act != absent  # the basic computer played the turn
        await h.conserved()


async def test_an_away_seat_is_released_after_the_servers_rounds(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game((ANN, BEN, CAT, DAN))
        await h.runtime.away(table.id, BEN)
        stacks: dict[int, int] = {}

        def released() -> bool:
            if table.game is not None and str(BEN) in table.game.stacks:
                stacks[BEN] = table.game.stacks[str(BEN)]
            return (
                any(isinstance(n, Released) for n in h.notifier.notices()) or h.runtime.get(table.id) is None
            )

        before = await h.ledger.balance(G, BEN)
        for _ in range(100):  # the others drop at once (R7), ben's seat is played by the computer
            if released():
                break
            assert table.game is not None
            view = table.game.public_view()
            if view.in_round and view.to_act is not None and int(view.to_act) != BEN:
                await h.runtime.act(table.id, int(view.to_act), table.seq, Drop(view.to_act))
            else:
                await h.advance(10)
        notices = [n for n in h.notifier.notices() if isinstance(n, Released)]
        assert notices == [Released(BEN, AWAY_ROUNDS_BEFORE_RELEASE)]
        assert not table.is_seated(BEN) and BEN not in table.away
        assert stacks[BEN] > 0 and await h.ledger.balance(G, BEN) == before + stacks[BEN]
        await h.conserved()


async def test_away_and_back_by_click_and_the_refusals(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        seq, chips = table.seq, table.chips()
        with pytest.raises(TableError, match="not away"):
            await h.runtime.back(table.id, BEN)
        with pytest.raises(TableError, match="not playing"):
            await h.runtime.away(table.id, DAN)
        assert table.seq == seq and table.away == {}
        outcome = await h.runtime.away(table.id, BEN)
        assert outcome.notices == (WentAway(BEN, False, AWAY_ROUNDS_BEFORE_RELEASE),)
        with pytest.raises(TableError, match="already away"):
            await h.runtime.away(table.id, BEN)
        outcome = await h.runtime.back(table.id, BEN)
        assert outcome.notices == (CameBack(BEN),) and not table.is_away(BEN)
        assert table.chips() == chips
        await h.conserved()


async def test_an_away_members_own_move_brings_them_back(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        to_act = table.game.public_view().to_act
        assert to_act is not None
        await h.runtime.away(table.id, int(to_act))
        outcome = await h.runtime.act(table.id, int(to_act), table.seq, Draw(to_act, "stock"))
        assert outcome.notices == (CameBack(int(to_act)),) and not table.is_away(to_act)
        await h.conserved()


async def test_a_table_saved_before_away_mode_loads(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        await h.runtime.away(table.id, BEN)
        saved = table.to_json()
    for key in ("away", "away_rounds", "invited"):
        saved.pop(key)
    old = Table.from_json(saved)
    assert old.away == {} and old.away_rounds == AWAY_ROUNDS_BEFORE_RELEASE and old.invited == []
    assert old.game is not None and old.game.public_view() == table.game.public_view()  # type: ignore[union-attr]


async def test_leave_after_round_lets_the_member_go_at_the_next_deal(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game((ANN, BEN, CAT, DAN))
        outcome = await h.runtime.leave_after_round(table.id, BEN)
        assert outcome.notices == (LeavingAfterRound(BEN),)
        with pytest.raises(TableError) as refused:
            await h.runtime.leave_after_round(table.id, BEN)
        assert refused.value.code == "leaving_after_round"
        assert table.game is not None
        to_act = table.game.public_view().to_act
        assert to_act is not None
        await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))  # R7: a drop ends the round
        await h.until(lambda: table.game is not None and table.game.public_view().round_number == 2)
        assert not table.is_seated(BEN) and await h.ledger.balance(G, BEN) > 0
        await h.conserved()


async def test_stop_waits_for_the_round_then_ends_the_game(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        with pytest.raises(TableError) as refused:
            await h.runtime.stop(table.id, BEN, may_manage=False)
        assert refused.value.code == "stop_not_allowed"
        outcome = await h.runtime.stop(table.id, ANN, may_manage=False)
        assert outcome.notices == (StopRequested(ANN),)
        saved = table.to_json()
        for again in (ANN, BEN):  # asked once: a second stop (the host's, a manager's) is refused
            with pytest.raises(TableError) as twice:
                await h.runtime.stop(table.id, again, may_manage=again == BEN)
            assert twice.value.code == "stopping_after_round"
        assert table.to_json() == saved
        await h.until(lambda: h.runtime.get(table.id) is None)
        assert table.status == "closed" and table.game is not None and table.game.public_view().over
        assert table.game.public_view().round_number == 1
        await h.conserved()


async def test_stop_between_rounds_is_at_once(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        to_act = table.game.public_view().to_act
        assert to_act is not None
        await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))  # R7: a drop ends the round
        assert not table.game.public_view().in_round
        outcome = await h.runtime.stop(table.id, ANN, may_manage=False)
        assert outcome.notices == (Stopped(ANN),) and h.runtime.get(table.id) is None
        await h.conserved()


async def test_computers_play_their_turns_and_never_play_alone(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        await h.fund_house()
        table = await h.lobby((ANN,))
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        await h.runtime.start(table.id, ANN, may_manage=False)
        await h.run_due()  # computers move at once (no pause here)
        assert table.game is not None
        view = table.game.public_view()
        assert not view.in_round or view.to_act == str(ANN)
        movers = {int(e.player) for o in h.notifier.outcomes for e in o.events if isinstance(e, Drew)}
        assert any(m < 0 for m in movers)  # the computer seats drew cards themselves
        await h.until(lambda: h.runtime.get(table.id) is None)
        notices = h.notifier.notices()
        if any(isinstance(n, WentAway) for n in notices) and ComputersOnly() not in notices:
            raise AssertionError("the game went on with computers alone")
        house, ann = await h.ledger.balance(G, HOUSE_ID), await h.ledger.balance(G, ANN)
        assert (
            house + ann == 3000
        )  # every chip came home: the house float and grant (1,000 each), ann's 1,000
        await h.conserved()


async def test_a_gone_channel_closes_the_table_and_refunds_at_once(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        before = table.chips()
        assert before == 600
        h.notifier.status = Delivery.GONE
        await h.advance(61)  # the first timer tick after the channel went
        assert h.runtime.get(table.id) is None and table.status == "closed"
        assert table.id not in h.scheduler.armed
        assert sum([await h.ledger.balance(G, u) for u in (ANN, BEN, CAT)]) == 3000
        await h.conserved()


async def test_channel_delete_event_closes_the_table(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert await h.runtime.channel_gone(CH + 1) is None
        refunds = await h.runtime.channel_gone(CH)
        assert refunds is not None and sum(refunds.values()) == 600
        assert h.runtime.get(table.id) is None
        await h.conserved()


async def test_posting_refused_the_game_goes_on_and_the_first_to_act_is_told(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        h.notifier.status, h.notifier.missing = Delivery.FORBIDDEN, "Send Messages"
        rounds = len(h.notifier.outcomes)
        await h.advance(61)
        await h.advance(61)
        assert len(h.notifier.outcomes) > rounds and h.runtime.get(table.id) is table
        assert h.runtime.permission_notice(table.id) == "Send Messages"
        assert h.runtime.permission_notice(table.id) is None  # told once
        h.notifier.status = Delivery.OK
        await h.advance(61)
        assert table.id not in h.runtime.lacking
        last = h.notifier.outcomes[-1]
        # the table message was brought up to date with the game as it is (a snapshot of it)
        assert last.table is not table and last.table.to_json() == table.to_json()
        await h.conserved()


async def test_recovery_plays_an_overdue_turn_at_once(tmp_path: Path) -> None:
    clock = FakeClock()
    async with harness(tmp_path / "t.db", clock) as h:
        table = await h.game()
        assert table.game is not None
        to_act = table.game.public_view().to_act
        deadline = table.turn_deadline
    clock.now += 3600  # the bot was down for an hour
    async with harness(tmp_path / "t.db", clock) as h:
        await h.runtime.load()
        await h.runtime.resume()
        assert isinstance(h.notifier.outcomes[0].notices[0], Resumed)
        assert h.scheduler.armed[table.id] == deadline
        await h.run_due()
        first = next(n for n in h.notifier.notices() if isinstance(n, WentAway))
        assert str(first.player) == to_act and first.timed_out
        await h.conserved()


async def test_recovery_closes_a_table_whose_channel_or_message_is_gone(tmp_path: Path) -> None:
    clock = FakeClock()
    async with harness(tmp_path / "t.db", clock) as h:
        await h.game()
    async with harness(tmp_path / "t.db", clock) as h:
        h.notifier.where = "message_gone"
        await h.runtime.load()
        await h.runtime.resume()
        assert h.runtime.tables == {}
        closed = [n for n in h.notifier.notices() if isinstance(n, TableClosed)]
        assert (
            len(closed) == 1 and closed[0].reason == "message_gone" and sum(closed[0].refunds.values()) == 600
        )
        assert sum([await h.ledger.balance(G, u) for u in (ANN, BEN, CAT)]) == 3000
        await h.conserved()


@pytest.mark.parametrize(("stake", "buy_in"), [(0, 200), (5, 0), (-5, 200), (5, 7)])
async def test_impossible_stakes_are_refused_not_defaulted(tmp_path: Path, stake: int, buy_in: int) -> None:
    async with harness(tmp_path / "t.db") as h:
        with pytest.raises(LedgerError) as refused:
            await h.runtime.open(G, CH, ANN, "Ann", stake, buy_in, 60)
        assert str(refused.value)
        assert h.runtime.tables == {} and await h.ledger.balance(G, ANN) == 1000
