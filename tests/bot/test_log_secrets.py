"""No secret in the log at any level: drivers' statement parameters stay out, a seed is blanked."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from bot.__main__ import QUIET_DRIVERS, HideSeeds, configure_logging
from bot.fair_deal import FairDeal


@pytest.fixture
def restored() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in QUIET_DRIVERS}
    filters = {h: list(h.filters) for h in handlers}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, saved in levels.items():
        logging.getLogger(name).setLevel(saved)
    for h, saved_filters in filters.items():
        h.filters[:] = saved_filters


def test_at_debug_the_database_drivers_log_from_info_up(restored: None) -> None:
    configure_logging("DEBUG")
    assert logging.getLogger().isEnabledFor(logging.DEBUG)
    for name in ("aiosqlite", "asyncpg"):
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG)
        assert logging.getLogger(name).isEnabledFor(logging.INFO)


def test_a_saved_fair_deal_in_a_log_line_has_its_seeds_blanked() -> None:
    fair = FairDeal()
    fair.commit(1)
    saved = json.dumps({"fair": fair.to_json()})
    seed = fair.to_json()["pending"]["seed"]
    for args in ((saved,), (repr((saved, 1)),), (json.dumps(saved),)):
        record = logging.LogRecord("aiosqlite", logging.DEBUG, __file__, 1, "executing %s", args, None)
        assert HideSeeds().filter(record)
        assert seed not in record.getMessage() and "executing" in record.getMessage()
