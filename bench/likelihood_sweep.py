"""The weighted sampler's log-likelihood of the true hands under other likelihood settings, paired.

    python bench/likelihood_sweep.py --seed 501 --games 150 THROW_MISS=1.0 base THROW_MISS=0.1

The positions of ``bench/inference_bench.py`` (basic rounds, 3, 4 and 5 seats in turn, ``s0``'s
turns after the first cycle), scored the same way (per hidden card, the log of the share of
``--worlds`` worlds that put it in the right hand), by ``engine.ai.worlds.sample_weighted`` under
each setting: ``base`` (the module's constants) or comma-separated ``KEY=value``, where an upper-case
``KEY`` is a constant of ``engine.ai.likelihood``, ``POW`` raises every likelihood to a power
(tempering) and ``REDEALS`` is the sampler's ``redeals``. Prints each setting's mean and, for the
others, the difference from the first, paired by position, in all and per seat count.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from inference_bench import ci95, positions, score  # noqa: E402

from engine.ai import (
    likelihood,  # noqa: E402
    worlds,  # noqa: E402
)
from engine.ai.inference import (
    Clues,  # noqa: E402
    )
from engine.ai.worlds import hidden_cards, sample_weighted  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.view import PlayerView  # noqa: E402


def parse(spec: str) -> dict[str, float]:
    """``base`` or ``KEY=value,KEY=value``."""
    if spec == "base":
        return {}
    return {k: float(v) for k, v in (item.split("=") for item in spec.split(","))}


def tempered(power: float) -> Callable[..., float]:
    """``engine.ai.likelihood.likelihood`` raised to ``power``."""
    plain = likelihood.likelihood

    def weigh(hand: Sequence[Card], ev: likelihood.Evidence, discard: bool = True) -> float:
        return plain(hand, ev, discard) ** power

    return weigh


def sampler(
    view: PlayerView,
    known: dict[str, list[Card]],
    pool: list[Card],
    clues: Clues,
    ev: dict[str, likelihood.Evidence],
    redeals: int,
) -> Callable[[random.Random], tuple[dict[str, list[Card]], list[Card], float]]:
    """Deals weighted worlds of ``view`` (weight 1), as ``inference_bench``'s samplers do."""
    return lambda rng: (*sample_weighted(view, known, pool, clues, ev, rng, redeals=redeals), 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="+", help="base, or KEY=value,KEY=value (see above)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--worlds", type=int, default=200)
    args = parser.parse_args()
    settings = [parse(s) for s in args.settings]
    consts = {k for s in settings for k in s if k not in ("POW", "REDEALS")}
    defaults = {k: getattr(likelihood, k) for k in consts}
    plain = likelihood.likelihood
    res: list[list[float]] = [[] for _ in settings]
    seats: list[int] = []
    for g, view, clues, truth in positions(args.games, args.seed):
        known, pool = hidden_cards(view)
        found = []
        for s in settings:
            for k, v in defaults.items():
                setattr(likelihood, k, s.get(k, v))
            power = s.get("POW", 1.0)
            redeals = int(s.get("REDEALS", 4))
            ev = likelihood.evidence(view, clues)
            worlds.likelihood = tempered(power) if power != 1.0 else plain  # type: ignore[assignment]
            found.append(
                score(
                    view,
                    clues,
                    truth,
                    sampler(view, known, pool, clues, ev, redeals),
                    args.worlds,
                    random.Random(g),
                )
            )
            worlds.likelihood = plain  # type: ignore[assignment]
        for k, v in defaults.items():
            setattr(likelihood, k, v)
        if found[0][1]:
            for k, (t, m) in enumerate(found):
                res[k].append(t / m)
            seats.append(len(view.players))
    print(f"{len(seats)} positions from {args.games} rounds, seed {args.seed}, {args.worlds} worlds each")
    for k, spec in enumerate(args.settings):
        m, h = ci95(res[k])
        line = f"  {spec:<28} {m:+.4f} ± {h:.4f}"
        if k:
            m, h = ci95([x - y for x, y in zip(res[k], res[0], strict=True)])
            line += f"   − {args.settings[0]}: {m:+.4f} ± {h:.4f}"
            for s in (3, 4, 5):
                part = [x - y for x, y, c in zip(res[k], res[0], seats, strict=True) if c == s]
                if len(part) > 1:
                    m, h = ci95(part)
                    line += f"  [{s}] {m:+.4f} ± {h:.4f}"
        print(line)


if __name__ == "__main__":
    main()
