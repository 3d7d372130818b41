"""The channel-call budget shared through a real Redis, and each process's share when Redis goes away.

Redis is ``TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/15``). Where none answers there and
``TEST_REDIS_URL`` is not set, a test starts a ``redis-server`` of its own on a free port (a user's
machine may have the server installed but not running); where there is neither, these tests are
skipped with one line of explanation, unless ``REQUIRE_REDIS=1`` (CI), which fails the run. The
fallback tests always start their own ``redis-server`` and stop or kill that one only.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot import budget_share as share_module
from bot import send_gate
from bot.budget import ChannelBudget, Priority
from bot.send_gate import SendGate

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


async def _problem(url: str) -> str | None:
    client = aioredis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        await client.ping()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    finally:
        await client.aclose()
    return None


def _unavailable(what: str) -> None:
    if os.environ.get("REQUIRE_REDIS") == "1":
        pytest.fail(f"REQUIRE_REDIS=1 but {what}.")
    pytest.skip(f"{what}; set TEST_REDIS_URL, or REQUIRE_REDIS=1 to fail instead.")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class OwnRedis:
    """A redis-server of this test's own, on a free port (never the machine's)."""

    def __init__(self, folder: Path) -> None:
        self.port = _free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server is not None
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.02)
        raise AssertionError("own redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        _unavailable("no redis-server to start")
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.kill()


@pytest.fixture
async def redis_url(tmp_path: Path) -> AsyncIterator[str]:
    """The machine's Redis, or (``TEST_REDIS_URL`` unset and none answering) one of this test's own."""
    problem = await _problem(TEST_REDIS_URL)
    if problem is None:
        yield TEST_REDIS_URL
        return
    if "TEST_REDIS_URL" in os.environ or shutil.which("redis-server") is None:
        _unavailable(f"no Redis answers at {TEST_REDIS_URL} ({problem}) and no redis-server to start")
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.kill()


async def eventually(condition: Callable[[], bool], seconds: float = 10) -> None:
    """Wait until ``condition`` holds (polled every 20 ms), failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.02)


async def spend(budget: ChannelBudget, calls: int) -> None:
    for _ in range(calls):
        assert await budget.take(Priority.MUST)


async def test_two_processes_share_one_budget_through_redis(redis_url: str) -> None:
    name = f"test-{uuid.uuid4()}"
    one = ChannelBudget(10, processes=2, redis_url=redis_url, name=name)
    two = ChannelBudget(10, processes=2, redis_url=redis_url, name=name)
    start = time.monotonic()
    await spend(one, 10)  # the whole budget, not one's share of 5: Redis shares it
    assert one.shared and one.limit == 10
    await spend(two, 1)  # the other process waits for the window to move past one's first call
    assert time.monotonic() - start >= 0.95
    assert two.shared
    await one.close()
    await two.close()


async def test_redis_killed_each_process_falls_back_to_its_share_and_shares_again(
    own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(share_module, "WATCH_SECONDS", 0.1)
    monkeypatch.setattr(share_module, "HOLD_SECONDS", 1.0)
    budget = ChannelBudget(20, processes=4, redis_url=own_redis.url, name=f"test-{uuid.uuid4()}")
    await spend(budget, 3)
    assert budget.shared
    own_redis.kill()
    caplog.set_level(logging.WARNING, "flipflop.budget")
    start = time.monotonic()
    await spend(budget, 5)  # its share, 20 / 4: no wait on the dead Redis
    assert time.monotonic() - start < 1.5
    assert not budget.shared and budget.limit == 5 and budget.stats.redis_failures >= 1
    assert "keeps to its share" in caplog.text
    await spend(budget, 1)  # the share is spent: the sixth call waits for the local window
    assert time.monotonic() - start >= 0.95
    own_redis.start()
    await asyncio.sleep(0.2)
    assert not budget.shared  # answering again, but not for long enough yet
    await eventually(lambda: budget.shared)  # held for HOLD_SECONDS (a loaded machine may take longer)
    await spend(budget, 1)
    assert budget.shared and "answers again" in caplog.text
    assert budget.stats.share.switches == {"share": 1, "shared": 1}
    assert budget.stats.share.own_turns >= 6
    await budget.close()


async def test_redis_going_away_is_noticed_with_no_call_waiting(
    own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_module, "WATCH_SECONDS", 0.1)
    budget = ChannelBudget(20, processes=2, redis_url=own_redis.url, name=f"test-{uuid.uuid4()}")
    await spend(budget, 1)  # the watch starts with the first turn
    assert budget.shared
    own_redis.kill()
    await eventually(lambda: not budget.shared)  # the watch's next ping (every 0.1 s here)
    assert not budget.shared and budget.limit == 10 and budget.stats.share.switches["share"] == 1
    await budget.close()


async def test_turns_are_spaced_on_redis_clock_across_processes(redis_url: str) -> None:
    name = f"test-{uuid.uuid4()}"
    budgets = [ChannelBudget(20, processes=2, redis_url=redis_url, name=name) for _ in range(2)]
    times: list[float] = []

    async def turns(budget: ChannelBudget) -> None:
        for _ in range(6):
            assert await budget.take(Priority.MUST)
            times.append(time.monotonic())

    start = time.monotonic()
    await asyncio.gather(*(turns(b) for b in budgets))
    # 12 turns, 1/20 s apart after a burst of 2: not the moving window's one burst of 20
    assert time.monotonic() - start >= (12 - share_module.BURST) / 20 * 0.9
    times.sort()
    assert all(b - a < 0.2 for a, b in zip(times, times[1:], strict=False))
    assert all(b.shared for b in budgets)
    for budget in budgets:
        await budget.close()


async def test_a_hung_redis_never_holds_a_call_long(own_redis: OwnRedis) -> None:
    budget = ChannelBudget(20, processes=2, redis_url=own_redis.url, name=f"test-{uuid.uuid4()}")
    await spend(budget, 1)
    assert own_redis.process is not None
    own_redis.process.send_signal(signal.SIGSTOP)  # answers nothing, closes nothing
    try:
        start = time.monotonic()
        await asyncio.wait_for(spend(budget, 3), timeout=5)
        assert time.monotonic() - start < share_module.REDIS_SECONDS * 2
        assert not budget.shared
    finally:
        own_redis.process.send_signal(signal.SIGCONT)
    await budget.close()


async def test_after_the_budget_closes_the_last_requests_keep_to_the_process_share(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shutting down, calls told no still go out: through the gate at the share, not the whole budget."""
    monkeypatch.setattr(send_gate, "WIRE_SECONDS", 0.3)
    budget = ChannelBudget(20, processes=4, redis_url=redis_url, name=f"test-{uuid.uuid4()}")
    gate = SendGate()
    gate.attach(budget)
    assert budget.shared and budget.limit == 20 and budget.share == 5
    await budget.close()
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(3):  # every process shutting down at once would send the whole budget each
        gate.answered(await gate.before("https://discord.com/api/v10/channels/1/messages"))
    assert loop.time() - start >= 0.55  # one a 0.3 s window: the share (5 a second), not 20
