"""A sit-and-go played to the end by computer players on the real rules engine, its chips checked throughout.

    python bench/sit_and_go.py --entrants 25 --level-rounds 3 --seed 1
    python bench/sit_and_go.py --database postgresql://postgres@127.0.0.1:5432/test

Opens a tournament in a fresh store (a temporary SQLite file unless
``--database``), enters a few members (their fees through the ledger), fills
the other seats with computers (the house pays their fees), then plays every
tournament round at every table with the basic computer strategy
(``bot.tournament.rounds``), saving after each table's round. After every
tournament round it checks that the tournament chips add up (entrants × the
starting stack) and that the server's ledger audit is clean. Prints the
rounds, the tables over time, the levels, the busts and moves, the wall time
and the prizes paid.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.audit import audit_guild  # noqa: E402
from bot.ledger import HOUSE_ID, Ledger  # noqa: E402
from bot.storage import open_store  # noqa: E402
from bot.tournament.model import STARTING_STACK, Tournament, TournamentSettings  # noqa: E402
from bot.tournament.rounds import play_table_round  # noqa: E402
from bot.tournament.store import TournamentStore  # noqa: E402

G, CH = 1, 2


async def run(target: str, entrants: int, members: int, level_rounds: int, seed: int, payout: str) -> int:
    rng = random.Random(seed)
    started = time.perf_counter()
    async with open_store(target) as db:
        tours = TournamentStore(Ledger(db))
        settings = TournamentSettings(
            fee=100, seats=entrants, level_rounds=level_rounds, computers=True, payout=payout
        )
        await tours.ledger.grant(G, HOUSE_ID, 100 * entrants, actor_id=1)  # the computers' fees
        await tours.open(Tournament("5a9", G, CH, 1, settings))
        for m in range(1, members + 1):
            await tours.join("5a9", m, f"member {m}")
        tour = await tours.start("5a9", rng)
        print(f"{len(tour.entrants)} entrants ({members} members), tables {sizes(tour)}")
        history: list[str] = []
        while tour.status == "running":
            for table in list(tour.tables):

                def one(t: Tournament, table: int = table) -> None:
                    stacks, pots = play_table_round(t, table, rng)
                    if t.table_round_ended(table, stacks, pots):
                        t.advance()

                tour = await tours.update("5a9", one)
            total = tour.chips()
            audit = await audit_guild(tours.ledger, G)
            if total != len(tour.entrants) * STARTING_STACK or not audit.ok or audit.difference:
                print(f"NOT CONSERVED after round {tour.round}: {total} chips; {audit.lines()}")
                return 1
            out = [e for e in tour.entrants if tour.entrants[e].out_round == tour.round]
            moves = "; ".join(f"{m.entrant}: {m.from_table}->{m.to_table}" for m in tour.last_moves)
            line = (
                f"round {tour.round:3} level {tour.level:2} stake {tour.stake:5} tables {sizes(tour):18}"
                f" in {len(tour.alive()):2} out {len(out)}" + (f" moves {moves}" if moves else "")
            )
            history.append(line)
            print(line)
        seconds = time.perf_counter() - started
        paid = await db.fetchall(
            "SELECT user_id, change FROM ledger WHERE reference = '5a9' AND reason = 'tournament_prize'"
            " ORDER BY change DESC"
        )
        audit = await audit_guild(tours.ledger, G)
        print(
            f"finished after {tour.round} rounds in {seconds:.2f} s wall time;"
            f" standings {tour.standings()[:3]};"
            f" prizes {paid} (pool {tour.pool}); chips conserved every round; ledger audit"
            f" {'clean' if audit.ok and not audit.difference else audit.lines()}"
        )
        return 0 if audit.ok else 1


def sizes(tour: Tournament) -> str:
    return "+".join(str(len(s)) for s in tour.tables.values()) or "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=25)
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--level-rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--payout", default="50_30_20")
    parser.add_argument("--database", help="a store URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        target = args.database or f"sqlite:///{tmp}/sit_and_go.sqlite3"
        return asyncio.run(
            run(target, args.entrants, args.members, args.level_rounds, args.seed, args.payout)
        )


if __name__ == "__main__":
    sys.exit(main())
