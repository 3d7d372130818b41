"""Signing in to the live table from a Discord Activity: the code is traded by the bot, never trusted.

A stand-in for Discord (``bot.live.mock_discord``) answers the token, identity and
activity-instance calls over real HTTP, as ``ACTIVITY_API_URL`` would be answered.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.client import FlipFlopBot
from bot.live.activity import ActivityAuth
from bot.live.mock_discord import MockDiscord
from bot.live.server import LiveServer, bind
from tests.bot.runtime.fakes import FakeClock
from tests.cogs.helpers import conserved, open_table
from tests.conftest import World, make_bot

APP = "200000000000000002"


@pytest.fixture
def discord_stand_in() -> MockDiscord:
    return MockDiscord(APP)


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path, discord_stand_in: MockDiscord) -> AsyncIterator[FlipFlopBot]:
    bot = make_bot(db_path)
    sock = bind(0, "127.0.0.1")
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    auth = ActivityAuth(APP, "secret", discord_stand_in.bot_token, f"{url}mock-discord/api")
    live = LiveServer(sock, url, FakeClock(), activity=auth)
    live.mounted["/mock-discord/"] = discord_stand_in.app()
    bot.live = live
    yield bot
    await bot.db.close()


pytestmark = pytest.mark.usefixtures("serving")  # the live server, in simcord's scope (conftest)


async def activity(http: aiohttp.ClientSession, world: World, code: Any, instance: Any) -> tuple[int, Any]:
    live = world.bot.live
    assert live is not None
    async with http.post(f"{live.url}live/api/activity", json={"code": code, "instance": instance}) as reply:
        return reply.status, await reply.json()


async def test_an_activity_signs_in_the_member_discord_names_at_the_table_of_its_channel(
    world: World, discord_stand_in: MockDiscord
) -> None:
    ann, ben, cat, dan = world.members[:4]
    table = await open_table(world, [ann, ben, cat])
    people = {m.id for m in world.members}
    instance = discord_stand_in.launch(world.guild.id, world.channel.id, people)
    live = world.bot.live
    assert live is not None
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{live.url}live/api/config") as reply:
            assert (await reply.json())["activity"] == APP
        status, body = await activity(http, world, discord_stand_in.code_for(ben.id), instance)
        assert status == 200 and body["table"] == table.id
        ws = await http.ws_connect(f"{live.url.replace('http', 'ws')}live/ws")
        await ws.send_str(json.dumps({"type": "hello", "session": body["session"]}))
        hello = json.loads((await ws.receive(timeout=10)).data)
        assert hello["you"] == str(ben.id)  # who Discord said, whatever the page might claim
        state = json.loads((await ws.receive(timeout=10)).data)
        assert state["you"]["seat"] == str(ben.id)
        await ws.close()
        # dan is in the channel's Activity but not seated: a spectator
        status, body = await activity(http, world, discord_stand_in.code_for(dan.id), instance)
        assert status == 200


async def test_forged_instances_and_codes_are_refused_and_change_nothing(
    world: World, discord_stand_in: MockDiscord
) -> None:
    ann, ben, cat, dan = world.members[:4]
    table = await open_table(world, [ann, ben, cat])
    seq = table.seq
    instance = discord_stand_in.launch(world.guild.id, world.channel.id, {ann.id, ben.id})
    elsewhere = world.guild.create_text_channel("elsewhere")
    no_table = discord_stand_in.launch(world.guild.id, elsewhere.id, {ann.id})
    async with aiohttp.ClientSession() as http:
        for forged in ("123456789012345678", "../../users/@me", "", None, 7, instance + "0"):
            status, body = await activity(http, world, discord_stand_in.code_for(ann.id), forged)
            assert status == 403 and body["code"] == "instance_unknown", forged
            assert "not started from a channel with a Flip Flop table" in body["error"]
        status, body = await activity(http, world, discord_stand_in.code_for(ann.id), no_table)
        assert status == 403 and body["code"] == "instance_unknown"
        status, body = await activity(http, world, discord_stand_in.code_for(dan.id), instance)
        assert status == 403 and body["code"] == "instance_unknown"  # dan is not in that instance
        code = discord_stand_in.code_for(ann.id)
        assert (await activity(http, world, code, instance))[0] == 200
        status, body = await activity(http, world, code, instance)  # a code works once
        assert status == 403 and body["code"] == "activity_refused" and "did not confirm" in body["error"]
        for made_up in ("made-up", "", None, str(ann.id)):
            status, body = await activity(http, world, made_up, instance)
            assert status == 403 and body["code"] == "activity_refused"
    assert table.seq == seq
    await conserved(world)


async def test_discord_out_of_reach_refuses_the_sign_in(world: World, discord_stand_in: MockDiscord) -> None:
    ann, ben, cat = world.members[:3]
    await open_table(world, [ann, ben, cat])
    live = world.bot.live
    assert live is not None and live.activity is not None
    instance = discord_stand_in.launch(world.guild.id, world.channel.id, {ann.id})
    live.activity.api_url = "http://127.0.0.1:9/api"  # nothing listens there
    async with aiohttp.ClientSession() as http:
        status, body = await activity(http, world, discord_stand_in.code_for(ann.id), instance)
    assert status == 403 and body["code"] == "activity_refused"


async def test_the_table_offers_open_table_which_launches_the_activity(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    import discord

    from tests.cogs.helpers import buttons, table_message

    ann, ben, cat = world.members[:3]
    await open_table(world, [ann, ben, cat])
    shown = table_message(world)
    assert "Open table" in buttons(shown)
    # simcord does not launch Activities (Discord refuses the callback): a private one-time link instead
    clicked = await cat.click(shown, label="Open table")
    assert clicked.ephemeral and clicked.response is not None
    words = clicked.response.content or ""
    assert "/live/#" in words and "with your hand to play" in words
    launched: list[int] = []

    async def launch(self: discord.InteractionResponse[Any]) -> None:
        launched.append(self._parent.user.id)
        self._response_type = discord.InteractionResponseType.launch_activity

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", launch)
    await ann.click(table_message(world), label="Open table")
    assert launched == [ann.id]  # where Discord can, the Activity itself opens (no message)
