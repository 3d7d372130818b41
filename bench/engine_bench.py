"""How fast the engine plays: random legal games on one core for a fixed time.

    python bench/engine_bench.py [--seconds 10] [--players 4]
    python bench/engine_bench.py --vs-rlcard [--seconds 10] [--turns 6] [--leave-by-type]
    python bench/engine_bench.py --profile [--seconds 5]
    python bench/engine_bench.py --rollouts

At every step the full list of legal actions is made (as a computer player
would) and one is chosen at random; the figure counts applied actions. Whole
rounds and whole games are played and the game log is kept. Leave is left
out of the choice by its place (the last action listed), or, with
``--leave-by-type``, by filtering the list on the action's type, as a caller
that does not know the order would. Times are CPU
time of this process (``time.process_time``), so other work on a shared
machine disturbs the figures less.

``--vs-rlcard`` runs RLCard 1.2.0's gin rummy raw loop (``pip install
'.[bench]'``) the same way — ``judge.get_legal_actions()`` then ``game.step``
on a random one — alternating with ours in one process, and prints the ratio
of actions per second.

The first line says whether the engine's rule modules ran compiled (the
default where the install could compile them) or from their sources
(``FLIPFLOP_PURE_ENGINE=1`` asks for the sources).

``--rollouts`` counts the play-outs the strong player completes in its default
budget (180 ms, of CPU time) on 30 fixed positions from basic-strategy games.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import HOW_IT_RUNS, Game, Leave, Seat  # noqa: E402

Loop = Callable[[float, int], tuple[int, int]]


def run(seconds: float, players: int, seed: int, by_type: bool = False) -> tuple[int, int, float]:
    """Play random whole games for ``seconds`` of CPU time; return (actions, rounds, elapsed).

    ``by_type`` leaves Leave out by filtering on the action's type instead of by its place.
    """
    rng = random.Random(seed)
    rand = rng.random
    actions = rounds = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game = Game([Seat(f"p{i}", 200) for i in range(players)], 5)
        for _ in range(200):  # a batch of work between clock reads
            if game.over:
                break
            game.start_round(rng)
            rounds += 1
            if by_type:
                while game.in_round:
                    legal = [a for a in game.legal_actions() if not isinstance(a, Leave)]
                    game.apply(legal[int(rand() * len(legal))])
                    actions += 1
                continue
            while game.in_round:
                legal = game.legal_actions()
                game.apply(legal[int(rand() * (len(legal) - 1))])  # the last one is Leave
                actions += 1
    return actions, rounds, time.process_time() - start


def ours(seconds: float, seed: int) -> tuple[int, int]:
    """Flip Flop, 4 players: (actions, rounds) in ``seconds``."""
    actions, rounds, _ = run(seconds, 4, seed)
    return actions, rounds


def ours_by_type(seconds: float, seed: int) -> tuple[int, int]:
    """Flip Flop, 4 players, Leave filtered out by type: (actions, rounds) in ``seconds``."""
    actions, rounds, _ = run(seconds, 4, seed, by_type=True)
    return actions, rounds


def rlcard_loop(seconds: float, seed: int) -> tuple[int, int]:
    """RLCard gin rummy's raw game loop: (steps, games) in ``seconds``."""
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    rand = random.Random(seed).random
    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    steps = games = 0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        game.init_game()
        games += 1
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            game.step(legal[int(rand() * len(legal))])
            steps += 1
    return steps, games


def rollouts(positions: int = 30, seed: int = 3) -> list[int]:
    """Play-outs per decision of the default strong player, on fixed positions (basic-only games)."""
    from engine import Discard, Draw, Drop
    from engine.ai.strategies import BasicStrategy, StrongStrategy

    class Counting(StrongStrategy):
        done = 0

        def _play_out(self, *args: Any, **kwargs: Any) -> float:
            Counting.done += 1
            return super()._play_out(*args, **kwargs)

    rng = random.Random(seed)
    basic = BasicStrategy()
    views = []
    game = Game([Seat(f"p{i}", 200) for i in range(4)], 5)
    while len(views) < positions:
        if game.over:
            game = Game([Seat(f"p{i}", 200) for i in range(4)], 5)
        game.start_round(rng)
        while game.in_round:
            view = game.view(game.to_act or "")
            searched = [a for a in view.legal if isinstance(a, (Draw, Drop, Discard))]
            if view.player == "p0" and len(searched) == len(view.legal) - 1 and len(searched) > 1:
                views.append(view)
            game.apply(basic.choose(view, rng))
    strong = Counting(max_samples=10**9, clock=time.process_time)
    counts = []
    for i, view in enumerate(views[:positions]):
        Counting.done = 0
        strong.choose(view, random.Random(i))
        counts.append(Counting.done)
    return counts


def side_by_side(seconds: float, turns: int, seed: int, by_type: bool = False) -> float:
    """Alternate the two loops ``turns`` times each; print and return the ratio of actions/s."""
    totals: dict[str, list[float]] = {"flipflop": [0, 0.0], "rlcard": [0, 0.0]}
    loops: dict[str, Loop] = {"flipflop": ours_by_type if by_type else ours, "rlcard": rlcard_loop}
    for turn in range(turns):
        for name, loop in loops.items():
            start = time.process_time()
            steps, _ = loop(seconds / turns, seed + turn)
            totals[name][0] += steps
            totals[name][1] += time.process_time() - start
    rates = {name: steps / elapsed for name, (steps, elapsed) in totals.items()}
    for name, rate in rates.items():
        print(f"{name:9} {rate:>10,.0f} actions/s")
    ratio = rates["flipflop"] / rates["rlcard"]
    print(f"ratio     {ratio:.2f}x (flipflop / rlcard gin rummy raw loop)")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vs-rlcard", action="store_true", help="alternate with RLCard's gin rummy loop")
    parser.add_argument("--turns", type=int, default=6, help="alternations in --vs-rlcard")
    parser.add_argument(
        "--leave-by-type", action="store_true", help="leave Leave out by its type, not by its place"
    )
    parser.add_argument("--profile", action="store_true", help="print cProfile's top lines")
    parser.add_argument("--rollouts", action="store_true", help="strong player's play-outs per decision")
    args = parser.parse_args()
    print(f"engine: {HOW_IT_RUNS}")  # compiled, or from its sources (engine/_compiled.py)
    if args.rollouts:
        counts = rollouts()
        mean = sum(counts) / len(counts)
        print(
            f"play-outs per decision (180 ms of CPU, {len(counts)} positions): mean {mean:.0f}, "
            f"median {sorted(counts)[len(counts) // 2]}"
        )
        return
    if args.vs_rlcard:
        side_by_side(args.seconds, args.turns, args.seed, args.leave_by_type)
        return
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(run, args.seconds, args.players, args.seed, args.leave_by_type)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return
    actions, rounds, elapsed = run(args.seconds, args.players, args.seed, args.leave_by_type)
    print(f"players: {args.players}, seconds: {elapsed:.1f}")
    print(f"actions: {actions}  ({actions / elapsed:,.0f} actions/s)")
    print(f"rounds:  {rounds}  ({rounds / elapsed:,.0f} rounds/s)")
    print(f"actions per round: {actions / max(rounds, 1):.1f}")


if __name__ == "__main__":
    main()
