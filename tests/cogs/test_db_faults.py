"""A click while the database fails: the member is told nothing was changed, nothing escapes as an ERROR."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.storage import Conflict, Unavailable
from tests.cogs.helpers import buttons, conserved, my_hand, open_table, runtime, table_in, table_message
from tests.conftest import World

OUR_SIDE = "Something went wrong on our side; nothing was changed. Please try again."


@pytest.fixture
def failing_once(world: World, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Exception]]:
    """The next transaction of the table store fails with the error a test puts in the list."""
    db = runtime(world).db
    real = db.transaction
    errors: list[Exception] = []

    @asynccontextmanager
    async def transaction() -> AsyncIterator[Any]:
        if errors:
            raise errors.pop()
        async with real() as tx:
            yield tx

    monkeypatch.setattr(db, "transaction", transaction)
    yield errors


async def test_a_move_refused_by_a_dead_connection_is_answered_and_can_be_retried(
    world: World, failing_once: list[Exception], caplog: pytest.LogCaptureFixture
) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.to_act is not None
    player = next(m for m in world.members if str(m.id) == g.to_act)
    hand = await my_hand(world, player)
    seq = table.seq
    failing_once.append(Unavailable("InterfaceError: connection was closed in the middle of operation"))
    with caplog.at_level(logging.WARNING):
        refused = await player.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    assert refused.ephemeral and refused.response is not None
    assert OUR_SIDE in refused.response.content
    assert table_in(world) is not None and table_in(world).seq == seq  # type: ignore[union-attr]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    drawn = await player.click(hand.message, custom_id=buttons(hand)["Draw from stock"])  # the retry
    assert drawn.response is not None and "just drawn" in drawn.response.content
    assert table_in(world).seq == seq + 1  # type: ignore[union-attr]
    await conserved(world)


async def test_a_join_refused_by_a_busy_database_is_answered(
    world: World, failing_once: list[Exception], caplog: pytest.LogCaptureFixture
) -> None:
    ann, ben = world.members[:2]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    failing_once.append(Conflict("database is locked"))
    with caplog.at_level(logging.WARNING):
        refused = await ben.click(lobby, label="Join")
    assert refused.ephemeral and OUR_SIDE in refused.response.content
    assert table_in(world).seats == [ann.id]  # type: ignore[union-attr]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await ben.click(table_message(world), label="Join")
    assert table_in(world).seats == [ann.id, ben.id]  # type: ignore[union-attr]
    await conserved(world)


async def test_a_slash_command_refused_by_the_database_is_answered_without_a_traceback(
    world: World, failing_once: list[Exception], caplog: pytest.LogCaptureFixture
) -> None:
    ann, ben = world.members[:2]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    failing_once.append(Unavailable("ConnectionDoesNotExistError: connection was closed"))
    with caplog.at_level(logging.WARNING):
        refused = await ben.slash(world.channel, "flipflop seed", text="lucky 7")
    assert refused.ephemeral and OUR_SIDE in refused.response.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # the command's error reached the tree's handler, which answered it (simcord saw it pass by)
    assert [type(getattr(e, "original", e)) for e in world.env.errors] == [Unavailable]
    said = await ben.slash(world.channel, "flipflop seed", text="lucky 7")
    assert said.ephemeral and "lucky 7" in table_in(world).fair.client_seed()  # type: ignore[union-attr]
