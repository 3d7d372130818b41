"""A tournament's message in Chromium (open, standings a few rounds in, finished), from simcord's preview.

Each moment is checked (the tournament open, running with someone out after round 5, finished with
its prizes) and its screenshot must be a real picture of the message. The screenshots go to a
temporary folder, or to ``TOURNAMENT_SHOTS`` when it names one (the README's come from)::

    TOURNAMENT_SHOTS=docs/screenshots .venv/bin/pytest tests/browser/test_tournament_shots.py

Chromium runs headless through ``scripts/screenshot.py``'s ``capture`` (Debian's ``chromium``, as
the rest of ``make test-browser``). Play runs on simcord's clock, as in tests/cogs/test_tournament.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import simcord
from PIL import Image

from scripts.screenshot import capture
from tests.cogs.test_tournament import opened, tournament_now
from tests.conftest import World

WIDTH, HEIGHT = 1100, 1300


def a_picture(path: Path) -> None:
    """The screenshot is a PNG of the preview's size with more on it than a blank page."""
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (WIDTH, HEIGHT), (image.format, image.size)
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50, f"{path.name} is nearly blank ({len(colours)} colours)"


async def test_tournament_screenshots(simcord_env: simcord.Env, tmp_path: Path) -> None:
    out = Path(os.environ.get("TOURNAMENT_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    world = World(simcord_env, members=4)
    lobby = await opened(world, world.members[0], fee=50, seats=12, level_rounds=2)
    for m in world.members[:3]:
        await m.click(lobby, label="Join")

    async def shot(name: str) -> None:
        viewers = [world.members[0]]
        async with world.env.preview(
            world.channel, viewers=viewers, layout="channel", width=WIDTH, height=HEIGHT
        ) as pv:
            await capture(pv.url, out / name, WIDTH, HEIGHT)
        a_picture(out / name)

    assert (await tournament_now(world)).status == "open"
    await shot("tournament-open.png")
    await world.members[3].click(lobby, label="Join")
    await world.members[0].click(lobby, label="Start")
    for _ in range(3000):
        tour = await tournament_now(world)
        out_yet = any(e.out_round for e in tour.entrants.values())
        if tour.status != "running" or (tour.round >= 5 and out_yet and tour.last_moves):
            break
        await world.env.advance_time(1)
    assert tour.status == "running" and tour.round >= 5 and out_yet, (tour.status, tour.round)
    await shot("tournament-standings.png")
    for _ in range(3000):
        if (await tournament_now(world)).status != "running":
            break
        await world.env.advance_time(1)
    assert (await tournament_now(world)).status == "finished"
    await shot("tournament-finished.png")
