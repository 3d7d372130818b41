"""Shared fixtures of the cog tests: unpaced table edits, and a recorder of every payload sent to simcord."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord.http import router

from cogs.flipflop import notifier, pacing
from tests.cogs.helpers import Sent


@pytest.fixture(autouse=True)
def unpaced_table_edits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every edit at once, unless a test sets ``pacing.BUDGET`` itself (see test_pacing.py).

    A lone draw's edit does not wait for its discard either (``notifier.DRAW_SETTLE``): simcord
    fires a short sleep's timer when real time reaches its instant on the virtual clock, and a
    test that advanced that clock by minutes would wait those minutes for every draw. The wait
    itself is tested on a pacer (test_pacing.py) and in Discord's budget (test_traffic.py).
    """
    saved = pacing.BUDGET
    pacing.BUDGET = (1_000_000, pacing.WINDOW_SECONDS)
    monkeypatch.setattr(notifier, "DRAW_SETTLE", 0.0)
    yield
    pacing.BUDGET = saved


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sent]:
    """Record every payload simcord's router receives from the bot."""
    seen = Sent()
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        seen.record(method, path, kwargs.get("json"))
        return original(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    yield seen
