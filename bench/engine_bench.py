"""How fast the engine plays: random legal games on one core for a fixed time.

    python bench/engine_bench.py [--seconds 10] [--players 4]

At every step the legal actions are listed (as a computer player would) and one
is chosen at random; the figure counts applied actions. Prints actions/s and rounds/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, Leave, Seat  # noqa: E402


def run(seconds: float, players: int, seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    actions = rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = Game([Seat(f"p{i}", 200) for i in range(players)], 5)
        for _ in range(200):  # a batch of work between clock reads
            if game.over:
                break
            game.start_round(rng)
            rounds += 1
            while game.in_round:
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal) - 1)]  # the last one is Leave
                assert not isinstance(action, Leave)
                game.apply(action)
                actions += 1
    return actions, rounds, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    actions, rounds, elapsed = run(args.seconds, args.players, args.seed)
    print(f"players: {args.players}, seconds: {elapsed:.1f}")
    print(f"actions: {actions}  ({actions / elapsed:,.0f} actions/s)")
    print(f"rounds:  {rounds}  ({rounds / elapsed:,.0f} rounds/s)")
    print(f"actions per round: {actions / max(rounds, 1):.1f}")


if __name__ == "__main__":
    main()
