"""The budget's and the invalid-request guard's metrics, as Prometheus reads them."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from bot.budget import ChannelBudget, InvalidRequests, Priority
from bot.metrics.budget import budget_metrics, guard_metrics


class Both(Collector):
    def __init__(self, budget: ChannelBudget, guard: InvalidRequests) -> None:
        self.budget, self.guard = budget, guard

    def collect(self) -> Iterator[Metric]:
        yield from budget_metrics(self.budget)
        yield from guard_metrics(self.guard)


async def test_budget_use_queue_staleness_and_429s_by_scope_are_exported() -> None:
    budget = ChannelBudget(per_second=40, processes=4)  # no Redis: its share, 10 a second
    for _ in range(3):
        await budget.take(Priority.EDIT)
    await budget.take(Priority.MUST)
    guard = InvalidRequests(limit=5)
    for scope in ("global", "user", "user", None):
        await guard.heard(429, scope)
    await guard.heard(403)
    registry = CollectorRegistry()
    registry.register(Both(budget, guard))
    text = generate_latest(registry).decode()
    assert "flipflop_budget_limit_per_second 10.0" in text
    assert 'flipflop_budget_calls_total{kind="edit"} 3.0' in text
    assert 'flipflop_budget_calls_total{kind="must"} 1.0' in text
    assert "flipflop_budget_queue 0.0" in text and "flipflop_budget_oldest_stale_seconds 0.0" in text
    assert "flipflop_budget_shared 0.0" in text
    assert "flipflop_budget_own_turns_total 4.0" in text  # no Redis: every turn from the share
    assert 'flipflop_budget_switches_total{to="share"} 0.0' in text
    assert 'flipflop_budget_switches_total{to="shared"} 0.0' in text
    assert 'flipflop_rate_limited_total{scope="global"} 1.0' in text
    assert 'flipflop_rate_limited_total{scope="user"} 2.0' in text
    assert 'flipflop_rate_limited_total{scope="unknown"} 1.0' in text
    assert "flipflop_invalid_requests 5.0" in text and "flipflop_invalid_guard 1.0" in text
    await budget.close()
