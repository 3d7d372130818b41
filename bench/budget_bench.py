"""Thousands of busy tables on one bot token: the channel-call budget against a fake Discord.

    python bench/budget_bench.py [--tables 300] [--processes 1] [--budget 45|0] [--speed 2]
                                 [--seconds 60] [--drain 120] [--profile fast|mix]
                                 [--redis own|URL|none] [--kill-redis-at 30]

Starts ``bench/fake_discord.py`` (the global limit of 50/s, 5 edits per 5 s per channel, 429s
as Discord answers them) and ``--processes`` bot processes, each with its share of
``--tables`` tables. Each process runs the real ``DiscordNotifier`` (its ``_call``, ``post``,
the ``EditPacer`` and the ``ChannelBudget``) on discord.py's real HTTP client, so every 429,
its ``retry_after`` and discord.py's own waits happen as in production. Only what a table
*shows* is the bench's: its message reads ``v<version>`` instead of a rendered table, so no
game runs and the figures measure Discord calls alone.

**The clock is compressed** ``--speed`` times: a simulated second lasts ``1/speed`` real
seconds, and everything that counts time is scaled to match — the fake Discord's limits
(50 per 1/speed s, 5 edits per 5/speed s), the pacer's window, the budget and the send gate's window
(``--budget`` × speed a second). Figures are reported in simulated seconds.

**Load** (``--profile``), per table, in simulated time:

- ``fast``: one human and four computers as fast as the pacing allows: the table changes every
  second; a turn ping every 5 changes (the human's turn); a round ends every 30 changes, and its
  record is posted (a must-post).
- ``mix``: half the tables ``fast``, half three people: a change every 3 s, each one a ping,
  a round every 20 changes.

Interaction acknowledgements (a click answered) go to the fake Discord straight, as discord.py
sends them (never through the budget), for 50 probe tables every 2 s; their real latency is
reported.

**Redis**: with several processes the budget is shared through Redis: ``own`` starts a
``redis-server`` of the bench's own on a free port (killed at ``--kill-redis-at`` simulated
seconds, if given; never the machine's), a URL uses that one, ``none`` gives each process its
share. The report: global and per-route 429s (and global 429s after Redis was killed), each
change's time until the table showed it (p50/p99/max), tables that had not converged when the
drain ended, and acknowledgement latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402
from fake_discord import busiest  # noqa: E402 - the fake's own count, of what the bots sent

from bot import send_gate  # noqa: E402
from bot.budget import ChannelBudget, InvalidRequests  # noqa: E402
from bot.client import Harness  # noqa: E402
from bot.i18n import texts  # noqa: E402
from bot.send_gate import SendGate, exempt  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.testing_api import apply_api_base  # noqa: E402
from cogs.flipflop import pacing  # noqa: E402
from cogs.flipflop.notifier import DiscordNotifier  # noqa: E402
from cogs.flipflop.screens import Screen  # noqa: E402

PROBES = 50
"""Tables whose clicks are answered (interaction acknowledgements) and timed."""


@dataclass
class BenchTable:
    """What the notifier reads of a table on the paths the bench drives."""

    id: str
    guild_id: int
    channel_id: int
    message_id: int
    version: int = 0
    status: str = "playing"
    practice: bool = False
    game: None = None
    thread_id: None = None
    lobby_message_id: None = None
    last_round_id: None = None

    @property
    def plays_in(self) -> int:
        return self.channel_id


class Languages:
    async def server_texts(self, guild_id: int) -> Any:
        return texts("en")


class BenchBot(discord.Client):
    """The parts of ``FlipFlopBot`` the notifier uses, on discord.py's real HTTP client."""

    def __init__(self, settings: Settings) -> None:
        invalid = InvalidRequests(settings.invalid_requests_limit // settings.processes)
        gate = SendGate()
        self.sent: list[float] = []
        """When each counted request was written out (its body): the bots' side of the busiest second."""
        trace = invalid.trace(gate.trace())

        async def written(session: Any, ctx: Any, params: Any) -> None:  # the body (and headers) written out
            if not getattr(ctx, "bench_sent", False) and not exempt(str(params.url)):
                ctx.bench_sent = True
                self.sent.append(time.time())

        trace.on_request_chunk_sent.append(written)
        super().__init__(intents=discord.Intents.none(), http_trace=trace)
        self.settings = settings
        self.invalid_requests = invalid
        self.send_gate = gate
        self.harness = Harness()
        self.languages = Languages()
        self.db = None  # the turn-ping choices' book is never read here (the bench posts its own pings)


class BenchNotifier(DiscordNotifier):
    """The real notifier; a table message reads ``table <id> v<version>`` (no game is rendered)."""

    def screen(self, table: Any, t: Any = None) -> Screen:
        return Screen(content=f"table {table.id} v{table.version}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


# ------------------------------------------------------------------ one bot process


async def run_process(index: int, args: dict[str, Any], out: str) -> None:
    speed = args["speed"]
    pacing.BUDGET = (pacing.EDITS_PER_WINDOW, pacing.WINDOW_SECONDS / speed)
    send_gate.WIRE_SECONDS = 1.0 / speed
    apply_api_base(args["base"])
    processes = args["processes"]
    settings = Settings(shard_count=processes, shard_ids=(index,), redis_url=args["redis"])
    bot = BenchBot(settings)
    await bot._async_setup_hook()  # what login() does first, without asking for the application
    await bot.http.static_login("bench-token")
    notifier = BenchNotifier(bot)  # type: ignore[arg-type]
    await notifier.budget.close()
    # The budget scaled to the clock (the setting itself stops at Discord's 50 a second).
    budget = ChannelBudget(int(args["budget"] * speed), settings.processes, settings.redis_url, index=index)
    notifier.budget = notifier.pacer.budget = budget
    bot.send_gate.attach(budget)
    rng = random.Random(index)
    mine = range(index, args["tables"], processes)
    tables = [BenchTable(f"t{i}", 10_000 + i // 10, 1_000_000 + i, 5_000_000 + i) for i in mine]
    changes: dict[int, list[tuple[int, float]]] = {t.channel_id: [] for t in tables}
    acks: list[float] = []
    session = bot.http._HTTPClient__session  # type: ignore[attr-defined]
    end = time.time() + args["seconds"] / speed
    pings = 0

    async def ping(table: BenchTable) -> None:
        nonlocal pings
        pings += 1
        channel = notifier.channel(table)  # type: ignore[arg-type]
        try:
            await channel.send(f"<@1> it's your turn ({table.id})")
        except discord.HTTPException:
            pass

    async def play(table: BenchTable, people: bool) -> None:
        every, round_every, ping_every = (3.0, 20, 1) if people else (1.0, 30, 5)
        await asyncio.sleep(rng.uniform(0, every) / speed)
        while time.time() < end:
            table.version += 1
            changes[table.channel_id].append((table.version, time.time()))
            notifier.refresh_soon(table)  # type: ignore[arg-type]
            if table.version % ping_every == 0:
                notifier.pacer.request(
                    table.channel_id, lambda t=table: ping(t), key=f"ping:{table.id}:{table.version}"
                )
            if table.version % round_every == 0:
                notifier._spawn(_post(notifier, table))
            await asyncio.sleep(rng.uniform(0.8, 1.2) * every / speed)

    async def click(table: BenchTable) -> None:
        url = f"{args['base']}/api/v10/interactions/{table.channel_id}/token/callback"
        while time.time() < end:
            start = time.perf_counter()
            async with session.post(url, json={"type": 6}) as response:
                await response.read()
            acks.append(time.perf_counter() - start)
            await asyncio.sleep(2.0 / speed)

    lag: list[float] = []

    async def ticker() -> None:  # the event loop's lag: a busy process answers everything late
        while time.time() < end:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lag.append(time.perf_counter() - start - 0.01)

    people = args["profile"] == "mix"
    players = [asyncio.create_task(play(t, people and i % 2 == 1)) for i, t in enumerate(tables)]
    clickers = [asyncio.create_task(click(t)) for t in tables[: max(1, PROBES // processes)]]
    clickers.append(asyncio.create_task(ticker()))
    began = time.time()
    redis_down_at: float | None = None
    while time.time() < end:
        await asyncio.sleep(0.1)
        if redis_down_at is None and args["redis"] and not budget.shared:
            redis_down_at = time.time()
    await asyncio.gather(*players, *clickers)
    stopped = time.time()
    drain_end = stopped + args["drain"] / speed
    while time.time() < drain_end and (notifier.pacer._workers or notifier._tasks):
        await asyncio.sleep(0.05)
        if redis_down_at is None and args["redis"] and not budget.shared:
            redis_down_at = time.time()
    drained = time.time()
    result = {
        "changes": changes,
        "acks": acks,
        "loop_lag_p99": percentile(lag, 99),
        "began": began,
        "stopped": stopped,
        "drained": drained,
        "pending": len(notifier.pacer._workers),
        "pending_tasks": len(notifier._tasks),
        "pending_keys": [k for due in list(notifier.pacer._due.values())[:3] for k in due],
        "granted": budget.stats.granted,
        "skipped_pings": budget.stats.skipped_pings,
        "pings": pings,
        "redis_failures": budget.stats.redis_failures,
        "redis_down_at": redis_down_at,
        "shared_at_end": budget.shared,
        "switches": budget.stats.share.switches,
        "own_turns": budget.stats.share.own_turns,
        "gate": vars(bot.send_gate.stats),
        "invalid": bot.invalid_requests.by_status,
        "sent": bot.sent,
    }
    await notifier.pacer.close(0.1)
    await budget.close()
    await bot.close()
    Path(out).write_text(json.dumps(result))


async def _post(notifier: DiscordNotifier, table: BenchTable) -> None:
    await notifier.post(table, f"round record of {table.id} at v{table.version}")  # type: ignore[arg-type]


def process_main(index: int, args: dict[str, Any], out: str) -> None:
    import logging

    logging.basicConfig(level=logging.WARNING, format=f"[bot {index}] %(levelname)s %(name)s: %(message)s")
    for noisy in ("discord.http", "flipflop.notifier", "flipflop.pacing"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    asyncio.run(run_process(index, args, out))


# ------------------------------------------------------------------ the run


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def lags(
    changes: dict[str, list[list[float]]], shown: dict[str, list[list[float]]], until: float
) -> tuple[list[float], int]:
    """Each change's seconds until its table showed it (or a later version); tables not converged."""
    out: list[float] = []
    stale_tables = 0
    for channel, made in changes.items():
        seen = sorted((t, v) for v, t in shown.get(channel, []))
        best, i = 0, 0
        firsts: list[tuple[int, float]] = []
        for t, v in seen:
            if v > best:
                best = int(v)
                firsts.append((best, t))
        for v, t in made:
            while i < len(firsts) and firsts[i][0] < v:
                i += 1
            out.append((firsts[i][1] if i < len(firsts) else until) - t)
        if made and (not firsts or firsts[-1][0] < made[-1][0]):
            stale_tables += 1
    return out, stale_tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--budget", type=int, default=45, help="calls a second for the bot (0: off)")
    parser.add_argument("--speed", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=60.0, help="simulated seconds of play")
    parser.add_argument("--drain", type=float, default=120.0, help="simulated seconds to converge after")
    parser.add_argument("--profile", choices=("fast", "mix"), default="fast")
    parser.add_argument("--redis", default="none", help="own, a redis:// URL, or none")
    parser.add_argument("--kill-redis-at", type=float, default=None, help="simulated seconds")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line too")
    parser.add_argument("--dump", default=None, help="write the fake's and the bots' call times to this file")
    args = parser.parse_args()

    port = _free_port()
    fake = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("fake_discord.py")),
            "--port",
            str(port),
            "--speed",
            str(args.speed),
        ]
    )
    redis: subprocess.Popen[bytes] | None = None
    folder = tempfile.mkdtemp(prefix="budget-bench-")
    try:
        _wait_port(port)
        redis_url: str | None = None
        if args.redis == "own":
            server = shutil.which("redis-server")
            if server is None:
                raise SystemExit("--redis own needs redis-server on PATH")
            redis_port = _free_port()
            redis = subprocess.Popen(
                [
                    server,
                    "--port",
                    str(redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                cwd=folder,
                stdout=subprocess.DEVNULL,
            )
            _wait_port(redis_port)
            redis_url = f"redis://127.0.0.1:{redis_port}/0"
        elif args.redis != "none":
            redis_url = args.redis
        shared = {
            "base": f"http://127.0.0.1:{port}",
            "speed": args.speed,
            "processes": args.processes,
            "tables": args.tables,
            "budget": args.budget,
            "seconds": args.seconds,
            "drain": args.drain,
            "profile": args.profile,
            "redis": redis_url,
        }
        context = multiprocessing.get_context("spawn")
        outs = [os.path.join(folder, f"bot{i}.json") for i in range(args.processes)]
        bots = [
            context.Process(target=process_main, args=(i, shared, outs[i])) for i in range(args.processes)
        ]
        started = time.time()
        for bot in bots:
            bot.start()
        killed_at: float | None = None
        if redis is not None and args.kill_redis_at is not None:
            time.sleep(max(0.0, args.kill_redis_at / args.speed - (time.time() - started)))
            killed_at = time.time()
            redis.send_signal(signal.SIGKILL)
            redis.wait()
            print(f"redis-server killed at {args.kill_redis_at:.0f} s (simulated)", flush=True)
        for bot in bots:
            bot.join()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/report") as response:
            report = json.loads(response.read())
        results = [json.loads(Path(out).read_text()) for out in outs]
        if args.dump:
            times = {"served": report["calls"], "global_429s": report["global_429s"]}
            times["sent"] = sorted(t for r in results for t in r["sent"])
            Path(args.dump).write_text(json.dumps(times))
        summarize(args, report, results, started, killed_at)
    finally:
        fake.terminate()
        fake.wait()
        if redis is not None and redis.poll() is None:
            redis.terminate()
            redis.wait()
        shutil.rmtree(folder, ignore_errors=True)


def summarize(
    args: argparse.Namespace,
    report: dict[str, Any],
    results: list[dict[str, Any]],
    started: float,
    killed_at: float | None,
) -> None:
    speed = args.speed
    counts = report["counts"]
    until = max(r["drained"] for r in results)
    every: list[float] = []
    stale = 0
    changes = 0
    for r in results:
        found, not_converged = lags(r["changes"], report["shown"], until)
        every += found
        stale += not_converged
        changes += sum(len(v) for v in r["changes"].values())
    every = [x * speed for x in every]
    acks = [a * 1000 for r in results for a in r["acks"]]
    play_end = max(r["stopped"] for r in results)
    drain = (until - play_end) * speed
    figures: dict[str, Any] = {
        "tables": args.tables,
        "processes": args.processes,
        "budget": args.budget,
        "profile": args.profile,
        "speed": speed,
        "changes": changes,
        "global_429": counts.get("429_global", 0),
        "route_429": counts.get("429_user", 0),
        "edits": counts.get("PATCH message", 0),
        "posts": counts.get("POST message", 0),
        "busiest_second": report["busiest_second"],
        "busiest_second_sent": busiest(sorted(t for r in results for t in r["sent"]), 1.0 / speed),
        "lag_p50_s": round(percentile(every, 50), 1),
        "lag_p99_s": round(percentile(every, 99), 1),
        "lag_max_s": round(max(every, default=float("nan")), 1),
        "not_converged": stale,
        "drain_s": round(drain, 1),
        "ack_p99_ms": round(percentile(acks, 99), 1),
        "loop_lag_p99_ms": round(max(r["loop_lag_p99"] for r in results) * 1000, 1),
        "left_pending": [sum(r["pending"] for r in results), sum(r["pending_tasks"] for r in results)],
        "budget_turns": sum(sum(r["granted"].values()) for r in results),
        "pings_skipped": sum(r["skipped_pings"] for r in results),
        "pings_asked": sum(r["pings"] for r in results) + sum(r["skipped_pings"] for r in results),
        "gate": {k: sum(r["gate"][k] for r in results) for k in results[0]["gate"]},
        "switches": {k: sum(r["switches"][k] for r in results) for k in results[0]["switches"]},
    }
    if killed_at is not None:
        after = [t for t in report["global_429s"] if t > killed_at]
        down = [r["redis_down_at"] for r in results if r["redis_down_at"] is not None]
        figures["global_429_after_kill"] = len(after)
        figures["fallback_after_s"] = round((max(down) - killed_at) * speed, 2) if down else None
        lagged = []
        for r in results:
            during = {c: [m for m in v if m[1] >= killed_at] for c, v in r["changes"].items()}
            found, _ = lags(during, report["shown"], until)
            lagged += [x * speed for x in found]
        figures["lag_p99_after_kill_s"] = round(percentile(lagged, 99), 1)
        figures["lag_max_after_kill_s"] = round(max(lagged, default=float("nan")), 1)
    print(
        f"{args.tables} tables, {args.processes} process(es), budget {args.budget or 'off'}, {args.profile},"
        f" {args.seconds:.0f} s simulated at speed {speed:g}:"
    )
    for key, value in figures.items():
        print(f"  {key:24} {value}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
