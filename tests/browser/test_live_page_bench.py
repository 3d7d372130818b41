"""bench/live_page.py (README "The live table": the page's weight and first paint) runs.

It builds its table with bench/live_bench.py's helpers, which once called a runtime method that
had been removed: the bench crashed before opening the page.
"""

from __future__ import annotations

import subprocess
import sys

from tests.browser.conftest import ROOT


def test_the_live_page_bench_prints_the_weight_and_the_first_paint() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "live_page.py"), "--runs", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "first contentful paint" in done.stdout and "live/live.css" in done.stdout, done.stdout
