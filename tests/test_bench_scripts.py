"""The benchmark scripts the README and docs/ quote run, at their smallest settings, and print their figures.

Each is run as the docs say (``.venv/bin/python bench/NAME.py …``) in a process of its own. What
is checked is that it runs on the code as it is now and prints the line its figures are read
from, not the figures themselves (tiny runs, a shared machine): a script that says its goal was
"NOT met" and exits 1 for it (history_bench: a p99 of 28 ms against 20 under a loaded CI run)
has still run. bench/live_bench.py is run by
tests/bot/test_live_bench.py; the PostgreSQL halves of history_bench and scale_bench and the
browser ones (live_page, table_height) are left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RUNS = {
    "engine_bench": (["--seconds", "0.3"], "actions/s"),
    "budget_bench": (["--tables", "10", "--seconds", "3", "--drain", "5"], "budget_turns"),
    "coach_bench": (["--hints", "2", "--rounds", "1"], "whole look back"),
    "decision_bench": (["--seed", "1", "--rounds", "2", "--budget", "0.03"], "99th percentile"),
    "dumping_bench": (
        ["--honest", "40", "--trials", "2", "--checkpoints", "10", "--background", "20", "--jobs", "1"],
        "false-positive rate",
    ),
    "history_bench": (["--rounds", "300", "--queries", "5", "--only", "sqlite"], "index plans:"),
    "inference_bench": (["--games", "2", "--seed", "1", "--worlds", "10"], "weighted − uniform"),
    "likelihood_sweep": (["--seed", "1", "--games", "2", "--worlds", "10", "base"], "base"),
    "regret_bench": (["--seed", "1", "--games", "2", "--budget", "0.03", "--worlds", "5", "base"], "regret"),
    # under the workers' warm-up (0.5 s): the seconds measured start after it (250e043)
    "runtime_bench": (["--rounds", "2", "--searches", "1", "--seconds", "0.2"], "loop lag p99"),
    "scale_bench": (["--tables", "5", "--rate", "10", "--seconds", "1", "--only", "sqlite"], "action p99 ms"),
    "sit_and_go": (["--entrants", "6", "--level-rounds", "2", "--seed", "1"], "round   1"),
    "strength_bench": (
        ["--seed", "1", "--rounds", "4", "--budget", "0.03", "--jobs", "1", "--only", "strong-basic"],
        "strong − basic per round",
    ),
    "tournament": (["basic", "random", "--rounds", "10", "--jobs", "1"], "basic − random per round"),
    "privacy_bench": (["--rows", "100", "--rounds", "10", "--others", "3", "--only", "sqlite"], "forget"),
    "round_picture_bench": (["--rounds", "3"], "render p50"),
    "table_picture_bench": (["--tables", "3"], "p99"),
}


def run(name: str, cwd: Path) -> str | None:
    """What went wrong running ``bench/NAME.py`` at its smallest settings, or None."""
    args, figure = RUNS[name]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=180,
        check=False,
    )
    judged = done.returncode == 1 and "NOT met" in done.stdout  # a goal missed: a figure, not a fault
    if done.returncode != 0 and not judged:
        return f"{name}: status {done.returncode}\n{done.stdout[-1500:]}{done.stderr[-2500:]}"
    if figure not in done.stdout:
        return f"{name}: no {figure!r} in\n{done.stdout[-1500:]}"
    return None


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_bench_script_runs_and_prints_its_figures(name: str, tmp_path: Path) -> None:
    """One script a test, so the workers share them out (one after the other in one test took 50 s
    of one worker at the end of the suite); each runs on one core (``--jobs 1`` where it has any)."""
    problem = run(name, tmp_path)
    assert problem is None, problem
