"""docs/OPERATORS.md's table of metrics is what /metrics serves: every name, with its type.

An operator builds dashboards and alerts from that table; a metric renamed, dropped or changed
from counter to gauge in the code (or a row added to the doc for a metric that does not exist)
fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.test_metrics import get, served  # noqa: F401  (the fixture)
from tests.conftest import World

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `(flipflop_[a-z_]+)` \| (counter|gauge|histogram) \|", re.MULTILINE)
TYPE = re.compile(r"^# TYPE (flipflop_[a-z_]+) (counter|gauge|histogram)$", re.MULTILINE)


def documented() -> dict[str, str]:
    return dict(ROW.findall((ROOT / "docs" / "OPERATORS.md").read_text(encoding="utf-8")))


def test_the_doc_lists_the_metrics() -> None:
    rows = documented()
    assert len(rows) >= 30, rows
    assert rows["flipflop_actions_total"] == "counter" and rows["flipflop_open_tables"] == "gauge"


async def test_every_documented_metric_is_served_with_its_type(served: tuple[World, str]) -> None:  # noqa: F811
    _, base = served
    status, text = await get(f"{base}/metrics")
    assert status == 200
    types = {name: kind for name, kind in TYPE.findall(text) if not name.endswith("_created")}
    assert types == documented()
