"""A game in a thread of its own: the lobby stays in the channel, the rounds go to the thread."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.client import FlipFlopBot
from bot.i18n import texts
from bot.presentation.refusals import explain
from bot.table.model import TableError
from tests.cogs.helpers import (
    Hands,
    buttons,
    cancelled_forum_post,
    channel_text,
    conserved,
    displayed,
    message,
    my_hand,
    open_table,
    play_simple_turn,
    play_step,
    runtime,
    table_in,
)
from tests.cogs.test_pings import busiest_window_with_every_turn_pinged
from tests.cogs.test_traffic import paced  # noqa: F401 (the fixture)
from tests.cogs.traffic import watch
from tests.conftest import World, make_bot


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[FlipFlopBot]:
    bot = make_bot(db_path, tables_in_threads=True)  # the bot's own default
    yield bot
    await bot.db.close()


def member_by_pid(world: World, pid: str) -> simcord.MemberActor:
    return next(m for m in world.members if str(m.id) == pid)


def public(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral]


async def test_a_game_is_played_in_its_thread_and_the_channel_gets_no_message_per_round(world: World) -> None:
    players = world.members[:3]
    table = await open_table(world, players, stake=5, buy_in=20)
    (thread,) = world.channel.threads
    assert thread.is_thread and table.thread_id == thread.id and table.plays_in == thread.id
    assert len(thread.name or "") <= 100 and table.id in (thread.name or "")
    lobby = message(world, world.channel.id, table.lobby_message_id)  # type: ignore[arg-type]
    assert thread.mention in displayed(lobby) and buttons(lobby) == {}
    in_channel = len(public(world.channel))
    hands = Hands(world)
    rounds = set()
    for _ in range(2000):
        t = table_in(world)
        if t is None:
            break
        g = t.game
        assert g is not None
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        rounds.add(g.rounds_played)
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=20, hands=hands)  # type: ignore[arg-type]
    else:
        raise AssertionError("the game did not end")
    await world.env.settle()
    assert len(rounds) >= 2
    assert len(public(world.channel)) == in_channel  # 0 new messages in the channel, whatever the rounds
    assert "Round 1" in channel_text(world, thread) and "Final standings" in channel_text(world, thread)
    lobby = message(world, world.channel.id, table.lobby_message_id)  # type: ignore[arg-type]
    assert "Final standings" in displayed(lobby) and thread.mention in displayed(lobby)  # a V2 note
    assert "Play again" in buttons(lobby)
    assert world.env.backend.get_channel(thread.id).thread_metadata.archived  # type: ignore[union-attr]
    assert sum([await world.bot.ledger.balance(world.guild.id, p.id) for p in players]) == 3000
    await conserved(world)
    again = await players[1].click(lobby, label="Play again")  # the new lobby opens in the channel
    assert again.acknowledged and not again.ephemeral
    opened = table_in(world)
    assert opened is not None and opened.channel_id == world.channel.id and opened.thread_id is None


async def test_away_and_back_in_a_thread_keep_every_chip(world: World) -> None:
    table = await open_table(world, world.members[:3], stake=5, buy_in=200)
    (thread,) = world.channel.threads
    g = table.game
    assert g is not None and g.to_act is not None
    victim = member_by_pid(world, g.to_act)
    hand = await my_hand(world, victim)
    stepped = await victim.click(hand, label="Away")
    assert stepped.acknowledged and table.is_away(victim.id)
    await world.env.settle()
    assert g.to_act != str(victim.id) or not g.in_round  # the computer played the seat
    assert "stepped away" in channel_text(world, thread)
    await conserved(world)
    back = await victim.click(message(world, thread.id, table.message_id), label="I'm back")  # type: ignore[arg-type]
    assert back.ephemeral and not table.is_away(victim.id)
    await conserved(world)


async def test_a_thread_deleted_mid_game_closes_the_table_with_refunds(world: World) -> None:
    players = world.members[:3]
    table = await open_table(world, players)
    (thread,) = world.channel.threads
    world.env.backend.delete_channel(thread.id)  # the gateway says THREAD_DELETE
    await world.env.settle()
    assert table_in(world) is None and table.status == "closed"
    assert sum([await world.bot.ledger.balance(world.guild.id, p.id) for p in players]) == 3000
    lobby = message(world, world.channel.id, table.lobby_message_id)  # type: ignore[arg-type]
    assert "got 200 chips back" in displayed(lobby) and buttons(lobby) == {}
    await conserved(world)


async def test_without_thread_permissions_the_game_plays_in_the_channel_and_the_starter_is_told(
    world: World,
) -> None:
    channel = world.env.backend.get_channel(world.channel.id)
    assert world.bot.user is not None
    deny = discord.Permissions(create_public_threads=True).value
    channel.overwrites.append(Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=deny))
    world.env.backend.announce_channel_update(channel.id)
    ann, ben, cat = world.members[:3]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    assert started.acknowledged
    table = table_in(world)
    assert table is not None and table.status == "playing" and table.thread_id is None
    assert world.channel.threads == []
    told = [
        m
        for m in world.channel.history(viewer=ann)
        if m.flags.ephemeral and "Create Public Threads" in m.content
    ]
    assert len(told) == 1  # told once, privately
    assert not [m for m in world.channel.history(viewer=ben) if "Create Public Threads" in (m.content or "")]
    await conserved(world)


def archive(world: World, thread_id: int, locked: bool = False) -> None:
    """A moderator archives the thread (THREAD_UPDATE)."""
    world.env.backend.edit_channel(thread_id, {}, thread_metadata={"archived": True, "locked": locked})


async def test_a_thread_archived_mid_game_is_opened_again_and_play_goes_on(world: World) -> None:
    table = await open_table(world, world.members[:3])
    (thread,) = world.channel.threads
    archive(world, thread.id)
    await world.env.settle()
    assert not world.env.backend.get_channel(thread.id).thread_metadata.archived  # type: ignore[union-attr]
    assert table_in(world) is table and table.status == "playing"
    await world.env.advance_time(61)  # a turn runs out: told in the thread as usual
    assert "ran out of time and is away" in channel_text(world, thread)
    await conserved(world)


async def test_a_game_in_a_thread_carries_on_after_a_restart(world: World, db_path: Path) -> None:
    table = await open_table(world, world.members[:3])
    (thread,) = world.channel.threads
    old = world.bot
    await world.env.restart_bot(make_bot(db_path, seed=2, tables_in_threads=True))
    await old.db.close()
    await world.env.settle()
    resumed = table_in(world)
    assert resumed is not None and resumed is not table and resumed.thread_id == thread.id
    assert table_in(world, thread) is resumed  # found from the thread too (/flipflop hand there)
    await world.env.advance_time(61)
    assert "ran out of time and is away" in channel_text(world, thread)
    await conserved(world)


async def test_in_a_forum_the_lobby_is_a_post_titled_with_the_stake_and_open_seats(world: World) -> None:
    forum = world.guild.create_forum_channel("card-tables")
    ann, ben, cat = world.members[:3]
    opened = await ann.slash(forum, "flipflop start", stake=5, buy_in=200)
    assert opened.ephemeral and "in its own post" in opened.response.content
    (post,) = forum.threads
    assert post.name == "🃏 Flip Flop · stake 5 chips · 4 seats open" and len(post.name) <= 100
    table = table_in(world, post)
    assert table is not None and table.channel_id == post.id and table.seats == [ann.id]
    lobby = message(world, post.id, table.message_id)  # type: ignore[arg-type]
    await ben.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    assert started.acknowledged and table.status == "playing"
    assert table.thread_id is None and post.threads == []  # a post is a thread already: played in place
    # its title said the open seats: dealt, it says the game is being played
    await world.env.settle()
    assert world.env.backend.get_channel(post.id).name == "🃏 Flip Flop · stake 5 chips · playing"
    await conserved(world)


async def test_a_practice_table_in_a_forum_opens_a_post_of_its_own(world: World) -> None:
    """Discord takes no plain message in a forum: /flipflop practice opens a post, as /flipflop start."""
    forum = world.guild.create_forum_channel("card-tables")
    ann = world.members[0]
    opened = await ann.slash(forum, "flipflop practice", computers=2)
    assert opened.ephemeral and "in its own post" in opened.response.content
    (post,) = forum.threads
    assert post.name == "🃏 Flip Flop · practice · 2 seats open"  # practice chips: no stake named
    table = table_in(world, post)
    assert table is not None and table.practice and table.channel_id == post.id and len(table.seats) == 3
    lobby = message(world, post.id, table.message_id)  # type: ignore[arg-type]
    started = await ann.click(lobby, label="Start")
    assert started.acknowledged and table.status == "playing" and post.threads == []
    await world.env.settle()
    assert world.env.backend.get_channel(post.id).name == "🃏 Flip Flop · practice · playing"
    ben = world.members[1]
    await ben.slash(forum, "flipflop practice", computers=3)  # one seat left: said in the singular
    assert [p.name for p in forum.threads if p.id != post.id] == ["🃏 Flip Flop · practice · 1 seat open"]
    await conserved(world)


async def test_a_forum_lobby_the_member_cannot_afford_leaves_no_post(world: World) -> None:
    forum = world.guild.create_forum_channel("card-tables")
    ann = world.members[0]
    refused = await ann.slash(forum, "flipflop start", stake=50, buy_in=2000)
    assert refused.ephemeral and "the buy-in is 2,000" in refused.response.content
    assert forum.threads == [] and runtime(world).tables == {}
    await conserved(world)


async def test_two_lobbies_racing_for_one_post_open_one(world: World) -> None:
    ann, ben, cat = world.members[:3]
    forum, post = await cancelled_forum_post(world)
    assert table_in(world, post) is None  # the post is free again
    opened = await ben.slash(post, "flipflop start")
    assert not opened.ephemeral and table_in(world, post) is not None
    refused = await cat.slash(post, "flipflop start")  # simcord runs one command at a time
    assert refused.ephemeral and "already a table" in refused.response.content
    assert len(runtime(world).tables) == 1 and len(forum.threads) == 1
    rt = runtime(world)
    race = await asyncio.gather(
        rt.open(world.guild.id, post.id + 1, ben.id, "ben", 5, 200, 60),
        rt.open(world.guild.id, post.id + 1, cat.id, "cat", 5, 200, 60),
        return_exceptions=True,
    )
    assert sum(isinstance(r, TableError) for r in race) == 1  # the runtime's own guard, at the same instant
    assert "already a table" in explain(next(r for r in race if isinstance(r, TableError)), texts("en"))
    await conserved(world)


async def test_a_turn_ping_goes_to_the_games_thread_and_never_to_an_away_player(world: World) -> None:
    table = await open_table(world, world.members[:3], stake=5, buy_in=200)
    (thread,) = world.channel.threads
    cog: Any = world.bot.get_cog("FlipFlop")
    await cog.notifier.pings.settle()
    await world.env.settle()

    def pings(channel: simcord.ChannelHandle) -> list[discord.Message]:
        return [m for m in public(channel) if (m.content or "").startswith("🔔")]

    g = table.game
    assert g is not None and g.to_act is not None
    first = member_by_pid(world, g.to_act)
    [ping] = pings(thread)
    assert f"<@{first.id}>" in (ping.content or "") and pings(world.channel) == []
    others = [m for m in world.members[:3] if m.id != first.id]
    for member in others:  # both step away: the computer plays their seats, nobody pings them
        await cog.runtime.away(table.id, member.id)
    await world.env.settle()
    await play_simple_turn(world, first, hands=None)
    await cog.notifier.pings.settle()
    await world.env.settle()
    assert ping.id not in {m.id for m in public(thread)}  # removed from the thread when they played
    mentioned = " ".join(m.content or "" for m in pings(thread) + pings(world.channel))
    assert all(f"<@{m.id}>" not in mentioned for m in others)
    assert pings(world.channel) == []
    assert g.to_act == str(first.id) or not g.in_round  # both away seats were played for them


async def test_what_a_game_in_a_thread_asks_of_its_channel(world: World) -> None:
    """Counted per round: new messages in the lobby's channel (none) and in the game's thread.

    Run with ``-s`` to read the numbers: ``pytest -s tests/cogs/test_threads.py -k asks``.
    """
    table = await open_table(world, world.members[:3])
    (thread,) = world.channel.threads
    traffic = watch(world)
    assert table.game is not None
    g, hands, rounds = table.game, Hands(world), 1
    while g.public_view().round_number <= 4 and await play_step(world, hands, drop_below=20):
        rounds = g.public_view().round_number
    await world.env.settle()

    def posts_to(channel_id: int) -> int:
        path = f"/channels/{channel_id}/messages"
        return sum(1 for r in traffic.log if r.method == "POST" and r.path == path)

    def calls_to(channel_id: int) -> int:
        return sum(1 for r in traffic.log if r.path.startswith(f"/channels/{channel_id}/"))

    channel, in_thread = posts_to(world.channel.id), posts_to(thread.id)
    print(
        f"\na game in a thread, {rounds} rounds, {traffic.actions[0]} actions: new messages per round in the"
        f" channel {channel / rounds:.1f}, in the thread {in_thread / rounds:.1f}; calls to the channel's"
        f" routes {calls_to(world.channel.id)}"
    )
    assert rounds >= 3 and channel == 0 and calls_to(world.channel.id) == 0


async def test_the_table_command_in_the_lobbys_channel_points_to_the_thread(world: World) -> None:
    table = await open_table(world, world.members[:3])
    (thread,) = world.channel.threads
    before, shown = len(public(world.channel)), table.message_id
    answer = await world.members[1].slash(world.channel, "flipflop table")
    assert answer.ephemeral and thread.mention in answer.response.content
    await world.env.settle()
    assert len(public(world.channel)) == before and table.message_id == shown  # nothing moved
    again = await world.members[1].slash(thread, "flipflop table")  # in the thread: shown again there
    assert not again.ephemeral and table.message_id != shown
    assert table.message_id in {m.id for m in public(thread)}
    await conserved(world)


async def test_a_new_table_refused_in_the_lobbys_channel_links_the_game_in_its_thread(world: World) -> None:
    """The link leads to the table message where it is (the thread), and a game in play is not "joined"."""
    table = await open_table(world, world.members[:3])
    (thread,) = world.channel.threads
    refusals = [
        await world.members[3].slash(world.channel, "flipflop start"),
        await world.members[3].slash(world.channel, "flipflop practice"),
    ]
    for refused in refusals:
        said = refused.response.content
        assert refused.ephemeral and "already a game being played from this channel" in said, said
        assert "Join it" not in said
        link = re.search(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)", said)
        assert link is not None
        assert [int(x) for x in link.groups()] == [world.guild.id, thread.id, table.message_id]
        assert world.env.backend.get_message(thread.id, table.message_id) is not None  # it leads somewhere
    assert table_in(world) is table
    await conserved(world)


@pytest.mark.usefixtures("paced")
async def test_in_a_thread_the_pings_and_their_removal_keep_to_five_calls_a_window(world: World) -> None:
    """The table's edits, its pings and their removal share one budget also when the game is in a thread."""
    thread_calls = await busiest_window_with_every_turn_pinged(
        world, lambda path: path.startswith(f"/channels/{world.channel.threads[0].id}/messages")
    )
    assert len(world.channel.threads) == 1 and thread_calls <= 5, thread_calls
