"""The hooks that measure the bot, installed from here so the code they measure stays as it was."""

from __future__ import annotations

import contextvars
import functools
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, TypeVar

import aiohttp

from bot.client import (
    FlipFlopBot,
    Response,
    answered_interaction,
    hear_interactions,
    hear_replies,
    interaction_parser,
)
from bot.metrics.registry import (
    ACTION_LATENCY,
    ACTIONS,
    COACH_QUEUE,
    COACH_SEARCH_SECONDS,
    COMPUTER_QUEUE,
    COMPUTER_SEARCH_SECONDS,
    DB_QUERY_SECONDS,
    DISCORD_REQUEST_SECONDS,
    DISCORD_REQUESTS,
    GATEWAY_DISCONNECTS,
    GATEWAY_RECONNECTS,
)

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


def http_trace(into: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
    """The trace that counts every request on discord.py's HTTP session (status and seconds).

    ``into``: a trace the bot has already (the invalid-request count's), which keeps hearing.
    """
    trace = into or aiohttp.TraceConfig()

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


_MARK = "__flipflop_metrics__"
"""Set on every hook, so installing twice wraps nothing twice."""
_heard: contextvars.ContextVar[Heard | None] = contextvars.ContextVar("flipflop_heard", default=None)
INTERACTION_TYPES = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal"}


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

    setattr(parse_interaction_create, _MARK, True)
    return parse_interaction_create


def _replied(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """An ``InteractionResponse`` method that, once its reply is sent, observes the action's latency."""

    @functools.wraps(method)
    async def respond(self: Response, *args: Any, **kwargs: Any) -> Any:
        result = await method(self, *args, **kwargs)
        heard = _heard.get()
        if heard is not None and not heard.answered and heard.interaction_id == answered_interaction(self):
            heard.answered = True
            ACTION_LATENCY.labels(heard.kind).observe(time.perf_counter() - heard.received)
        return result

    return respond


def action_kind(action: Any) -> str:
    """A game move's metric label: ``draw_stock``, ``draw_discard``, ``discard``, ``lay_off``, …."""
    source = getattr(action, "source", None)
    return _kind(type(action).__name__, source if isinstance(source, str) else None)


@functools.cache
def _kind(cls: str, source: str | None) -> str:
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", cls).lower()
    return f"{name}_{source}" if source is not None else name


# ------------------------------------------------------------------ wrapping helpers

F = TypeVar("F", bound=Callable[..., Any])


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


_measured: FlipFlopBot | None = None
"""The bot ``instrument`` was given: its shard count (known once Discord recommends one, at login) places
a table's server on its shard."""


def shard_label(guild_id: int) -> str:
    """The shard of a server, as a label (Discord's ``(guild_id >> 22) % shard_count``)."""
    count = _measured.shard_count if _measured is not None else None
    return str((guild_id >> 22) % (count or 1))


@functools.cache
def _counter(kind: str, by: str, shard: str) -> Any:
    """The counter of one label set, looked up once (a move costs one ``inc``)."""
    return ACTIONS.labels(kind, by, shard)


def instrument_actions() -> None:
    """Count every game move ``TableRuntime.apply_action`` applies, and name the interaction's kind."""
    from bot.runtime.runtime import TableRuntime

    def make(apply: F) -> F:
        @functools.wraps(apply)
        async def counted(runtime: Any, table: Any, action: Any, by_timer: bool = False) -> Any:
            events = await apply(runtime, table, action, by_timer)
            kind = action_kind(action)
            _counter(kind, "timer" if by_timer else "member", shard_label(table.guild_id)).inc()
            heard = _heard.get()
            if heard is not None and not by_timer:
                heard.kind = kind
            return events

        return counted  # type: ignore[return-value]

    _wrap(TableRuntime, "apply_action", make)


def _queued(search: F) -> F:
    @functools.wraps(search)
    async def queued(*args: Any, **kwargs: Any) -> Any:
        COACH_QUEUE.inc()
        try:
            return await search(*args, **kwargs)
        finally:
            COACH_QUEUE.dec()

    return queued  # type: ignore[return-value]


_coach_searches: list[tuple[type, str]] = []
"""The coach's search methods, named by the coach (``count_coach_queue``): this layer imports no cog."""
_searches_measured = False


def count_coach_queue(owner: type, name: str) -> None:
    """Count the members waiting for or in ``owner.name`` (an async method) as the coach's queue.

    Called by the cog that defines the search; measured once metrics are installed
    (at once if they already are).
    """
    _coach_searches.append((owner, name))
    if _searches_measured:
        _wrap(owner, name, _queued)


def instrument_searches() -> None:
    """Queue lengths and times of computer players' moves and of the coach's searches."""
    global _searches_measured
    from bot.runtime.computers import ComputerPlayers

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

    _wrap(ComputerPlayers, "choose", make_choose)
    _wrap(ComputerPlayers, "run", make_run)
    for owner, name in _coach_searches:
        _wrap(owner, name, _queued)
    _searches_measured = True


def instrument_interactions(bot: FlipFlopBot) -> None:
    """Note each interaction's arrival (this bot's gateway parser) and its first reply (every bot)."""
    hear_replies(_replied, _MARK)
    if not getattr(interaction_parser(bot), _MARK, False):
        hear_interactions(bot, _hear)


_watched: weakref.WeakSet[FlipFlopBot] = weakref.WeakSet()
"""Bots whose gateway events are counted already."""


def instrument_gateway(bot: FlipFlopBot) -> None:
    """Count reconnects and disconnects of each shard (latencies are read when scraped)."""
    if bot in _watched:
        return
    _watched.add(bot)
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
    bot.http.http_trace = http_trace(bot.http.http_trace)  # read when the session is made, at login
