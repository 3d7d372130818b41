"""The live table's costs: click-to-every-page latency, and sockets held per process.

    python bench/live_bench.py latency [--moves 300]
    python bench/live_bench.py load [--tables 1000] [--watchers 6] [--seconds 20] [--rate 200]

``latency``: one table of three members on the real ``TableRuntime`` (SQLite, every move
saved in its transaction) with the live server on 127.0.0.1; three players' pages and three
spectators' pages are WebSocket clients in this process. Each move is sent by the page of
the player to act (``{"type": "move"}``, the hand's codec) and timed until every *other*
page has received the new state: p50/p99 over ``--moves`` moves.

``load``: ``--tables`` tables of three members, each watched by ``--watchers`` sockets
(the players' and spectators' pages), opened by a client process of its own so the server's
memory is the server's. Prints the server's resident memory before and after the sockets
connect (per socket), then plays moves on random tables at ``--rate`` per second for
``--seconds`` seconds (the compressed clock: a real table moves every few seconds) and
prints what the clients measured: states received, and the lag from the server making a
state to a client reading it (p50/p99), plus the server's event-loop lag (p99).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from bench.quiet import bench_runtime  # noqa: E402
from bot.i18n import Texts, texts  # noqa: E402
from bot.ledger import Ledger  # noqa: E402
from bot.live.links import Pass  # noqa: E402
from bot.live.server import LiveServer, bind  # noqa: E402
from bot.runtime import TableRuntime  # noqa: E402
from bot.storage import open_store  # noqa: E402
from bot.table.model import Table  # noqa: E402
from engine import Leave  # noqa: E402
from engine.codec import control_of  # noqa: E402

G = 1
PLAYERS = (11, 12, 13)
SPECTATORS = (21, 22, 23)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def english(*_: int) -> Texts:
    return texts("en")


async def new_table(runtime: TableRuntime, ledger: Ledger, channel: int, players: tuple[int, ...]) -> Table:
    for user in players:
        await ledger.grant(G, user, 1_000_000, actor_id=players[0])
    table = await runtime.open(G, channel, players[0], "p0", 1, 1000, 60)
    await runtime.placed(table.id, channel)
    for i, user in enumerate(players[1:], 1):
        await runtime.join(table.id, user, f"p{i}")
    await runtime.start(table.id, players[0], False)
    return table


def a_move(table: Table, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """The player to act and a move for them (mostly not a drop: rounds last), or None between rounds."""
    game = table.game
    if game is None or not game.in_round or game.to_act is None:
        return None
    legal = [a for a in game.view(game.to_act).legal if not isinstance(a, Leave)]
    plays = [a for a in legal if control_of(a)[0] != "drop"]
    op, value = control_of(rng.choice(plays if plays and rng.random() < 0.95 else legal))
    return int(game.to_act), {"type": "move", "op": op, "value": value, "seq": table.seq}


async def server(tmp: str) -> tuple[TableRuntime, Ledger, LiveServer, Any]:
    db = open_store(Path(tmp) / "bench.sqlite3")
    await db.open()
    ledger = Ledger(db)
    runtime = bench_runtime(db, ledger)
    sock = bind(0, "127.0.0.1")
    live = LiveServer(sock, f"http://127.0.0.1:{sock.getsockname()[1]}/", time.time)
    live.attach(runtime, english, english)
    await live.start()
    return runtime, ledger, live, db


# ---------------------------------------------------------------------- latency


async def latency(moves: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        runtime, ledger, live, db = await server(tmp)
        table = await new_table(runtime, ledger, 100, PLAYERS)
        url = live.url.replace("http", "ws") + "live/ws"
        async with aiohttp.ClientSession() as http:
            sockets: dict[int, aiohttp.ClientWebSocketResponse] = {}
            versions: dict[int, int] = {}
            arrived: dict[int, asyncio.Event] = {}
            for user in (*PLAYERS, *SPECTATORS):
                ws = await http.ws_connect(url)
                await ws.send_str(
                    json.dumps(
                        {"type": "hello", "session": live.sessions.open(Pass(user, G, table.id, "en"))}
                    )
                )
                sockets[user], versions[user], arrived[user] = ws, -1, asyncio.Event()

            async def read(user: int) -> None:
                async for message in sockets[user]:
                    data = json.loads(message.data)
                    if data["type"] == "state":
                        versions[user] = data["info"]["version"]
                        arrived[user].set()

            readers = [asyncio.create_task(read(u)) for u in sockets]
            await asyncio.sleep(0.2)
            took: list[float] = []
            while len(took) < moves:
                found = a_move(table, rng)
                if found is None:
                    await runtime.fire(table.id)  # the next deal, now (no pause in a bench)
                    await asyncio.sleep(0.01)
                    continue
                actor, move = found
                others = [u for u in sockets if u != actor]
                for u in others:
                    arrived[u].clear()
                start = time.perf_counter()
                await sockets[actor].send_str(json.dumps(move))
                await asyncio.wait_for(asyncio.gather(*(arrived[u].wait() for u in others)), 10)
                took.append(time.perf_counter() - start)
                if table.status == "closed" or runtime.get(table.id) is None:
                    table = await new_table(runtime, ledger, 100 + len(took), PLAYERS)
                    break
            for task in readers:
                task.cancel()
        await live.stop()
        await db.close()
    print(f"click -> every other page (5 pages, 1 table), {len(took)} moves:")
    print(
        f"  p50 {pct(took, 0.5) * 1000:.1f} ms   p99 {pct(took, 0.99) * 1000:.1f} ms"
        f"   max {max(took) * 1000:.1f} ms"
    )


# ---------------------------------------------------------------------- load


CLIENT = """
import asyncio, json, sys, time
import aiohttp

async def main():
    url, sessions = sys.argv[1], json.load(open(sys.argv[2]))
    lags, got, ready = [], 0, 0
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        async def one(session):
            nonlocal got, ready
            ws = await http.ws_connect(url, autoping=True, heartbeat=None)
            await ws.send_str(json.dumps({"type": "hello", "session": session}))
            first = True
            async for m in ws:
                data = json.loads(m.data)
                if data["type"] == "state":
                    if first:
                        ready += 1
                        first = False
                    else:
                        got += 1
                        lags.append(time.time() - data["info"]["now"])
        tasks = []
        for i in range(0, len(sessions), 200):
            tasks += [asyncio.create_task(one(s)) for s in sessions[i:i + 200]]
            await asyncio.sleep(0.05)
        while ready < len(sessions):
            await asyncio.sleep(0.1)
        print("READY", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        lags.sort()
        q = lambda p: lags[min(len(lags) - 1, int(p * len(lags)))] * 1000 if lags else float("nan")
        print(json.dumps({"states": got, "p50_ms": q(0.5), "p99_ms": q(0.99), "max_ms": q(1.0)}), flush=True)
        for t in tasks:
            t.cancel()

asyncio.run(main())
"""


async def load(tables: int, watchers: int, seconds: float, rate: float, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        runtime, ledger, live, db = await server(tmp)
        opened: list[Table] = []
        started = time.perf_counter()
        for i in range(tables):
            players = tuple(1000 + 10 * i + k for k in range(3))
            opened.append(await new_table(runtime, ledger, 10_000 + i, players))
        print(f"{tables} tables opened and dealt in {time.perf_counter() - started:.1f} s")
        sessions = []
        for i, table in enumerate(opened):
            viewers = [*table.seats, *(900_000 + watchers * i + k for k in range(max(0, watchers - 3)))]
            sessions += [live.sessions.open(Pass(v, G, table.id, "en")) for v in viewers[:watchers]]
        path = Path(tmp) / "sessions.json"
        path.write_text(json.dumps(sessions))
        gc.collect()
        before = rss_mb()
        client = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            CLIENT,
            live.url.replace("http", "ws") + "live/ws",
            str(path),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert client.stdout is not None and client.stdin is not None
        line = await asyncio.wait_for(client.stdout.readline(), 600)
        assert line.strip() == b"READY", line
        gc.collect()
        after = rss_mb()
        sockets = live.hub.count()
        print(
            f"sockets held: {sockets}; server RSS {before:.0f} MB -> {after:.0f} MB:"
            f" {(after - before) * 1024 / max(1, sockets):.1f} KB per socket"
        )
        lag: list[float] = []
        stop = asyncio.Event()

        async def ticker() -> None:
            while not stop.is_set():
                t0 = time.perf_counter()
                await asyncio.sleep(0.01)
                lag.append(time.perf_counter() - t0 - 0.01)

        tick = asyncio.create_task(ticker())
        played, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            table = rng.choice(opened)
            if runtime.get(table.id) is not None:
                found = a_move(table, rng)
                if found is None:
                    await runtime.fire(table.id)
                else:
                    actor, move = found
                    # the runtime tells the channel and the pages on the command's way out
                    await runtime.act(table.id, actor, move["seq"], parse(table, actor, move))
                    played += 1
            await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - t0)))
        await asyncio.sleep(1.0)
        stop.set()
        await tick
        client.stdin.write(b"\n")
        await client.stdin.drain()
        result = json.loads(await asyncio.wait_for(client.stdout.readline(), 60))
        await client.wait()
        print(
            f"{played} moves in {seconds:.0f} s ({played / seconds:.0f}/s) on {tables} tables,"
            f" {result['states']} states delivered"
        )
        print(
            f"  state made -> read by a client: p50 {result['p50_ms']:.1f} ms  p99 {result['p99_ms']:.1f} ms"
            f"  max {result['max_ms']:.1f} ms"
        )
        print(f"  server event-loop lag (10 ms ticker): p99 {pct(lag, 0.99) * 1000:.1f} ms")
        await live.stop()
        await db.close()


def parse(table: Table, actor: int, move: dict[str, Any]) -> Any:
    from engine.codec import parse_control

    return parse_control(table.pid(actor), move["op"], move["value"])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["latency", "load"])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--watchers", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.what == "latency":
        asyncio.run(latency(args.moves, args.seed))
    else:
        asyncio.run(load(args.tables, args.watchers, args.seconds, args.rate, args.seed))


if __name__ == "__main__":
    main()
