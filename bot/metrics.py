"""Prometheus metrics and a health check for operators, served when ``METRICS_PORT`` is set.

``python -m bot`` binds the port before anything else (``bind``: a port in use
is told at once, exit status 2), then ``MetricsServer.start(bot)`` instruments
the bot and answers on it:

- ``GET /metrics``: the metrics below, in Prometheus' text format;
- ``GET /healthz``: ``200 ok`` only when the bot is logged in to Discord and
  the database answers a query within two seconds, else ``503`` naming what is
  wrong. The bot keeps running either way: the check only looks.

Every metric is named ``flipflop_…``; docs/OPERATORS.md lists them for
operators, with a scrape configuration and alerts. Each process serves its own
(a sharded bot has one endpoint per process), and the metrics that belong to a
server or a gateway connection carry the ``shard`` label.

How the bot is measured, each hook installed from here so the code it
measures stays as it was:

- **Discord REST calls** by method, route and status, 429s included: an
  ``aiohttp.TraceConfig`` on the client's HTTP session (discord.py's own
  ``http_trace`` hook, set before login). It sees every request on the wire —
  each retry after a 429 as well as interaction responses and follow-ups,
  which go through discord.py's webhook adapter and never through
  ``HTTPClient.request`` — so wrapping ``HTTPClient.request`` would miss both
  the retried 429s and the replies. Routes are the URL's path with ids,
  tokens and emojis replaced (``/channels/{id}/messages``), so the label set
  stays small.
- **Action latency**, an interaction received → its first reply sent: the
  gateway's ``INTERACTION_CREATE`` parser is wrapped to note when each
  interaction arrived (in a context variable the handler's task inherits),
  and discord.py's ``InteractionResponse`` methods note when the reply went
  out. ``kind`` is the game move the interaction applied (``discard``,
  ``draw_stock``…) or else the interaction's type (``component``, ``command``…).
- **Actions by kind**: ``TableService.apply``, every game move applied at a
  table, by a member or by a timer (computer players, timeouts).
- **Database query latency**: the stores' ``execute``/``fetch`` methods.
- **Computer players and the coach**: ``ComputerPlayers.choose`` and ``run``
  (moves and searches, queue lengths and times) and the coach's ``_search``
  (questions waiting for or in a search).
- **Gateway**: listeners for shard connects, resumes and disconnects;
  latencies and open tables are read when scraped, costing the bot nothing
  in between.

The class-level hooks (stores, ``TableService``, ``ComputerPlayers``, the
coach, ``InteractionResponse``) are installed once per process, only when
metrics are served: without ``METRICS_PORT`` nothing is wrapped and nothing
costs anything. Installing twice changes nothing, and a hooked method that is
renamed fails the installation loudly (the tests install them all).

For the card-emoji sync, which runs elsewhere: ``emoji_sync(state)`` and
``emojis(present=, wanted=)`` set its gauges (documented where they are).
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import functools
import json
import logging
import math
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord
from aiohttp import web
from discord.ext import commands
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from bot.client import FlipFlopBot
    from bot.settings import Settings

log = logging.getLogger("flipflop.metrics")

REGISTRY = CollectorRegistry(auto_describe=True)
"""The bot's own registry (not the library's global one), so only ``flipflop_*`` metrics are served."""

LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.15, 0.25, 0.4, 0.6, 1.0, 1.5, 2.5, 3.0, 5.0, 10.0)
"""Seconds; Discord shows "interaction failed" when no reply comes within 3 s."""
QUERY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
SEARCH_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)

ACTIONS = Counter(
    "flipflop_actions",
    "Game moves applied at tables, by kind, by whom (member, or timer: computer players and timeouts)"
    " and by the shard of the table's server.",
    ["kind", "by", "shard"],
    registry=REGISTRY,
)
ACTION_LATENCY = Histogram(
    "flipflop_action_latency_seconds",
    "Seconds from an interaction received to its first reply sent, by the game move it applied"
    " (or the interaction's type when it applied none).",
    ["kind"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
DISCORD_REQUESTS = Counter(
    "flipflop_discord_requests",
    "Discord REST calls by method, route and HTTP status (429: rate limited; each retry counts).",
    ["method", "route", "status"],
    registry=REGISTRY,
)
DISCORD_REQUEST_SECONDS = Histogram(
    "flipflop_discord_request_seconds",
    "Seconds each Discord REST call took, by method and route.",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
GATEWAY_RECONNECTS = Counter(
    "flipflop_gateway_reconnects",
    "Gateway sessions after the first, by shard: resumed, or identified anew.",
    ["shard", "how"],
    registry=REGISTRY,
)
GATEWAY_DISCONNECTS = Counter(
    "flipflop_gateway_disconnects",
    "Gateway connections lost, by shard.",
    ["shard"],
    registry=REGISTRY,
)
DB_QUERY_SECONDS = Histogram(
    "flipflop_db_query_seconds",
    "Seconds each database statement took, by store (sqlite, postgres) and operation (execute, fetch).",
    ["store", "op"],
    buckets=QUERY_BUCKETS,
    registry=REGISTRY,
)
COMPUTER_QUEUE = Gauge(
    "flipflop_computer_queue",
    "Computer players' moves asked for and not chosen yet (waiting for a worker or searching).",
    registry=REGISTRY,
)
COMPUTER_SEARCH_SECONDS = Histogram(
    "flipflop_computer_search_seconds",
    "Seconds to choose a computer player's move, by level (strong ones search in worker processes).",
    ["level"],
    buckets=SEARCH_BUCKETS,
    registry=REGISTRY,
)
COACH_QUEUE = Gauge(
    "flipflop_coach_queue",
    "Coach questions (hints, look backs) waiting for their search or searching.",
    registry=REGISTRY,
)
COACH_SEARCH_SECONDS = Histogram(
    "flipflop_coach_search_seconds",
    "Seconds each coach search took in the worker processes, waiting for a worker included.",
    buckets=SEARCH_BUCKETS,
    registry=REGISTRY,
)
EMOJI_SYNC_STATES = ("unknown", "syncing", "synced", "fallback")
EMOJI_SYNC = Gauge(
    "flipflop_emoji_sync",
    "The card-emoji sync's state (1 for the current one): unknown (not started), syncing, synced"
    " (every card face is an emoji), fallback (some could not be made; those cards show as text).",
    ["state"],
    registry=REGISTRY,
)
EMOJIS = Gauge(
    "flipflop_emojis",
    "Card-face application emojis: present (uploaded and usable) and wanted (the whole set).",
    ["state"],
    registry=REGISTRY,
)
LOGGED_IN = Gauge(
    "flipflop_logged_in", "1 when the bot is logged in to Discord and ready.", registry=REGISTRY
)
DATABASE_UP = Gauge(
    "flipflop_database_up",
    "1 when the database answered the last check (each scrape checks).",
    registry=REGISTRY,
)

HEALTH_TIMEOUT = 2.0
"""Seconds the database has to answer the health check."""


# ------------------------------------------------------------------ for the emoji sync


def emoji_sync(state: str) -> None:
    """Set the card-emoji sync's state: ``unknown``, ``syncing``, ``synced`` or ``fallback``.

    The emoji sync calls it as it goes (``syncing`` when it starts; ``synced``
    when every face is an application emoji; ``fallback`` when some could not
    be made and their cards show as text). Any other state raises ``ValueError``.
    """
    if state not in EMOJI_SYNC_STATES:
        raise ValueError(f"emoji sync state {state!r} is not one of {', '.join(EMOJI_SYNC_STATES)}")
    for each in EMOJI_SYNC_STATES:
        EMOJI_SYNC.labels(each).set(1 if each == state else 0)


def emojis(*, present: int, wanted: int) -> None:
    """Set how many card-face emojis exist (``present``) out of the whole set (``wanted``)."""
    if present < 0 or wanted < 0:
        raise ValueError("emoji counts are never negative")
    EMOJIS.labels("present").set(present)
    EMOJIS.labels("wanted").set(wanted)


emoji_sync("unknown")  # until the sync says otherwise


# ------------------------------------------------------------------ REST calls

_TOKEN_AFTER = {"interactions": 2, "webhooks": 2}
"""Path words followed by an id and then a secret token (which must never become a label)."""
_API_PREFIX = re.compile(r"^.*?/api(?:/v\d+)?(?=/)")


def route_of(url: str | Any) -> str:
    """A Discord URL as its route: ``/channels/{id}/messages``; tokens and emojis never kept.

    Numbers become ``{id}``; the segment after ``interactions/{id}/`` and
    ``webhooks/{id}/`` is a token, ``{token}``; after ``reactions/`` comes an
    emoji, ``{emoji}``.
    """
    path = str(getattr(url, "path", url)).split("?", 1)[0]
    path = _API_PREFIX.sub("", path)
    parts = [p for p in path.split("/") if p]
    out: list[str] = []
    skip_token = 0
    for i, part in enumerate(parts):
        if skip_token == 1:
            out.append("{token}")
        elif part.isdigit():
            out.append("{id}")
        elif i > 0 and parts[i - 1] == "reactions":
            out.append("{emoji}")
        else:
            out.append(part)
        skip_token = max(0, skip_token - 1)
        if part in _TOKEN_AFTER:
            skip_token = _TOKEN_AFTER[part]
    return "/" + "/".join(out)


def http_trace() -> aiohttp.TraceConfig:
    """The trace that counts every request on discord.py's HTTP session (status and seconds)."""
    trace = aiohttp.TraceConfig()

    async def start(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
        ctx.started = time.perf_counter()

    async def end(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
        _request_done(ctx, params.method, params.url, str(params.response.status))

    async def failed(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
        _request_done(ctx, params.method, params.url, "error")

    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    trace.on_request_exception.append(failed)
    return trace


def _request_done(ctx: SimpleNamespace, method: str, url: Any, status: str) -> None:
    route = route_of(url)
    DISCORD_REQUESTS.labels(method, route, status).inc()
    started = getattr(ctx, "started", None)
    if started is not None:
        DISCORD_REQUEST_SECONDS.labels(method, route).observe(time.perf_counter() - started)


# ------------------------------------------------------------------ action latency


@dataclass
class Heard:
    """One interaction being answered: when it arrived and what it turned out to do."""

    interaction_id: int
    received: float
    kind: str
    answered: bool = False


_heard: contextvars.ContextVar[Heard | None] = contextvars.ContextVar("flipflop_heard", default=None)
INTERACTION_TYPES = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
_RESPONSES = (
    "defer",
    "pong",
    "send_message",
    "edit_message",
    "send_modal",
    "autocomplete",
    "launch_activity",
)


def _hear(parse: Callable[[Any], None]) -> Callable[[Any], None]:
    """The ``INTERACTION_CREATE`` parser, noting when each interaction arrived.

    discord.py's parser starts the command's or control's task, which copies the
    current context: the note travels with it to the reply.
    """

    @functools.wraps(parse)
    def parse_interaction_create(data: Any) -> None:
        kind = INTERACTION_TYPES.get(int(data.get("type", 0)), "other")
        token = _heard.set(Heard(int(data["id"]), time.perf_counter(), kind))
        try:
            parse(data)
        finally:
            _heard.reset(token)

    parse_interaction_create.__flipflop_metrics__ = True  # type: ignore[attr-defined]
    return parse_interaction_create


def _replied(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """An ``InteractionResponse`` method that, once its reply is sent, observes the action's latency."""

    @functools.wraps(method)
    async def respond(self: discord.InteractionResponse[Any], *args: Any, **kwargs: Any) -> Any:
        result = await method(self, *args, **kwargs)
        heard = _heard.get()
        if heard is not None and not heard.answered and heard.interaction_id == self._parent.id:
            heard.answered = True
            ACTION_LATENCY.labels(heard.kind).observe(time.perf_counter() - heard.received)
        return result

    return respond


def action_kind(action: Any) -> str:
    """A game move's metric label: ``draw_stock``, ``draw_discard``, ``discard``, ``lay_off``, …."""
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", type(action).__name__).lower()
    source = getattr(action, "source", None)
    return f"{name}_{source}" if isinstance(source, str) else name


# ------------------------------------------------------------------ wrapping helpers

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__flipflop_metrics__"


def _wrap(owner: Any, name: str, make: Callable[[F], F]) -> None:
    """Replace ``owner.name`` with ``make(original)``, once (installing twice changes nothing)."""
    original = getattr(owner, name)  # a renamed method fails here, loudly, in the tests
    if getattr(original, _MARK, False):
        return
    wrapped = make(original)
    setattr(wrapped, _MARK, True)
    setattr(owner, name, wrapped)


def _timed_query(store: str, op: str) -> Callable[[F], F]:
    def make(method: F) -> F:
        observe = DB_QUERY_SECONDS.labels(store, op).observe

        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                observe(time.perf_counter() - started)

        return timed  # type: ignore[return-value]

    return make


def instrument_store() -> None:
    """Time every statement of both stores (their ``execute``/``executemany``/``fetch*``)."""
    from bot.storage.postgres import PostgresStore, PostgresTx
    from bot.storage.sqlite import SqliteTx

    for store, tx in (("sqlite", SqliteTx), ("postgres", PostgresTx)):
        _wrap(tx, "execute", _timed_query(store, "execute"))
        _wrap(tx, "executemany", _timed_query(store, "execute"))
        _wrap(tx, "fetchone", _timed_query(store, "fetch"))
        _wrap(tx, "fetchall", _timed_query(store, "fetch"))
    # SQLite's reads outside a transaction run through SqliteTx (timed above); PostgreSQL's use the pool
    _wrap(PostgresStore, "fetchall", _timed_query("postgres", "fetch"))


_measured: discord.AutoShardedClient | None = None
"""The bot ``instrument`` was given: its shard count (known once Discord recommends one, at login) places
a table's server on its shard."""


def shard_label(guild_id: int) -> str:
    """The shard of a server, as a label (Discord's ``(guild_id >> 22) % shard_count``)."""
    count = _measured.shard_count if _measured is not None else None
    return str((guild_id >> 22) % (count or 1))


def instrument_actions() -> None:
    """Count every game move ``TableService.apply`` applies, and name the interaction's kind."""
    from bot.tables import TableService

    def make(apply: F) -> F:
        @functools.wraps(apply)
        async def counted(service: Any, table: Any, action: Any, by_timer: bool = False) -> Any:
            events = await apply(service, table, action, by_timer)
            kind = action_kind(action)
            ACTIONS.labels(kind, "timer" if by_timer else "member", shard_label(table.guild_id)).inc()
            heard = _heard.get()
            if heard is not None and not by_timer:
                heard.kind = kind
            return events

        return counted  # type: ignore[return-value]

    _wrap(TableService, "apply", make)


def instrument_searches() -> None:
    """Queue lengths and times of computer players' moves and of the coach's searches."""
    from bot.runtime.computers import ComputerPlayers
    from cogs.flipflop.coach import Coach

    def make_choose(choose: F) -> F:
        @functools.wraps(choose)
        async def timed(players: Any, level: str, *args: Any, **kwargs: Any) -> Any:
            COMPUTER_QUEUE.inc()
            started = time.perf_counter()
            try:
                return await choose(players, level, *args, **kwargs)
            finally:
                COMPUTER_QUEUE.dec()
                COMPUTER_SEARCH_SECONDS.labels(level).observe(time.perf_counter() - started)

        return timed  # type: ignore[return-value]

    def make_run(run: F) -> F:
        @functools.wraps(run)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await run(*args, **kwargs)
            finally:
                COACH_SEARCH_SECONDS.observe(time.perf_counter() - started)

        return timed  # type: ignore[return-value]

    def make_question(search: F) -> F:
        @functools.wraps(search)
        async def queued(*args: Any, **kwargs: Any) -> Any:
            COACH_QUEUE.inc()
            try:
                return await search(*args, **kwargs)
            finally:
                COACH_QUEUE.dec()

        return queued  # type: ignore[return-value]

    _wrap(ComputerPlayers, "choose", make_choose)
    _wrap(ComputerPlayers, "run", make_run)
    _wrap(Coach, "_search", make_question)


def instrument_interactions(bot: discord.Client) -> None:
    """Note each interaction's arrival (this bot's gateway parser) and its first reply (every bot)."""
    for name in _RESPONSES:
        _wrap(discord.InteractionResponse, name, _replied)
    parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    if not getattr(parse, _MARK, False):
        parsers["INTERACTION_CREATE"] = _hear(parse)


def instrument_gateway(bot: commands.AutoShardedBot) -> None:
    """Count reconnects and disconnects of each shard (latencies are read when scraped)."""
    connected: set[int] = set()

    async def on_shard_connect(shard_id: int) -> None:
        if shard_id in connected:
            GATEWAY_RECONNECTS.labels(str(shard_id), "identify").inc()
        connected.add(shard_id)

    async def on_shard_resumed(shard_id: int) -> None:
        GATEWAY_RECONNECTS.labels(str(shard_id), "resume").inc()

    async def on_shard_disconnect(shard_id: int) -> None:
        GATEWAY_DISCONNECTS.labels(str(shard_id)).inc()

    bot.add_listener(on_shard_connect)
    bot.add_listener(on_shard_resumed)
    bot.add_listener(on_shard_disconnect)


def instrument(bot: FlipFlopBot) -> None:
    """Install every hook on ``bot`` and the classes it runs on (idempotent)."""
    global _measured
    _measured = bot
    instrument_store()
    instrument_actions()
    instrument_searches()
    instrument_interactions(bot)
    instrument_gateway(bot)
    bot.http.http_trace = http_trace()  # read when the session is made, at login


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


class MetricsPortInUse(Exception):
    """``METRICS_PORT`` can not be listened on; the message says what to do."""


def bind(port: int, host: str = "0.0.0.0") -> socket.socket:
    """Listen on the metrics port now, before logging in, so a clash is told at start-up."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(64)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise MetricsPortInUse(
                f"METRICS_PORT={port} is already in use by another program (another bot process?)."
                " Stop it, or give this process its own METRICS_PORT (each process of a sharded bot"
                " needs its own), or leave METRICS_PORT empty to run without metrics."
            ) from None
        raise MetricsPortInUse(f"Can not listen on METRICS_PORT={port}: {e.strerror or e}.") from None
    sock.setblocking(False)
    return sock


@dataclass
class Health:
    """What ``/healthz`` found."""

    logged_in: bool
    database: str
    """``ok``, or why the database did not answer."""
    checks: dict[str, str] = field(default_factory=dict)

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

    async def start(self, bot: FlipFlopBot) -> None:
        """Instrument ``bot`` and answer on the port."""
        self.bot = bot
        instrument(bot)
        self._collector = BotCollector(bot)
        REGISTRY.register(self._collector)
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
        self.sock.close()


def serve(settings: Settings) -> MetricsServer | None:
    """The metrics endpoint on ``METRICS_PORT`` with its port bound now, or None when it is not set.

    Raises ``MetricsPortInUse`` (``python -m bot`` exits with status 2).
    """
    if settings.metrics_port is None:
        return None
    # no ``_created`` series beside every counter and histogram: half the scrape, nothing an alert needs
    disable_created_metrics()  # type: ignore[no-untyped-call]
    return MetricsServer(bind(settings.metrics_port))
