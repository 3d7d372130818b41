"""How strong the strong player is: strong − basic and peek − strong, paired by deal, per seat count.

    python bench/strength_bench.py --seed 2026 --rounds 600 --budget 0.18 --jobs 1
    python bench/strength_bench.py --seed 101 --rounds 600 --only peek-strong --no-weigh --keep-z 0

Every deal (3, 4 and 5 seats in turn, each seat's stack 200, stake 5) is
played four times: strong against basic and basic against strong (the two
swapping seats, as in duplicate bridge), then peek against strong and strong
against peek. ``peek`` (``engine.ai.strategies.PeekStrategy``, for benchmarks
only) is the strong player's search given the true hidden cards: the ceiling
of what better inference could bring this search. The luck of the cards
cancels out of each paired difference. ``--rounds`` counts the rounds of each
comparison (two per deal). Prints each difference per round with its 95%
interval, in all and per seat count, and the strong player's decision time
(median, 99th percentile) and the load average. ``--weigh`` / ``--no-weigh``: the
strong player weighs sampled hands by likelihoods or not (``StrongStrategy(weigh=…)``;
default: the strategy's own); ``--keep-z``: its ``keep_z``. One process: one core
(``--jobs`` to use more).

``--only hands-strong`` (never run by default) plays ``hands`` against strong: the strong player
given the others' true hands but not the stock's order (``HandsPeek``). ``peek`` also knows what
every draw from the stock will bring, which no inference can tell; hands − strong is the part of
peek − strong that better inference of the hands could recover.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, Seat  # noqa: E402
from engine.ai.inference import Tracker  # noqa: E402
from engine.ai.strategies import BasicStrategy, PeekStrategy, Strategy, StrongStrategy, World  # noqa: E402
from engine.view import PlayerView  # noqa: E402

PAIRS = (("strong", "basic"), ("peek", "strong"))
EXTRA = (("hands", "strong"),)
"""Run only when asked (``--only hands-strong``): ``hands`` knows the hidden hands, not the stock."""


class HandsPeek(StrongStrategy):
    """For this bench only: the strong player given the others' true hands, the stock still unknown.

    ``PeekStrategy`` knows the stock's order too (what it will draw, what the others will), which no
    inference can tell; this one deals the true hands in every world and shuffles the stock's cards
    at random, so hands − strong is what perfect inference of the hands would be worth to the search.
    """

    name = "hands"

    def __init__(self, reveal: Callable[[PlayerView], World], budget: float, **options: Any) -> None:
        super().__init__(budget=budget, tracker=Tracker(), **options)
        self.reveal = reveal

    def _sampler(self, view: PlayerView) -> Callable[[random.Random], World]:
        hands, stock = self.reveal(view)

        def sample(rng: random.Random) -> World:
            rand = rng.random
            return {p: list(h) for p, h in hands.items()}, sorted(stock, key=lambda _: rand())

        return sample


def ci95(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("inf")
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def strong(budget: float, weigh: bool | None, keep_z: float) -> StrongStrategy:
    """The strong player of this bench: the strategy's defaults but for the options given."""
    if weigh is None:
        return StrongStrategy(budget=budget, tracker=Tracker(), keep_z=keep_z)
    return StrongStrategy(budget=budget, tracker=Tracker(), weigh=weigh, keep_z=keep_z)


def play(
    game: Game,
    seats: list[str],
    ids: list[str],
    budget: float,
    rng: random.Random,
    times: dict[str, list[float]],
    weigh: bool | None = None,
    keep_z: float = 1.0,
) -> dict[str, float]:
    """Play the round dealt in ``game``; each strategy's mean chip result per seat."""

    def reveal(view: PlayerView) -> World:
        r = game.round
        assert r is not None
        return {p: list(h) for p, h in r.hands.items()}, list(r.stock)

    players: dict[str, Strategy] = {
        "basic": BasicStrategy(),
        "strong": strong(budget, weigh, keep_z),
        "peek": PeekStrategy(reveal, budget=budget),
        "hands": HandsPeek(reveal, budget),
    }
    while game.in_round:
        p = game.to_act
        assert p is not None
        who = seats[ids.index(p)]
        t = time.perf_counter()
        action = players[who].choose(game.view(p), rng)
        times[who].append(time.perf_counter() - t)
        game.apply(action)
    delta: dict[str, list[float]] = defaultdict(list)
    for k, p in enumerate(ids):
        delta[seats[k]].append(game.stacks[p] - 200)
    return {name: statistics.fmean(v) for name, v in delta.items()}


def play_deals(
    job: tuple[tuple[tuple[str, str], ...], float, bool | None, float, int, int, int],
) -> dict[str, object]:
    """Deals ``first`` to ``last``: each comparison's paired difference per deal, seat counts, times."""
    pairs, budget, weigh, keep_z, seed, first, last = job
    diffs: dict[str, list[float]] = defaultdict(list)
    seat_counts: list[int] = []
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(first, last):
        deal_rng = random.Random(f"{seed}-{i}")
        deal_seed, decision_seed = deal_rng.random(), deal_rng.random()
        n = 3 + i % 3
        ids = [f"s{k}" for k in range(n)]
        for a, b in pairs:
            pair = []
            for swap in (0, 1):  # duplicate: the same cards, the strategies in each other's seats
                names = (a, b)
                seats = [names[(k + i + swap) % 2] for k in range(n)]
                game = Game([Seat(p, 200) for p in ids], 5)
                game.start_round(random.Random(deal_seed), dealer=ids[i % n])
                result = play(game, seats, ids, budget, random.Random(decision_seed), times, weigh, keep_z)
                pair.append(result[a] - result[b])
            diffs[f"{a} − {b}"].append(statistics.fmean(pair))
        seat_counts.append(n)
    return {"diffs": dict(diffs), "seat_counts": seat_counts, "times": dict(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed", type=int, required=True, help="the deals (report on one you did not tune on)"
    )
    parser.add_argument("--rounds", type=int, default=600, help="rounds of each comparison (each deal twice)")
    parser.add_argument("--budget", type=float, default=0.18, help="strong and peek: seconds per decision")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one core each)")
    parser.add_argument(
        "--only",
        choices=["strong-basic", "peek-strong", "hands-strong"],
        help="one comparison (half the time); hands-strong (true hands, stock unknown) only when asked",
    )
    parser.add_argument(
        "--weigh",
        action=argparse.BooleanOptionalAction,
        help="strong weighs sampled hands (weigh=True) or not (--no-weigh); default: the strategy's own",
    )
    parser.add_argument("--keep-z", type=float, default=1.0, help="strong's keep_z (0: the best estimate)")
    args = parser.parse_args()
    asked = (*PAIRS, *EXTRA) if args.only else PAIRS
    pairs = tuple(p for p in asked if args.only in (None, "-".join(p)))
    deals = max(1, args.rounds // 2)
    chunks = [
        (
            pairs,
            args.budget,
            args.weigh,
            args.keep_z,
            args.seed,
            k * deals // args.jobs,
            (k + 1) * deals // args.jobs,
        )
        for k in range(args.jobs)
    ]
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            parts = pool.map(play_deals, chunks)
    else:
        parts = [play_deals(chunks[0])]
    elapsed = time.perf_counter() - started
    diffs: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    seat_counts: list[int] = []
    for part in parts:
        for k, v in part["diffs"].items():  # type: ignore[attr-defined]
            diffs[k] += v
        for k, v in part["times"].items():  # type: ignore[attr-defined]
            times[k] += v
        seat_counts += part["seat_counts"]  # type: ignore[operator]
    print(
        f"seed {args.seed}: {deals} deals (3, 4 and 5 seats in turn), each comparison {2 * deals} rounds "
        f"(every deal twice, seats swapped), budget {args.budget * 1000:.0f} ms, "
        f"{elapsed:.0f} s on {args.jobs} core(s), load average at the end {os.getloadavg()[0]:.1f}"
    )
    for name, ds in diffs.items():
        m, h = ci95(ds)
        print(f"{name} per round, paired by deal: {m:+.2f} ± {h:.2f} chips (95% CI)")
        for n in (3, 4, 5):
            part = [d for d, k in zip(ds, seat_counts, strict=True) if k == n]
            if part:
                m, h = ci95(part)
                print(f"  {n} seats: {m:+.2f} ± {h:.2f} chips per round ({2 * len(part)} rounds)")
    ts = sorted(times["strong"])
    if ts:
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(
            f"strong's decisions: {len(ts)}, median {statistics.median(ts) * 1000:.1f} ms, "
            f"99th percentile {p99 * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
