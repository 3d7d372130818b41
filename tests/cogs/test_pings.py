"""Turn pings: one mention when a member's turn starts with no hand open, removed when they act.

Run with ``-s`` to read the REST calls per turn with pings on and off.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord

from bot.i18n import texts
from bot.ledger import HOUSE_ID
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.pings import NOT_IN_SERVER, NOT_ON_OR_OFF
from tests.cogs.helpers import conserved, my_hand, open_table, play_simple_turn, select_id, table_in
from tests.cogs.test_game import member_by_pid
from tests.cogs.test_restart import restart
from tests.cogs.test_traffic import SCALE, paced  # noqa: F401 - the fixture, used by name
from tests.cogs.traffic import watch
from tests.conftest import World

PING = "🔔"


def notifier(world: World) -> DiscordNotifier:
    cog: Any = world.bot.get_cog("FlipFlop")
    return cog.notifier  # type: ignore[no-any-return]


async def settled(world: World) -> None:
    await notifier(world).pings.settle()
    await world.env.settle()


def ping_posts(world: World) -> list[Any]:
    """Every ping the bot posted (the REST request, with its allowed mentions)."""
    return [
        r
        for r in world.env.http_requests
        if r.method == "POST"
        and r.path.endswith("/messages")
        and isinstance(r.json, dict)
        and str(r.json.get("content", "")).startswith(PING)
    ]


def deleted(world: World) -> set[int]:
    """Channel messages the bot deleted (not a hand retired through its interaction's ``@original``)."""
    ends = (r.path.rsplit("/", 1)[1] for r in world.env.http_requests if r.method == "DELETE")
    return {int(end) for end in ends if end.isdigit()}


def pings_in_channel(world: World) -> list[discord.Message]:
    return [m for m in world.channel.history() if (m.content or "").startswith(PING)]


def to_act(world: World) -> simcord.MemberActor:
    table = table_in(world)
    assert table is not None and table.game is not None and table.game.to_act is not None
    return member_by_pid(world, table.game.to_act)


async def test_a_turn_with_no_hand_open_pings_only_that_member_once_and_the_ping_goes_when_they_act(
    world: World,
) -> None:
    await open_table(world, world.members[:3])
    await settled(world)
    first = to_act(world)
    posts = ping_posts(world)
    assert len(posts) == 1
    assert f"<@{first.id}>" in posts[0].json["content"] and "it's your turn" in posts[0].json["content"]
    mentions = posts[0].json["allowed_mentions"]
    assert mentions["users"] == [first.id] and mentions["parse"] == []
    [standing] = pings_in_channel(world)
    hand = await my_hand(world, first)  # opening the hand is not acting: the ping stays
    await settled(world)
    assert [m.id for m in pings_in_channel(world)] == [standing.id]
    await world.env.settle()
    await play_simple_turn(world, first, hands=None)
    await settled(world)
    assert standing.id in deleted(world)
    assert hand is not None
    # the next two players had no hand open: one ping each, each removed when they played
    for _ in range(2):
        actor = to_act(world)
        standing_now = pings_in_channel(world)
        assert len(standing_now) == 1 and f"<@{actor.id}>" in (standing_now[0].content or "")
        await play_simple_turn(world, actor, hands=None)
        await settled(world)
        assert standing_now[0].id in deleted(world)
    # everyone's hand is open now (it updates itself): no more pings, none left in the channel
    for _ in range(3):
        await play_simple_turn(world, to_act(world), hands=None)
        await settled(world)
    assert len(ping_posts(world)) == 3
    assert pings_in_channel(world) == []
    await conserved(world)


async def test_turn_pings_off_are_kept_per_member_and_answered_privately(world: World) -> None:
    ann, ben, cat = world.members[:3]
    off = await ben.slash(world.channel, "flipflop notify", turn="off")
    assert off.ephemeral and "**off**" in off.response.content
    shown = await ben.slash(world.channel, "flipflop notify")
    assert shown.ephemeral and "**off**" in shown.response.content
    assert "**on**" in (await cat.slash(world.channel, "flipflop notify")).response.content
    await open_table(world, [ann, ben, cat])
    await settled(world)
    for _ in range(3):
        await play_simple_turn(world, to_act(world), hands=None)
        await settled(world)
    pinged = {p.json["allowed_mentions"]["users"][0] for p in ping_posts(world)}
    assert pinged == {ann.id, cat.id}
    back = await ben.slash(world.channel, "flipflop notify", turn="on")
    assert "**on**" in back.response.content
    assert await notifier(world).pings.book.turn_pings(world.guild.id, ben.id) is True


async def test_computers_are_never_pinged(world: World) -> None:
    ann = world.members[0]
    await world.bot.ledger.grant(world.guild.id, HOUSE_ID, 10_000, actor_id=world.admin.id)
    lobby = (await ann.slash(world.channel, "flipflop start", stake=5, buy_in=100)).response.message
    for level in ["basic", "basic"]:
        await ann.select(lobby, [level], custom_id=select_id(lobby, "addcpu"))
        lobby = world.channel.history()[-1]
    await ann.click(lobby, label="Start")
    for _ in range(40):
        await settled(world)
        table = table_in(world)
        if table is None or table.game is None or table.game.public_view().round_number > 1:
            break
        if table.game.in_round and table.game.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=10, hands=None)
        else:
            await world.env.advance_time(1)
    posts = ping_posts(world)
    assert posts and {p.json["allowed_mentions"]["users"][0] for p in posts} == {ann.id}


async def test_a_ping_saved_before_a_restart_is_removed_when_the_player_acts(
    world: World, db_path: Path
) -> None:
    await open_table(world, world.members[:3])
    await settled(world)
    first = to_act(world)
    [standing] = pings_in_channel(world)
    await restart(world, db_path)
    await settled(world)
    assert len(ping_posts(world)) == 1  # a restart starts no turn: no second ping
    assert [m.id for m in pings_in_channel(world)] == [standing.id]
    await play_simple_turn(world, first, hands=None)
    await settled(world)
    assert standing.id in deleted(world)
    assert await world.bot.db.fetchone(
        "SELECT COUNT(*) FROM turn_pings WHERE message_id = ?", (standing.id,)
    ) == (0,)


class Answer:
    """A stand-in for an interaction's response: what was sent, and whether only its reader saw it."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, *, ephemeral: bool = False, **_: Any) -> None:
        self.sent.append((text, ephemeral))


async def test_notify_from_outside_a_server_or_with_a_bad_value_changes_nothing(world: World) -> None:
    pings = notifier(world).pings
    user = world.members[0]
    from_dm = SimpleNamespace(
        guild=None, guild_id=None, user=SimpleNamespace(id=user.id), locale="en-US", response=Answer()
    )
    await pings.command(from_dm, "off")  # type: ignore[arg-type]
    refused = texts("en").gettext(NOT_IN_SERVER)  # the command named as a mention once synced
    assert "Turn pings are set per server" in refused
    assert from_dm.response.sent == [(refused, True)]
    guild = SimpleNamespace(id=world.guild.id)
    not_a_member = SimpleNamespace(
        guild=guild,
        guild_id=world.guild.id,
        user=SimpleNamespace(id=user.id),
        locale="en-US",
        response=Answer(),
    )
    await pings.command(not_a_member, "off")  # type: ignore[arg-type]
    assert not_a_member.response.sent == [(refused, True)]
    assert await world.bot.db.fetchone("SELECT COUNT(*) FROM notify_choices") == (0,)
    result = await user.slash(world.channel, "flipflop notify", turn="on")
    assert result.ephemeral
    bad = SimpleNamespace(
        guild=guild,
        guild_id=world.guild.id,
        user=SimpleNamespace(id=user.id),
        locale="en-US",
        response=Answer(),
    )
    await pings.command(bad, "maybe")  # type: ignore[arg-type]
    assert bad.response.sent == [(NOT_ON_OR_OFF, True)]
    assert await world.bot.db.fetchone("SELECT turn_pings FROM notify_choices") == (1,)


async def slow_game(world: World, turns: int) -> tuple[int, int, int]:
    """Three people taking 15 minutes a turn (hands stop updating): channel calls, all calls, turns."""
    await world.admin.slash(world.channel, "flipflop config", turn_seconds=3600)
    await open_table(world, world.members[:3])
    await settled(world)
    start = len(world.env.http_requests)
    played = 0
    while played < turns:
        table = table_in(world)
        assert table is not None and table.game is not None
        if not table.game.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        await world.env.advance_time(15 * 60)
        await play_simple_turn(world, to_act(world), drop_below=0, hands=None)
        await settled(world)
        played += 1
    every = world.env.http_requests[start:]
    calls = [r for r in every if r.path.startswith("/channels/")]
    return len(calls), len(every), played


def report(name: str, calls: int, every: int, turns: int, extra: str = "") -> None:
    print(
        f"\n{name}: {calls} channel-route calls in {turns} slow turns ({calls / turns:.2f} per turn),"
        f" {every / turns:.2f} REST calls of any route per turn{extra}"
    )


async def test_rest_calls_per_turn_with_pings_on(world: World) -> None:
    calls, every, turns = await slow_game(world, 12)
    posts = len(ping_posts(world))
    report("pings on", calls, every, turns, f", {posts} pings")
    assert posts >= turns  # every turn found its player's hand expired
    [standing] = pings_in_channel(world)  # only the turn being played has one
    assert f"<@{to_act(world).id}>" in (standing.content or "")


async def test_rest_calls_per_turn_with_pings_off(world: World) -> None:
    for member in world.members[:3]:
        await member.slash(world.channel, "flipflop notify", turn="off")
    calls, every, turns = await slow_game(world, 12)
    report("pings off", calls, every, turns)
    assert ping_posts(world) == []


async def busiest_window_with_every_turn_pinged(world: World, calls: Callable[[str], bool]) -> int:
    """15 turns, each pinged (the others' hands forgotten as a turn ends); the most ``calls`` in a window."""
    await open_table(world, world.members[:3])
    traffic = watch(world, real_time=True)
    table = table_in(world)
    assert table is not None and table.game is not None
    for _ in range(15):
        if not table.game.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        actor = to_act(world)
        for member in world.members[:3]:
            if member.id != actor.id:
                notifier(world).forget_hand(table.id, member.id)
        await play_simple_turn(world, actor, hands=None)
    await settled(world)
    times = [t for r, t in zip(traffic.log, traffic.log.times, strict=True) if calls(r.path)]
    window = 5.0 / SCALE
    assert len(ping_posts(world)) >= 10 and any(r.method == "DELETE" for r in traffic.log)
    return max(sum(1 for u in times if t <= u < t + window) for t in times)


@pytest.mark.usefixtures("paced")
async def test_pings_and_their_removal_share_the_channels_pacing_budget(world: World) -> None:
    """Every turn pinged: at most 5 channel calls per window."""
    channel_calls = await busiest_window_with_every_turn_pinged(
        world, lambda path: path.startswith("/channels/") and "/messages" in path
    )
    assert channel_calls <= 5


async def test_a_ping_goes_when_the_turn_runs_out_and_the_next_player_gets_theirs(world: World) -> None:
    await open_table(world, world.members[:3])
    await settled(world)
    absent = to_act(world)
    [standing] = pings_in_channel(world)
    await world.env.advance_time(61)  # the turn timer plays the absent player's turn
    await settled(world)
    assert to_act(world).id != absent.id
    assert standing.id in deleted(world)
    [now] = pings_in_channel(world)
    assert f"<@{to_act(world).id}>" in (now.content or "")


async def test_a_ping_whose_turn_ran_out_while_the_bot_was_down_is_removed_on_resume(
    world: World, db_path: Path
) -> None:
    table = await open_table(world, world.members[:3])
    await settled(world)
    absent = to_act(world)
    [standing] = pings_in_channel(world)
    async with world.bot.db.transaction() as tx:  # as if the bot had been down past the deadline
        data = table.to_json()
        data["turn_deadline"] = data["turn_deadline"] - 3600
        await tx.execute("UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps(data), table.id))
    await restart(world, db_path)
    await settled(world)
    assert to_act(world).id != absent.id
    assert standing.id in deleted(world)
    assert await world.bot.db.fetchone(
        "SELECT COUNT(*) FROM turn_pings WHERE message_id = ?", (standing.id,)
    ) == (0,)
