"""How long the strong player takes per decision: median, 95th, 99th percentile and the worst.

    python bench/decision_bench.py --seed 2026 --rounds 120 --budget 0.18

One strong player (``StrongStrategy`` with its defaults but ``--budget``) plays
whole rounds against basic players (3, 4 and 5 seats in turn); every one of its
decisions is timed on the wall clock, the view included, as the bot's runtime
would see it. The machine's load average is printed with the figures: the budget
is wall time, so a busy machine lengthens the tail. One process, one core.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, Seat  # noqa: E402
from engine.ai.inference import Tracker  # noqa: E402
from engine.ai.strategies import BasicStrategy, Strategy, StrongStrategy  # noqa: E402


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank below)."""
    ts = sorted(xs)
    return ts[min(len(ts) - 1, int(q * len(ts)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=120)
    parser.add_argument("--budget", type=float, default=0.18, help="seconds per decision")
    parser.add_argument(
        "--weigh",
        action=argparse.BooleanOptionalAction,
        help="strong weighs sampled hands (weigh=True) or not (--no-weigh); default: the strategy's own",
    )
    args = parser.parse_args()
    times: list[float] = []
    loads: list[float] = []
    started = time.perf_counter()
    for i in range(args.rounds):
        rng = random.Random(f"{args.seed}-{i}")
        n = 3 + i % 3
        ids = [f"s{k}" for k in range(n)]
        game = Game([Seat(p, 200) for p in ids], 5)
        game.start_round(rng, dealer=ids[i % n])
        strong: Strategy = (
            StrongStrategy(budget=args.budget, tracker=Tracker())
            if args.weigh is None
            else StrongStrategy(budget=args.budget, tracker=Tracker(), weigh=args.weigh)
        )
        players = {p: strong if k == i % n else BasicStrategy() for k, p in enumerate(ids)}
        while game.in_round:
            p = game.to_act
            assert p is not None
            t = time.perf_counter()
            action = players[p].choose(game.view(p), rng)
            if players[p] is strong:
                times.append(time.perf_counter() - t)
            game.apply(action)
        loads.append(os.getloadavg()[0])
    elapsed = time.perf_counter() - started
    print(
        f"seed {args.seed}: {args.rounds} rounds, budget {args.budget * 1000:.0f} ms, "
        f"{len(times)} decisions, "
        f"{elapsed:.0f} s, load average (1 min) {statistics.fmean(loads):.1f} "
        f"(from {min(loads):.1f} to {max(loads):.1f})"
    )
    print(
        f"strong's decisions: median {statistics.median(times) * 1000:.1f} ms, "
        f"95th percentile {percentile(times, 0.95) * 1000:.1f} ms, "
        f"99th percentile {percentile(times, 0.99) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
