"""Scale-out figures: 1,000 live tables on SQLite in one process vs PostgreSQL in two.

    python bench/scale_bench.py [--tables 1000] [--rate 200] [--seconds 15] [--only sqlite|postgres]

Each run opens ``--tables`` tables of three players (each its own channel,
spread over servers), deals them, then sends player actions at ``--rate``
actions a second in all (open loop: an action starts on time whether or not
the ones before it have finished), each to a random table, for ``--seconds``.
An action is handled as the runtime handles a click: under the table's lock,
``TableService.apply`` (engine, chips, version-checked save in one
transaction). Its time includes waiting for that lock. A round that ended is
dealt again by the same process (the timer's job), not counted as an action.

Round trips are counted at the store layer: every statement a transaction
sends (``execute``, ``fetch…``, ``lock_table``) plus its BEGIN and COMMIT.

PostgreSQL is ``TEST_DATABASE_URL`` (default the local ``test`` database), in a
fresh schema dropped afterwards; its two processes each own half the servers
(shard 0 and shard 1 of 2) and half the tables and the rate.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402

from bot.ledger import Ledger  # noqa: E402
from bot.settings import shard_of  # noqa: E402
from bot.storage import open_store  # noqa: E402
from bot.storage.postgres import PostgresStore, PostgresTx  # noqa: E402
from bot.storage.sqlite import SqliteStore, SqliteTx  # noqa: E402
from bot.tables import Table, TableService  # noqa: E402
from engine.ai.strategies import BasicStrategy  # noqa: E402

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
TABLES_PER_SERVER = 10
PLAYERS = (11, 12, 13)
BRACKETS = ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")


@dataclass
class Trips:
    """What one action sent to the database."""

    statements: int = 0
    transactions: int = 0

    @property
    def round_trips(self) -> int:
        """Statements plus each transaction's BEGIN and COMMIT."""
        return self.statements + 2 * self.transactions


_counting: ContextVar[Trips | None] = ContextVar("counting", default=None)


def count_round_trips() -> None:
    """Wrap both stores' transaction and statement methods to count, per action, what reaches the database."""

    def statement(
        method: Callable[..., Awaitable[Any]], skip_noop_lock: bool
    ) -> Callable[..., Awaitable[Any]]:
        async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            trips = _counting.get()
            sql = args[0] if args and isinstance(args[0], str) else ""
            if trips is not None and sql not in BRACKETS and not skip_noop_lock:
                trips.statements += 1
            return await method(self, *args, **kwargs)

        return counted

    for tx_class, noop_lock in ((SqliteTx, True), (PostgresTx, False)):
        for name in ("execute", "executemany", "fetchone", "fetchall"):
            setattr(tx_class, name, statement(getattr(tx_class, name), False))
        tx_class.lock_table = statement(tx_class.lock_table, noop_lock)  # type: ignore[method-assign, assignment]

    for store_class in (SqliteStore, PostgresStore):
        original = store_class.transaction

        def transaction(self: Any, original: Any = original) -> AbstractAsyncContextManager[Any]:
            trips = _counting.get()
            if trips is not None:
                trips.transactions += 1
            return original(self)  # type: ignore[no-any-return]

        store_class.transaction = transaction  # type: ignore[method-assign, assignment]


@dataclass
class Result:
    """One process's measurements."""

    times_ms: list[float] = field(default_factory=list)
    trips: list[Trips] = field(default_factory=list)
    deals: int = 0
    late_ms: float = 0.0


def servers_of(shard: int | None, count: int) -> list[int]:
    """``count`` server ids on ``shard`` of 2 (any server when not sharded)."""
    out: list[int] = []
    n = 1
    while len(out) < count:
        guild = (n << 22) | 7
        if shard is None or shard_of(guild, 2) == shard:
            out.append(guild)
        n += 1
    return out


async def open_tables(service: TableService, ledger: Ledger, servers: list[int], tables: int) -> list[Table]:
    rng = random.Random(len(servers))
    out: list[Table] = []
    for guild in servers:
        for user in PLAYERS:
            await ledger.grant(guild, user, 10_000_000, actor_id=PLAYERS[0])
    for i in range(tables):
        guild = servers[i // TABLES_PER_SERVER]
        table = await service.create(guild, 1000 + i, PLAYERS[0], "p0", 1, 100_000, 60)
        for user in PLAYERS[1:]:
            await service.join(table, user, f"p{user}")
        await service.start(table, PLAYERS[0], rng, may_manage=False)
        out.append(table)
    return out


async def drive(target: str | Path, shard: int | None, tables: int, rate: float, seconds: float) -> Result:
    """Open the tables, then send actions on time; what the runtime does for a click, measured."""
    count_round_trips()
    db = open_store(target)
    await db.open()
    ledger = Ledger(db)
    service = TableService(db, ledger, round_pause=0.0)
    servers = servers_of(shard, -(-tables // TABLES_PER_SERVER))
    live = await open_tables(service, ledger, servers, tables)
    rng = random.Random(shard or 0)
    basic = BasicStrategy()
    result = Result()

    async def one(table: Table) -> None:
        async with service.lock(table.id):
            game = table.game
            if game is None or game.over:
                return
            if not game.in_round:
                await service.next_round(table, rng)
                result.deals += 1
                return
            player = game.to_act
            assert player is not None
            action = basic.choose(game.view(player), rng)
            trips = Trips()
            token = _counting.set(trips)
            start = time.perf_counter()
            try:
                await service.apply(table, action)
            finally:
                _counting.reset(token)
            result.times_ms.append((time.perf_counter() - start) * 1000)
            result.trips.append(trips)

    loop = asyncio.get_running_loop()
    began = loop.time()
    running: list[asyncio.Task[None]] = []
    for i in range(int(rate * seconds)):
        due = began + i / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            result.late_ms = max(result.late_ms, -delay * 1000)
        running.append(asyncio.create_task(one(rng.choice(live))))
    await asyncio.gather(*running)
    await db.close()
    return result


def drive_in_process(args: tuple[str, int, int, float, float]) -> Result:
    """A whole bot process's share of the load (run by ``multiprocessing``)."""
    target, shard, tables, rate, seconds = args
    return asyncio.run(drive(target, shard, tables, rate, seconds))


@asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    from tests.storage.conftest import with_search_path

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(TEST_DATABASE_URL, schema)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


def merge(results: list[Result]) -> Result:
    out = Result()
    for r in results:
        out.times_ms += r.times_ms
        out.trips += r.trips
        out.deals += r.deals
        out.late_ms = max(out.late_ms, r.late_ms)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def rows(result: Result) -> dict[str, str]:
    trips = [t.round_trips for t in result.trips]
    statements = [t.statements for t in result.trips]
    return {
        "actions measured": f"{len(result.times_ms):,}",
        "action p50 ms": f"{pct(result.times_ms, 0.5):.2f}",
        "action p99 ms": f"{pct(result.times_ms, 0.99):.2f}",
        "action max ms": f"{max(result.times_ms, default=float('nan')):.2f}",
        "round trips/action p50": f"{pct([float(t) for t in trips], 0.5):.0f}",
        "round trips/action mean": f"{sum(trips) / max(1, len(trips)):.2f}",
        "round trips/action p99": f"{pct([float(t) for t in trips], 0.99):.0f}",
        "round trips/action max": f"{max(trips, default=0)}",
        "statements/action mean": f"{sum(statements) / max(1, len(statements)):.2f}",
        "actions within 3 round trips": f"{sum(t <= 3 for t in trips) / max(1, len(trips)):.1%}",
        "rounds dealt meanwhile": f"{result.deals:,}",
        "worst start delay ms": f"{result.late_ms:.1f}",
    }


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=200.0, help="actions a second, all processes together")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    columns: dict[str, dict[str, str]] = {}
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory() as tmp:
            result = await drive(Path(tmp) / "scale.sqlite3", None, args.tables, args.rate, args.seconds)
        columns["SQLite, 1 process"] = rows(result)
    if args.only in (None, "postgres"):
        async with fresh_schema() as url:
            work = [(url, shard, args.tables // 2, args.rate / 2, args.seconds) for shard in (0, 1)]
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                results = pool.map(drive_in_process, work)
        columns["PostgreSQL, 2 processes"] = rows(merge(results))
    names = list(next(iter(columns.values())))
    print(f"{args.tables:,} live tables, {args.rate:g} actions/s for {args.seconds:g} s")
    print(f"{'':<28}" + "".join(f"{c:>26}" for c in columns))
    for name in names:
        print(f"{name:<28}" + "".join(f"{col[name]:>26}" for col in columns.values()))


if __name__ == "__main__":
    asyncio.run(main())
