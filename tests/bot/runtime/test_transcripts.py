"""Finished rounds are appended with the action that ended them, and replay on their own."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.runtime import ComputerPlayers
from bot.transcripts import rounds_of_table
from engine import Drop
from engine.replay import replay
from tests.bot.runtime.fakes import ANN, BEN, CAT, harness


async def test_a_round_ending_action_appends_its_transcript_and_result(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None and await rounds_of_table(h.db, table.id) == []
        before = table.game.public_view().stacks
        to_act = table.game.public_view().to_act
        assert to_act is not None
        await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))
        rows = await rounds_of_table(h.db, table.id)
        assert len(rows) == 1
        number, transcript, result = rows[0]
        assert number == 1 and result["reason"] in ("drop", "caught") and result["player"] == to_act
        replayed, status = replay(transcript)
        assert status == 0 and replayed["rounds"][0]["end"] == result["reason"]
        assert result["stacks_after"] == {p: table.game.public_view().stacks[p] for p in before}
        paid = sum(sum(p["shares"].values()) for p in result["pots"].values())
        assert paid > 0
        players = await h.db.fetchall("SELECT user_id FROM round_players ORDER BY user_id")
        assert [p for (p,) in players] == [ANN, BEN, CAT]


async def test_rounds_are_append_only(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        to_act = table.game.public_view().to_act
        assert to_act is not None
        await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))
        for sql in ("UPDATE rounds SET result = '{}'", "DELETE FROM rounds", "DELETE FROM round_players"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                async with h.db.transaction() as tx:
                    await tx.execute(sql)


async def test_strong_searches_run_in_a_worker_process_on_the_view_alone(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        to_act = table.game.public_view().to_act
        assert to_act is not None
        view = table.game.view(to_act)
        computers = ComputerPlayers(workers=1)
        try:
            action = await computers.choose("strong", view, 0.5)
            assert computers.started  # the search went to the worker pool
        finally:
            computers.close()
        assert action in view.legal
