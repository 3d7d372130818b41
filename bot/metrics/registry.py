"""The bot's metrics, in their own registry, and the gauges the card-emoji sync sets."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

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
