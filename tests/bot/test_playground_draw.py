"""In the playground a Draw is answered at once, in the channel as in a thread (issue 33).

The preview page holds a click on "Completing action…" until the bot's work is done, so a
table edit that waits for the discard (``DRAW_SETTLE``, 2.5 s) held every Draw that long.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench.draw_wait import draw_clicks
from bot.client import PRODUCTION
from bot.playground import build_bot
from cogs.flipflop.pacing import CallBudget


def test_only_the_playground_skips_the_draws_settle(tmp_path: Path) -> None:
    assert PRODUCTION.draw_settle  # a real bot still saves the call
    assert not build_bot(tmp_path / "p.sqlite3").harness.draw_settle


@pytest.mark.parametrize("threads", [False, True])
async def test_a_draw_settles_at_once_even_when_its_edit_may_wait_for_the_discard(
    threads: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every lone draw may spend a call (as late in a long game): its edit would settle 2.5 s.
    monkeypatch.setattr(CallBudget, "spare", lambda self, table_id: True)
    started = time.perf_counter()
    took = await draw_clicks(threads, turns=3)
    assert len(took) == 3
    assert max(took) < 1.0, took  # 2.5 s each before: the page waited out the settle
    assert time.perf_counter() - started < 60
