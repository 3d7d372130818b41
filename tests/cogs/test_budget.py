"""The bot's channel-call budget: the stalest table first, edits coalesce, must-posts never dropped,
pings skipped first, interactions never wait, calls known to fail stopped near the invalid-request limit.

The budget counts real seconds (``limits``' moving window), so these tests use small budgets and
at most a couple of real seconds; the cog's simcord world runs with the budget off (tests/conftest.py)
except where a test gives its notifier one.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable

import discord
import pytest

from bot.budget import ChannelBudget, InvalidRequests, Priority
from bot.runtime import Delivery, Sent
from bot.settings import load_settings
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.pacing import EditPacer, priority_of
from cogs.flipflop.turns import heard
from tests.cogs.helpers import my_hand, open_table, table_in
from tests.conftest import World


async def spend(budget: ChannelBudget, calls: int) -> None:
    """Use up ``calls`` turns now (the window is then full for about a second)."""
    for _ in range(calls):
        assert await budget.take(Priority.MUST)


async def test_the_longest_waiting_goes_first_must_posts_and_edits_alike_and_pings_are_skipped() -> None:
    budget = ChannelBudget(per_second=2)
    await spend(budget, 2)
    order: list[str] = []

    async def wait(name: str, priority: Priority, stale_for: float) -> None:
        if await budget.take(priority, stale_for):
            order.append(name)

    waiting = [
        asyncio.create_task(wait("fresh", Priority.EDIT, 1.0)),
        asyncio.create_task(wait("stalest", Priority.EDIT, 30.0)),
        asyncio.create_task(wait("record", Priority.MUST, 25.0)),
        asyncio.create_task(wait("middle", Priority.EDIT, 20.0)),
        asyncio.create_task(wait("new post", Priority.MUST, 0.0)),
    ]
    await asyncio.sleep(0)
    assert budget.queue == 5
    assert not await budget.take(Priority.PING)  # others wait: the ping is skipped, not queued
    assert budget.stats.skipped_pings == 1
    await asyncio.gather(*waiting)
    # a must-post does not jump the queue: it is never dropped, and waits as long as it has been asked
    assert order == ["stalest", "record", "middle", "fresh", "new post"]
    await budget.close()


async def test_the_budget_holds_its_rate() -> None:
    budget = ChannelBudget(per_second=10)
    start = time.monotonic()
    await spend(budget, 25)  # 10 now, 10 a second later, 5 more the second after
    took = time.monotonic() - start
    assert 1.9 <= took < 3.5
    await budget.close()


async def test_a_busy_channel_coalesces_and_the_stalest_channel_is_edited_first() -> None:
    budget = ChannelBudget(per_second=3)
    pacer = EditPacer(limit=100, window=5.0, budget=budget)
    made: list[tuple[int, int]] = []

    def edit(channel: int, version: int) -> object:
        async def run() -> None:
            made.append((channel, version))

        return run

    await spend(budget, 3)  # the window is full: every request below waits its turn
    pacer.request(1, edit(1, 1))
    await asyncio.sleep(0.01)
    pacer.request(2, edit(2, 1))
    await asyncio.sleep(0.01)
    pacer.request(3, edit(3, 1))
    for version in range(2, 30):  # channel 1 changes again and again while it waits
        pacer.request(1, edit(1, version))
    await pacer.flush()
    assert made == [(1, 29), (2, 1), (3, 1)]  # one edit each, the latest state, stalest first
    await budget.close()


def noting(made: list[str], name: str) -> Callable[[], Awaitable[None]]:
    """A paced edit that, when made, notes ``name`` in ``made``."""

    async def run() -> None:
        made.append(name)

    return run


async def test_a_round_record_waits_behind_edits_stale_longer_and_a_ping_is_left_out() -> None:
    budget = ChannelBudget(per_second=2)
    pacer = EditPacer(limit=100, window=5.0, budget=budget)
    made: list[str] = []
    edit = functools.partial(noting, made)

    await spend(budget, 2)
    for channel in range(1, 4):
        pacer.request(channel, edit(f"table {channel}"))
    await asyncio.sleep(0.01)
    pacer.request(9, edit("ping"), key="ping:t9:1")
    pacer.request(8, edit("record"), key="record:77")
    await pacer.flush()
    assert made == ["table 1", "table 2", "table 3", "record"]
    assert "ping" not in made and budget.stats.skipped_pings == 1
    assert priority_of("record:1") is Priority.MUST and priority_of("unping:5") is Priority.EDIT
    await budget.close()


async def test_a_channel_waits_from_its_oldest_message_and_makes_its_record_first() -> None:
    """A record asked for now does not send its channel's long-stale table edit to the back."""
    budget = ChannelBudget(per_second=2)
    pacer = EditPacer(limit=100, window=5.0, budget=budget)
    made: list[str] = []
    edit = functools.partial(noting, made)

    async def slow() -> None:
        made.append("slow")
        await asyncio.sleep(0.1)  # channel 1's worker is busy while its next messages are asked for

    pacer.request(1, slow)
    await asyncio.sleep(0.01)
    pacer.request(1, edit("table 1"))
    await asyncio.sleep(0.01)
    pacer.request(2, edit("table 2"))
    pacer.request(3, edit("table 3"))
    await asyncio.sleep(0.01)
    pacer.request(1, edit("record 1"), key="record:77")  # channel 1 has waited the longest all the same
    await pacer.flush()
    assert made == ["slow", "record 1", "table 1", "table 2", "table 3"]
    await budget.close()


async def test_must_posts_are_never_dropped_under_a_long_queue() -> None:
    budget = ChannelBudget(per_second=20)
    await spend(budget, 20)
    posts = [asyncio.create_task(budget.take(Priority.MUST)) for _ in range(30)]
    edits = [asyncio.create_task(budget.take(Priority.EDIT, stale_for=9.0)) for _ in range(10)]
    granted = await asyncio.gather(*posts, *edits)
    assert all(granted)
    assert budget.stats.granted["must"] == 20 + 30 and budget.stats.granted["edit"] == 10
    await budget.close()


async def test_switched_off_the_budget_never_waits() -> None:
    budget = ChannelBudget(per_second=0)
    start = time.monotonic()
    await spend(budget, 500)
    assert time.monotonic() - start < 0.5 and budget.queue == 0


async def test_a_click_is_answered_while_the_channel_budget_is_exhausted(world: World) -> None:
    """Interaction callbacks never wait on the budget: a hand opens while table edits queue behind it."""
    ann = world.members[0]
    await open_table(world, world.members[:3])
    cog = world.bot.get_cog("FlipFlop")
    notifier: DiscordNotifier = cog.notifier  # type: ignore[union-attr]
    budget = ChannelBudget(per_second=1)
    notifier.budget = notifier.pacer.budget = budget
    await spend(budget, 1)
    blocked = [asyncio.create_task(budget.take(Priority.MUST)) for _ in range(3)]
    await asyncio.sleep(0)
    assert budget.queue == 3
    start = time.monotonic()
    hand = await asyncio.wait_for(my_hand(world, ann), timeout=0.9)
    assert "Your hand" in (hand.content or "")
    assert time.monotonic() - start < 0.9 and budget.queue >= 2  # answered before the queue moved
    await asyncio.gather(*blocked)
    await budget.close()


async def test_near_the_invalid_request_limit_a_refusing_channel_is_not_called_again(world: World) -> None:
    await open_table(world, world.members[:3])
    table = table_in(world)
    assert table is not None
    cog = world.bot.get_cog("FlipFlop")
    notifier: DiscordNotifier = cog.notifier  # type: ignore[union-attr]
    guard = InvalidRequests(limit=20)
    world.bot.invalid_requests = guard
    refused = Sent(Delivery.FORBIDDEN, "Send Messages")
    heard(world.bot, table.id, "post", _forbidden(), refused)  # the channel answered 403 once
    before = len(world.env.backend.http_requests)
    sent = await notifier.post(table, "hello")  # below the limit: the call is still made
    assert len(world.env.backend.http_requests) == before + 1 and sent.status is Delivery.OK
    heard(world.bot, table.id, "post", _forbidden(), refused)
    for _ in range(20):
        await guard.heard(403)
    await guard.heard(200)  # not an invalid request
    assert guard.count == 20 and guard.guarding and guard.by_status == {403: 20}
    before = len(world.env.backend.http_requests)
    sent = await notifier.post(table, "hello again")
    assert len(world.env.backend.http_requests) == before  # not called
    assert sent.status is Delivery.FORBIDDEN and guard.refused == 1
    other = InvalidRequests(limit=20)
    for _ in range(5):
        await other.heard(429, "global")
    assert other.by_scope == {"global": 5} and not other.guarding


def _forbidden() -> discord.HTTPException:
    class Response:
        status = 403
        reason = "Forbidden"
        headers: dict[str, str] = {}

    return discord.Forbidden(Response(), {"code": 50013, "message": "Missing Permissions"})  # type: ignore[arg-type]


def test_processes_come_from_the_shard_settings() -> None:
    def processes(**env: str) -> int:
        return load_settings(env, env_file="/nonexistent").processes

    assert processes() == 1
    assert processes(SHARD_COUNT="8") == 1
    assert processes(SHARD_COUNT="8", SHARD_IDS="0-1") == 4
    assert processes(SHARD_COUNT="3", SHARD_IDS="2") == 3
    assert ChannelBudget(45, processes=4).share == 11


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"DISCORD_CALLS_PER_SECOND": "60"}, "DISCORD_CALLS_PER_SECOND"),
        ({"REDIS_URL": "127.0.0.1:6379"}, "REDIS_URL"),
        ({"INVALID_REQUESTS_LIMIT": "20000"}, "INVALID_REQUESTS_LIMIT"),
    ],
)
def test_bad_budget_settings_are_named(env: dict[str, str], problem: str) -> None:
    from bot.settings import SettingsError

    with pytest.raises(SettingsError, match=problem):
        load_settings(env, env_file="/nonexistent")


async def test_admin_tables_says_when_calls_are_stopped_and_when_tables_lag(world: World) -> None:
    boss = world.admin
    quiet = await boss.slash(world.channel, "flipflop admin tables")
    assert quiet.response.content == "No Flip Flop table is open in this server."  # nothing to tell
    guard = InvalidRequests(limit=10)
    world.bot.invalid_requests = guard
    for _ in range(12):
        await guard.heard(429, "user")
    cog = world.bot.get_cog("FlipFlop")
    notifier: DiscordNotifier = cog.notifier  # type: ignore[union-attr]
    budget = ChannelBudget(per_second=1, clock=lambda: 1000.0)  # simcord's world has a clock of its own
    notifier.budget = budget
    await spend(budget, 1)
    posts = [asyncio.create_task(budget.take(Priority.MUST)) for _ in range(3)]  # ahead of it for 3 s
    waiting = asyncio.create_task(budget.take(Priority.EDIT, stale_for=42))
    await asyncio.sleep(0)
    told = await boss.slash(world.channel, "flipflop admin tables")
    assert told.ephemeral
    lines = told.response.content.splitlines()
    assert lines[0] == "No Flip Flop table is open in this server."
    assert lines[1].startswith("⚠️ Discord refused 10 of the bot's calls in the last 10 minutes")
    assert lines[2].startswith("⏳ The bot is busy everywhere") and "up to 42 seconds late" in lines[2]
    await boss.slash(world.channel, "flipflop language", language="ko")
    korean = await boss.slash(world.channel, "flipflop admin tables")
    assert "10건을 거절했어요" in korean.response.content and "42초" in korean.response.content
    await budget.close()  # the calls still waiting are told no
    await asyncio.gather(waiting, *posts)


async def test_a_turn_asked_for_while_the_limiter_answers_is_not_lost() -> None:
    """A better turn pushed during the limiter's check was popped unanswered (its caller waited forever)."""
    budget = ChannelBudget(per_second=50)
    checked = asyncio.Event()
    real_hit = budget.counter.hit

    async def slow_hit() -> float:
        checked.set()
        await asyncio.sleep(0.05)  # as a Redis round trip takes time
        return await real_hit()

    budget.counter.hit = slow_hit  # type: ignore[method-assign]
    edit = asyncio.create_task(budget.take(Priority.EDIT))
    await checked.wait()
    post = asyncio.create_task(budget.take(Priority.MUST))  # better, and pushed during the check
    assert await asyncio.wait_for(asyncio.gather(edit, post), timeout=2) == [True, True]
    await budget.close()


async def test_without_redis_each_process_takes_its_share_its_first_turn_offset() -> None:
    """Processes keeping to their shares interleave: process 2 of 4 goes 2/8 s after process 0."""
    first = ChannelBudget(per_second=8, processes=4, index=0)
    third = ChannelBudget(per_second=8, processes=4, index=2)
    assert first.limit == third.limit == 2 and not third.shared
    start = time.monotonic()
    await spend(first, 1)
    assert time.monotonic() - start < 0.2  # no offset (wide: a loaded machine is slow, never early)
    start = time.monotonic()
    await spend(third, 1)
    assert time.monotonic() - start >= 0.245
    assert third.stats.share.own_turns == 1
    await first.close()
    await third.close()


async def test_closing_stops_the_redis_watch_even_when_a_ping_turns_the_cancel_into_a_timeout() -> None:
    """Python 3.11's ``asyncio.timeout`` can hand a cancel in a ping back as a ``TimeoutError`` (a CI run
    hung 300 s in ``close``): the watch must stop all the same, and closing must not wait for ever."""
    from bot.budget_share import BudgetShare

    class SwallowingRedis:
        async def ping(self) -> None:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                raise TimeoutError from None  # as the timeout's race does

        async def aclose(self) -> None:
            pass

    share = BudgetShare(10, 1, None, "test", 0)
    share._client = SwallowingRedis()
    share._start_watch()
    await asyncio.sleep(0.05)  # the watch is in its ping
    started = time.monotonic()
    await asyncio.wait_for(share.close(), timeout=5)
    assert time.monotonic() - started < 1.0


async def test_the_redis_address_is_logged_without_its_password(caplog: pytest.LogCaptureFixture) -> None:
    from bot.budget_share import BudgetShare

    share = BudgetShare(10, 2, "redis://:S3cretPw@127.0.0.1:1/0", "test", 0)
    caplog.set_level("WARNING", logger="flipflop.budget")
    share._gone(ConnectionError("refused"))  # Redis goes away: the process keeps to its share, and says so
    assert "does not answer" in caplog.text and "redis://:***@127.0.0.1:1/0" in caplog.text
    assert "S3cretPw" not in caplog.text
    await share.close()
