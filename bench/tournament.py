"""Computer players against each other: many seeded rounds, seats rotating.

    python bench/tournament.py basic random --rounds 2000
    python bench/tournament.py strong basic --rounds 2000 --budget 0.18

Each round starts fresh (every stack 200, stake 5, empty pots) with 3, 4 or 5
seats in turn; the two strategies alternate around the table. Every deal is
played twice, the strategies swapping seats (as in duplicate bridge), so the
luck of the cards cancels out of the paired difference.
Prints, per strategy: game, flip and flop pots won, average chips won per
round with a 95% confidence interval, and decision time (median, 99th
percentile); then the paired difference per round with its 95% interval, in all
and for 3, 4 and 5 seats apart.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, Seat  # noqa: E402
from engine.ai.strategies import STRATEGIES, Strategy, StrongStrategy  # noqa: E402
from engine.events import PotPaid  # noqa: E402


def ci95(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("inf")
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def make(name: str, budget: float) -> Strategy:
    if name == "strong":
        return StrongStrategy(budget=budget)
    return STRATEGIES[name]()


def play_deals(job: tuple[list[str], float, int, int, int]) -> dict[str, object]:
    """Play deals ``first`` to ``last`` (each twice, the two strategies swapping seats)."""
    names, budget, seed, first, last = job
    players = {n: make(n, budget) for n in names}
    per_seat: dict[str, list[float]] = defaultdict(list)
    diffs: list[float] = []
    seat_counts: list[int] = []
    pots: dict[str, dict[str, int]] = {n: defaultdict(int) for n in names}
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(first, last):
        deal_rng = random.Random(f"{seed}-{i}")
        deal_seed, decision_seed = deal_rng.random(), deal_rng.random()
        n = 3 + i % 3
        pair: list[float] = []
        for swap in (0, 1):  # duplicate: the same cards, the strategies in each other's seats
            seats = [names[(k + i + swap) % 2] for k in range(n)]
            ids = [f"s{k}" for k in range(n)]
            game = Game([Seat(p, 200) for p in ids], 5)
            game.start_round(random.Random(deal_seed), dealer=ids[i % n])
            events = []
            decision_rng = random.Random(decision_seed)
            while game.in_round:
                p = game.to_act
                assert p is not None
                who = seats[ids.index(p)]
                t = time.perf_counter()
                action = players[who].choose(game.view(p), decision_rng)
                times[who].append(time.perf_counter() - t)
                events += game.apply(action)
            for e in events:
                if isinstance(e, PotPaid):
                    for p in e.shares:
                        pots[seats[ids.index(p)]][e.pot] += 1
            round_delta: dict[str, list[float]] = defaultdict(list)
            for k, p in enumerate(ids):
                delta = game.stacks[p] - 200
                per_seat[seats[k]].append(delta)
                round_delta[seats[k]].append(delta)
            pair.append(statistics.fmean(round_delta[names[0]]) - statistics.fmean(round_delta[names[1]]))
        diffs.append(statistics.fmean(pair))
        seat_counts.append(n)
    return {
        "per_seat": dict(per_seat),
        "diffs": diffs,
        "seat_counts": seat_counts,
        "pots": {k: dict(v) for k, v in pots.items()},
        "times": dict(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rounds", type=int, default=2000, help="rounds in all (each deal is played twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.18, help="strong: seconds per decision")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one core each)")
    args = parser.parse_args()
    names = [args.a, args.b]
    deals = max(1, args.rounds // 2)
    chunks = [
        (names, args.budget, args.seed, k * deals // args.jobs, (k + 1) * deals // args.jobs)
        for k in range(args.jobs)
    ]
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            parts = pool.map(play_deals, chunks)
    else:
        parts = [play_deals(chunks[0])]
    elapsed = time.perf_counter() - started
    per_seat: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    pots: dict[str, dict[str, int]] = {n: defaultdict(int) for n in names}
    diffs: list[float] = []
    seat_counts: list[int] = []
    for part in parts:
        for k, v in part["per_seat"].items():  # type: ignore[attr-defined]
            per_seat[k] += v
        for k, v in part["times"].items():  # type: ignore[attr-defined]
            times[k] += v
        for k, v in part["pots"].items():  # type: ignore[attr-defined]
            for pot, count in v.items():
                pots[k][pot] += count
        diffs += part["diffs"]  # type: ignore[operator]
        seat_counts += part["seat_counts"]  # type: ignore[operator]
    print(
        f"{2 * deals} rounds ({deals} deals, each played twice with the seats swapped; 3, 4 and 5 seats "
        f"in turn), seed {args.seed}, {elapsed:.0f} s on {args.jobs} core(s)"
    )
    print(
        f"{'strategy':<10}{'game':>7}{'flip':>7}{'flop':>7}{'chips/round (95% CI)':>26}"
        f"{'decision median':>18}{'p99':>10}"
    )
    for name in names:
        m, h = ci95(per_seat[name])
        ts = sorted(times[name])
        med = statistics.median(ts) * 1000
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))] * 1000
        print(
            f"{name:<10}{pots[name]['game']:>7}{pots[name]['flip']:>7}{pots[name]['flop']:>7}"
            f"{m:>+14.2f} ± {h:<9.2f}{med:>15.2f} ms{p99:>7.1f} ms"
        )
    m, h = ci95(diffs)
    verdict = "real" if m - h > 0 else ("reversed" if m + h < 0 else "not shown")
    print(
        f"{names[0]} − {names[1]} per round, paired by deal: {m:+.2f} ± {h:.2f} chips (95% CI) → "
        f"difference {verdict}"
    )
    for n in (3, 4, 5):
        part = [d for d, k in zip(diffs, seat_counts, strict=True) if k == n]
        if part:
            m, h = ci95(part)
            print(f"  {n} seats: {m:+.2f} ± {h:.2f} chips per round ({2 * len(part)} rounds)")


if __name__ == "__main__":
    main()
