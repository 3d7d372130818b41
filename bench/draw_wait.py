"""How long **Draw from stock** keeps the playground's page on "Completing action…", channel vs thread.

``python -m bench.draw_wait [N]``: the real bot in the playground's simulated Discord (no
browser), as ``make play`` runs it. N tables of three members each way, up to 12 turns each:
the member whose turn it is opens their hand, clicks **Draw from stock** (timed from the
interaction to its settled answer, what the preview page waits for) and discards; a game
played in the channel against one played in its thread (``--threads``).
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


def _cards(message: Any) -> list[str]:
    """The custom ids of a hand's enabled discard buttons."""
    out = []
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        for c in row.get("components", []):
            cid = str(c.get("custom_id", ""))
            if c.get("type") == 2 and not c.get("disabled") and ":discard:" in cid and cid.split(":")[5]:
                out.append(cid)
    return out


async def draw_clicks(threads: bool, turns: int) -> list[float]:
    """Seconds each Draw click took to settle, over ``turns`` turns of a table of three."""
    took: list[float] = []
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
            assert table is not None
            where = next(c for c in (world.channel, *world.channel.threads) if c.id == table.plays_in)
            while len(took) < turns and table.game is not None and table.game.in_round:
                actor = next(m for m in world.members if str(m.id) == table.game.to_act)
                hand = (await actor.slash(where, "flipflop hand")).response
                await world.env.settle()
                start = time.perf_counter()
                drawn = await actor.click(hand, custom_id=_button(hand, "Draw from stock"))
                await world.env.settle()  # as the preview page does before it shows the click done
                took.append(time.perf_counter() - start)
                cards = _cards(drawn.response)
                await actor.click(drawn.response, custom_id=cards[-1])
                await world.env.settle()
    return took


async def main(rounds: int) -> None:
    """Print the figures for a game in the channel and one in a thread."""
    for threads in (False, True):
        times = [t for _ in range(rounds) for t in await draw_clicks(threads, 12)]
        label = "in a thread" if threads else "in the channel"
        print(
            f"Draw {label}: settled in median {statistics.median(times):.3f} s, "
            f"max {max(times):.3f} s over {len(times)} draws ({rounds} tables)"
        )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 6))
