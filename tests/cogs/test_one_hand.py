"""One hand message per player: a newer hand retires the older one without leaving a message behind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.client import FlipFlopBot
from tests.cogs.helpers import buttons, conserved, message, open_table, table_message
from tests.conftest import World, make_bot


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[FlipFlopBot]:
    bot = make_bot(db_path, tables_in_threads=True)  # the bot's own default
    yield bot
    await bot.db.close()


def exists(world: World, channel_id: int, message_id: int) -> bool:
    return message_id in world.env.backend.messages.get(channel_id, {})


async def test_hand_again_and_again_in_a_thread_leaves_one_hand_message(world: World) -> None:
    ann, ben, cat = world.members[:3]
    await open_table(world, [ann, ben, cat], stake=5, buy_in=100)
    (thread,) = world.channel.threads
    ids = []
    for ask in (ann.slash(thread, "flipflop hand"), ann.slash(thread, "flipflop hand")):
        shown = await ask
        assert shown.ephemeral and shown.response is not None
        ids.append(shown.response.id)
    third = await ann.click(table_message(world), label="My hand")
    assert third.ephemeral and third.response is not None
    ids.append(third.response.id)
    assert len(set(ids)) == 3
    assert [i for i in ids if exists(world, thread.id, i)] == [ids[2]]  # the older two were deleted
    hand = message(world, thread.id, ids[2])
    assert "Refresh" in buttons(hand)  # the newest hand still follows the game
    await conserved(world)
