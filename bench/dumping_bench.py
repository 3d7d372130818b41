"""How often ``bot.dumping`` flags honest players, and how soon it finds a dumping pair.

    .venv/bin/python bench/dumping_bench.py
    .venv/bin/python bench/dumping_bench.py --honest 10000 --trials 200 --jobs 2

**Honest**: a pool of computer players (``--pool`` members, a ``--strong`` share of them the
strong player, the rest basic) sit at tables of 3 to 5 drawn at random; each table plays
``--rounds-per-table`` rounds (its game), each round dealt afresh (stacks 200, stake 5, as
``bench/tournament.py``). The detector reads every round, as the bot's history keeps them
(``round_seats``: net, game-pot winnings, caught), and every ordered pair of members that
shared a round is a chance to flag an honest pair: the false-positive rate is flagged pairs
over those pairs.

**Dumping**: in each trial, a giver, a taker and an honest third player (basic) play
``max(--checkpoints)`` rounds at one table; the taker plays basic, and so does the giver but
in every other round, where it drops at its first turn whatever it holds (a drop is made
instead of drawing, R6.1). The detector reads the trial's rounds together with the first
``--background`` honest rounds (the server's other games: its rate of caught drops), and
the detection rate after N rounds is the share of trials in which the giver → taker pair
is flagged by then. Any other pair flagged in a trial is counted too.

A "round" here is one deal (each player may drop once in it); a "game" is a table's rounds.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.dumping import PlayedRound, SeatRound, flagged, pairs  # noqa: E402
from engine import Game, Seat  # noqa: E402
from engine.actions import Drop  # noqa: E402
from engine.ai.strategies import BasicStrategy, Strategy, StrongStrategy  # noqa: E402
from engine.events import PotPaid, RoundEnded  # noqa: E402

STACK, STAKE = 200, 5
GIVER, TAKER, THIRD = 1_000_001, 1_000_002, 1_000_003


def play_round(
    members: list[int],
    strategies: dict[int, Strategy],
    rng: random.Random,
    dealer: int,
    table_id: str,
    round_id: int,
    dumper: int | None = None,
) -> PlayedRound:
    """One fresh round among ``members``; ``dumper`` (if any) drops at its first turn."""
    ids = [str(m) for m in members]
    game = Game([Seat(p, STACK) for p in ids], STAKE)
    events = list(game.start_round(rng, dealer=ids[dealer % len(ids)]))
    while game.in_round:
        p = game.to_act
        assert p is not None
        if dumper is not None and p == str(dumper):
            action = Drop(p)
            dumper = None  # once, at its first turn
        else:
            action = strategies[int(p)].choose(game.view(p), rng)
        events += game.apply(action)
    won: dict[str, int] = {}
    caught = ""
    for e in events:
        if isinstance(e, PotPaid) and e.pot == "game" and not won:
            won = dict(e.shares)  # the first payment of the game pot is to its winners (R2.6)
        if isinstance(e, RoundEnded) and e.reason == "caught":
            caught = e.player or ""
    seats = tuple(SeatRound(int(p), game.stacks[p] - STACK, won.get(p), p == caught) for p in ids)
    return PlayedRound(round_id, table_id, seats)


def strategy_for(member: int, strong_share: float, budget: float, seed: int) -> Strategy:
    pick = random.Random(f"{seed}-kind-{member}").random()
    return StrongStrategy(budget=budget) if pick < strong_share else BasicStrategy()


def honest_tables(job: tuple[int, int, int, int, float, float, int]) -> list[PlayedRound]:
    """Tables ``first`` to ``last``: ``per_table`` rounds each among 3-5 of the pool."""
    first, last, per_table, pool, strong_share, budget, seed = job
    strategies = {m: strategy_for(m, strong_share, budget, seed) for m in range(1, pool + 1)}
    out = []
    for table in range(first, last):
        rng = random.Random(f"{seed}-table-{table}")
        members = rng.sample(range(1, pool + 1), 3 + table % 3)
        for k in range(per_table):
            out.append(play_round(members, strategies, rng, k, f"h{table}", table * per_table + k))
    return out


def dumping_trial(job: tuple[int, int, int]) -> list[PlayedRound]:
    """One trial: giver, taker, an honest third; the giver drops at once in every other round."""
    trial, rounds, seed = job
    giver, taker, third = GIVER, TAKER, THIRD
    strategies: dict[int, Strategy] = {m: BasicStrategy() for m in (giver, taker, third)}
    rng = random.Random(f"{seed}-trial-{trial}")
    members = [giver, taker, third]
    rng.shuffle(members)
    return [
        play_round(
            members,
            strategies,
            rng,
            k,
            f"d{trial}",
            10_000_000 + trial * 1000 + k,
            dumper=giver if k % 2 == 0 else None,
        )
        for k in range(rounds)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=10_000, help="honest rounds (default 10,000)")
    parser.add_argument("--rounds-per-table", type=int, default=10, help="rounds per honest table (10)")
    parser.add_argument("--pool", type=int, default=30, help="computer players in the pool (30)")
    parser.add_argument("--strong", type=float, default=0.25, help="share of strong players (0.25)")
    parser.add_argument("--budget", type=float, default=0.002, help="strong player's seconds a move")
    parser.add_argument("--trials", type=int, default=200, help="dumping trials (200)")
    parser.add_argument("--checkpoints", default="10,20,50", help="rounds after which to look (10,20,50)")
    parser.add_argument("--background", type=int, default=2000, help="honest rounds read with each trial")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    checkpoints = sorted(int(c) for c in args.checkpoints.split(","))
    started = time.perf_counter()
    tables = args.honest // args.rounds_per_table
    step = max(1, tables // (args.jobs * 8))
    jobs = [
        (a, min(a + step, tables), args.rounds_per_table, args.pool, args.strong, args.budget, args.seed)
        for a in range(0, tables, step)
    ]
    with multiprocessing.Pool(args.jobs) as pool:
        honest = [r for chunk in pool.map(honest_tables, jobs) for r in chunk]
        trials = pool.map(dumping_trial, [(t, checkpoints[-1], args.seed) for t in range(args.trials)])
    played = time.perf_counter() - started
    every = pairs(honest)
    false = [p for p in every if p.flagged]
    caught = sum(s.caught for r in honest for s in r.seats)
    seats = sum(len(r.seats) for r in honest)
    print(
        f"honest: {len(honest):,} rounds at {tables:,} tables, {args.pool} players "
        f"({args.strong:.0%} strong at {args.budget}s a move); caught drops {caught / seats:.2%} of seats"
    )
    print(
        f"  ordered pairs that shared a round: {len(every):,}; flagged: {len(false)}"
        f" (false-positive rate {len(false) / max(1, len(every)):.4%})"
    )
    top = every[0] if every else None
    if top is not None:
        print(
            f"  most suspicious honest pair: {top.dumps} dumps in {top.rounds} rounds,"
            f" expected {top.expected:.2f}, score {top.score:.2f}"
        )
    background = honest[: args.background]
    for n in checkpoints:
        found = third = others = 0
        for rounds in trials:
            hits = {(p.giver, p.taker) for p in flagged(background + rounds[:n])}
            found += (GIVER, TAKER) in hits
            third += (GIVER, THIRD) in hits
            others += any(giver != GIVER for giver, _ in hits)
        print(
            f"dumping pair after {n} rounds ({n // 2 + n % 2} dumping drops):"
            f" flagged in {found}/{len(trials)} trials ({found / len(trials):.0%});"
            f" giver → honest third also listed in {third}; a pair without the giver in {others}"
        )
    print(f"({played:.0f} s to play, {time.perf_counter() - started - played:.0f} s to test)")


if __name__ == "__main__":
    main()
