"""The round's picture: render time (p50, p99) and bytes, for rounds as big as they come.

    python -m bench.round_picture_bench [--rounds 200]

Each round is five players with six cards each (the most a hand holds) and a table of
spreads from a shuffled deck, in both picture decks; the figures go in the README.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.presentation.round_picture import MAX_BYTES, Ending, render
from engine.cards import Card

DECK = [Card.parse(r + s) for r in "A23456789TJQK" for s in "SHDC"]


def a_round(rng: random.Random, number: int) -> Ending:
    """Five players with six cards and four three-card spreads: the biggest picture a round makes."""
    cards = rng.sample(DECK, 5 * 6 + 4 * 3)
    hands = tuple((f"player {i}", tuple(cards[i * 6 : i * 6 + 6]), 0) for i in range(5))
    rest = cards[30:]
    spreads = tuple((f"player {i}", tuple(rest[i * 3 : i * 3 + 3])) for i in range(4))
    return Ending(number, hands, spreads, ("player 0",))


def main() -> None:
    """Render ``--rounds`` rounds in each deck and print the times and sizes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(7)
    for style in ("classic", "four"):
        render(a_round(rng, 0), style)  # the faces are loaded once per bot
        times, sizes = [], []
        for n in range(args.rounds):
            ending = a_round(rng, n)
            start = time.perf_counter()
            data = render(ending, style)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{style}: {args.rounds} rounds · render p50 {statistics.median(times):.1f} ms, "
            f"p99 {p99:.1f} ms · bytes median {int(statistics.median(sizes))}, max {max(sizes)} "
            f"(cap {MAX_BYTES})"
        )


if __name__ == "__main__":
    main()
