"""cogs/flipflop/view_store.py reads discord.py's view store: this fails when discord.py changes it."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.flipflop.view_store import known

BUTTON, SELECT = 2, 3


class Ping(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ff:test:ping:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="ping", custom_id=f"ff:test:ping:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Ping:
        return cls(int(match["n"]))


async def test_the_store_has_the_shape_view_store_reads() -> None:
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


async def test_known_is_what_discord_py_would_dispatch() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert not known(client, BUTTON, "ff:test:ping:1")
    client.add_dynamic_items(Ping)
    assert known(client, BUTTON, "ff:test:ping:1")  # a template's control
    assert not known(client, BUTTON, "ff:test:ping:x") and not known(client, BUTTON, "ff:test:pong:1")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="bound", custom_id="ff:test:bound"))
    client.add_view(view, message_id=42)
    assert known(client, BUTTON, "ff:test:bound")  # a view's item, on its message
    assert not known(client, SELECT, "ff:test:bound")  # another kind of control with that id
    await client.close()
