"""``/metrics`` and ``/healthz`` on ``METRICS_PORT``, and what is read off the bot when scraped."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import disable_created_metrics
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from bot.listening import PortError, listen
from bot.metrics.budget import BudgetCollector
from bot.metrics.hooks import instrument, shard_label
from bot.metrics.registry import DATABASE_UP, LOGGED_IN, REGISTRY

if TYPE_CHECKING:
    from bot.client import FlipFlopBot
    from bot.settings import Settings

log = logging.getLogger("flipflop.metrics")

HEALTH_TIMEOUT = 2.0
"""Seconds the database has to answer the health check."""

# ------------------------------------------------------------------ read when scraped


class BotCollector(Collector):
    """What is read off the bot at each scrape: open tables, shards and their gateway latency."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:  # noqa: D102
        bot = self.bot
        tables = GaugeMetricFamily(
            "flipflop_open_tables",
            "Open tables of this process: practice or real, lobby or playing, by shard.",
            labels=["practice", "status", "shard"],
        )
        counts: dict[tuple[str, str, str], int] = {}
        runtime = bot.runtime
        for table in list(runtime.tables.values()) if runtime is not None else ():
            found: tuple[str, str, str] = (
                "true" if table.practice else "false",
                str(table.status),
                shard_label(table.guild_id),
            )
            counts[found] = counts.get(found, 0) + 1
        for shard in self.shards():
            for practice in ("false", "true"):
                for status in ("lobby", "playing"):
                    counts.setdefault((practice, status, shard), 0)
        for key, n in sorted(counts.items()):
            tables.add_metric(list(key), n)
        yield tables
        latency = GaugeMetricFamily(
            "flipflop_gateway_latency_seconds",
            "Seconds between a gateway heartbeat and its acknowledgement, by shard (NaN: not connected).",
            labels=["shard"],
        )
        up = GaugeMetricFamily(
            "flipflop_shard_up",
            "1 for each shard this process runs whose gateway is connected.",
            labels=["shard"],
        )
        latencies = dict(bot.latencies)
        for shard in self.shards():
            seconds = latencies.get(int(shard), math.nan)
            latency.add_metric([shard], seconds if math.isfinite(seconds) else math.nan)
            info = bot.get_shard(int(shard))
            up.add_metric([shard], 0.0 if info is None or info.is_closed() else 1.0)
        yield latency
        yield up

    def shards(self) -> list[str]:
        """The shards this process runs (every shard of the bot when it runs them all)."""
        ids: Iterable[int] = self.bot.shard_ids or range(self.bot.shard_count or 1)
        return [str(i) for i in ids]


# ------------------------------------------------------------------ the endpoint


class MetricsPortError(PortError):
    """``METRICS_PORT`` can not be listened on; the message says what to do."""


def bind(port: int, host: str = "0.0.0.0") -> socket.socket:
    """Listen on the metrics port now, before logging in, so a clash is told at start-up."""
    clash = (
        "Stop it, or give this process its own METRICS_PORT (each process of a sharded bot"
        " needs its own), or leave METRICS_PORT empty to run without metrics."
    )
    return listen(port, "METRICS_PORT", clash, error=MetricsPortError, host=host)


@dataclass
class Health:
    """What ``/healthz`` found."""

    logged_in: bool
    database: str
    """``ok``, or why the database did not answer."""

    @property
    def ok(self) -> bool:
        """Logged in and the database answered."""
        return self.logged_in and self.database == "ok"


async def check(bot: FlipFlopBot) -> Health:
    """Whether the bot is logged in and its database answers (sets the two gauges)."""
    logged_in = bot.is_ready() and not bot.is_closed() and bot.user is not None
    try:
        await asyncio.wait_for(bot.db.fetchone("SELECT 1"), HEALTH_TIMEOUT)
        database = "ok"
    except TimeoutError:
        database = f"no answer within {HEALTH_TIMEOUT:g} s"
    except Exception as e:  # noqa: BLE001 - whatever the driver says, the database is not answering
        database = f"{type(e).__name__}: {e}"[:300]
    LOGGED_IN.set(1 if logged_in else 0)
    DATABASE_UP.set(1 if database == "ok" else 0)
    return Health(logged_in, database)


class MetricsServer:
    """``/metrics`` and ``/healthz`` on the bound port, served from the bot's own event loop."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.port: int = sock.getsockname()[1]
        self.bot: FlipFlopBot | None = None
        self._runner: web.AppRunner | None = None
        self._collector: BotCollector | None = None
        self._budget: BudgetCollector | None = None

    async def start(self, bot: FlipFlopBot) -> None:
        """Instrument ``bot`` and answer on the port."""
        self.bot = bot
        instrument(bot)
        self._collector = BotCollector(bot)
        REGISTRY.register(self._collector)
        self._budget = BudgetCollector(bot)
        REGISTRY.register(self._budget)
        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, self.sock).start()
        log.info("Metrics on port %d: /metrics and /healthz.", self.port)

    async def metrics(self, request: web.Request) -> web.Response:
        """Every metric, the health gauges checked first."""
        assert self.bot is not None
        await check(self.bot)
        await self.bot.invalid_requests.refresh()  # the 10-minute count falls as time passes
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, request: web.Request) -> web.Response:
        """200 when logged in and the database answers; else 503 saying which is not."""
        assert self.bot is not None
        health = await check(self.bot)
        body = {
            "status": "ok" if health.ok else "unhealthy",
            "logged_in": health.logged_in,
            "database": health.database,
        }
        return web.json_response(body, status=200 if health.ok else 503, dumps=json.dumps)

    async def stop(self) -> None:
        """Stop answering and let go of the port."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._collector is not None:
            REGISTRY.unregister(self._collector)
            self._collector = None
        if self._budget is not None:
            REGISTRY.unregister(self._budget)
            self._budget = None
        self.sock.close()


def serve(settings: Settings) -> MetricsServer | None:
    """The metrics endpoint on ``METRICS_PORT`` with its port bound now, or None when it is not set.

    Raises ``MetricsPortError`` (``python -m bot`` exits with status 2).
    """
    if settings.metrics_port is None:
        return None
    # no ``_created`` series beside every counter and histogram: half the scrape, nothing an alert needs
    disable_created_metrics()  # type: ignore[no-untyped-call]
    return MetricsServer(bind(settings.metrics_port))
