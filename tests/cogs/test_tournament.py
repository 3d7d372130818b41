"""``/flipflop tournament`` through simcord: opening, entries and their refusals, start, cancel, audit."""

from __future__ import annotations

from typing import Any

import simcord

from bot.audit import audit_guild
from bot.ledger import HOUSE_ID
from tests.cogs.helpers import buttons, displayed
from tests.conftest import World


async def clean(world: World) -> None:
    audit = await audit_guild(world.bot.ledger, world.guild.id)
    assert audit.ok and audit.difference == 0, audit.lines()


async def balance(world: World, member: simcord.MemberActor) -> int:
    return await world.bot.ledger.balance(world.guild.id, member.id)


async def opened(world: World, host: simcord.MemberActor, **options: Any) -> Any:
    result = await host.slash(world.channel, "flipflop tournament", **options)
    assert not result.ephemeral, result.response.content if result.response else result
    return result.response.message


async def test_entries_refusals_and_cancel_refund_every_fee(world: World) -> None:
    ann, ben, cat, dan = world.members[:4]
    lobby = await opened(world, ann, fee=100, seats=8, computers=False)
    text = displayed(lobby)
    assert "open for entries" in text and "100 chips" in text and "Entered (0/8)" in text
    assert {"Join", "Leave", "Start", "Cancel"} <= set(buttons(lobby))
    joined = await ann.click(lobby, label="Join")
    assert not joined.ephemeral and await balance(world, ann) == 900
    assert "Entered (1/8)" in displayed(world.channel.history()[-1])
    twice = await ann.click(lobby, label="Join")
    assert twice.ephemeral and "already entered" in twice.response.content
    assert await balance(world, ann) == 900
    await world.bot.ledger.take(world.guild.id, ben.id, 950, world.admin.id)
    poor = await ben.click(lobby, label="Join")
    assert poor.ephemeral and "entry fee is 100 chips, but your balance is 50" in poor.response.content
    assert await balance(world, ben) == 50
    await cat.click(lobby, label="Join")
    left = await cat.click(lobby, label="Leave")
    assert not left.ephemeral and await balance(world, cat) == 1000
    not_in = await dan.click(lobby, label="Leave")
    assert not_in.ephemeral and "not entered" in not_in.response.content
    early = await dan.click(lobby, label="Start")
    assert early.ephemeral and "Only the host" in early.response.content
    too_few = await ann.click(lobby, label="Start")
    assert too_few.ephemeral and "at least 6 players; 1 entered" in too_few.response.content
    await clean(world)
    stranger = await dan.click(lobby, label="Cancel")
    assert stranger.ephemeral and "Only the host" in stranger.response.content
    cancelled = await ann.click(lobby, label="Cancel")
    assert not cancelled.ephemeral and await balance(world, ann) == 1000
    assert "cancelled" in displayed(world.channel.history()[-1])
    assert not buttons(world.channel.history()[-1])  # no more entries (late ones: tests/storage)
    await clean(world)


async def test_two_tournaments_in_one_channel(world: World) -> None:
    ann, ben = world.members[:2]
    await opened(world, ann, fee=10)
    second = await ben.slash(world.channel, "flipflop tournament", fee=20)
    assert second.ephemeral and "already a tournament in this channel" in second.response.content
    other = world.guild.create_text_channel("other")
    elsewhere = await ben.slash(other, "flipflop tournament", fee=20)
    assert not elsewhere.ephemeral


async def test_it_starts_when_full(simcord_env: simcord.Env) -> None:
    world = World(simcord_env, members=6)
    lobby = await opened(world, world.members[0], fee=50, seats=6, computers=False, payout="winner")
    for m in world.members:
        assert not (await m.click(lobby, label="Join")).ephemeral
    text = displayed(world.channel.history()[-1])
    assert "round 1" in text and "Standings" in text and "table 1" in text and "table 2" in text
    assert "stack 1,000" in text and not buttons(world.channel.history()[-1])
    assert await balance(world, world.members[0]) == 950
    await clean(world)


async def test_the_host_starts_early_and_computers_fill_the_seats(world: World) -> None:
    ann, ben = world.members[:2]
    house = await world.bot.ledger.balance(world.guild.id, HOUSE_ID)
    lobby = await opened(world, ann, fee=20, seats=11, payout="65_35")
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    assert not started.ephemeral
    text = displayed(world.channel.history()[-1])
    assert (
        "🤖 Basic 9" in text and "table 3" in text and "Level 1: stake **10** · 3 tables · 11 players" in text
    )
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == house - 9 * 20
    await clean(world)
