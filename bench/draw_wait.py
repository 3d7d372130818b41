"""How long **Draw from stock** keeps the playground's page on "Completing action…", channel vs thread.

``python -m bench.draw_wait [N]``: the real bot in the playground's simulated Discord (no
browser), as ``make play`` runs it. N tables of three members each way: the member whose
turn it is opens their hand and clicks **Draw from stock**; the click is timed from the
interaction to its settled answer (what the preview page waits for), a game played in the
channel against one played in its thread (``--threads``).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.playground import playground


def _button(message: Any, label: str) -> str:
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        for c in row.get("components", []):
            if c.get("type") == 2 and c.get("label", "").startswith(label):
                return str(c["custom_id"])
    raise LookupError(label)


async def _draw_click(threads: bool) -> float:
    """Seconds one Draw click took to settle at a fresh table of three."""
    with tempfile.TemporaryDirectory() as tmp:
        async with playground(Path(tmp) / "p.sqlite3", members=3, preview=False, threads=threads) as world:
            ann, ben, cat = world.members
            lobby = (await ann.slash(world.channel, "flipflop start")).response.message
            for member in (ben, cat):
                await member.click(lobby, label="Join")
            await ann.click(lobby, label="Start")
            runtime = world.bot.runtime
            assert runtime is not None
            table = runtime.in_channel(world.channel.id)
            assert table is not None and table.game is not None and table.game.to_act is not None
            actor = next(m for m in world.members if str(m.id) == table.game.to_act)
            where = table.plays_in
            hand = await actor.slash(
                next(c for c in (world.channel, *world.channel.threads) if c.id == where), "flipflop hand"
            )
            await world.env.settle()
            start = time.perf_counter()
            await actor.click(hand.response, custom_id=_button(hand.response, "Draw from stock"))
            await world.env.settle()  # as the preview page does before it shows the click done
            return time.perf_counter() - start


async def main(rounds: int) -> None:
    """Print the figures for a game in the channel and one in a thread."""
    for threads in (False, True):
        times = [await _draw_click(threads) for _ in range(rounds)]
        label = "in a thread" if threads else "in the channel"
        print(
            f"Draw {label}: settled in median {statistics.median(times):.3f} s, "
            f"max {max(times):.3f} s over {len(times)} tables"
        )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 6))
