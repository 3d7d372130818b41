"""How long a click at a playground table keeps the page on "Completing action…".

``python -m bench.playground_wait [N]``: the real bot in the playground's simulated
Discord (no browser), as ``make play`` runs it. N times each: a member opens a table —
a practice table with two computer players, or a table of three members — and clicks
**Start**; the click is timed from the interaction to its settled answer, which is what
the preview page waits for. At a practice table a computer often has the first turn:
the figure says whether the click waited for the computers' moves.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.playground import playground


async def _start_click(practice: bool) -> tuple[float, bool]:
    """Seconds the Start click took to settle, and whether a computer still had the turn then."""
    with tempfile.TemporaryDirectory() as tmp:
        async with playground(Path(tmp) / "p.sqlite3", members=3, preview=False) as world:
            ann, ben, cat = world.members
            opened = await ann.slash(world.channel, "flipflop practice" if practice else "flipflop start")
            lobby = opened.response.message
            if not practice:
                for member in (ben, cat):
                    await member.click(lobby, label="Join")
            start = time.perf_counter()
            await ann.click(lobby, label="Start")
            took = time.perf_counter() - start
            runtime = world.bot.runtime
            assert runtime is not None
            table = runtime.in_channel(world.channel.id)
            assert table is not None and table.game is not None
            to_act = table.game.to_act
            return took, to_act is not None and table.is_computer(to_act)


async def main(rounds: int) -> None:
    """Print the figures for both kinds of table."""
    for practice in (False, True):
        runs = [await _start_click(practice) for _ in range(rounds)]
        times = [t for t, _ in runs]
        label = "practice table (2 computers)" if practice else "table of 3 members"
        print(
            f"{label}: Start click settled in median {statistics.median(times):.3f} s, "
            f"max {max(times):.3f} s over {len(times)} tables; "
            f"a computer still to move after the click at {sum(c for _, c in runs)} of them"
        )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 6))
