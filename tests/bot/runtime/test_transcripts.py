"""Finished rounds are appended with the action that ended them, and replay on their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.history import history, round_story
from bot.runtime import ComputerPlayers
from bot.storage import IntegrityError
from engine import Drop
from engine.replay import replay
from tests.bot.runtime.fakes import ANN, BEN, CAT, harness


async def test_a_round_ending_action_appends_its_transcript_and_result(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None and await history(h.db, table.guild_id) == []
        before = table.game.public_view().stacks
        to_act = table.game.public_view().to_act
        assert to_act is not None
        await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))
        rows = await history(h.db, table.guild_id)
        assert len(rows) == 1 and rows[0].end in ("drop", "caught")
        story = await round_story(h.db, table.guild_id, rows[0].round_id)
        assert story is not None
        replayed, status = replay(story.transcript)
        assert status == 0 and replayed["rounds"][0]["end"] == rows[0].end
        assert replayed["stacks"] == {p: table.game.public_view().stacks[p] for p in before}
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
            with pytest.raises(IntegrityError, match="append-only"):
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
