"""Shared fixtures: a bot on a fresh database, run inside simcord's simulated Discord."""

from __future__ import annotations

import asyncio
import hashlib
import io
import itertools
import random
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord

from bot.client import FlipFlopBot, create_bot
from bot.settings import Settings

GUARDS_OFF = {"min_account_days": 0.0, "min_member_days": 0.0, "table_cooldown_seconds": 0.0}
"""simcord's members are created and join the moment a test begins, and tests open table after table:
the newcomer waits and the table cooldown (``bot.guards``) are off unless a test turns them on."""


def make_bot(
    db_path: Path, seed: int = 1, *, settings: dict[str, object] | None = None, **kwargs: object
) -> FlipFlopBot:
    # Computer players move at once here: simcord waits out short sleeps in real time.
    kwargs.setdefault("computer_pause", (0.0, 0.0))
    # Most tests read the game in the channel; the thread tests ask for threads (the bot's default).
    kwargs.setdefault("tables_in_threads", False)
    # Cards read as text here; tests/cogs/test_card_emojis.py syncs the card emojis itself.
    kwargs.setdefault("card_emojis", False)
    # No global call budget: its waits are real time, and simcord's clock jumps (tests/cogs/test_budget*.py).
    chosen = {**GUARDS_OFF, **(settings or {})}
    built = Settings(database_path=db_path, shard_count=1, calls_per_second=0, **chosen)  # type: ignore[arg-type]
    bot = create_bot(built, rng=random.Random(seed), **kwargs)
    _made.append(bot)
    return bot


_made: list[FlipFlopBot] = []
"""Bots made during the running test (a restart makes another): ``simcord_bot`` closes their databases,
or an open aiosqlite connection's thread keeps the test process from exiting."""


@pytest.fixture(autouse=True)
def predictable_server_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Server seeds from a counter instead of the OS: a test deals the same cards every run.

    Production draws them with ``secrets`` (``engine.fairness.new_server_seed``);
    the scheme is the same, only the seeds are foreseeable here.
    """
    drawn = itertools.count(1)
    monkeypatch.setattr(
        "bot.fair_deal.new_server_seed", lambda: hashlib.sha256(f"test seed {next(drawn)}".encode()).digest()
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "flipflop.sqlite3"


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[FlipFlopBot]:
    _made.clear()
    bot = make_bot(db_path)
    yield bot
    for made in _made:  # simcord detaches the bot without calling close(); a restart made another
        await made.db.close()
    _made.clear()


class World:
    """One server with a #flipflop channel, an admin and some members."""

    def __init__(self, env: simcord.Env, members: int = 4) -> None:
        self.env = env
        self.guild = env.create_guild(name="Card Club")
        self.channel = self.guild.create_text_channel("flipflop")
        admins = self.guild.create_role(
            "Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True)
        )
        self.admin = self.guild.add_member(env.create_user("boss"), roles=[admins])
        names = ["ann", "ben", "cat", "dan", "eve", "fay"][:members]
        self.members = [self.guild.add_member(env.create_user(n)) for n in names]

    @property
    def bot(self) -> FlipFlopBot:
        return self.env.bot  # type: ignore[return-value]


@pytest_asyncio.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    yield World(simcord_env)


LONGEST = (
    "tests/cogs/test_tournament.py::test_twenty_five_entrants_with_computers_to_the_end",
    "tests/e2e/test_table_data.py::",
    "tests/e2e/test_answers.py::test_slow_rest_",
    "tests/e2e/test_shards.py::",
    "tests/cogs/test_tournament.py::test_a_deleted_table_thread_settles_its_round_and_play_goes_on",
    "tests/cogs/test_tournament.py::test_members_who_leave_the_server_are_played_for",
    "tests/cogs/test_tournament.py::test_a_tournament_with_computers_is_played_to_its_prizes",
    "tests/cogs/test_game.py::test_chips_are_conserved_at_every_step_of_a_four_player_game",
    "tests/e2e/test_crash.py::test_crash_mid_turn_after_a_pot_and_between_rounds_then_finish",
    "tests/cogs/test_privacy_admin.py::test_forget_reaches_the_rounds_dealt_after_the_member_was_out",
    "tests/cogs/test_tournament.py::test_a_restart_mid_round_and_mid_rebalance_carries_on",
    "tests/engine/test_properties.py::test_random_play_keeps_every_invariant",
    "tests/e2e/test_crash.py::test_a_game_in_a_thread_survives_kills_and_ends_on_its_lobby",
)
"""The tests that take longest (``pytest --durations`` under ``make test``), longest first: a worker starts
each at once, so none of them starts near the end and keeps one worker busy after the others are done."""


def _order(item: pytest.Item) -> tuple[int, int]:
    for place, prefix in enumerate(LONGEST):
        if item.nodeid.startswith(prefix):
            return (0, place)
    return (1 if item.nodeid.startswith("tests/e2e/") else 2, 0)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, then the end-to-end ones: under pytest-xdist no long wait starts last."""
    items.sort(key=_order)


HANG_DUMP = pytest.StashKey[str]()
_HANG_TIMER = pytest.StashKey[threading.Timer]()


def asyncio_stacks() -> str:
    """Where every unfinished asyncio task waits: what a hanging test is stuck on.

    Read from the timer's thread while the test's loop sits idle; the global set of
    tasks is asyncio's own (``asyncio.all_tasks`` needs the loop's thread).
    """
    for _ in range(5):
        try:
            tasks = [t for t in list(getattr(asyncio.tasks, "_all_tasks", ())) if not t.done()]
            break
        except RuntimeError:  # the set changed while it was read
            continue
    else:
        return "(the tasks could not be read)"
    out = io.StringIO()
    for task in tasks:
        out.write(f"--- {task.get_name()}: {task.get_coro()!r}\n")
        task.print_stack(limit=12, file=out)
    return out.getvalue() or "(no asyncio task was waiting)"


def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    """A few seconds before pytest-timeout fails a hanging test, note where its tasks wait."""
    if not settings.timeout:
        return None

    def note() -> None:
        item.stash[HANG_DUMP] = asyncio_stacks()

    timer = threading.Timer(max(settings.timeout - 3, settings.timeout / 2), note)
    timer.daemon = True
    timer.start()
    item.stash[_HANG_TIMER] = timer
    return None  # pytest-timeout sets its own timer as well


def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    timer = item.stash.get(_HANG_TIMER, None)
    if timer is not None:
        timer.cancel()
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    dump = item.stash.get(HANG_DUMP, None)
    if dump is not None and outcome.get_result().failed:
        outcome.get_result().sections.append(("asyncio tasks when the test hung", dump))
