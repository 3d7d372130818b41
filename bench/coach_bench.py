"""The coach's latency: a hint, and each decision of "Analyse my play".

    python bench/coach_bench.py [--hints 40] [--rounds 10] [--players 4] [--seed 1]

Part 1 deals seeded rounds played by the basic strategy and, at each decision of
seat ``p0`` with a choice, asks for a hint with the bot's budget
(``engine.ai.coach.HINT_BUDGET``) the way the bot does: in the runtime's worker
process (``ComputerPlayers.run``), timed from the submit to the answer (the pool
is warmed up first). It prints p50/p99 of that wall time.

Part 2 plays ``--rounds`` more rounds, stores each as the bot does
(``Game.round_transcript``) and looks back at ``p0``'s decisions with the bot's
budgets (``engine.ai.review.REVIEW_BUDGET`` a decision, ``REVIEW_TOTAL`` in all): p50/p99 per
decision, and per whole look back (with how many stopped early).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.runtime.computers import ComputerPlayers  # noqa: E402
from engine import Game, Seat  # noqa: E402
from engine.ai.coach import HINT_BUDGET, hint_worker  # noqa: E402
from engine.ai.review import REVIEW_BUDGET, REVIEW_TOTAL, Analysis, analyse_worker  # noqa: E402
from engine.ai.strategies import BasicStrategy, playable  # noqa: E402
from engine.view import PlayerView  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rounds(count: int, players: int, seed: int) -> list[tuple[list[PlayerView], dict[str, Any]]]:
    """Seeded rounds by the basic strategy: p0's views with a choice, and the round's transcript."""
    rng = random.Random(seed)
    out = []
    basic = BasicStrategy()
    for _ in range(count):
        game = Game([Seat(f"p{i}", 200) for i in range(players)], 5)
        game.start_round(rng=rng)
        views: list[PlayerView] = []
        while game.in_round:
            p = game.to_act
            assert p is not None
            view = game.view(p)
            if p == "p0" and len(playable(view)) > 1:
                views.append(view)
            game.apply(basic.choose(view, rng))
        out.append((views, game.round_transcript()))
    return out


async def hints(pool: ComputerPlayers, views: list[PlayerView], seed: int) -> list[float]:
    times = []
    for i, view in enumerate(views):
        start = time.perf_counter()
        await pool.run(hint_worker, view, seed + i, HINT_BUDGET)
        times.append(time.perf_counter() - start)
    return times


async def look_backs(
    pool: ComputerPlayers, transcripts: list[dict[str, Any]]
) -> list[tuple[float, Analysis]]:
    out = []
    for i, transcript in enumerate(transcripts):
        start = time.perf_counter()
        analysis = await pool.run(analyse_worker, transcript, "p0", i, REVIEW_BUDGET, REVIEW_TOTAL)
        out.append((time.perf_counter() - start, analysis))
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hints", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pool = ComputerPlayers(workers=2)
    try:
        dealt = rounds(args.rounds * 4, args.players, args.seed)
        views = [v for vs, _ in dealt for v in vs][: args.hints]
        await pool.run(hint_worker, views[0], 0, 0.01)  # start the worker (not timed)
        taken = await hints(pool, views, args.seed)
        print(
            f"hint (budget {HINT_BUDGET} s, worker process, {len(taken)} decisions, {args.players} players):"
        )
        print(f"  p50 {pct(taken, 0.5) * 1000:.0f} ms · p99 {pct(taken, 0.99) * 1000:.0f} ms")
        transcripts = [t for vs, t in dealt if vs][: args.rounds]
        looked = await look_backs(pool, transcripts)
        per = [s for _, a in looked for s in a.per_decision]
        whole = [s for s, _ in looked]
        early = sum(a.stopped_early for _, a in looked)
        found = sum(len(a.reviews) for _, a in looked)
        print(
            f"look back (budget {REVIEW_BUDGET} s a decision, {REVIEW_TOTAL} s in all, "
            f"{len(looked)} rounds, {len(per)} decisions):"
        )
        print(f"  per decision p50 {pct(per, 0.5) * 1000:.0f} ms · p99 {pct(per, 0.99) * 1000:.0f} ms")
        print(
            f"  whole look back p50 {pct(whole, 0.5):.2f} s · p99 {pct(whole, 0.99):.2f} s · "
            f"stopped early {early} of {len(looked)} · decisions reported {found}"
        )
    finally:
        pool.close()


if __name__ == "__main__":
    asyncio.run(main())
