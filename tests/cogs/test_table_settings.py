"""``/flipflop config tables:`` and ``away_rounds:``: where games are played, how long a seat stays away."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest_asyncio
import simcord
from discord import app_commands
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.client import FlipFlopBot
from bot.i18n import texts
from bot.ledger import GuildSettings
from bot.presentation.refusals import explain
from bot.table.model import AWAY_ROUNDS_BEFORE_RELEASE, TableError
from tests.cogs.helpers import (
    buttons,
    cancelled_forum_post,
    channel_text,
    conserved,
    displayed,
    message,
    my_hand,
    open_table,
    runtime,
    table_in,
)
from tests.cogs.test_card_styles import stale_choice
from tests.conftest import World, make_bot

DEFAULTS = (
    "• Games are played: **in a thread of their own** (where I may open threads)",
    "• A seat is released after **3 rounds** away (its stack goes home)",
)


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[FlipFlopBot]:
    bot = make_bot(db_path, tables_in_threads=True)  # the bot's own default: the server decides
    yield bot
    await bot.db.close()


def said(result: Any) -> str:
    assert result.ephemeral and result.response is not None
    return str(result.response.content)


async def balances(world: World, members: list[simcord.MemberActor]) -> list[int]:
    return [await world.bot.ledger.balance(world.guild.id, m.id) for m in members]


def widen(world: World, option: str, high: int) -> None:
    """Discord still allows up to ``high`` for an option, as an older registration of the command did."""
    for registered in world.env.backend.commands.get(None, {}).values():
        for sub in registered.get("options", []):
            if sub["name"] == "config":
                for opt in sub.get("options", []):
                    if opt["name"] == option:
                        opt["max_value"] = high
                        return
    raise AssertionError(f"no option {option} of config")


def test_the_default_away_rounds_are_the_tables_own_default() -> None:
    assert GuildSettings().away_rounds == AWAY_ROUNDS_BEFORE_RELEASE
    assert GuildSettings().tables == "thread"


async def test_config_shows_and_changes_where_games_are_played_and_the_away_rounds(world: World) -> None:
    shown = said(await world.admin.slash(world.channel, "flipflop config"))
    assert all(line in shown for line in DEFAULTS)
    changed = said(await world.admin.slash(world.channel, "flipflop config", tables="channel", away_rounds=1))
    assert changed.startswith("Settings saved")
    assert "• Games are played: **in the channel**" in changed
    assert "• A seat is released after **1 round** away (its stack goes home)" in changed
    s = await world.bot.ledger.settings(world.guild.id)
    assert (s.tables, s.away_rounds) == ("channel", 1)
    assert "• Games are played: **in the channel**" in said(
        await world.admin.slash(world.channel, "flipflop config")
    )


async def test_bad_table_settings_are_refused_privately_and_change_nothing(world: World) -> None:
    await world.admin.slash(world.channel, "flipflop config", away_rounds=5)
    widen(world, "away_rounds", 99)
    refused = said(
        await world.admin.slash(world.channel, "flipflop config", away_rounds=11, stake=7, buy_in=28)
    )
    assert refused == (
        "The rounds a seat may stay away must be a whole number between 1 and 10. Nothing was changed."
    )
    stale_choice(world, "config", "tables", "nowhere")
    refused = said(await world.admin.slash(world.channel, "flipflop config", tables="nowhere"))
    assert refused == "One of the values you gave is out of range for that option; nothing was changed."
    simcord.assert_error(world.env, app_commands.TransformerError)
    member = world.members[0]
    refused = said(await member.slash(world.channel, "flipflop config", tables="channel", away_rounds=1))
    assert "Manage Server" in refused
    simcord.assert_error(world.env, app_commands.MissingPermissions)
    s = await world.bot.ledger.settings(world.guild.id)
    assert (s.tables, s.away_rounds, s.default_stake) == ("thread", 5, 5)


async def test_tables_channel_plays_the_game_in_the_channel_and_opens_no_thread(world: World) -> None:
    await world.admin.slash(world.channel, "flipflop config", tables="channel")
    players = world.members[:3]
    table = await open_table(world, players)
    assert table.thread_id is None and table.plays_in == world.channel.id
    assert world.channel.threads == []
    told = [
        m for m in world.channel.history(viewer=players[0]) if m.flags.ephemeral and "thread" in m.content
    ]
    assert told == []  # the server's choice: nobody is told why there is no thread
    assert "My hand" in buttons(message(world, world.channel.id, table.message_id))  # type: ignore[arg-type]
    await conserved(world)
    await world.admin.slash(world.channel, "flipflop config", tables="thread")  # the next game, in a thread
    await runtime(world).close_by_manager(table.id, world.admin.id)
    await open_table(world, players)
    assert len(world.channel.threads) == 1
    await conserved(world)


async def test_a_practice_table_keeps_the_servers_away_rounds_too(world: World) -> None:
    await world.admin.slash(world.channel, "flipflop config", away_rounds=2)
    opened = await world.members[0].slash(world.channel, "flipflop practice")
    table = table_in(world)
    assert not opened.ephemeral and table is not None and table.practice
    assert table.away_rounds == 2  # an ordinary table otherwise: the server's setting holds
    lobby = displayed(opened.response.message)
    assert "after 2 rounds away your seat is released." in lobby
    assert "balance is never touched" in lobby and "goes back to your balance" not in lobby  # practice chips


async def test_a_seat_away_for_the_servers_rounds_is_released_with_its_chips(world: World) -> None:
    await world.admin.slash(world.channel, "flipflop config", tables="channel", away_rounds=1)
    players = world.members[:3]
    table = await open_table(world, players, stake=5, buy_in=200)
    assert table.away_rounds == 1
    g = table.game
    assert g is not None and g.to_act is not None
    victim = next(m for m in players if str(m.id) == g.to_act)
    stepped = await victim.click(await my_hand(world, victim), label="Away")
    assert stepped.acknowledged and table.is_away(victim.id)
    told = channel_text(world)
    assert "after 1 round away the seat is released" in told and "1 rounds" not in told
    for _ in range(400):  # the others play on; the computer plays the away seat
        if not table.is_away(victim.id) or table_in(world) is None:
            break
        if g.in_round and g.to_act is not None and g.to_act != str(victim.id):
            actor = next(m for m in players if str(m.id) == g.to_act)
            hand = await my_hand(world, actor)
            labels = buttons(hand)
            label = "Draw from stock" if "Draw from stock" in labels else next(iter(labels))
            await actor.click(hand, custom_id=labels[label])
        else:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
    else:
        raise AssertionError("the away seat was never released")
    assert not table.is_away(victim.id) and str(victim.id) not in g.seated
    assert re.search(r"released", channel_text(world))
    stacks = sum(t.chips() for t in runtime(world).tables.values())
    assert sum(await balances(world, players)) + stacks == 3000  # every chip is somewhere
    await conserved(world)


async def test_a_lobby_keeps_the_away_rounds_it_opened_with(world: World) -> None:
    ann = world.members[0]
    await ann.slash(world.channel, "flipflop start")
    before = table_in(world)
    assert before is not None and before.away_rounds == AWAY_ROUNDS_BEFORE_RELEASE
    await world.admin.slash(world.channel, "flipflop config", away_rounds=7)
    assert before.away_rounds == AWAY_ROUNDS_BEFORE_RELEASE  # tables already open keep theirs
    forum = world.guild.create_forum_channel("card-tables")
    await ann.slash(forum, "flipflop start")
    (post,) = forum.threads
    in_post = table_in(world, post)
    assert in_post is not None and in_post.away_rounds == 7


def deny_thread_management(world: World) -> None:
    """The bot may no longer manage the channel's threads (a moderator's lock then holds)."""
    channel = world.env.backend.get_channel(world.channel.id)
    assert world.bot.user is not None
    deny = discord.Permissions(manage_channels=True, manage_threads=True).value
    channel.overwrites.append(Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=deny))
    world.env.backend.announce_channel_update(channel.id)


async def test_a_thread_locked_mid_game_the_bot_may_not_open_closes_the_table_with_refunds(
    world: World,
) -> None:
    players = world.members[:3]
    table = await open_table(world, players)
    (thread,) = world.channel.threads
    deny_thread_management(world)
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True, "locked": True})
    await world.env.settle()
    assert world.env.backend.get_channel(thread.id).thread_metadata.archived  # type: ignore[union-attr]
    assert table_in(world) is None and table.status == "closed"
    assert await balances(world, players) == [1000, 1000, 1000]  # every buy-in went back
    lobby = message(world, world.channel.id, table.lobby_message_id)  # type: ignore[arg-type]
    assert "got 200 chips back" in displayed(lobby) and buttons(lobby) == {}
    await conserved(world)


async def test_two_members_racing_for_one_forum_post_open_one_lobby(world: World) -> None:
    ann, ben, cat = world.members[:3]
    forum, post = await cancelled_forum_post(world)
    before = await balances(world, [ben, cat])
    rt = runtime(world)
    # simcord runs one member's command at a time: ben's lobby opens through the runtime meanwhile
    slash, opened = await asyncio.gather(
        cat.slash(post, "flipflop start"),
        rt.open(world.guild.id, post.id, ben.id, "ben", 5, 200, 60),
        return_exceptions=True,
    )
    assert not isinstance(slash, BaseException)
    if isinstance(opened, TableError):  # cat's lobby won: ben's open was refused in words
        winner = 1
        assert "already a table" in explain(opened, texts("en")) and not slash.ephemeral
    else:
        winner = 0
        assert "already a table" in said(slash)
    after = await balances(world, [ben, cat])
    assert (
        after[winner] == before[winner] - 200 and after[1 - winner] == before[1 - winner]
    )  # loser keeps all
    assert len([t for t in rt.tables.values() if t.channel_id == post.id]) == 1
    await conserved(world)
