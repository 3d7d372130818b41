"""Computer players' moves: strong searches run in worker processes, off the event loop.

A strategy sees only its player's view (``PlayerView``), which is all that is
sent to a worker. A search of a few hundred milliseconds in a thread would hold
the GIL and stall every other table; in a process it costs the loop nothing.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import signal
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from bot.table.model import LEVELS as LEVELS  # every level (a table seats its computer_levels), for callers
from engine.actions import Action
from engine.ai.strategies import STRATEGIES, BasicStrategy, StrongStrategy
from engine.view import PlayerView

T = TypeVar("T")
SEARCHING = {name for name, cls in STRATEGIES.items() if cls is StrongStrategy}
"""Levels whose moves take long enough to need a worker process."""


def choose(level: str, view: PlayerView, seed: float) -> Action:
    """The move of a computer player of ``level`` (unknown levels play the basic strategy)."""
    strategy = STRATEGIES.get(level, BasicStrategy)()
    return strategy.choose(view, random.Random(seed))


def ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the bot, which stops the pool: no ``ForkServerProcess`` traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ComputerPlayers:
    """Chooses computer players' moves, searching in a process pool made on first need."""

    def __init__(self, workers: int = 2, pool: Executor | None = None) -> None:
        self.workers = workers
        self._pool = pool

    def pool(self) -> Executor:
        """The worker pool (``forkserver``: no copy of the running bot's threads or sockets)."""
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=ignore_interrupts
            )
        return self._pool

    @property
    def started(self) -> bool:
        """Worker processes have been started (a searching level has moved)."""
        return self._pool is not None

    async def choose(self, level: str, view: PlayerView, seed: float) -> Action:
        """The move, searched in a worker process if the level searches."""
        if level not in SEARCHING:
            return choose(level, view, seed)
        return await asyncio.get_running_loop().run_in_executor(self.pool(), choose, level, view, seed)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Any pure search (the coach's hints and look backs) in a worker process, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.pool(), work, *args)

    def close(self) -> None:
        """Stop the workers (searches in flight are abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
