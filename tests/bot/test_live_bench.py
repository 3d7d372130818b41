"""bench/live_bench.py (README "The live table": its figures) runs on the runtime as it is now.

Its ``latency`` part plays moves from the players' pages and times them to every other page;
it once called a runtime method that had been removed and crashed before its first move.
"""

from __future__ import annotations

import pytest

from bench.live_bench import latency


async def test_the_latency_bench_plays_its_moves_and_prints_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    await latency(5, 1)
    out = capsys.readouterr().out
    assert "5 moves" in out and "p50" in out and "p99" in out, out
