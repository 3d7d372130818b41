"""Simcord's clock stands still between clicks, so table edits are paced only where a test asks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogs.flipflop import pacing


@pytest.fixture(autouse=True)
def unpaced_table_edits() -> Iterator[None]:
    """Every edit at once, unless a test sets ``pacing.BUDGET`` itself (see test_pacing.py)."""
    saved = pacing.BUDGET
    pacing.BUDGET = (1_000_000, pacing.WINDOW_SECONDS)
    yield
    pacing.BUDGET = saved
