"""How long forgetting (and exporting) a member takes, on SQLite and PostgreSQL.

    .venv/bin/python bench/privacy_bench.py [--rows 10000] [--rounds 1000] [--others 20]
        [--postgres URL] [--only sqlite|postgres]

Fills a fresh store (a temporary SQLite file; a new schema in the PostgreSQL
named by --postgres or TEST_DATABASE_URL, dropped afterwards) with one member
who has ``--rows`` ledger entries and played ``--rounds`` rounds (transcripts,
round players and seats, a rating, a language choice), among ``--others``
members with as much again, then times ``bot.privacy.forget`` and ``export``
for that member. Goal: forget <= 2 s with 10,000 ledger rows on each store.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402

from bot.privacy import export, forget  # noqa: E402
from bot.storage import Store, open_store  # noqa: E402

GUILD = 2**58
MEMBER = 2**58 + 1
RANKS, SUITS = "A23456789TJQK", "SHDC"


def _transcript(seats: list[int], rng: random.Random) -> str:
    """A round's transcript as it is stored: the seats, the deck, some sixty actions."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    ids = [str(s) for s in seats]
    actions = []
    for i in range(60):
        p = ids[i % len(ids)]
        actions += [[p, "draw", "stock"], [p, "discard", deck[i % 52]]]
    return json.dumps(
        {
            "stake": 5,
            "seats": [{"id": p, "stack": 200} for p in ids],
            "pots": {"game": 0, "flip": 0, "flop": 0},
            "rounds": [{"dealer": ids[0], "deck": deck, "actions": actions}],
        },
        separators=(",", ":"),
    )


async def fill(
    db: Store,
    rows: int = 10_000,
    rounds: int = 1_000,
    others: int = 20,
    user_id: int = MEMBER,
    guild_id: int = GUILD,
) -> None:
    """One member with ``rows`` ledger entries and ``rounds`` rounds, among ``others`` like them.

    Every balance is the sum of its entries, and every table's entries sum to 0, so the audit balances.
    """
    rng = random.Random(7)
    members = [user_id] + [user_id + 1000 + i for i in range(others)]
    async with db.transaction() as tx:
        for m in members:
            await tx.execute(
                "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 1000, 1.0)",
                (guild_id, m),
            )
            entries = [(guild_id, m, 1000, 1000, "starting", None, None, 1.0)]
            for i in range((rows - 1) // 2):
                ref = f"t{i % 500}"
                entries.append((guild_id, m, -10, 990, "buy_in", ref, None, 2.0 + i))
                entries.append((guild_id, m, 10, 1000, "cash_out", ref, None, 2.5 + i))
            if len(entries) < rows:
                entries.append((guild_id, m, 0, 1000, "cash_out", "t0", m, 3.0 + rows))
            await tx.executemany(
                "INSERT INTO ledger (guild_id, user_id, change, balance_after, reason, reference, actor_id,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                entries,
            )
            await tx.execute(
                "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, games, updated_at)"
                " VALUES (?, ?, 25.0, 8.0, 1.0, 10, 1.0)",
                (guild_id, m),
            )
            await tx.execute(
                "INSERT INTO language_choices (guild_id, user_id, language) VALUES (?, ?, 'sw')",
                (guild_id, m),
            )
        for n in range(rounds * (1 + others) // 3):
            seats = [members[0] if n < rounds else rng.choice(members[1:]), *rng.sample(members[1:], 2)]
            row = await tx.fetchone(
                "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
                " VALUES (?, ?, 1, ?, ?, '{}') RETURNING id",
                (guild_id, f"t{n % 500}", float(n), _transcript(seats, rng)),
            )
            assert row is not None
            await tx.executemany(
                "INSERT INTO round_players (round_id, guild_id, user_id) VALUES (?, ?, ?)",
                [(row[0], guild_id, s) for s in dict.fromkeys(seats)],
            )
            await tx.executemany(
                "INSERT INTO round_seats (guild_id, user_id, round_id, seat, opening, net, dropped, caught)"
                " VALUES (?, ?, ?, ?, 1, 0, 0, 0)",
                [(guild_id, s, row[0], str(s)) for s in dict.fromkeys(seats)],
            )


async def measure(target: str, rows: int, rounds: int, others: int) -> tuple[float, float, int]:
    """(export seconds, forget seconds, rows forgotten) on a fresh store at ``target``."""
    async with open_store(target) as db:
        await fill(db, rows, rounds, others)
        started = time.perf_counter()
        data = await export(db, MEMBER)
        exported = time.perf_counter() - started
        assert data is not None
        started = time.perf_counter()
        done = await forget(db, MEMBER, "operator")
        took = time.perf_counter() - started
        assert done is not None
        return exported, took, done.rows


async def main() -> None:
    """Parse the options, measure each store, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=1_000)
    parser.add_argument("--others", type=int, default=20)
    parser.add_argument(
        "--postgres", default=os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    args = parser.parse_args()
    print(f"one member with {args.rows} ledger rows and {args.rounds} rounds, among {args.others} others")
    if args.only != "postgres":
        with tempfile.TemporaryDirectory() as folder:
            exported, took, n = await measure(
                f"sqlite:///{Path(folder) / 'bench.sqlite3'}", args.rows, args.rounds, args.others
            )
        print(f"sqlite:   export {exported * 1000:.0f} ms, forget {took * 1000:.0f} ms ({n} rows rewritten)")
    if args.only != "sqlite":
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(args.postgres)
        try:
            await admin.execute(f'CREATE SCHEMA "{schema}"')
            sep = "&" if "?" in args.postgres else "?"
            exported, took, n = await measure(
                f"{args.postgres}{sep}search_path={schema}", args.rows, args.rounds, args.others
            )
        finally:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await admin.close()
        print(f"postgres: export {exported * 1000:.0f} ms, forget {took * 1000:.0f} ms ({n} rows rewritten)")


if __name__ == "__main__":
    asyncio.run(main())
