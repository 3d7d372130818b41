"""Counting what the bot asks of Discord in simcord: REST calls by route, edits per 5 s, posts per round."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.conftest import World

TABLE_EDIT = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


class TimedLog(list[Any]):
    """simcord's request log, each request stamped with the simulated time it was made."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__()
        self.clock = clock
        self.times: list[float] = []

    def append(self, item: Any) -> None:
        self.times.append(self.clock())
        super().append(item)


@dataclass
class Traffic:
    """The bot's REST calls since ``watch``, and the player actions the table took meanwhile."""

    log: TimedLog
    actions: list[int] = field(default_factory=lambda: [0])

    @property
    def channel_calls(self) -> int:
        return sum(1 for r in self.log if r.path.startswith("/channels/"))

    @property
    def interaction_calls(self) -> int:
        return sum(1 for r in self.log if r.path.startswith(("/interactions/", "/webhooks/")))

    @property
    def posts(self) -> int:
        return sum(
            1 for r in self.log if r.method == "POST" and re.match(r"^/channels/\d+/messages$", r.path)
        )

    @property
    def pings(self) -> int:
        """Of the posts, the turn pings (a mention, removed once the turn is over: cogs/flipflop/pings.py)."""
        return sum(
            1
            for r in self.log
            if r.method == "POST"
            and re.match(r"^/channels/\d+/messages$", r.path)
            and str((r.json or {}).get("content") or "").startswith("🔔")
        )

    def edit_times(self) -> list[float]:
        return [
            t
            for r, t in zip(self.log, self.log.times, strict=True)
            if r.method == "PATCH" and TABLE_EDIT.match(r.path)
        ]

    def most_edits_in(self, window: float = 5.0) -> int:
        """The most channel-message edits made within any ``window`` seconds."""
        times = self.edit_times()
        return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


def watch(world: World, real_time: bool = False) -> Traffic:
    """Start counting REST calls (stamped with simulated, or real, time) and player actions."""
    log = TimedLog(time.monotonic if real_time else lambda: world.env.now().timestamp())
    world.env.backend.http_requests = log
    traffic = Traffic(log)
    runtime: Any = world.bot.runtime
    apply = runtime.apply_action

    async def counted(*args: Any, **kwargs: Any) -> Any:
        traffic.actions[0] += 1
        return await apply(*args, **kwargs)

    runtime.apply_action = counted
    return traffic
