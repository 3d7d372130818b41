"""Two real bot processes, shards 0 and 1 of 2, one PostgreSQL, a sharded fake Discord.

Each process runs one shard, so each owns the tables of the servers on it.
Both play a table to the end; one is SIGKILLed mid-turn and restarted. Chips
are conserved, no action is applied twice (each table's stored rounds replay
one after another to its final stacks), and the other process's table is never
touched: its row does not change while the killed process restarts and resumes.

PostgreSQL is the server named by ``TEST_DATABASE_URL``, in a fresh schema;
without one the test is skipped with one line — unless ``REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Coroutine
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest_asyncio

from bot.storage.postgres import to_dollar
from tests.e2e.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, shard_of
from tests.e2e.test_crash import BotProcess, check_rounds_chain, open_game, play_turn, to_act, wait_for

T = TypeVar("T")
SHARDS = 2
GUILDS = {shard_of(g, SHARDS): g for g in (GUILD_ID, GUILD_ID + (1 << 22))}  # one server on each shard
CHANNELS = {shard: CHANNEL_ID + shard for shard in GUILDS}


class ShardProcess(BotProcess):
    """A bot process running one shard against the shared PostgreSQL."""

    def __init__(self, fake: FakeDiscord, base: str, tmp: Path, url: str, shard: int) -> None:
        super().__init__(
            fake,
            base,
            tmp,
            name=f"shard{shard}",
            settings={"DATABASE_URL": url, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard)},
            shard=shard,
            guild_id=GUILDS[shard],
            channel_id=CHANNELS[shard],
        )
        self.url = url

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A read of the shared database (on the reader's thread: the caller's loop runs the fake Discord)."""
        return read(self.url, sql, params)


class Reader:
    """One connection to a schema, kept open on a thread of its own loop.

    The test's loop runs the fake Discord, so a read can not be awaited there; a
    connection per read (a turn makes about ten) would cost more than the turn.
    """

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="e2e-reader", daemon=True)
        self.thread.start()
        self.conn: asyncpg.Connection = self.run(asyncpg.connect(url))

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    def fetch(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        rows = self.run(self.conn.fetch(to_dollar(sql), *params))
        return [tuple(int(v) if isinstance(v, Decimal) else v for v in r.values()) for r in rows]

    def close(self) -> None:
        self.run(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


READERS: dict[str, Reader] = {}
"""The open reader of each schema's URL (tests/e2e/conftest.py closes them after each test)."""


def close_readers() -> None:
    """Close every reader's connection and thread."""
    while READERS:
        READERS.popitem()[1].close()


def read(url: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of a read of the schema at ``url``, on its reader's connection."""
    if url not in READERS:
        READERS[url] = Reader(url)
    return READERS[url].fetch(sql, params)


@pytest_asyncio.fixture
async def shards(
    database_url: str, tmp_path: Path
) -> AsyncIterator[tuple[FakeDiscord, ShardProcess, ShardProcess]]:
    fake = FakeDiscord(shard_count=SHARDS, guilds={GUILDS[s]: CHANNELS[s] for s in GUILDS})
    base = await fake.start()
    procs = [ShardProcess(fake, base, tmp_path, database_url, shard) for shard in range(SHARDS)]
    try:
        for p in procs:
            await p.start()
        yield fake, procs[0], procs[1]
    finally:
        for p in procs:
            if p.proc is not None and p.proc.returncode is None:
                await p.kill()
        await fake.stop()


DROP_AT = 30
"""After the kill, members drop with any hand worth this or less: rounds end in a few turns, so the
two games reach their final standings in many deals rather than a few long rounds (the long
rounds, stock run out and all, are played by tests/e2e/test_crash.py)."""


async def step(fake: FakeDiscord, bot: ShardProcess) -> bool:
    """One move at the process's table (or wait for the next deal); False once its game is over."""
    if bot.table() is None:
        return False
    if to_act(bot) is None:  # between rounds: the owning process deals the next one
        await wait_for(lambda: bot.table() is None or to_act(bot) is not None, 15)
        return True
    await play_turn(fake, bot, drop_at=DROP_AT)
    return True


async def test_two_processes_share_postgresql_and_survive_a_kill(
    shards: tuple[FakeDiscord, ShardProcess, ShardProcess],
) -> None:
    fake, a, b = shards
    assert sorted(fake.identifies) == [(0, SHARDS), (1, SHARDS)]
    await open_game(fake, a)
    await open_game(fake, b)
    table_a, table_b = a.table(), b.table()
    assert table_a is not None and table_b is not None
    assert (table_a["guild_id"], table_b["guild_id"]) == (GUILDS[0], GUILDS[1])
    await play_turn(fake, a, may_drop=False)
    a.conserved()

    row_of_a = "SELECT version, updated_at, state FROM tables WHERE table_id = ?"
    before = a.query(row_of_a, (table_a["id"],))
    await play_turn(fake, b, kill_after_draw=True)  # shard 1 killed mid-turn, restarted, the turn finished
    assert a.query(row_of_a, (table_a["id"],)) == before  # shard 0's table untouched by shard 1's restart
    assert "Resumed 1 table(s)" in b.log.read_text()  # it loaded only its own table
    assert "Resumed" not in a.log.read_text()  # shard 0 resumed nothing: its table never stopped
    assert fake.identifies.count((0, SHARDS)) == 1 and fake.identifies.count((1, SHARDS)) == 2
    b.conserved()

    # Fresh seeds each run: a game's length varies (three times the usual now and then). After 40
    # moves at each table the hosts stop their games (each ends with its round): every kind of step
    # above has been seen by then; the bound only stops an endless game.
    for steps in range(8000):
        moved = [await step(fake, p) for p in (a, b)]
        a.conserved()
        if not any(moved):
            break
        if steps == 40:
            for p in (a, b):
                if p.table() is not None:
                    await fake.slash(801, "ann", "flipflop", "stop", channel_id=p.channel_id)
    else:
        raise AssertionError("the games did not end")

    per_server = dict(a.query("SELECT guild_id, SUM(balance) FROM accounts GROUP BY guild_id"))
    assert per_server == {GUILDS[0]: 3000, GUILDS[1]: 3000}
    for t in (table_a, table_b):
        check_rounds_chain(a, t["id"])
    assert a.query("SELECT COUNT(*) FROM tables WHERE status != 'closed'") == [(0,)]
