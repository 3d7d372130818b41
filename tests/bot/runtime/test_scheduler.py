"""The production scheduler: each table's timer runs as the bot's own work, whoever armed it."""

from __future__ import annotations

import asyncio
import contextvars
import random
import time
from pathlib import Path

from bot.ledger import Ledger
from bot.live.links import Pass
from bot.live.server import LiveServer
from bot.runtime import TableRuntime
from bot.runtime.scheduler import AsyncioScheduler
from bot.storage import open_store
from tests.bot.runtime.fakes import ANN, BEN, CAT, CH, NAMES, G, MemoryNotifier

WHOSE: contextvars.ContextVar[str] = contextvars.ContextVar("whose", default="nobody's")
"""Whose work is running (simcord keeps the same kind of mark to tell the bot's work from the rest)."""


async def test_a_timer_runs_as_the_bots_work_whoever_armed_it() -> None:
    """Armed from a live page's request (or the playground's computers), not the bot's: the timer is the
    bot's all the same (under simcord only the bot's timers are run by its clock)."""
    woke: list[tuple[str, str]] = []

    async def fire(table_id: str) -> None:
        woke.append((table_id, WHOSE.get()))

    WHOSE.set("the bot's")
    scheduler = AsyncioScheduler(time.monotonic, fire)  # made as the bot loads its cog

    async def request() -> None:
        WHOSE.set("the page's")
        scheduler.arm("t1", time.monotonic())

    await asyncio.get_running_loop().create_task(request())
    for _ in range(100):
        if woke:
            break
        await asyncio.sleep(0.01)
    assert woke == [("t1", "the bot's")]
    await scheduler.close()


async def test_a_draw_on_the_live_page_runs_the_turn_out_in_the_real_bot(tmp_path: Path) -> None:
    """As in production, no simulated Discord: the runtime's own scheduler and the real clock. A draw
    on the page arms the turn's timer with the full turn, and an idle member's turn runs out."""
    db = open_store(tmp_path / "t.db")
    await db.open()
    runtime = TableRuntime(
        db, Ledger(db), MemoryNotifier(), clock=time.time, rng=random.Random(3), computer_pause=(0.0, 0.0)
    )
    try:
        table = await runtime.open(G, CH, ANN, NAMES[ANN], 5, 200, 60)
        await runtime.placed(table.id, 77)
        for member in (BEN, CAT):
            await runtime.join(table.id, member, NAMES[member])
        await runtime.start(table.id, ANN, may_manage=False)
        assert table.game is not None and table.game.to_act is not None
        actor = int(table.game.to_act)
        table.turn_seconds = 1  # from the draw on
        live = LiveServer(None, "http://127.0.0.1/", time.time)
        live.runtime = runtime
        draw = {"type": "move", "op": "stock", "value": None, "seq": table.seq}
        await asyncio.get_running_loop().create_task(live.move(Pass(actor, G, table.id, "en"), draw))
        deadline = table.turn_deadline
        assert deadline is not None and deadline > time.time() + 0.5  # the full turn from the draw
        assert isinstance(runtime.scheduler, AsyncioScheduler) and table.id in runtime.scheduler.tasks
        assert not table.is_away(actor)
        for _ in range(100):  # away first (saved), then the computer's move: wait for both
            if table.is_away(actor) and table.game.to_act != str(actor):
                break
            await asyncio.sleep(0.05)
        assert table.is_away(actor) and table.game.to_act != str(actor)
        assert time.time() >= deadline  # when its time had passed, not before
    finally:
        await runtime.scheduler.close()
        await db.close()
