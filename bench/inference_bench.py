"""How much probability the strong player's sampler gives the true hidden hands.

    python bench/inference_bench.py --games 200 --seed 11 --worlds 300

Basic players play whole rounds (3, 4 and 5 seats in turn); seat ``s0`` keeps
the strong player's memory (``Tracker``). At each of its turns after the first
cycle, each sampler deals ``--worlds`` worlds from ``s0``'s view, and every
card an opponent really holds (and ``s0`` can not place for sure) is scored by
the log of the share of worlds that put it in that opponent's hand (a
per-card log-likelihood of the true hands; a share of 0 counts as half a
world). Samplers: ``uniform`` (the unseen cards dealt at random around the
known ones), ``rules`` (the hard clues and rejection by the last discard, as
before issue 37) and ``weighted`` (likelihoods of everything each opponent
did: ``engine.ai.worlds.sample_weighted``, by rejection) and ``importance``
(dealt by the rules, each world weighed by those likelihoods:
``engine.ai.worlds.sample_importance``; its shares are weighted). Prints the
mean per hidden card and the paired differences per position with their 95%
intervals. One process, one core.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, Seat  # noqa: E402
from engine.actions import Discard  # noqa: E402
from engine.ai.inference import Clues, Tracker  # noqa: E402
from engine.ai.likelihood import evidence  # noqa: E402
from engine.ai.strategies import BasicStrategy  # noqa: E402
from engine.ai.worlds import hidden_cards, sample_hidden, sample_importance, sample_weighted  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.view import PlayerView  # noqa: E402

Sampler = Callable[[random.Random], tuple[dict[str, list[Card]], list[Card], float]]
"""Deals one world: the hands, the stock and the world's weight (1 but for ``importance``)."""


def ci95(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    m = statistics.fmean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf"))


def samplers(view: PlayerView, clues: Clues, redeals: int) -> dict[str, Sampler]:
    known, pool = hidden_cards(view)
    ev = evidence(view, clues)
    return {
        "uniform": lambda rng: (*sample_hidden(view, known, pool, Clues(), rng), 1.0),
        "rules": lambda rng: (*sample_hidden(view, known, pool, clues, rng), 1.0),
        "weighted": lambda rng: (*sample_weighted(view, known, pool, clues, ev, rng, redeals=redeals), 1.0),
        "importance": lambda rng: sample_importance(view, known, pool, clues, ev, rng),
    }


def score(
    view: PlayerView,
    clues: Clues,
    truth: dict[str, list[Card]],
    sample: Sampler,
    worlds: int,
    rng: random.Random,
) -> tuple[float, int]:
    """Sum of log shares over the true hidden cards, and how many there were."""
    counts: dict[str, dict[Card, float]] = {p: {} for p in truth}
    every: dict[str, dict[Card, int]] = {p: {} for p in truth}
    mass = 0.0
    for _ in range(worlds):
        hands, _stock, w = sample(rng)
        mass += w
        for p in truth:
            held, times = counts[p], every[p]
            for c in hands[p]:
                held[c] = held.get(c, 0.0) + w
                times[c] = times.get(c, 0) + 1
    total, n = 0.0, 0
    for p, hand in truth.items():
        for c in hand:
            if every[p].get(c, 0) == worlds:
                continue  # placed for sure by every sampler alike (a known card)
            share = counts[p].get(c, 0.0) / mass if mass > 0 else 0.0
            total += math.log(max(share, 0.5 / worlds))
            n += 1
    return total, n


def positions(games: int, seed: int) -> Iterator[tuple[int, PlayerView, Clues, dict[str, list[Card]]]]:
    """The positions both benches score: ``s0``'s turn starts once the flip and flop are paid.

    ``games`` basic rounds (3, 4 and 5 seats in turn) dealt from ``seed``; each position comes
    as (its round's number, ``s0``'s view, what ``s0``'s tracker infers, the others' true hands).
    The tracker hears every turn start, as a player's would.
    """
    rng = random.Random(seed)
    basic = BasicStrategy()
    for g in range(games):
        n = 3 + g % 3
        game = Game([Seat(f"s{i}", 200) for i in range(n)], 5)
        game.start_round(rng)
        tracker = Tracker()
        while game.in_round:
            p = game.to_act
            assert p is not None
            view = game.view(p)
            r = game.round
            assert r is not None
            if p == "s0" and view.phase == "start":
                clues = tracker.clues(view)
                if view.flipflop_paid:
                    truth = {q: list(r.hands[q]) for q in view.players if q != p and q not in view.dead}
                    yield g, view, clues, truth
            action = basic.choose(view, rng)
            if p == "s0" and isinstance(action, Discard):
                tracker.left(view, action.card)
            game.apply(action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--redeals", type=int, default=4, help="weighted: hands dealt again at most")
    args = parser.parse_args()
    names = ("uniform", "rules", "weighted", "importance")
    per_card: dict[str, list[float]] = {k: [] for k in names}
    per_pos: dict[str, list[float]] = {k: [] for k in names}
    started = time.perf_counter()
    for g, view, clues, truth in positions(args.games, args.seed):
        for name, sample in samplers(view, clues, args.redeals).items():
            total, k = score(view, clues, truth, sample, args.worlds, random.Random(g))
            if k:
                per_pos[name].append(total / k)
                per_card[name].append(total / k)
    elapsed = time.perf_counter() - started
    print(
        f"{len(per_pos['uniform'])} positions from {args.games} rounds, seed {args.seed}, "
        f"{args.worlds} worlds each, {elapsed:.0f} s on 1 core"
    )
    print("mean log-likelihood per hidden card (higher is better):")
    for name in names:
        m, h = ci95(per_card[name])
        print(f"  {name:<10} {m:+.4f} ± {h:.4f}")
    pairs = (("rules", "uniform"), ("weighted", "uniform"), ("weighted", "rules"), ("importance", "weighted"))
    for a, b in pairs:
        m, h = ci95([x - y for x, y in zip(per_pos[a], per_pos[b], strict=True)])
        print(f"  {a} − {b}: {m:+.4f} ± {h:.4f} per hidden card, paired by position (95% CI)")


if __name__ == "__main__":
    main()
