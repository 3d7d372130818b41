"""The metrics module: routes as labels, the REST trace (429s), the hooks, /metrics and /healthz.

The simcord tests play a real action and read the counters it moved; the
real process is scraped in tests/e2e/test_metrics.py.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from bot import metrics
from bot.metrics import REGISTRY
from bot.storage import open_store
from engine.actions import Discard, Draw, LayOff, TonkOut
from engine.cards import Card
from tests.cogs.helpers import Hands, open_table, play_simple_turn, table_in
from tests.conftest import World


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


# ------------------------------------------------------------------ routes


@pytest.mark.parametrize(
    ("url", "route"),
    [
        ("https://discord.com/api/v10/channels/123/messages/456", "/channels/{id}/messages/{id}"),
        ("https://discord.com/api/v10/gateway/bot", "/gateway/bot"),
        (
            "https://discord.com/api/v10/interactions/901/aW50ZXJhY3Rpb246OTAx/callback?with_response=true",
            "/interactions/{id}/{token}/callback",
        ),
        (
            "https://discord.com/api/v10/webhooks/900/aW50ZXJhY3Rpb24/messages/@original",
            "/webhooks/{id}/{token}/messages/@original",
        ),
        ("https://discord.com/api/v10/webhooks/900/secret-token", "/webhooks/{id}/{token}"),
        (
            "https://discord.com/api/v10/channels/1/messages/2/reactions/%F0%9F%83%8F/@me",
            "/channels/{id}/messages/{id}/reactions/{emoji}/@me",
        ),
        ("http://127.0.0.1:8123/api/v10/applications/9/commands", "/applications/{id}/commands"),
    ],
)
def test_a_url_becomes_a_route_without_ids_or_tokens(url: str, route: str) -> None:
    assert metrics.route_of(url) == route


def test_action_kinds() -> None:
    c = Card.parse("5H")
    assert metrics.action_kind(Draw("1", "stock")) == "draw_stock"
    assert metrics.action_kind(Draw("1", "discard")) == "draw_discard"
    assert metrics.action_kind(Discard("1", c)) == "discard"
    assert metrics.action_kind(LayOff("1", c, 0)) == "lay_off"
    assert metrics.action_kind(TonkOut("1", (), ())) == "tonk_out"


# ------------------------------------------------------------------ the REST trace


async def test_the_trace_counts_every_request_by_route_and_status_429s_included() -> None:
    calls = {"n": 0}

    async def messages(request: web.Request) -> web.Response:
        calls["n"] += 1
        if calls["n"] == 1:
            return web.json_response({"retry_after": 0.01, "global": False}, status=429)
        return web.json_response({"id": "1"})

    app = web.Application()
    app.router.add_post("/api/v10/channels/{cid}/messages", messages)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    route = "/channels/{id}/messages"
    before = {
        s: value("flipflop_discord_requests_total", method="POST", route=route, status=s)
        for s in "429 200".split()
    }
    timed_before = value("flipflop_discord_request_seconds_count", method="POST", route=route)
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as session:
            for _ in range(2):
                async with session.post(f"http://127.0.0.1:{port}/api/v10/channels/77/messages", json={}):
                    pass
    finally:
        await runner.cleanup()
    assert (
        value("flipflop_discord_requests_total", method="POST", route=route, status="429")
        == before["429"] + 1
    )
    assert (
        value("flipflop_discord_requests_total", method="POST", route=route, status="200")
        == before["200"] + 1
    )
    assert value("flipflop_discord_request_seconds_count", method="POST", route=route) == timed_before + 2


async def test_a_request_that_never_gets_an_answer_counts_as_an_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once closed
    route = "/users/@me"
    before = value("flipflop_discord_requests_total", method="GET", route=route, status="error")
    async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(f"http://127.0.0.1:{port}/api/v10/users/@me")
    assert value("flipflop_discord_requests_total", method="GET", route=route, status="error") == before + 1


# ------------------------------------------------------------------ emoji sync gauges


def test_the_emoji_sync_sets_its_gauges_and_refuses_a_state_it_does_not_know() -> None:
    metrics.emoji_sync("syncing")
    assert value("flipflop_emoji_sync", state="syncing") == 1
    metrics.emoji_sync("synced")
    assert value("flipflop_emoji_sync", state="synced") == 1
    assert value("flipflop_emoji_sync", state="syncing") == 0
    metrics.emojis(present=100, wanted=106)
    assert value("flipflop_emojis", state="present") == 100
    assert value("flipflop_emojis", state="wanted") == 106
    with pytest.raises(ValueError, match="not one of"):
        metrics.emoji_sync("done")
    assert value("flipflop_emoji_sync", state="synced") == 1  # unchanged
    with pytest.raises(ValueError):
        metrics.emojis(present=-1, wanted=106)
    assert value("flipflop_emojis", state="present") == 100


# ------------------------------------------------------------------ the port


def test_a_port_in_use_is_refused_with_what_to_do() -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(metrics.MetricsPortError) as refused:
            metrics.bind(port)
    message = str(refused.value)
    assert f"METRICS_PORT={port} is already in use" in message
    assert "own METRICS_PORT" in message


def test_a_port_that_can_not_be_listened_on_says_why() -> None:
    with pytest.raises(metrics.MetricsPortError, match=r"Can not listen on METRICS_PORT=9\d+: "):
        metrics.bind(9101, host="203.0.113.7")  # an address this machine does not have


async def test_a_database_that_does_not_answer_in_time_is_unhealthy(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.metrics import server

    class Hanging:
        async def fetchone(self, sql: str) -> None:
            await asyncio.sleep(10)

    class Bot:
        user = "FlipFlop"
        db = Hanging()

        def is_ready(self) -> bool:
            return True

        def is_closed(self) -> bool:
            return False

    monkeypatch.setattr(server, "HEALTH_TIMEOUT", 0.05)
    health = await metrics.check(Bot())  # type: ignore[arg-type]
    assert not health.ok and health.logged_in
    assert health.database == "no answer within 0.05 s"
    assert value("flipflop_database_up") == 0 and value("flipflop_logged_in") == 1


def test_no_metrics_port_serves_nothing() -> None:
    from bot.settings import load_settings

    settings = load_settings({"DISCORD_TOKEN": "x"}, env_file="/nonexistent")
    assert settings.metrics_port is None
    assert metrics.serve(settings) is None


def test_a_metrics_port_out_of_range_is_a_setting_error() -> None:
    from bot.settings import SettingsError, load_settings

    with pytest.raises(SettingsError, match="METRICS_PORT"):
        load_settings({"METRICS_PORT": "70000"}, env_file="/nonexistent")


# ------------------------------------------------------------------ database queries


async def test_every_statement_of_the_store_is_timed_once(tmp_path: Path) -> None:
    metrics.instrument_store()
    metrics.instrument_store()  # twice changes nothing: each statement is still observed once
    db = open_store(tmp_path / "q.sqlite3")
    await db.open()
    try:
        fetch = value("flipflop_db_query_seconds_count", store="sqlite", op="fetch")
        execute = value("flipflop_db_query_seconds_count", store="sqlite", op="execute")
        await db.fetchone("SELECT 1")
        async with db.transaction() as tx:
            await tx.execute("SELECT 1")
            await tx.fetchall("SELECT 1")
        assert value("flipflop_db_query_seconds_count", store="sqlite", op="fetch") == fetch + 2
        # the transaction's BEGIN and COMMIT are statements too
        assert value("flipflop_db_query_seconds_count", store="sqlite", op="execute") == execute + 3
    finally:
        await db.close()


# ------------------------------------------------------------------ simcord: a played action


@pytest_asyncio.fixture
async def served(world: World) -> AsyncIterator[tuple[World, str]]:
    server = metrics.MetricsServer(metrics.bind(0, "127.0.0.1"))
    await server.start(world.bot)
    yield world, f"http://127.0.0.1:{server.port}"
    await server.stop()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_a_played_action_moves_the_counters(served: tuple[World, str]) -> None:
    world, base = served
    shard = "0"
    drawn = value("flipflop_actions_total", kind="draw_stock", by="member", shard=shard)
    discarded = value("flipflop_actions_total", kind="discard", by="member", shard=shard)
    timed = value("flipflop_action_latency_seconds_count", kind="draw_stock")
    commands = value("flipflop_action_latency_seconds_count", kind="command")
    clicks = value("flipflop_action_latency_seconds_count", kind="component")
    queries = value("flipflop_db_query_seconds_count", store="sqlite", op="execute")
    await open_table(world, world.members[:3], stake=5, buy_in=20)
    assert value("flipflop_action_latency_seconds_count", kind="command") == commands + 1  # /flipflop start
    assert value("flipflop_action_latency_seconds_count", kind="component") == clicks + 3  # join, join, start
    status, text = await get(f"{base}/metrics")
    assert status == 200
    assert 'flipflop_open_tables{practice="false",shard="0",status="playing"} 1.0' in text
    table = table_in(world)
    assert table is not None and table.game is not None
    actor = next(m for m in world.members if str(m.id) == table.game.to_act)
    await play_simple_turn(world, actor, hands=Hands(world))
    assert value("flipflop_actions_total", kind="draw_stock", by="member", shard=shard) == drawn + 1
    assert value("flipflop_actions_total", kind="discard", by="member", shard=shard) == discarded + 1
    assert value("flipflop_action_latency_seconds_count", kind="draw_stock") == timed + 1
    assert value("flipflop_db_query_seconds_count", store="sqlite", op="execute") > queries
    status, text = await get(f"{base}/metrics")
    assert 'flipflop_actions_total{by="member",kind="discard",shard="0"}' in text
    assert "flipflop_logged_in 1.0" in text and "flipflop_database_up 1.0" in text


async def test_computer_moves_are_counted_with_their_queue_and_search_time(served: tuple[World, str]) -> None:
    world, _ = served
    moves = value("flipflop_computer_search_seconds_count", level="basic")
    by_timer = sum(
        value("flipflop_actions_total", kind=k, by="timer", shard="0")
        for k in ("draw_stock", "draw_discard", "discard", "drop", "spread", "lay_off", "tonk_out")
    )
    host = world.members[0]
    result = await host.slash(world.channel, "flipflop practice", computers=2, level="basic")
    assert result.response is not None
    lobby = result.response.message
    await host.click(lobby, label="Start")
    for _ in range(40):
        if value("flipflop_computer_search_seconds_count", level="basic") > moves:
            break
        await world.env.advance_time(3)
    assert value("flipflop_computer_search_seconds_count", level="basic") > moves
    assert value("flipflop_computer_queue") == 0  # every move asked for was chosen
    after = sum(
        value("flipflop_actions_total", kind=k, by="timer", shard="0")
        for k in ("draw_stock", "draw_discard", "discard", "drop", "spread", "lay_off", "tonk_out")
    )
    assert after > by_timer


async def test_healthz_is_200_while_logged_in_with_the_database_then_503_and_the_bot_goes_on(
    served: tuple[World, str],
) -> None:
    world, base = served
    status, text = await get(f"{base}/healthz")
    assert status == 200 and '"status": "ok"' in text
    await world.bot.db.close()  # the database goes away under the running bot
    status, text = await get(f"{base}/healthz")
    assert status == 503
    assert '"logged_in": true' in text and "not open" in text
    status, text = await get(f"{base}/metrics")
    assert status == 200 and "flipflop_database_up 0.0" in text
    assert not world.bot.is_closed()
    answered = await world.members[0].slash(world.channel, "flipflop rules")
    assert answered.response is not None and answered.ephemeral  # the bot still answers, and says why not
    assert "went wrong on our side" in (answered.response.content or "")
    assert all("not open" in str(e.__cause__ or e) for e in world.env.errors)  # the one failure seen


async def test_healthz_is_503_before_login(tmp_path: Path) -> None:
    from tests.conftest import make_bot

    bot = make_bot(tmp_path / "h.sqlite3")
    await bot.open_database()
    server = metrics.MetricsServer(metrics.bind(0, "127.0.0.1"))
    await server.start(bot)
    try:
        status, text = await get(f"http://127.0.0.1:{server.port}/healthz")
    finally:
        await server.stop()
        await bot.db.close()
    assert status == 503
    assert '"logged_in": false' in text and '"database": "ok"' in text


def test_a_table_is_counted_on_its_servers_shard(tmp_path: Path) -> None:
    from bot.client import create_bot
    from bot.settings import Settings

    bot = create_bot(Settings(database_path=tmp_path / "s.sqlite3", shard_count=4, shard_ids=(2, 3)))
    metrics.instrument(bot)
    assert metrics.shard_label(3 << 22) == "3" and metrics.shard_label(6 << 22) == "2"
    assert metrics.BotCollector(bot).shards() == ["2", "3"]


async def test_a_hint_is_a_coach_search_counted_and_its_queue_empties(
    served: tuple[World, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from bot.runtime import ComputerPlayers
    from cogs.flipflop import coach
    from tests.cogs.helpers import my_hand

    world, base = served
    monkeypatch.setattr(coach, "BUDGETS", coach.Budgets(hint=0.02, review=0.01, review_total=2.0))
    pool = ThreadPoolExecutor(1)  # simcord's stopped clock and a worker process's start do not mix
    runtime = world.bot.runtime
    assert runtime is not None
    runtime.computers = ComputerPlayers(pool=pool)
    ann = world.members[0]
    result = await ann.slash(world.channel, "flipflop practice", computers=2, level="basic")
    assert result.response is not None
    await ann.click(result.response.message, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    for _ in range(20):
        if table.game.to_act == str(ann.id):
            break
        await world.env.advance_time(5)
    assert table.game.to_act == str(ann.id)
    searches = value("flipflop_coach_search_seconds_count")
    status, text = await get(f"{base}/metrics")
    assert 'flipflop_open_tables{practice="true",shard="0",status="playing"} 1.0' in text
    hand = await my_hand(world, ann)
    hinted = await ann.click(hand.message, label="Hint")
    assert hinted.ephemeral
    assert value("flipflop_coach_search_seconds_count") == searches + 1
    assert value("flipflop_coach_queue") == 0
    pool.shutdown(wait=True)


async def test_gateway_reconnects_and_disconnects_are_counted_by_shard(world: World) -> None:
    metrics.instrument(world.bot)
    metrics.instrument(world.bot)  # twice: each event still counted once
    resumed = value("flipflop_gateway_reconnects_total", shard="0", how="resume")
    identified = value("flipflop_gateway_reconnects_total", shard="0", how="identify")
    lost = value("flipflop_gateway_disconnects_total", shard="0")
    for event in ("shard_connect", "shard_disconnect", "shard_resumed", "shard_disconnect", "shard_connect"):
        world.bot.dispatch(event, 0)
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)
    assert value("flipflop_gateway_disconnects_total", shard="0") == lost + 2
    assert value("flipflop_gateway_reconnects_total", shard="0", how="resume") == resumed + 1
    assert value("flipflop_gateway_reconnects_total", shard="0", how="identify") == identified + 1
