"""Screenshots of a tournament's message (open, standings a few rounds in, finished) from simcord's preview.

    TOURNAMENT_SHOTS=docs/screenshots .venv/bin/pytest tests/cogs/test_tournament_shots.py

Skipped unless ``TOURNAMENT_SHOTS`` names a folder: it needs Debian's ``chromium`` (headless, through
``scripts/screenshot.py``'s ``capture``). Play runs on simcord's clock, as in test_tournament.py,
where the playground (``make play``) moves computers in real time.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import simcord

from scripts.screenshot import capture
from tests.cogs.test_tournament import opened, tournament_now
from tests.conftest import World

SHOTS = os.environ.get("TOURNAMENT_SHOTS")


@pytest.mark.skipif(not SHOTS, reason="set TOURNAMENT_SHOTS=<folder> to take the screenshots")
async def test_tournament_screenshots(simcord_env: simcord.Env) -> None:
    out = Path(str(SHOTS))
    out.mkdir(parents=True, exist_ok=True)
    world = World(simcord_env, members=4)
    lobby = await opened(world, world.members[0], fee=50, seats=12, level_rounds=2)
    for m in world.members[:3]:
        await m.click(lobby, label="Join")

    async def shot(name: str) -> None:
        viewers = [world.members[0]]
        async with world.env.preview(
            world.channel, viewers=viewers, layout="channel", width=1100, height=1300
        ) as pv:
            await capture(pv.url, out / name, 1100, 1300)

    await shot("tournament-open.png")
    await world.members[3].click(lobby, label="Join")
    await world.members[0].click(lobby, label="Start")
    for _ in range(3000):
        tour = await tournament_now(world)
        out_yet = any(e.out_round for e in tour.entrants.values())
        if tour.status != "running" or (tour.round >= 5 and out_yet and tour.last_moves):
            break
        await world.env.advance_time(1)
    await shot("tournament-standings.png")
    for _ in range(3000):
        if (await tournament_now(world)).status != "running":
            break
        await world.env.advance_time(1)
    await shot("tournament-finished.png")
