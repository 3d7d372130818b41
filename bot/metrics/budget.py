"""The channel-call budget and the invalid-request guard, read off the bot at each scrape.

``bot.budget``'s ``ChannelBudget`` (the notifier's, every channel call of this process) and
``InvalidRequests`` (every response on the HTTP session) keep plain counts; this collector
turns them into ``flipflop_budget_*``, ``flipflop_rate_limited`` and ``flipflop_invalid_*``
metrics when Prometheus asks, costing the bot nothing in between. docs/OPERATORS.md lists them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.budget import ChannelBudget, InvalidRequests

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

SCOPES = ("global", "user", "shared", "unknown")
"""``X-RateLimit-Scope`` of a 429 (``unknown``: none given, as for a Cloudflare ban)."""


class BudgetCollector(Collector):
    """What the budget and the guard say at each scrape (no budget yet: only the guard)."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot

    def budget(self) -> ChannelBudget | None:
        """The notifier's budget, once the Flip Flop cog is loaded."""
        notifier = getattr(self.bot.get_cog("FlipFlop"), "notifier", None)
        found = getattr(notifier, "budget", None)
        return found if isinstance(found, ChannelBudget) else None

    def collect(self) -> Iterator[Metric]:  # noqa: D102
        budget = self.budget()
        if budget is not None:
            yield from budget_metrics(budget)
        yield from guard_metrics(self.bot.invalid_requests)


def budget_metrics(budget: ChannelBudget) -> Iterator[Metric]:
    """The budget's limit, use, queue, oldest stale table and Redis state."""
    yield _gauge(
        "flipflop_budget_limit_per_second",
        "Channel calls a second this process keeps to now: the whole budget while Redis shares it,"
        " its share (budget / processes) without Redis; 0: the budget is off.",
        budget.limit if budget.on else 0,
    )
    calls = CounterMetricFamily(
        "flipflop_budget_calls",
        "Channel calls granted a turn by the budget, by kind (must: posts and records; edit: table"
        " edits; ping: turn pings). rate() over the limit is the budget's use.",
        labels=["kind"],
    )
    for kind, n in budget.stats.granted.items():
        calls.add_metric([kind], n)
    yield calls
    yield _gauge("flipflop_budget_queue", "Channel calls waiting for the budget's turn.", budget.queue)
    yield _gauge(
        "flipflop_budget_oldest_stale_seconds",
        "Seconds the table waiting longest for its turn has been stale (0: none waits).",
        budget.oldest_stale(),  # scraped on the bot's event loop
    )
    skipped = CounterMetricFamily(
        "flipflop_budget_pings_skipped", "Turn pings left out because other calls waited for the budget."
    )
    skipped.add_metric([], budget.stats.skipped_pings)
    yield skipped
    yield _gauge(
        "flipflop_budget_shared",
        "1 while the budget is shared through Redis (REDIS_URL), 0 while this process keeps to its share.",
        1 if budget.shared else 0,
    )
    failures = CounterMetricFamily(
        "flipflop_budget_redis_failures",
        "Redis calls (turns and the background ping) not answered within 2 s; the first one falls back"
        " to this process's share.",
    )
    failures.add_metric([], budget.stats.redis_failures)
    yield failures
    switches = CounterMetricFamily(
        "flipflop_budget_switches",
        "Switches of the budget: to=share when Redis went away (this process keeps to its share),"
        " to=shared when Redis had answered again for 6 s.",
        labels=["to"],
    )
    for to, n in sorted(budget.stats.share.switches.items()):
        switches.add_metric([to], n)
    yield switches
    own = CounterMetricFamily(
        "flipflop_budget_own_turns",
        "Turns this process took from its own share (no REDIS_URL, or Redis gone), not the shared budget.",
    )
    own.add_metric([], budget.stats.share.own_turns)
    yield own


def guard_metrics(guard: InvalidRequests) -> Iterator[Metric]:
    """429s by scope, invalid responses in Discord's window, and the guard."""
    limited = CounterMetricFamily(
        "flipflop_rate_limited",
        "429 responses from Discord by X-RateLimit-Scope (global: the whole token; user: one route;"
        " shared: a resource's own limit), retries included.",
        labels=["scope"],
    )
    for scope in sorted(set(SCOPES) | set(guard.by_scope)):
        limited.add_metric([scope], guard.by_scope.get(scope, 0))
    yield limited
    yield _gauge(
        "flipflop_invalid_requests",
        "401, 403 and 429 responses in the last 10 minutes, as last counted (Discord blocks the"
        " address at 10,000).",
        guard.count,
    )
    yield _gauge(
        "flipflop_invalid_requests_limit",
        "The count from which calls known to fail are stopped (INVALID_REQUESTS_LIMIT / processes).",
        guard.limit,
    )
    yield _gauge(
        "flipflop_invalid_guard",
        "1 while calls known to fail (a channel that answered 403, a message that answered 404) are stopped.",
        1 if guard.guarding else 0,
    )
    stopped = CounterMetricFamily(
        "flipflop_invalid_calls_stopped", "Calls not made because the guard was up."
    )
    stopped.add_metric([], guard.refused)
    yield stopped


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    gauge = GaugeMetricFamily(name, documentation)
    gauge.add_metric([], value)
    return gauge
