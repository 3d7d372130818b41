"""The playground changes a real bot through one ``Harness`` value, never through a cog's module."""

from __future__ import annotations

from pathlib import Path

from bot.client import PRODUCTION, Harness
from bot.playground import build_bot, playground
from cogs.flipflop import pacing


def test_the_production_bot_runs_with_the_production_harness(tmp_path: Path) -> None:
    from tests.conftest import make_bot

    bot = make_bot(tmp_path / "p.sqlite3")
    assert bot.harness == PRODUCTION == Harness()
    assert PRODUCTION.resume_on_ready and not PRODUCTION.repost_missing_messages
    assert PRODUCTION.edit_limit is None and PRODUCTION.draw_settle


def test_the_playground_bot_says_what_it_changes(tmp_path: Path) -> None:
    bot = build_bot(tmp_path / "p.sqlite3")
    assert bot.harness == Harness(
        repost_missing_messages=True, resume_on_ready=False, edit_limit=1_000_000, draw_settle=False
    )


async def test_the_playground_paces_its_own_edits_and_leaves_the_cog_module_alone(tmp_path: Path) -> None:
    budget = pacing.BUDGET
    async with playground(tmp_path / "p.sqlite3", members=3, preview=False) as world:
        cog = world.bot.get_cog("FlipFlop")
        assert cog is not None
        assert cog.notifier.pacer.limit == 1_000_000  # type: ignore[attr-defined]
        assert cog.notifier.pacer.window == pacing.WINDOW_SECONDS  # type: ignore[attr-defined]
    assert pacing.BUDGET == budget == (pacing.EDITS_PER_WINDOW, pacing.WINDOW_SECONDS)
