"""A control clicked in another server or channel than its table's is refused privately and changes nothing.

A custom id names its table; a control can be passed on, or forged on a message the
bot posted elsewhere. Issue 33: a forged **Play again** from another server opened a
lobby in the first server and debited a buy-in there.
"""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot.ledger import HOUSE_ID
from cogs.flipflop.controls import LobbyButton, PlayAgainButton, RulesButton, TableButton
from tests.cogs.helpers import conserved, runtime, table_in
from tests.cogs.test_game import ended_game
from tests.conftest import World

ELSEWHERE = "That control belongs to a table in another channel or server; nothing was done."


async def posted_in(world: World, channel: simcord.ChannelHandle, item: Any) -> Any:
    """A control posted by the bot in ``channel``, where its member may click it."""
    sent_to = world.bot.get_channel(channel.id)
    assert isinstance(sent_to, discord.TextChannel)
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    sent = await sent_to.send("control", view=view)
    return next(m for m in channel.history() if m.id == sent.id)


async def ledger_rows(world: World) -> int:
    row = await world.bot.db.fetchone("SELECT COUNT(*) FROM ledger")
    assert row is not None
    return int(row[0])


async def test_a_play_again_from_another_server_opens_nothing(world: World) -> None:
    ann, ben, cat = world.members[:3]
    final = await ended_game(world, [ann, ben, cat])
    tid = next(cid for cid in _custom_ids(final) if cid.startswith("ff:p:")).split(":")[2]
    other = world.env.create_guild(name="Elsewhere")
    there = other.create_text_channel("cards")
    stranger = other.add_member(world.env.create_user("mallory"))
    forged = await posted_in(world, there, PlayAgainButton(tid, "Play again"))
    rows = await ledger_rows(world)
    refused = await stranger.click(forged, label="Play again")
    assert refused.ephemeral and refused.response.content == ELSEWHERE
    assert table_in(world) is None and table_in(world, there) is None and runtime(world).tables == {}
    assert await ledger_rows(world) == rows  # no buy-in debited, no balance opened
    assert [m.id for m in there.history()] == [forged.id]  # no lobby posted in the sender's server
    await conserved(world)


async def test_a_play_again_from_another_channel_of_the_server_opens_nothing(world: World) -> None:
    ann, ben, cat = world.members[:3]
    final = await ended_game(world, [ann, ben, cat])
    tid = next(cid for cid in _custom_ids(final) if cid.startswith("ff:p:")).split(":")[2]
    side = world.guild.create_text_channel("side")
    forged = await posted_in(world, side, PlayAgainButton(tid, "Play again"))
    before = await world.bot.ledger.balance(world.guild.id, ben.id)
    refused = await ben.click(forged, label="Play again")
    assert refused.ephemeral and refused.response.content == ELSEWHERE
    assert runtime(world).tables == {}
    assert await world.bot.ledger.balance(world.guild.id, ben.id) == before
    again = await ben.click(final, label="Play again")  # the real button still works
    assert again.acknowledged and not again.ephemeral
    assert table_in(world) is not None
    await conserved(world)


async def test_lobby_and_table_controls_from_elsewhere_change_nothing(world: World) -> None:
    ann, ben, cat = world.members[:3]
    opened = await ann.slash(world.channel, "flipflop start", stake=5, buy_in=100)
    table = table_in(world)
    assert table is not None and not opened.ephemeral
    side = world.guild.create_text_channel("side")
    join = await posted_in(world, side, LobbyButton(table.id, "join", "Join"))
    house = await world.bot.ledger.balance(world.guild.id, HOUSE_ID)
    refused = await ben.click(join, label="Join")
    assert refused.ephemeral and refused.response.content == ELSEWHERE
    assert table.seats == [ann.id]
    other = world.env.create_guild(name="Elsewhere")
    there = other.create_text_channel("cards")
    ben_there = other.add_member(world.env.create_user("ben too"))
    start = await posted_in(world, there, LobbyButton(table.id, "start", "Start"))
    refused = await ben_there.click(start, label="Start")
    assert refused.ephemeral and refused.response.content == ELSEWHERE
    joined = await ben.click(opened.response.message, label="Join")  # where it belongs, it works
    assert joined.acknowledged and table.seats == [ann.id, ben.id]
    await cat.click(opened.response.message, label="Join")
    await ann.click(opened.response.message, label="Start")
    assert table.status == "playing"
    leave = await posted_in(world, side, TableButton(table.id, "leave_next", "Leave after this round"))
    refused = await ben.click(leave, label="Leave after this round")
    assert refused.ephemeral and refused.response.content == ELSEWHERE
    assert table.leave_after_round == []
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == house
    await conserved(world)


async def test_a_rules_button_forged_on_a_public_message_turns_no_page_of_it(world: World) -> None:
    """Audit: a rules page button edits the message it is clicked on, so one forged on the table
    message (or any public one of the bot's) turned it into a rules page for everyone. Only a rules
    page (private) turns; elsewhere the page comes as a new private message and nothing changes."""
    ann, ben = world.members[:2]
    forged = await posted_in(world, world.channel, RulesButton(2, "next", "Next ▶"))
    page = await ben.click(forged, label="Next ▶")
    assert page.ephemeral and page.response.embeds[0].footer.text == "Page 2 of 9"
    kept = next(m for m in world.channel.history() if m.id == forged.id)
    assert kept.content == "control" and not kept.embeds and _custom_ids(kept) == ["ff:r:2:next"]
    turned = await ben.click(page.response.message, label="Next ▶")  # the private page turns as ever
    assert turned.response.embeds[0].footer.text == "Page 3 of 9"
    assert turned.response.message.id == page.response.message.id
    back = await ann.click(forged, label="Next ▶")  # clicked again, by another member: still private
    assert back.ephemeral and back.response.embeds[0].footer.text == "Page 2 of 9"
    assert next(m for m in world.channel.history() if m.id == forged.id).content == "control"


def _custom_ids(message: Any) -> list[str]:
    from tests.cogs.helpers import walk

    return [str(c["custom_id"]) for c in walk(message) if c.get("custom_id")]


async def test_a_nickname_that_reads_like_a_mention_pings_nobody_from_a_table(world: World) -> None:
    """Names on a lobby and a table are the members' own: "<@id>" as a nickname shows, and pings nobody."""
    from tests.cogs.helpers import displayed

    ann = world.members[0]
    eve = world.guild.add_member(world.env.create_user("eve2"), nick=f"<@{ann.id}>")
    opened = await eve.slash(world.channel, "flipflop start")
    lobby = opened.response.message
    await ann.click(lobby, label="Join")
    stored = world.env.backend.get_message(world.channel.id, lobby.id)
    assert f"<@{ann.id}>" in displayed(message_now(world, lobby.id)) and not stored.ping_user_ids


def message_now(world: World, message_id: int) -> Any:
    from tests.cogs.helpers import message

    return message(world, world.channel.id, message_id)
