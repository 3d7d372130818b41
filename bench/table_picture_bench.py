"""The live table's picture: render time (p50, p99) and bytes, at the biggest table there is.

    python -m bench.table_picture_bench [--tables 200]

Each table is five players whose names are 32 characters long in every script the bot speaks
(Latin, Cyrillic, Hangul, Gujarati and one with an emoji the fonts do not have), stacks in
the thousands, six cards each for the one to act, and spreads from a shuffled deck (three to
six of them), in both picture decks. Every scene is new, so nothing comes from the picture's
cache; the fonts and faces are loaded once per bot, before the clock starts. The goal is
p99 ≤ 25 ms and ≤ 80 KB; the figures go in the README.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.presentation.table_picture import MAX_BYTES, Scene, Seat, render
from engine.cards import Card

DECK = [Card.parse(r + s) for r in "A23456789TJQK" for s in "SHDC"]
NAMES = (
    "Bartholomew Fitzgerald-Alexander",
    "Аляксандра Міхайлаўна Каваленка",
    "김민수김민수의아주긴이름입니다정말로긴이름이에요하하",
    "પ્રિયંકા ક્ષત્રિય શ્રીવાસ્તવ પટેલ જી",
    "🦊 Kitsune no Mori 狐 — the fox!!",
)


def a_table(rng: random.Random) -> Scene:
    """Five long-named seats (one to act, one away, one leaving), the middle and 3–6 spreads."""
    cards = rng.sample(DECK, 6 * 3 + 3)
    to_act = rng.randrange(5)
    seats = tuple(
        Seat(
            name=NAMES[i],
            stack=(stack := rng.randrange(0, 100_000)),
            shown=f"{stack:,}",
            cards=6 if i == to_act else rng.randrange(1, 6),
            dealer=i == 0,
            to_act=i == to_act,
            away="away 2/3" if i == 3 else "",
            leaving=i == 4,
        )
        for i in range(5)
    )
    spreads = tuple(
        (n + 1, NAMES[n % 5], tuple(cards[n * 3 : n * 3 + 3])) for n in range(rng.randrange(3, 7))
    )
    return Scene(
        seats=seats,
        pots=(("Game pot", "1,250", None), ("Flip pot", "500", "S"), ("Flop pot", "500", "H")),
        upcard=cards[-1],
        top_discard=cards[-2],
        stock=str(rng.randrange(0, 30)),
        spreads=spreads,
        words=("Stock", "Discard pile", "Upcard", "leaving"),
    )


def main() -> None:
    """Render ``--tables`` tables in each deck and print the times and sizes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(7)
    for style in ("classic", "four"):
        render.__wrapped__(a_table(rng), style)  # fonts and faces load once per bot
        times, sizes = [], []
        for _ in range(args.tables):
            scene = a_table(rng)
            start = time.perf_counter()
            data = render.__wrapped__(scene, style)  # past the cache: every picture drawn
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{style}: {args.tables} tables · render p50 {statistics.median(times):.1f} ms, "
            f"p99 {p99:.1f} ms · bytes median {int(statistics.median(sizes))}, max {max(sizes)} "
            f"(cap {MAX_BYTES})"
        )


if __name__ == "__main__":
    main()
