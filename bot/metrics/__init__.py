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
  out (both wrapped by ``bot/client.py``'s reads of discord.py's internals,
  which say why).
  ``kind`` is the game move the interaction applied (``discard``,
  ``draw_stock``…) or else the interaction's type (``component``, ``command``…).
- **Actions by kind**: ``TableRuntime.apply_action``, every game move applied at a
  table, by a member or by a timer (computer players, timeouts).
- **Database query latency**: the stores' ``execute``/``fetch`` methods.
- **Computer players and the coach**: ``ComputerPlayers.choose`` and ``run``
  (moves and searches, queue lengths and times) and the coach's ``_search``
  (questions waiting for or in a search).
- **Gateway**: listeners for shard connects, resumes and disconnects;
  latencies and open tables are read when scraped, costing the bot nothing
  in between.

The class-level hooks (stores, ``TableRuntime``, ``ComputerPlayers``, the
coach, ``InteractionResponse``) are installed once per process, only when
metrics are served: without ``METRICS_PORT`` nothing is wrapped and nothing
costs anything. Installing twice changes nothing, and a hooked method that is
renamed fails the installation loudly (the tests install them all).

For the card-emoji sync, which runs elsewhere: ``emoji_sync(state)`` and
``emojis(present=, wanted=)`` set its gauges (documented where they are).

The package: ``registry`` (the metrics and the emoji gauges), ``hooks`` (what
measures the bot), ``server`` (the endpoint, the health check, and what is
read off the bot when scraped).
"""

from bot.metrics.hooks import (
    action_kind,
    http_trace,
    instrument,
    instrument_actions,
    instrument_interactions,
    instrument_searches,
    instrument_store,
    route_of,
    shard_label,
)
from bot.metrics.registry import (
    ACTION_LATENCY,
    ACTIONS,
    COACH_QUEUE,
    COACH_SEARCH_SECONDS,
    COMPUTER_QUEUE,
    COMPUTER_SEARCH_SECONDS,
    DATABASE_UP,
    DB_QUERY_SECONDS,
    DISCORD_REQUEST_SECONDS,
    DISCORD_REQUESTS,
    EMOJI_SYNC_STATES,
    EMOJIS,
    LOGGED_IN,
    REGISTRY,
    emoji_sync,
    emojis,
)
from bot.metrics.server import BotCollector, Health, MetricsPortError, MetricsServer, bind, check, serve

__all__ = [
    "ACTIONS",
    "ACTION_LATENCY",
    "COACH_QUEUE",
    "COACH_SEARCH_SECONDS",
    "COMPUTER_QUEUE",
    "COMPUTER_SEARCH_SECONDS",
    "DATABASE_UP",
    "DB_QUERY_SECONDS",
    "DISCORD_REQUESTS",
    "DISCORD_REQUEST_SECONDS",
    "EMOJIS",
    "EMOJI_SYNC_STATES",
    "LOGGED_IN",
    "REGISTRY",
    "BotCollector",
    "Health",
    "MetricsPortError",
    "MetricsServer",
    "action_kind",
    "bind",
    "check",
    "emoji_sync",
    "emojis",
    "http_trace",
    "instrument",
    "instrument_actions",
    "instrument_interactions",
    "instrument_searches",
    "instrument_store",
    "route_of",
    "serve",
    "shard_label",
]
