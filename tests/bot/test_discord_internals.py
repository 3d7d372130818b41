"""bot/client.py reads discord.py's internals (its last section).

These fail when discord.py changes what it reads.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import discord

from bot.client import (
    REPLIES,
    answered_interaction,
    hear_interactions,
    interaction_parser,
    will_dispatch,
)

BUTTON, SELECT = 2, 3


class Ping(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ff:test:ping:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="ping", custom_id=f"ff:test:ping:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Ping:
        return cls(int(match["n"]))


async def test_the_store_has_the_shape_will_dispatch_reads() -> None:
    client = discord.Client(intents=discord.Intents.none())
    client.add_dynamic_items(Ping)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="bound", custom_id="ff:test:bound"))
    client.add_view(view, message_id=42)
    store = client._connection._view_store
    assert list(store._dynamic_items) == [re.compile(r"ff:test:ping:(?P<n>\d+)")]  # pattern -> class
    assert store._dynamic_items[re.compile(r"ff:test:ping:(?P<n>\d+)")] is Ping
    assert set(store._views[42]) == {(BUTTON, "ff:test:bound")}  # message id -> (type, custom id) -> item
    await client.close()


async def test_will_dispatch_is_what_discord_py_would_dispatch() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert not will_dispatch(client, BUTTON, "ff:test:ping:1")
    client.add_dynamic_items(Ping)
    assert will_dispatch(client, BUTTON, "ff:test:ping:1")  # a template's control
    assert not will_dispatch(client, BUTTON, "ff:test:ping:x")
    assert not will_dispatch(client, BUTTON, "ff:test:pong:1")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="bound", custom_id="ff:test:bound"))
    client.add_view(view, message_id=42)
    assert will_dispatch(client, BUTTON, "ff:test:bound")  # a view's item, on its message
    assert not will_dispatch(client, SELECT, "ff:test:bound")  # another kind of control with that id
    await client.close()


async def test_the_interaction_parser_is_wrapped_and_still_called() -> None:
    client = discord.Client(intents=discord.Intents.none())
    original = interaction_parser(client)
    assert callable(original)  # discord.py names its parsers by gateway event
    seen: list[Any] = []

    def wrap(parse: Any) -> Any:
        def heard(data: Any) -> None:
            seen.append(data["id"])
            parse(data)

        return heard

    hear_interactions(client, wrap)
    assert interaction_parser(client) is not original
    payload = {
        "id": "1443000000000000001",
        "application_id": "1443000000000000002",
        "type": 1,
        "token": "t",
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    interaction_parser(client)(payload)  # a ping: parsed by discord.py, no task to run
    assert seen == ["1443000000000000001"]
    await client.close()


async def test_a_response_knows_its_interaction() -> None:
    client = discord.Client(intents=discord.Intents.none())
    payload: Any = {
        "id": "1443000000000000003",
        "application_id": "1443000000000000002",
        "type": 1,
        "token": "t",
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    interaction = discord.Interaction(data=payload, state=client._connection)
    assert answered_interaction(interaction.response) == 1443000000000000003
    await client.close()



def test_the_replies_wrapped_are_every_way_to_answer() -> None:
    """``REPLIES`` are exactly ``InteractionResponse``'s public coroutine methods: one discord.py adds
    (or renames) is a new way to answer that the action-latency metric would miss."""
    answering = {
        name
        for name, method in inspect.getmembers(discord.InteractionResponse)
        if not name.startswith("_") and inspect.iscoroutinefunction(inspect.unwrap(method))
    }
    assert answering == set(REPLIES)
