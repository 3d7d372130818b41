"""Where the budget's turns are counted: in Redis for every process of the bot, or this process's share.

``ChannelBudget`` (``bot.budget``) decides *who* goes next; this module decides *when* the next
turn may go. Two things bound the bot's calls to Discord's global limit:

- **Spacing.** Discord counts calls as they arrive, and a second's turns granted in one burst,
  a little late, land on top of the next second's. With Redis, turns are spaced on Redis' own
  clock (``TIME``, in a Lua script, so every process agrees without trusting its own clock):
  ``1 / per_second`` apart with a burst of ``BURST``, a generic cell rate algorithm in a few
  lines. The ``limits`` package's moving window still caps the total in any second, so a
  script that misbehaves can not exceed the budget either.
- **The share.** Without Redis, or while Redis is gone, each process keeps to
  ``per_second / processes`` in memory (a ``limits`` moving window; ``ChannelBudget`` spaces
  them). Process ``index`` delays its first turn by ``index / per_second``, so processes that
  start (or fall back) together do not all burst at once.

**Redis going away and coming back.** A turn Redis does not answer within ``REDIS_SECONDS``
(refused, reset, hung) is taken from the share at once, and so is every turn after it. A
background ping every ``WATCH_SECONDS`` notices Redis going away even while no turn is asked,
and notices it coming back: the process keeps to its share until Redis has answered every ping
for ``HOLD_SECONDS`` (a Redis that restarts in a loop does not flip the budget back and forth).
Each switch is logged and counted (``stats.switches``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

from bot.storage.base import redact

log = logging.getLogger("flipflop.budget")

REDIS_SECONDS = 2.0
"""A Redis call not answered by then counts as Redis gone (0.5 s flapped on a busy machine)."""
WATCH_SECONDS = 1.0
"""How often Redis is pinged in the background, shared or not."""
HOLD_SECONDS = 6.0
"""How long Redis must answer every ping before the budget is shared again."""
BURST = 2
"""Turns Redis may grant back to back (a third waits ``1 / per_second``)."""
RETRY_SECONDS = 0.02
"""How soon to ask again when the moving window is full (it frees a slot within the second)."""

SPACE = """
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) + tonumber(now_parts[2]) / 1000000
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allowed_at = tat - (burst - 1) * interval
if now < allowed_at then
  return tostring(allowed_at - now)
end
tat = tat + interval
redis.call('SET', KEYS[1], tostring(tat), 'PX', math.ceil((tat - now) * 1000) + 1000)
return '0'
"""
"""One turn if the spacing allows it now ('0'), else the seconds until it does (on Redis' clock)."""


@dataclass
class ShareStats:
    """Counts since start (metrics and the bench)."""

    switches: dict[str, int] = field(default_factory=lambda: {"shared": 0, "share": 0})
    """Switches to the shared budget and to this process's share."""
    redis_failures: int = 0
    """Redis calls (turns and pings) not answered in time."""
    own_turns: int = 0
    """Turns taken from this process's own share (no Redis, or Redis gone)."""


class BudgetShare:
    """Counts the budget's turns in Redis (shared by every process) or in this process's share."""

    def __init__(
        self,
        per_second: int,
        processes: int = 1,
        redis_url: str | None = None,
        name: str = "",
        index: int = 0,
    ) -> None:
        self.per_second = per_second
        self.processes = max(1, processes)
        self.redis_url = redis_url
        self.where = redact(redis_url or "")
        """Redis's address as logs may say it (no password)."""
        self.name = name
        self.share = max(1, per_second // self.processes) if per_second else 0
        """This process's calls per second while the budget is not shared."""
        self.first_delay = (index % self.processes) / per_second if per_second and self.processes > 1 else 0.0
        """Seconds this process's first turn waits, so processes taking their shares interleave."""
        self.stats = ShareStats()
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._client: Any = None
        self._space: Any = None
        self._storage: RedisStorage | None = None
        self._window: MovingWindowRateLimiter | None = None
        if per_second and redis_url:
            self._client = aioredis.Redis.from_url(
                redis_url, socket_timeout=REDIS_SECONDS, socket_connect_timeout=REDIS_SECONDS
            )
            self._space = self._client.register_script(SPACE)
            self._storage = RedisStorage(
                _async_uri(redis_url),
                implementation="redispy",
                socket_timeout=REDIS_SECONDS,
                socket_connect_timeout=REDIS_SECONDS,
            )
            self._window = MovingWindowRateLimiter(self._storage)
        self.shared = self._client is not None
        """Whether turns are counted in Redis right now (False: this process's share)."""
        self._answering_since: float | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def limit(self) -> int:
        """Calls per second this process keeps to now: the whole budget (shared) or its share."""
        return self.per_second if self.shared else self.share

    async def hit(self) -> float:
        """Count one turn if it may go now (0.0); else the seconds to wait before asking again."""
        self._start_watch()
        if self.shared:
            try:
                async with asyncio.timeout(REDIS_SECONDS):
                    spacing = [1.0 / self.per_second, BURST]
                    wait = float(await self._space(keys=[f"{self.name}:next"], args=spacing))
                    if wait > 0:
                        return wait
                    assert self._window is not None
                    fits = await self._window.hit(_item(self.per_second), self.name)
                return 0.0 if fits else RETRY_SECONDS
            except Exception as e:  # gone, refusing, hung: this process keeps to its share
                self._gone(e)
        if await self._local.hit(_item(self.share), self.name):
            self.stats.own_turns += 1
            return 0.0
        return RETRY_SECONDS

    async def room(self) -> bool:
        """Whether a call would fit the moving window now (not counted)."""
        if self.shared:
            try:
                async with asyncio.timeout(REDIS_SECONDS):
                    assert self._window is not None
                    return bool(await self._window.test(_item(self.per_second), self.name))
            except Exception as e:
                self._gone(e)
        return bool(await self._local.test(_item(self.share), self.name))

    def _start_watch(self) -> None:
        if self._client is not None and (self._watch is None or self._watch.done()):
            self._watch = asyncio.get_running_loop().create_task(self._watch_redis())

    async def _watch_redis(self) -> None:
        """Ping Redis every ``WATCH_SECONDS``: fall back when it goes, share again once it has stayed."""
        while True:
            try:
                async with asyncio.timeout(REDIS_SECONDS):
                    await self._client.ping()
            except Exception as e:
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # closing: Python 3.11's timeout can turn the
                    raise asyncio.CancelledError from e  # cancel into a TimeoutError; it must still stop
                self._gone(e)
            else:
                self._answered()
            await asyncio.sleep(WATCH_SECONDS)

    def _answered(self) -> None:
        if self.shared:
            return
        now = time.monotonic()
        if self._answering_since is None:
            self._answering_since = now
            return
        if now - self._answering_since >= HOLD_SECONDS:
            self.shared = True
            self._answering_since = None
            self.stats.switches["shared"] += 1
            log.warning(
                "Redis answers again at %s: the channel-call budget (%d/s) is shared again",
                self.where,
                self.per_second,
            )

    def _gone(self, e: BaseException) -> None:
        self.stats.redis_failures += 1
        self._answering_since = None
        if not self.shared:
            return
        self.shared = False
        self.stats.switches["share"] += 1
        log.warning(
            "Redis at %s does not answer (%s): this process keeps to its share of the channel-call"
            " budget, %d/s of %d/s, until Redis has answered for %.0f s",
            self.where,
            type(e).__name__,
            self.share,
            self.per_second,
            HOLD_SECONDS,
        )

    async def close(self) -> None:
        """Stop watching Redis and close its connections."""
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.wait([self._watch], timeout=REDIS_SECONDS)  # never a shutdown held for ever
            self._watch = None
        if self._client is not None:
            try:
                await self._client.aclose()
            except Exception:  # closing a connection that is already gone
                log.debug("Redis connection not closed cleanly", exc_info=True)
        if self._storage is not None:
            try:
                bridge: Any = self._storage.bridge
                await bridge.get_connection().aclose()
            except Exception:
                log.debug("Redis connection not closed cleanly", exc_info=True)


def _item(per_second: int) -> RateLimitItem:
    return RateLimitItemPerSecond(max(1, per_second), 1)


def _async_uri(url: str) -> str:
    """``redis://…`` as the ``limits`` package's asyncio storage names it (``async+redis://…``)."""
    return url if url.startswith("async+") else f"async+{url}"
