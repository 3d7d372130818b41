"""The strong player's regret at the start of a turn, against an oracle that knows the hidden hands.

    python bench/regret_bench.py --seed 501 --games 150 base THROW_MISS=1.0

A paired, low-noise way to compare settings of the strong player, where whole rounds
(``strength_bench.py``) need thousands to tell a few tenths of a chip apart. Rounds of
3, 4 and 5 seats in turn are played by basic players but for ``s0``, whose moves are the first
variant's. At each of ``s0``'s turns from its second on, at the start (drop, take the discard
or draw: the decision that costs the strong player the most against ``peek``), every variant
chooses from the same view, each with its own memory (``Tracker``), and an oracle scores every
action: the chip result of each, played out by the basic policy in ``--worlds`` worlds with the
others' true hands and the stock shuffled at random (the same worlds for every action). A
variant's regret is the oracle's best mean less the mean of the action it chose. Prints each
variant's mean regret per decision (chips, 95% interval), per seat count, and each variant's
regret less the first's, paired by decision.

A variant is ``base`` (the strategy's defaults) or comma-separated ``KEY=value``: an upper-case
key sets that constant of ``engine.ai.likelihood`` while the variant chooses (``THROW_MISS=1.0``:
no weight from earlier discards), a lower-case one a ``StrongStrategy`` option (``keep_z=0``,
``weigh=0``). One process, one core; the variants' choices run at ``--budget`` of wall time each.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from strength_bench import HandsPeek  # noqa: E402

from engine import Game, Seat  # noqa: E402
from engine.actions import Discard  # noqa: E402
from engine.ai import likelihood  # noqa: E402
from engine.ai.inference import Tracker  # noqa: E402
from engine.ai.strategies import BasicStrategy, StrongStrategy, World, playable  # noqa: E402
from engine.view import PlayerView  # noqa: E402

Variant = tuple[dict[str, float], dict[str, float]]
"""The likelihood constants a variant sets, and its ``StrongStrategy`` options."""


def ci95(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    m = statistics.fmean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf"))


def parse(spec: str) -> Variant:
    """``base`` or ``KEY=value,option=value``: the constants and the options."""
    consts: dict[str, float] = {}
    options: dict[str, float] = {}
    if spec != "base":
        for item in spec.split(","):
            key, value = item.split("=")
            (consts if key.isupper() else options)[key] = float(value)
    return consts, options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help="base, or KEY=value,option=value (see above)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--games", type=int, default=150, help="rounds played")
    parser.add_argument("--budget", type=float, default=0.18, help="each variant's seconds per decision")
    parser.add_argument("--worlds", type=int, default=300, help="the oracle's worlds per decision")
    args = parser.parse_args()
    variants = [parse(v) for v in args.variants]
    defaults = {k: getattr(likelihood, k) for c, _ in variants for k in c}
    rng = random.Random(args.seed)
    basic = BasicStrategy()
    regret: list[list[float]] = [[] for _ in variants]
    seats: list[int] = []
    differ = 0
    started = time.perf_counter()
    for g in range(args.games):
        n = 3 + g % 3
        game = Game([Seat(f"s{i}", 200) for i in range(n)], 5)
        game.start_round(rng)

        def reveal(view: PlayerView, game: Game = game) -> World:
            r = game.round
            assert r is not None
            return {p: list(h) for p, h in r.hands.items()}, list(r.stock)

        players = [
            StrongStrategy(budget=args.budget, tracker=Tracker(), **opts)  # type: ignore[arg-type]
            for _, opts in variants
        ]
        # the oracle: the search given the true hands (the stock shuffled in every world), every world played
        oracle = HandsPeek(reveal, 60.0, max_samples=args.worlds, cut_z=math.inf)
        turns = 0
        while game.in_round:
            p = game.to_act
            assert p is not None
            view = game.view(p)
            if p != "s0":
                game.apply(basic.choose(view, rng))
                continue
            if view.phase == "drawn":
                action = players[0].choose(view, random.Random(f"{g}-{turns}-drawn"))
                if isinstance(action, Discard):
                    for player in players[1:]:
                        player.tracker.left(view, action.card)
                game.apply(action)
                continue
            turns += 1
            chosen = []
            for (consts, _), player in zip(variants, players, strict=True):
                for k, v in defaults.items():
                    setattr(likelihood, k, consts.get(k, v))
                chosen.append(player.choose(view, random.Random(f"{g}-{turns}")))
            for k, v in defaults.items():
                setattr(likelihood, k, v)
            acts = playable(view)
            if turns > 1 and len(acts) > 1:
                scored = oracle.evaluate(view, random.Random(f"{g}-{turns}-oracle"), acts)
                means = {s.action: s.mean for s in scored}
                best = max(means.values())
                for k, a in enumerate(chosen):
                    regret[k].append(best - means[a])
                seats.append(n)
                differ += len(set(chosen)) > 1
            game.apply(chosen[0])
    elapsed = time.perf_counter() - started
    print(
        f"seed {args.seed}: {len(seats)} decisions at the start of s0's turns in {args.games} rounds, "
        f"oracle {args.worlds} worlds, budget {args.budget * 1000:.0f} ms, {differ} with different "
        f"choices, {elapsed:.0f} s on 1 core"
    )
    for k, spec in enumerate(args.variants):
        m, h = ci95(regret[k])
        line = f"  {spec:<28} regret {m:.3f} ± {h:.3f} chips a decision"
        for s in (3, 4, 5):
            part = [x for x, c in zip(regret[k], seats, strict=True) if c == s]
            if part:
                line += f"  [{s}] {statistics.fmean(part):.3f}"
        if k:
            m, h = ci95([x - y for x, y in zip(regret[k], regret[0], strict=True)])
            line += f"   − {args.variants[0]}: {m:+.3f} ± {h:.3f}"
        print(line)


if __name__ == "__main__":
    main()
