"""Shared fixtures of the cog tests: unpaced table edits, and a recorder of every payload sent to simcord."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio
import simcord
from simcord.http import router

from bot.client import FlipFlopBot
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


@pytest_asyncio.fixture
async def serving(simcord_env: simcord.Env, simcord_bot: FlipFlopBot) -> AsyncIterator[None]:
    """The bot's live server (``simcord_bot.live``), started in simcord's scope (its clock, its
    webhooks) as ``make play`` starts it: a move from the page edits the open Discord hands as a
    click does. A test module asks for it with ``pytest.mark.usefixtures("serving")``."""
    live = simcord_bot.live
    assert live is not None
    with simcord_env.time_context():
        await live.start()
    yield
    await live.stop()
