"""The real ``python -m bot`` with ``METRICS_PORT``: /metrics and /healthz scraped over HTTP.

- On SQLite: both answer 200; a game played through the fake Discord moves the
  action counters, and the REST calls counted by route and status are exactly
  the ones the fake Discord saw — a 429 it answered (and discord.py retried)
  included.
- On PostgreSQL behind a TCP relay the test controls: cutting the relay makes
  the database unreachable, and /healthz answers 503 while the bot keeps
  running (its process alive, /metrics still answering); restoring it brings
  /healthz back to 200.
- Two processes, shards 0 and 1 of one bot: each serves its own metrics, its
  shard in the labels, its table counted on its server's shard.
- A metrics port already in use: a clear message and exit status 2, before
  anything else starts.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest_asyncio

from bot.metrics import route_of
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_crash import ROOT, BotProcess, open_game, play_turn, to_act
from tests.storage.conftest import TEST_DATABASE_URL, with_search_path

SAMPLE = re.compile(r"^(?P<name>[a-z_]+)(?:\{(?P<labels>.*)\})? (?P<value>\S+)$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Prometheus text as {(name, labels): value}."""
    out: dict[tuple[str, frozenset[tuple[str, str]]], float] = {}
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if match is None:
            continue
        labels = frozenset(re.findall(r'(\w+)="([^"]*)"', match["labels"] or ""))
        out[(match["name"], labels)] = float(match["value"])
    return out


def sample(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, frozenset(labels.items())), 0.0)


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def rest_calls(
    discord: FakeDiscord, port: int
) -> tuple[Counter[tuple[str, str, str]], dict[tuple[str, str, str], float]]:
    """What the fake Discord answered and what the bot counted, once both agree (or after 5 s)."""
    for _ in range(50):
        seen: Counter[tuple[str, str, str]] = Counter()
        for line in list(discord.requests):
            method, path, _, code = line.split(" ")
            if path != "/gateway":  # the websocket: recorded by the fake only when it closes
                seen[(method, route_of(path), code)] += 1
        _, text = await get(port, "/metrics")
        counted = {
            (dict(labels)["method"], dict(labels)["route"], dict(labels)["status"]): v
            for (name, labels), v in samples(text).items()
            if name == "flipflop_discord_requests_total"
        }
        if all(counted.get(k, 0) == n for k, n in seen.items()):
            break
        await asyncio.sleep(0.1)
    return seen, counted


class MetricsProcess(BotProcess):
    """A bot process serving metrics on its own port."""

    def __init__(self, fake: FakeDiscord, base: str, tmp: Path, settings: dict[str, str]) -> None:
        self.metrics_port = free_port()
        super().__init__(fake, base, tmp, settings={**settings, "METRICS_PORT": str(self.metrics_port)})


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[tuple[FakeDiscord, str]]:
    fake = FakeDiscord()
    base = await fake.start()
    yield fake, base
    await fake.stop()


async def test_metrics_and_healthz_from_the_real_process(
    fake: tuple[FakeDiscord, str], tmp_path: Path
) -> None:
    discord, base = fake
    bot = MetricsProcess(discord, base, tmp_path, {"DATABASE_PATH": str(tmp_path / "bot.sqlite3")})
    await bot.start()
    discord.fail("edit_message", 429, retry_after=0.05)  # the first table edit is rate limited, as by Discord
    try:
        status, text = await get(bot.metrics_port, "/healthz")
        assert status == 200, text
        assert '"status": "ok"' in text and '"logged_in": true' in text
        await open_game(discord, bot)
        for _ in range(3):
            if to_act(bot) is None:
                break
            await play_turn(discord, bot, may_drop=False)
        await asyncio.sleep(0.5)  # the table message's paced edits settle
        status, text = await get(bot.metrics_port, "/metrics")
        assert status == 200
        assert sample(text, "flipflop_logged_in") == 1 and sample(text, "flipflop_database_up") == 1
        assert sample(text, "flipflop_open_tables", practice="false", status="playing", shard="0") == 1
        moves = sum(
            v
            for (name, labels), v in samples(text).items()
            if name == "flipflop_actions_total" and ("by", "member") in labels
        )
        assert (
            moves >= 3
            and sample(text, "flipflop_actions_total", kind="draw_stock", by="member", shard="0") >= 1
        )
        assert sample(text, "flipflop_action_latency_seconds_count", kind="draw_stock") >= 1
        assert sample(text, "flipflop_db_query_seconds_count", store="sqlite", op="execute") > 0
        assert sample(text, "flipflop_gateway_latency_seconds", shard="0") >= 0
        assert sample(text, "flipflop_shard_up", shard="0") == 1
        # every REST call the fake Discord answered is counted once, by method, route and status
        seen, counted = await rest_calls(discord, bot.metrics_port)
        assert any(route == "/interactions/{id}/{token}/callback" for _, route, _ in seen)
        assert seen[("PATCH", "/channels/{id}/messages/{id}", "429")] == 1  # retried by discord.py
        assert counted[("PATCH", "/channels/{id}/messages/{id}", "429")] == 1
        assert seen[("PATCH", "/channels/{id}/messages/{id}", "200")] >= 1
        assert {k: counted.get(k, 0) for k in seen} == dict(seen), counted
    finally:
        assert await bot.terminate() == 0
    assert "Metrics on port" in bot.log.read_text()


async def test_a_metrics_port_in_use_stops_the_start_with_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")}
        env.update(
            DISCORD_TOKEN="fake-token",
            DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
            METRICS_PORT=str(port),
            FLIPFLOP_API_BASE="http://127.0.0.1:9",  # never reached
            PYTHONPATH=str(ROOT),
        )
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 2, (out, err)
    message = err.decode()
    assert f"METRICS_PORT={port} is already in use" in message
    assert "Traceback" not in message
    assert not (tmp_path / "bot.sqlite3").exists()  # told before anything was opened


# ------------------------------------------------------------------ PostgreSQL behind a relay


class Relay:
    """A TCP relay to PostgreSQL the test can cut (every connection dropped, none accepted) and restore."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.listen_port = free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.listen_port)

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for w in list(self.writers):
            w.close()
        await self.server.wait_closed()
        self.server = None

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers -= {writer, up_writer}


def through(url: str, port: int) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{port}"
    return parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) == 2 else host).geturl()


async def test_healthz_is_503_while_the_database_is_unreachable_and_the_bot_keeps_running(
    fake: tuple[FakeDiscord, str], postgres_schema: str, tmp_path: Path
) -> None:
    discord, base = fake
    target = urlsplit(TEST_DATABASE_URL)
    relay = Relay(target.hostname or "127.0.0.1", target.port or 5432)
    await relay.open()
    url = with_search_path(through(TEST_DATABASE_URL, relay.listen_port), postgres_schema)
    bot = MetricsProcess(discord, base, tmp_path, {"DATABASE_URL": url})
    await bot.start()
    try:
        status, text = await get(bot.metrics_port, "/healthz")
        assert status == 200, text
        await relay.cut()
        status, text = await get(bot.metrics_port, "/healthz")
        assert status == 503, text
        assert '"logged_in": true' in text and '"status": "unhealthy"' in text
        assert bot.proc is not None and bot.proc.returncode is None  # still running
        status, text = await get(bot.metrics_port, "/metrics")
        assert status == 200 and sample(text, "flipflop_database_up") == 0
        await relay.open()
        answers: list[int] = []

        async def healthy() -> None:
            for _ in range(50):
                answers.append((await get(bot.metrics_port, "/healthz"))[0])
                if answers[-1] == 200:
                    return
                await asyncio.sleep(0.2)

        await healthy()
        assert answers[-1] == 200, answers  # the pool connects again once the database is back
    finally:
        assert await bot.terminate() == 0
        if relay.server is not None:
            await relay.cut()


async def test_each_shard_process_serves_its_own_metrics_labelled_with_its_shard(
    postgres_schema: str, tmp_path: Path
) -> None:
    from tests.e2e.test_shards import CHANNELS, GUILDS, SHARDS, ShardProcess

    discord = FakeDiscord(shard_count=SHARDS, guilds={GUILDS[s]: CHANNELS[s] for s in GUILDS})
    base = await discord.start()
    url = with_search_path(TEST_DATABASE_URL, postgres_schema)
    procs = [ShardProcess(discord, base, tmp_path, url, shard) for shard in range(SHARDS)]
    ports = [free_port() for _ in procs]
    for proc, port in zip(procs, ports, strict=True):
        proc.settings["METRICS_PORT"] = str(port)
    try:
        for proc in procs:
            await proc.start()
        await open_game(discord, procs[1])  # a table on shard 1's server only
        for shard, port in enumerate(ports):
            status, text = await get(port, "/metrics")
            assert status == 200
            other = str(1 - shard)
            assert sample(text, "flipflop_shard_up", shard=str(shard)) == 1
            assert not any(("shard", other) in labels for _, labels in samples(text))  # only its own
            playing = {"practice": "false", "status": "playing", "shard": str(shard)}
            assert sample(text, "flipflop_open_tables", **playing) == (1 if shard == 1 else 0)
            assert (await get(port, "/healthz"))[0] == 200
    finally:
        for proc in procs:
            if proc.proc is not None and proc.proc.returncode is None:
                await proc.kill()
        await discord.stop()
