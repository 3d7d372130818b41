"""`make play`: the real bot in a simcord world with a preview page on 127.0.0.1."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.playground import main, playground
from bot.runtime.computers import ComputerPlayers
from bot.table.repository import TableRepository
from engine.actions import Drop
from tests.cogs.helpers import displayed


async def test_playground_serves_a_page_and_runs_the_real_bot(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    async with playground(db, members=3) as world:
        assert world.url.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as http, http.get(world.url.split("#")[0]) as response:
            assert response.status == 200
            assert "<html" in (await response.text()).lower()
        ann = world.members[0]
        result = await ann.slash(world.channel, "flipflop start")
        assert displayed(result.response).startswith("### 🃏 Flip Flop — table open")
        for m in world.members[1:]:
            await m.click(result.response.message, label="Join")
    assert db.exists()


async def test_a_second_start_resumes_the_saved_table(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    async with playground(db, members=3, preview=False) as world:
        ann, ben, cat = world.members
        lobby = (await ann.slash(world.channel, "flipflop start")).response.message
        await ben.click(lobby, label="Join")
        await cat.click(lobby, label="Join")
        await ann.click(lobby, label="Start")
        assert world.bot.runtime is not None
        before = world.bot.runtime.in_channel(world.channel.id).to_json()  # type: ignore[union-attr]
    async with playground(db, members=3, preview=False) as world:
        assert world.bot.runtime is not None
        table = world.bot.runtime.in_channel(world.channel.id)
        assert table is not None and table.game is not None
        assert table.game.snapshot() == before["game"]
        # the simulated channel is new each run: the table message was posted again
        posted = [m for m in world.channel.history() if m.id == table.message_id]
        assert posted and displayed(posted[0]).startswith("### 🃏 Flip Flop — round 1")
        hand = await world.members[0].click(posted[0], label="My hand")
        assert hand.ephemeral and "Your hand" in hand.response.content


async def test_computer_players_option_seats_them(tmp_path: Path) -> None:
    async with playground(tmp_path / "p.sqlite3", members=1, preview=False, computers=2) as world:
        assert world.bot.runtime is not None
        table = world.bot.runtime.in_channel(world.channel.id)
        assert table is not None and len(table.computers) == 2 and len(table.seats) == 3
        lobby = [m for m in world.channel.history() if m.id == table.message_id][0]
        await world.members[0].click(lobby, label="Start")
        assert table.status == "playing"


async def test_random_computers_are_seated_at_a_practice_table(tmp_path: Path) -> None:
    """``make play COMPUTERS=2 LEVEL=random``: Random plays at practice tables only, never for real chips."""
    db = tmp_path / "p.sqlite3"
    async with playground(db, members=1, preview=False, computers=2, level="random") as world:
        assert world.bot.runtime is not None
        table = world.bot.runtime.in_channel(world.channel.id)
        assert table is not None and table.practice
        assert [c.level for c in table.computers.values()] == ["random", "random"] and len(table.seats) == 3


async def test_a_click_at_a_practice_table_does_not_wait_for_the_computers(tmp_path: Path) -> None:
    """The Start click is answered at once; the computers then move in real time, one by one.

    The computers' pause is long (2 s) so that the check does not hang on the machine's load: a click
    that waited for even one computer's move would take longer than the pause (bench/playground_wait.py
    measures the answer itself)."""
    pause = (2.0, 2.2)
    started: list[float] = []
    for attempt in range(8):  # until a computer has the first turn (the first dealer is random)
        async with playground(
            tmp_path / f"p{attempt}.sqlite3", members=1, preview=False, computers=2, computer_pause=pause
        ) as world:
            runtime = world.bot.runtime
            assert runtime is not None
            table = runtime.in_channel(world.channel.id)
            assert table is not None
            lobby = [m for m in world.channel.history() if m.id == table.message_id][0]
            clock = time.perf_counter()
            await world.members[0].click(lobby, label="Start")
            took = time.perf_counter() - clock
            assert table.game is not None and table.game.to_act is not None
            if not table.is_computer(table.game.to_act):
                continue
            started.append(took)
            assert took < pause[0]  # answered before the first computer's pause is over
            for _ in range(100):  # then the computers move without anyone clicking
                await asyncio.sleep(0.1)
                to_act = table.game.to_act
                if to_act is None or not table.is_computer(to_act):
                    break
            assert to_act is None or not table.is_computer(to_act), "the computers never moved"
            break
    assert started, "a computer never had the first turn in eight deals"


async def test_an_away_seat_is_played_and_each_next_round_dealt_without_a_click(tmp_path: Path) -> None:
    """simcord's clock moves only with clicks: the playground plays an away seat and deals the next
    round after its pause on its own, so a round a computer ended never waits for someone to click."""
    async with playground(
        tmp_path / "p.sqlite3", members=2, preview=False, computers=2, computer_pause=(0.05, 0.1)
    ) as world:
        runtime = world.bot.runtime
        assert runtime is not None
        runtime.round_pause = 0.5
        table = runtime.in_channel(world.channel.id)
        assert table is not None
        lobby = [m for m in world.channel.history() if m.id == table.message_id][0]
        ann, ben = world.members
        await ben.click(lobby, label="Join")
        await ann.click(lobby, label="Start")
        await runtime.away(table.id, ann.id)  # ann steps away: the basic computer plays her seat
        assert table.is_away(ann.id)

        def rounds() -> int:
            return table.game.public_view().round_number if table.game is not None else 0

        for _ in range(300):  # no click from here on; ben drops at each of his turns
            game = table.game
            if rounds() >= 3 or game is None or table.status != "playing":
                break
            if game.in_round and game.to_act == table.pid(ben.id):
                await runtime.act(table.id, ben.id, table.seq, Drop(game.to_act))
            await asyncio.sleep(0.1)
        assert rounds() >= 3, f"the table stalled with no click ({table.status}, next {table.next_round_at})"


async def test_a_members_turn_after_a_computers_move_runs_out_in_real_seconds(tmp_path: Path) -> None:
    """The playground moves the computers from outside the bot's work (``drive_computers``): the turn
    their move gave a member was timed by a timer simcord's clock never ran, and an idle member was
    never timed out. Now it runs out in real seconds, as one given by a click."""
    turn = 6  # seconds: beyond a click's settling (5 s), which would run a timer due sooner
    for attempt in range(8):  # until a computer has the first turn (the first dealer is random)
        async with playground(
            tmp_path / f"p{attempt}.sqlite3", members=1, preview=False, computers=2, computer_pause=(0.1, 0.2)
        ) as world:
            runtime = world.bot.runtime
            assert runtime is not None
            table = runtime.in_channel(world.channel.id)
            assert table is not None
            table.turn_seconds = turn
            (ann,) = world.members
            lobby = [m for m in world.channel.history() if m.id == table.message_id][0]
            await ann.click(lobby, label="Start")
            assert table.game is not None and table.game.to_act is not None
            if not table.is_computer(table.game.to_act):
                continue
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while table.game.to_act != str(ann.id) and loop.time() < deadline:  # the computers move
                await asyncio.sleep(0.05)
            assert table.game.to_act == str(ann.id) and not table.is_away(ann.id)
            while not table.is_away(ann.id) and loop.time() < deadline:  # no click from here on
                await asyncio.sleep(0.05)
            assert table.is_away(ann.id), "an idle member's turn never ran out"
            return
    raise AssertionError("a computer never had the first turn in eight deals")


async def test_a_timeout_under_way_as_the_playground_stops_is_finished_and_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn's timer is the bot's own work, which simcord cuts short as it stops: the playground
    stops as the bot does (``TableRuntime.shutdown``), so a timeout under way is finished and saved."""
    saving = asyncio.Event()
    save = TableRepository.save

    async def slow_save(self: TableRepository, tx: Any, table: Any) -> bool:
        if table.away and not saving.is_set():  # the timeout's save, slowed (a loaded machine)
            saving.set()
            await asyncio.get_running_loop().run_in_executor(None, time.sleep, 1.0)
        return await save(self, tx, table)

    monkeypatch.setattr(TableRepository, "save", slow_save)
    db = tmp_path / "p.sqlite3"
    async with playground(db, members=3, preview=False) as world:
        ann, ben, cat = world.members
        lobby = (await ann.slash(world.channel, "flipflop start")).response.message
        for member in (ben, cat):
            await member.click(lobby, label="Join")
        runtime = world.bot.runtime
        assert runtime is not None
        table = runtime.in_channel(world.channel.id)
        assert table is not None
        table.turn_seconds = 6  # beyond a click's settling (5 s), which would run a timer due sooner
        await ann.click(lobby, label="Start")
        assert table.game is not None and table.game.to_act is not None
        idle = int(table.game.to_act)
        await asyncio.wait_for(saving.wait(), 30)  # no click: the turn runs out; stop while it is saved
    async with playground(db, members=3, preview=False) as world:
        assert world.bot.runtime is not None
        again = world.bot.runtime.in_channel(world.channel.id)
        assert again is not None and again.is_away(idle)  # the timeout was saved, not cut short


async def test_worker_processes_leave_ctrl_c_to_the_bot() -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker ignores it (no traceback)."""
    players = ComputerPlayers(workers=1)
    try:
        handler = await players.run(signal.getsignal, signal.SIGINT)
    finally:
        players.close()
    assert handler == signal.SIG_IGN


async def test_a_tournament_is_played_from_the_channel_with_flipflop_hand(tmp_path: Path) -> None:
    """The playground's page shows one channel; a tournament's tables are threads. Each entrant's
    /flipflop hand in #flipflop is their table's hand, and their moves play it (README)."""
    pause = (0.05, 0.1)
    async with playground(tmp_path / "p.sqlite3", members=2, preview=False, computer_pause=pause) as world:
        ann, ben = world.members
        lobby = (await ann.slash(world.channel, "flipflop tournament", fee=10, seats=6)).response.message
        await ann.click(lobby, label="Join")
        await ben.click(lobby, label="Join")
        await ann.click(lobby, label="Start")
        assert world.bot.runtime is not None
        tables = [t for t in world.bot.runtime.tables.values() if t.tournament]
        for _ in range(100):  # the computers move in real time until a member's turn
            turns = [(t, t.game.to_act) for t in tables if t.game and t.game.in_round and t.game.to_act]
            mine = [(t, p) for t, p in turns if p in (str(ann.id), str(ben.id))]
            if mine:
                break
            await asyncio.sleep(0.1)
        (table, pid), *_ = mine
        member = ann if pid == str(ann.id) else ben
        hand = await member.slash(world.channel, "flipflop hand")
        assert hand.ephemeral and "Your hand" in hand.response.content, hand.response.content
        assert table.game is not None
        before, drop = table.seq, f"Drop ({table.game.view(pid).hand_value})"
        dropped = await member.click(hand.response.message, label=drop)
        assert dropped.acknowledged and table.seq > before  # the hand from the channel plays the seat


def test_the_cards_option_names_each_style_as_flipflop_cards_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--help`` called the text style "text (words)" after /flipflop cards had come to call it
    "words for screen readers": it says each style by the name the command gives it."""
    monkeypatch.setenv("COLUMNS", "300")
    with pytest.raises(SystemExit):
        main(["--help"])
    said = capsys.readouterr().out
    assert "classic, four (four-colour), text (words for screen readers); plain: no card emojis" in said
    assert "(words)" not in said
