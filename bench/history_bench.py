"""History, stats and rating-leaderboard latency with 100,000 stored rounds, on SQLite and PostgreSQL.

    .venv/bin/python bench/history_bench.py [--rounds 100000] [--queries 400] [--postgres URL] [--only sqlite]
        [--servers 20]

Fills a fresh store (a temporary SQLite file; a new schema in the PostgreSQL
named by --postgres or TEST_DATABASE_URL, dropped afterwards) with rounds of
real engine games: a pool of finished rounds is played with the computer
strategies and recorded through ``record_round``'s own derivation, then
copied in bulk across 20 servers whose members play with a skewed frequency
(a few members play much more than most), with computer seats mixed in.
Prints each query plan (EXPLAIN) and p50/p99 of ``history`` (server and
member), ``stats``, ``leaderboard_by_rating`` and ``season_leaderboard`` (every round
ends in one month, so a season reads all of a server's rounds, about 5,000; each game's end
also writes its players' rating changes; each table has its members' accounts and their buy-in in
the ledger, and, closed, their cash-out — all but each server's newest three, still in play —
which ``stats`` reads). Goal: p99 <= 20 ms each (season: <= 50 ms),
and from 10,000 rounds no plan that reads a whole table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402

from bot.history import (  # noqa: E402
    COMPUTER_MEMBERS,
    history,
    leaderboard_by_rating,
    season_leaderboard,
    stats,
)
from bot.history.outcome import RoundOutcome, replayable, round_outcome  # noqa: E402
from bot.history.queries import TABLE_NET, table_net_params  # noqa: E402
from bot.history.record import INSERT_SEAT, seat_row  # noqa: E402
from bot.history.seasons import season_at  # noqa: E402
from bot.ratings import DEFAULT_RATING  # noqa: E402
from bot.storage import Store, open_store  # noqa: E402
from bot.storage.base import Tx  # noqa: E402
from engine import Game, Seat  # noqa: E402
from engine.ai.strategies import BasicStrategy, RandomStrategy  # noqa: E402

SERVERS = 20
HUMANS_PER_SERVER = 60
GUILD0 = 10**15
POOL = 400
CHUNK = 2000
QUIET = GUILD0 + SERVERS
"""A server whose rounds are the oldest 1 % and that has played none since: the planner's worst case."""


def pool_of_rounds(rng: random.Random) -> list[tuple[dict[str, Any], RoundOutcome]]:
    """Finished rounds of real games (3-5 seats), each with its derived outcome."""
    pool: list[tuple[dict[str, Any], RoundOutcome]] = []
    while len(pool) < POOL:
        seats = [f"s{i}" for i in range(rng.randint(3, 5))]
        game = Game([Seat(s, 60) for s in seats], 5)
        strategy = {s: BasicStrategy() if i == 0 else RandomStrategy() for i, s in enumerate(seats)}
        while not game.over and len(pool) < POOL:
            dealt = game.rounds_played
            game.start_round(rng=rng)
            if game.rounds_played == dealt:
                break
            while game.in_round:
                p = game.to_act
                assert p is not None
                game.apply(strategy[p].choose(game.view(p), rng))
            transcript = replayable(game.round_transcript())
            pool.append((transcript, round_outcome(transcript)))
    return pool


def members_of(guild: int) -> list[int]:
    return [guild * 1000 + i for i in range(1, HUMANS_PER_SERVER + 1)]


FILLED = (
    "accounts", "ledger", "rating_changes", "ratings", "round_players", "round_seats", "rounds", "tables"
)
"""The tables ``fill`` writes."""


async def fill(db: Store, rounds: int, rng: random.Random) -> None:
    """Bulk insert: the same rows record_round writes, derived once per pooled round."""
    pool = pool_of_rounds(rng)
    weights = [1 / (i + 1) for i in range(HUMANS_PER_SERVER)]  # Zipf-like: member 1 plays most
    computers = list(COMPUTER_MEMBERS.values())
    rows_r: list[tuple[Any, ...]] = []
    rows_p: list[tuple[Any, ...]] = []
    rows_s: list[tuple[Any, ...]] = []
    rows_c: list[tuple[Any, ...]] = []
    sat: dict[tuple[int, str], set[int]] = {}  # each table's members: its closed table's ledger entries
    pooled_json = [(json.dumps(t), json.dumps(o.result)) for t, o in pool]
    start = time.perf_counter()
    for rid in range(1, rounds + 1):
        guild = QUIET if rid <= rounds // 100 else GUILD0 + rng.randrange(SERVERS)
        k = rng.randrange(POOL)
        transcript, outcome = pool[k]
        seats = outcome.seats
        humans: list[int] = []
        people = members_of(guild)
        while len(humans) < len(seats):
            m = rng.choices(people, weights)[0]
            if m not in humans:
                humans.append(m)
        who = [
            rng.choice(computers) if i > 0 and rng.random() < 0.15 else humans[i] for i in range(len(seats))
        ]
        number = 1 + rid % 12
        table = f"t{rid // 12}-{guild - GUILD0}"  # a table's rounds: twelve ids in a row, in one server
        rows_r.append((rid, guild, table, number, 1.7e9 + rid, *pooled_json[k]))
        sat.setdefault((guild, table), set()).update(m for m in who if m > 0)
        for member in dict.fromkeys(who):
            rows_p.append((rid, guild, member))
        for member, s in zip(who, seats, strict=True):
            rows_s.append(seat_row(guild, member, rid, number, s))
        if number == 12:  # a game ends: its members' rating changes
            for member in dict.fromkeys(who):
                before = rng.uniform(-5, 30)
                rows_c.append((guild, member, 1.7e9 + rid, before, before + rng.uniform(-2, 2)))
        if len(rows_r) >= CHUNK or rid == rounds:
            async with db.transaction() as tx:
                await tx.executemany(
                    "INSERT INTO rounds (id, guild_id, table_id, number, ended_at, transcript, result)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    rows_r,
                )
                await tx.executemany(
                    "INSERT INTO round_players (round_id, guild_id, user_id) VALUES (?, ?, ?)", rows_p
                )
                await tx.executemany(INSERT_SEAT, rows_s)
                await tx.executemany(
                    "INSERT INTO rating_changes (guild_id, user_id, rated_at, ordinal_before, ordinal_after)"
                    " VALUES (?, ?, ?, ?, ?)",
                    rows_c,
                )
            rows_r, rows_p, rows_s, rows_c = [], [], [], []
    async with db.transaction() as tx:
        rating_rows = []
        for g in range(SERVERS):
            for member in members_of(GUILD0 + g) + computers:
                mu = rng.gauss(25, 4)
                sigma = rng.uniform(1.5, DEFAULT_RATING.sigma)
                rating_rows.append(
                    (GUILD0 + g, member, mu, sigma, mu - 3 * sigma, rng.randint(1, 300), 1.7e9)
                )
        await tx.executemany(
            "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            rating_rows,
        )
        await fill_tables(tx, sat, rng)
        # its own tables only: a bare ANALYZE on PostgreSQL reads every schema of the database, and one a
        # test is filling in a transaction got "empty" statistics, and a plan that ran for minutes
        await tx.execute("ANALYZE" if db.dialect == "sqlite" else f"ANALYZE {', '.join(FILLED)}")
    print(f"  filled {rounds} rounds in {time.perf_counter() - start:.1f} s")


OPEN_TABLES = 3
"""Each server's newest tables still in play: their members bought in, their rounds so far count."""


async def fill_tables(tx: Tx, sat: dict[tuple[int, str], set[int]], rng: random.Random) -> None:
    """The tables of those rounds, with every member's account, buy-in and (closed) cash-out.

    ``/flipflop stats`` reads a closed table's net from its ledger entries and an open table's from
    its rounds (``TABLE_NET``): a store without them would be planned as the empty tables they are,
    not as a server's history is.
    """
    people = {(g, m) for (g, _), members in sat.items() for m in members}
    await tx.executemany(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
        [(g, m, 10**6, 1.7e9) for g, m in sorted(people)],
    )
    newest: dict[int, list[str]] = {}
    for g, table in sat:  # in the order of their rounds
        newest.setdefault(g, []).append(table)
    playing = {(g, table) for g, tables in newest.items() for table in tables[-OPEN_TABLES:]}
    await tx.executemany(
        "INSERT INTO tables (table_id, guild_id, channel_id, status, chips, refunds, version, state,"
        " updated_at) VALUES (?, ?, ?, ?, 0, '{}', 1, '{}', ?)",
        [(table, g, g, "playing" if (g, table) in playing else "closed", 1.7e9) for g, table in sat],
    )
    entries = []
    for (g, table), members in sat.items():
        for m in sorted(members):
            entries.append((g, m, -200, 10**6, "buy_in", table))
            if (g, table) not in playing:
                entries.append((g, m, 200 + rng.randint(-200, 400), 10**6, "cash_out", table))
    await tx.executemany(
        "INSERT INTO ledger (guild_id, user_id, change, balance_after, reason, reference, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 1.7e9)",
        entries,
    )


QUERIES = {
    "history (server)": "SELECT id, table_id, number, ended_at, result FROM rounds WHERE guild_id = ?"
    " ORDER BY id DESC LIMIT ?",
    "history (member)": "SELECT r.id, r.table_id, r.number, r.ended_at, r.result FROM round_players p"
    " JOIN rounds r ON r.id = p.round_id WHERE p.guild_id = ? AND p.user_id = ?"
    " ORDER BY p.round_id DESC LIMIT ?",
    "history (seats)": "SELECT round_id, user_id, seat FROM round_seats WHERE round_id IN (?, ?, ?)"
    " ORDER BY round_id, seat",
    "stats": "SELECT COUNT(*), SUM(net), MAX(best_pot), COUNT(won_flip) FROM round_seats"
    " WHERE guild_id = ? AND user_id = ?",
    "stats (net)": TABLE_NET,
    "leaderboard": "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id > 0"
    " ORDER BY ordinal DESC, user_id LIMIT ?",
    "season (ids)": "SELECT MIN(id), MAX(id), COUNT(*) FROM rounds WHERE guild_id = ? AND ended_at >= ?"
    " AND ended_at < ?",
    "season (span)": "SELECT COUNT(*) FROM rounds WHERE guild_id = ? AND id >= ? AND id <= ?",
    "season (seats)": "SELECT user_id, SUM(net), COUNT(won_game), COUNT(*) FROM round_seats"
    " WHERE guild_id = ? AND round_id >= ? AND round_id <= ? AND user_id > 0 GROUP BY user_id",
    "season (ratings)": "SELECT user_id, SUM(ordinal_after - ordinal_before) FROM rating_changes"
    " WHERE guild_id = ? AND rated_at >= ? AND rated_at < ? AND user_id > 0 GROUP BY user_id",
}
SEASON = season_at(1.7e9)
"""The month every benchmark round ends in."""


JUDGED_FROM = 10_000
"""Rounds from which a plan that reads a whole table fails the goal: below it, reading a small
table whole is the planner's right choice (a few dozen rating changes, say), not a missing index."""


async def explain(db: Store, judged: bool) -> bool:
    """Print each query's plan; False if any reads a whole table (when ``judged``)."""
    g, m = GUILD0, GUILD0 * 1000 + 1
    params: dict[str, tuple[Any, ...]] = {
        "history (server)": (g, 10),
        "history (member)": (g, m, 10),
        "history (seats)": (1, 2, 3),
        "stats": (g, m),
        "stats (net)": table_net_params(g, m),
        "leaderboard": (g, 10),
        "season (ids)": (g, SEASON.start, SEASON.end),
        "season (span)": (g, 1, 100_000),
        "season (seats)": (g, 1, 100_000),
        "season (ratings)": (g, SEASON.start, SEASON.end),
    }
    ok = True
    prefix = "EXPLAIN QUERY PLAN " if db.dialect == "sqlite" else "EXPLAIN "
    for name, sql in QUERIES.items():
        rows = await db.fetchall(prefix + sql, params[name])
        plan = " | ".join(str(r[-1]) for r in rows)
        scans = (
            "SCAN r " in plan + " "
            or "SCAN rounds" in plan
            or "SCAN round_seats" in plan
            or "Seq Scan" in plan
        )
        ok = ok and not (scans and judged)
        print(f"  plan {name}: {plan}")
    if not judged:
        print(f"  plans not judged: fewer than {JUDGED_FROM:,} rounds, where a small table is read whole")
    return ok


def quantiles(times: list[float]) -> str:
    cuts = statistics.quantiles(times, n=100)
    return f"p50 {cuts[49] * 1000:6.2f} ms  p99 {cuts[98] * 1000:6.2f} ms"


async def measure(db: Store, queries: int, rng: random.Random) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {
        "history (server)": [],
        "history (member)": [],
        "stats": [],
        "leaderboard": [],
        "history (quiet)": [],
        "season": [],
        "season (quiet)": [],
    }
    for _ in range(queries):
        guild = GUILD0 + rng.randrange(SERVERS)
        member = rng.choice(members_of(guild)[:10] + members_of(guild) + list(COMPUTER_MEMBERS.values()))
        calls = {
            "history (server)": history(db, guild, limit=10),
            "history (member)": history(db, guild, member=member, limit=10),
            "stats": stats(db, guild, member),
            "leaderboard": leaderboard_by_rating(db, guild, limit=10),
        }
        calls["history (quiet)"] = history(db, QUIET, limit=10)
        calls["season"] = season_leaderboard(db, guild, SEASON.start, SEASON.end)
        calls["season (quiet)"] = season_leaderboard(db, QUIET, SEASON.start, SEASON.end)
        for name, call in calls.items():
            t = time.perf_counter()
            await call
            times[name].append(time.perf_counter() - t)
    return times


async def run(dialect: str, target: str, rounds: int, queries: int) -> bool:
    rng = random.Random(13)
    async with open_store(target) as db:
        print(f"{dialect}: {db.where}")
        await fill(db, rounds, rng)
        if dialect == "postgres":
            conn = await asyncpg.connect(target)
            try:
                # what autovacuum does to an append-only table (its own tables, as above)
                await conn.execute(f"VACUUM ANALYZE {', '.join(FILLED)}")
            finally:
                await conn.close()
        ok = await explain(db, judged=rounds >= JUDGED_FROM)
        heavy = await stats(db, GUILD0, GUILD0 * 1000 + 1)
        print(f"  busiest member: {heavy.rounds} rounds")
        await measure(db, 20, rng)  # warm-up
        times = await measure(db, queries, rng)
        for name, ts in times.items():
            print(f"  {name:18s} {quantiles(ts)}")
            goal = 0.050 if name.startswith("season") else 0.020
            ok = ok and statistics.quantiles(ts, n=100)[98] <= goal
    return ok


async def main() -> int:
    global SERVERS, QUIET
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument(
        "--postgres", default=os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    parser.add_argument(
        "--servers", type=int, default=SERVERS, help="servers sharing the rounds (1: one server has 99%%)"
    )
    args = parser.parse_args()
    SERVERS = args.servers
    QUIET = GUILD0 + SERVERS
    ok = True
    if args.only != "postgres":
        with tempfile.TemporaryDirectory() as tmp:
            ok = await run("sqlite", f"sqlite:///{tmp}/bench.sqlite3", args.rounds, args.queries) and ok
    if args.only != "sqlite":
        schema = f"bench_history_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(args.postgres)
        try:
            await admin.execute(f'CREATE SCHEMA "{schema}"')
            sep = "&" if "?" in args.postgres else "?"
            ok = (
                await run("postgres", f"{args.postgres}{sep}search_path={schema}", args.rounds, args.queries)
                and ok
            )
        finally:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await admin.close()
    print("goal p99 <= 20 ms (season 50 ms) and index plans:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
