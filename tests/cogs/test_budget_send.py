"""The budget's turn taken where a request goes out (``bot.send_gate``): on discord.py's real HTTP client.

Interaction answers never wait; every try of a call (a retry after a 429 too) takes a turn; a paced
edit's request uses the turn the pacer waited for, only if it starts at once.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot import send_gate
from bot.budget import ChannelBudget, Priority
from bot.send_gate import REUSE_SECONDS, SendGate, exempt, holding_turn, release_turn
from cogs.flipflop.pacing import EditPacer


async def spend(budget: ChannelBudget, calls: int) -> None:
    for _ in range(calls):
        assert await budget.take(Priority.MUST)


class FakeDiscord:
    """Answers every call 200, except the first ``limited`` calls to a channel: 429 as Discord sends it."""

    def __init__(self, limited: int = 0) -> None:
        self.limited = limited
        self.calls: list[str] = []
        self.timed: list[tuple[str, float]] = []
        """Each call's path and when it arrived."""

    async def handle(self, request: web.Request) -> web.Response:
        self.calls.append(request.path)
        self.timed.append((request.path, time.monotonic()))
        if request.path.startswith("/api/v10/channels/") and self.limited > 0:
            self.limited -= 1
            body = {"message": "You are being rate limited.", "retry_after": 0.01, "global": False}
            headers = {"Retry-After": "1", "X-RateLimit-Scope": "user", "Via": "1.1 google"}
            return _json(body, status=429, headers=headers)
        if request.path == "/api/v10/users/@me":
            return _json({"id": "1", "username": "t", "discriminator": "0", "avatar": None})
        return _json({"id": "5", "type": 0, "name": "c"})


def _json(data: object, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: ``Content-Type: application/json`` exactly (discord.py checks)."""
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers=headers, content_type="application/json")


@pytest.fixture
async def fake() -> AsyncIterator[tuple[FakeDiscord, str]]:
    discord_ = FakeDiscord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", discord_.handle)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    yield discord_, str(server.make_url("")).rstrip("/")
    await server.close()


@pytest.fixture
async def client(
    fake: tuple[FakeDiscord, str], monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[discord.http.HTTPClient, SendGate, FakeDiscord]]:
    discord_, base = fake
    monkeypatch.setattr(discord.http.Route, "BASE", f"{base}/api/v10")
    gate = SendGate()
    http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=gate.trace())
    await http.static_login("token")  # before the budget: logging in is not counted here
    yield http, gate, discord_
    await http.close()


def test_interaction_answers_and_follow_ups_are_exempt_and_channel_calls_are_not() -> None:
    assert exempt("https://discord.com/api/v10/interactions/123/aW50ZXJh/callback")
    assert exempt("https://discord.com/api/v10/webhooks/456/aW50ZXJh")
    assert exempt("https://discord.com/api/v10/webhooks/456/aW50ZXJh/messages/@original")
    assert not exempt("https://discord.com/api/v10/channels/1/messages/2")
    assert not exempt("https://discord.com/api/v10/channels/1/threads")


async def test_an_interaction_answer_never_waits_while_the_budget_is_spent(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    http, gate, _ = client
    budget = ChannelBudget(per_second=1)
    gate.attach(budget)
    await spend(budget, 1)
    blocked = asyncio.create_task(budget.take(Priority.MUST))  # the next second's turn is taken
    await asyncio.sleep(0)
    start = time.monotonic()
    route = discord.http.Route(
        "POST", "/interactions/{interaction_id}/{token}/callback", interaction_id=9, token="tok"
    )
    await asyncio.wait_for(http.request(route, json={"type": 6}), timeout=0.5)
    assert time.monotonic() - start < 0.5 and gate.stats.exempt == 1 and gate.stats.taken == 0
    await blocked
    await budget.close()


async def test_a_channel_call_waits_for_its_turn(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    http, gate, _ = client
    budget = ChannelBudget(per_second=2)
    gate.attach(budget)
    start = time.monotonic()
    await spend(budget, 2)
    await http.get_channel(1)
    assert time.monotonic() - start >= 0.9  # the third call of a budget of 2 a second
    assert gate.stats.taken == 1 and budget.stats.granted["must"] == 3
    await budget.close()


async def test_a_retry_after_a_429_takes_a_turn_of_its_own(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    http, gate, discord_ = client
    budget = ChannelBudget(per_second=20)
    gate.attach(budget)
    discord_.limited = 2  # discord.py tries three times: two 429s, then the answer
    await http.get_channel(1)
    assert discord_.calls.count("/api/v10/channels/1") == 3
    assert gate.stats.taken == 3 and budget.stats.granted["must"] == 3
    await budget.close()


async def test_a_paced_edit_uses_its_turn_and_a_second_call_or_a_retry_takes_another(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    http, gate, discord_ = client
    budget = ChannelBudget(per_second=20)
    gate.attach(budget)
    pacer = EditPacer(limit=100, window=5.0, budget=budget)
    discord_.limited = 1

    async def edit() -> None:
        await http.get_channel(1)  # 429, then the retry: the pacer's turn, then one of its own
        await http.get_channel(2)  # a second call (the table posted anew): its own turn

    pacer.request(1, edit)
    await pacer.flush()
    assert gate.stats.reused == 1 and gate.stats.taken == 2
    assert budget.stats.granted == {"must": 2, "edit": 1, "ping": 0}
    await budget.close()


async def test_a_paced_turn_is_not_used_by_a_request_that_starts_late(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    http, gate, _ = client
    budget = ChannelBudget(per_second=20)
    gate.attach(budget)
    held = holding_turn()
    try:
        await asyncio.sleep(REUSE_SECONDS * 1.5)  # discord.py waited on the route's bucket meanwhile
        await http.get_channel(1)
    finally:
        release_turn(held)
    assert gate.stats.expired == 1 and gate.stats.taken == 1 and gate.stats.reused == 0
    await budget.close()


async def test_without_a_budget_or_with_it_off_nothing_waits(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    http, gate, _ = client
    await http.get_channel(1)
    gate.attach(ChannelBudget(per_second=0))
    await http.get_channel(1)
    assert gate.stats.taken == 0


async def test_granted_requests_handed_on_in_a_bunch_leave_at_most_the_limit_in_any_window(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turns granted evenly but used at once (a busy event loop) still reach Discord within the limit."""
    http, gate, discord_ = client
    monkeypatch.setattr(send_gate, "WIRE_SECONDS", 0.3)
    budget = ChannelBudget(per_second=10)  # 3 requests in any 0.3 s
    gate.attach(budget)

    async def paced_edit(channel: int) -> None:  # each holds a turn the pacer was granted just now
        held = holding_turn()
        try:
            await http.get_channel(channel)
        finally:
            release_turn(held)

    await asyncio.gather(*(paced_edit(i) for i in range(7)))
    arrived = sorted(t for path, t in discord_.timed if path.startswith("/api/v10/channels/"))
    assert len(arrived) == 7 and gate.stats.reused == 7 and gate.stats.taken == 0
    # three at once; the rest wait for the window (one held past its place takes a fresh turn)
    assert gate.stats.spaced + gate.stats.retaken >= 1
    for i in range(len(arrived) - 3):
        assert arrived[i + 3] - arrived[i] >= 0.2  # never four within one window (the server's clock)
    await budget.close()


@pytest.fixture
def three_a_window(monkeypatch: pytest.MonkeyPatch) -> tuple[SendGate, ChannelBudget]:
    """A gate whose requests count for 0.3 s, on a budget of 10 a second: 3 requests in any window."""
    monkeypatch.setattr(send_gate, "WIRE_SECONDS", 0.3)
    gate = SendGate()
    budget = ChannelBudget(per_second=10)
    gate.attach(budget)
    return gate, budget


async def test_a_request_let_through_counts_until_it_is_answered_and_a_window_after(
    three_a_window: tuple[SendGate, ChannelBudget],
) -> None:
    """Discord may count a request any time until its answer: it counts until then, and a window after."""
    gate, budget = three_a_window
    loop = asyncio.get_running_loop()

    async def let_through() -> int | None:
        held = holding_turn()  # a paced edit's turn: only the gate's count can hold it back
        try:
            return await gate.before("https://discord.com/api/v10/channels/1/messages/2")
        finally:
            release_turn(held)

    tickets = [await let_through() for _ in range(3)]
    assert gate.in_flight == 3
    fourth = asyncio.create_task(let_through())
    await asyncio.sleep(0.4)  # longer than the window: the three are still not answered
    assert not fourth.done()
    gate.answered(tickets[0])
    answered_at = loop.time()
    ticket = await asyncio.wait_for(fourth, 1.0)
    assert loop.time() - answered_at >= 0.29  # the first counts for a whole window from its answer
    assert ticket is not None and gate.in_flight == 3
    assert gate.stats.retaken == 1  # held past its place in the schedule: it took a fresh turn
    for t in (*tickets, ticket):
        gate.answered(t)
    assert gate.in_flight == 0
    await budget.close()


async def test_every_request_on_the_wire_is_counted_once_and_none_stays_in_flight(
    client: tuple[discord.http.HTTPClient, SendGate, FakeDiscord],
) -> None:
    """Answers and 429s alike: each try is let through, counted until answered, then for a window."""
    http, gate, discord_ = client
    budget = ChannelBudget(per_second=20)
    gate.attach(budget)
    discord_.limited = 1
    await http.send_message(1, params=discord.http.handle_message_parameters(content="hi"))  # 429, retry
    await http.get_channel(2)
    assert gate.stats.taken == 3 and gate.in_flight == 0 and len(gate._left) == 3
    await budget.close()


async def test_the_budget_grants_no_turn_while_the_gate_would_hold_its_request(
    three_a_window: tuple[SendGate, ChannelBudget],
) -> None:
    """Turns wait in the budget (the stalest first), not at the gate: no turn while answers are awaited."""
    gate, budget = three_a_window
    loop = asyncio.get_running_loop()
    tickets = [await gate.before("https://discord.com/api/v10/channels/1/messages") for _ in range(3)]
    edit = asyncio.create_task(budget.take(Priority.EDIT, stale_for=5.0))
    await asyncio.sleep(0.4)
    assert not edit.done() and budget.queue == 1  # three requests on their way, none answered
    gate.answered(tickets[0])
    answered_at = loop.time()
    assert await asyncio.wait_for(edit, 1.0)
    assert loop.time() - answered_at >= 0.29
    gate.attach(None)
    assert budget.gate is None
    await budget.close()
