"""The runtime's costs: saved-state size and apply time as a game grows, and event-loop lag.

    python bench/runtime_bench.py [--rounds 200] [--searches 6] [--seconds 5] [--metrics]

Part 1 plays one table of four through the real ``TableRuntime`` on a SQLite
file (every action saved in its transaction, finished rounds appended to
``rounds``), moves chosen by the basic strategy, and prints the saved state's
size and the p50/p99 time of ``apply`` in rounds 1, 50 and 200. With
``--metrics`` the bot's Prometheus hooks on that path are installed first
(every statement timed, every move counted: ``bot.metrics``), to compare.

Part 2 runs strong computer searches back to back (``--searches`` at once),
first in the runtime's worker processes (two), then in threads (what it
did before), and prints the p99 lag of a 10 ms ticker on the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quiet import bench_runtime  # noqa: E402
from bot.ledger import Ledger  # noqa: E402
from bot.runtime.computers import ComputerPlayers, choose  # noqa: E402
from bot.storage import open_store  # noqa: E402
from engine import Game, Seat  # noqa: E402
from engine.ai.strategies import BasicStrategy  # noqa: E402

G, CH = 1, 2
PLAYERS = (11, 12, 13, 14)
MARKS = (1, 50, 200)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def state_and_apply(rounds: int, seed: int, with_metrics: bool = False) -> None:
    rng = random.Random(seed)
    if with_metrics:
        from bot import metrics

        metrics.instrument_store()
        metrics.instrument_actions()
    with tempfile.TemporaryDirectory() as tmp:
        db = open_store(Path(tmp) / "bench.sqlite3")
        await db.open()
        ledger = Ledger(db)
        service = bench_runtime(db, ledger)
        for user in PLAYERS:
            await ledger.grant(G, user, 10_000_000, actor_id=PLAYERS[0])
        table = await service.open(G, CH, PLAYERS[0], "p0", 1, 1_000_000, 60)
        for user in PLAYERS[1:]:
            await service.join(table.id, user, f"p{user}")
        await service.start(table.id, PLAYERS[0], may_manage=False)  # decks come from the fair deal
        basic = BasicStrategy()
        print(f"{'round':>6} {'state bytes':>12} {'apply p50 ms':>13} {'apply p99 ms':>13} {'actions':>8}")
        assert table.game is not None
        every: list[float] = []
        while True:
            game: Game = table.game
            number = game.public_view().round_number
            times: list[float] = []
            while game.in_round:
                player = game.to_act
                assert player is not None
                action = basic.choose(game.view(player), rng)
                start = time.perf_counter()
                await service.apply_action(table, action)
                times.append((time.perf_counter() - start) * 1000)
            every += times
            if number in MARKS and times:  # a round can end at its deal, before any move
                size = len(json.dumps(table.to_json()))
                p50, p99 = pct(times, 0.5), pct(times, 0.99)
                print(f"{number:>6} {size:>12,} {p50:>13.2f} {p99:>13.2f} {len(times):>8}")
            if number >= rounds or game.over:
                break
            await service.fire(table.id)
        print(
            f"{'all':>6} {'':>12} {pct(every, 0.5):>13.2f} {pct(every, 0.99):>13.2f} {len(every):>8}"
            + ("  (metrics on)" if with_metrics else "")
        )
        stored = await db.fetchone("SELECT COUNT(*), SUM(LENGTH(transcript)) FROM rounds")
        count, size = stored if stored else (0, 0)
        print(f"rounds table: {count} rows, {size:,} transcript bytes")
        await db.close()


def a_view(seed: int) -> object:
    """A fresh deal's view of the player to act (a deal that ends at once is dealt again)."""
    while True:
        game = Game([Seat(f"p{i}", 200) for i in range(4)], 5)
        game.start_round(random.Random(seed))
        if game.to_act is not None:
            return game.view(game.to_act)
        seed += 7919


async def lag_while(searches: int, seconds: float, run: str) -> float:
    loop = asyncio.get_running_loop()
    computers = ComputerPlayers()  # the bot's own pool (two workers)
    stop = 0.0  # set once the workers are up: the warm-up is not part of the measured seconds
    lags: list[float] = []

    async def ticker() -> None:
        while loop.time() < stop:
            before = loop.time()
            await asyncio.sleep(0.01)
            lags.append((loop.time() - before - 0.01) * 1000)

    async def searcher(i: int) -> None:
        n = 0
        while loop.time() < stop:
            view = a_view(i * 1000 + n)
            if run == "process":
                await computers.choose("strong", view, 0.5)  # type: ignore[arg-type]
            elif run == "thread":
                await asyncio.to_thread(choose, "strong", view, 0.5)  # type: ignore[arg-type]
            else:
                await asyncio.sleep(0.05)
            n += 1

    if run == "process":  # start the workers before measuring
        await asyncio.gather(*(computers.choose("strong", a_view(i), 0.5) for i in range(searches)))  # type: ignore[arg-type]
    stop = loop.time() + seconds
    await asyncio.gather(ticker(), *(searcher(i) for i in range(searches)))
    computers.close()
    return pct(lags, 0.99)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--searches", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--part", choices=["all", "state", "lag"], default="all")
    parser.add_argument("--metrics", action="store_true", help="install the bot's metrics hooks first")
    args = parser.parse_args()
    if args.part in ("all", "state"):
        await state_and_apply(args.rounds, args.seed, args.metrics)
        print()
    for run in ("none", "process", "thread") if args.part in ("all", "lag") else ():
        lag = await lag_while(args.searches if run != "none" else 1, args.seconds, run)
        label = {
            "none": "no searches",
            "process": f"{args.searches} strong searches in processes",
            "thread": f"{args.searches} strong searches in threads",
        }[run]
        print(f"loop lag p99 with {label}: {lag:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
