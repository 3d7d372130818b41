"""Discord failing under a game: a deleted channel, a lost permission, a control on the wrong message."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from simcord.actors import _component_interaction
from simcord.enums import ComponentType

from tests.cogs.helpers import (
    Hands,
    buttons,
    conserved,
    deny_bot,
    displayed,
    my_hand,
    open_table,
    play_step,
    runtime,
    table_in,
    table_message,
)
from tests.cogs.test_privacy_admin import dump
from tests.conftest import World


async def balances(world: World) -> int:
    return sum([await world.bot.ledger.balance(world.guild.id, m.id) for m in world.members[:3]])


async def test_channel_deleted_mid_game_closes_and_refunds_at_once(world: World) -> None:
    await open_table(world, world.members[:3])
    world.env.backend.delete_channel(world.channel.id)  # the gateway says CHANNEL_DELETE
    await world.env.settle()
    assert table_in(world) is None
    assert await balances(world) == 3000
    await conserved(world)


async def test_channel_gone_without_an_event_closes_within_one_timer_tick(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    table = await open_table(world, world.members[:3])
    world.env.backend.channels.pop(world.channel.id)  # the next post gets 404 Unknown Channel
    await world.env.advance_time(table.turn_seconds + 1)
    assert world.bot.runtime is not None and world.bot.runtime.get(table.id) is None
    ours = [r for r in caplog.records if r.name.startswith("flipflop")]
    assert ours and all(r.exc_info is None and r.levelname == "WARNING" for r in ours)  # one line each
    assert await balances(world) == 3000
    await conserved(world)


def deny_send_messages(world: World) -> None:
    deny_bot(world, send_messages=True)


def allow_send_messages(world: World) -> None:
    channel = world.env.backend.get_channel(world.channel.id)
    channel.overwrites[:] = []
    world.env.backend.announce_channel_update(channel.id)


async def test_send_messages_removed_mid_game_the_game_finishes(world: World) -> None:
    await open_table(world, world.members[:3], stake=5, buy_in=20)
    posted = len([m for m in world.channel.history() if not (m.content or "").startswith("🔔")])
    deny_send_messages(world)  # (the first turn's ping, posted before, goes when its player acts)
    hands = Hands(world)
    for _ in range(3000):
        if not await play_step(world, hands, drop_below=20):
            break
    assert table_in(world) is None
    assert len([m for m in world.channel.history() if not m.flags.ephemeral]) == posted  # nothing got through
    told = [
        m.content
        for member in world.members[:3]
        for m in world.channel.history(viewer=member)
        if m.flags.ephemeral and "Send Messages" in (m.content or "")
    ]
    assert len(told) == 1  # the first member to act, once
    assert await balances(world) == 3000
    await conserved(world)


async def test_the_table_message_catches_up_when_posting_works_again(world: World) -> None:
    table = await open_table(world, world.members[:3])
    deny_send_messages(world)
    hands = Hands(world)
    for _ in range(3):
        await play_step(world, hands, drop_below=0)
    allow_send_messages(world)
    await play_step(world, hands, drop_below=0)
    assert table.game is not None
    view = table.game.public_view()
    shown = displayed(table_message(world))
    if view.in_round and view.to_act is not None:
        assert f"**{table.names[int(view.to_act)]}**'s turn" in shown
    await conserved(world)


async def test_a_hand_control_on_the_table_message_is_refused(world: World) -> None:
    table = await open_table(world, world.members[:3])
    ann = world.members[0]
    public = table_message(world)
    before = (public.content, [e.to_dict() for e in public.embeds], displayed(public))
    custom_id = f"ff:a:{table.id}:{table.seq}:refresh"
    forged = copy.copy(world.env.backend.get_message(table.channel_id, public.id))
    button = {"type": 2, "style": 2, "label": "Refresh", "custom_id": custom_id}
    forged.components = [{"type": 1, "components": [button]}]  # a hand control, as if on the table message
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    result = await _component_interaction(ann, forged, data)
    assert result.ephemeral and "doesn't belong on this message" in result.response.content
    after = table_message(world)
    assert (after.content, [e.to_dict() for e in after.embeds], displayed(after)) == before
    await conserved(world)


async def test_a_table_control_on_a_private_hand_is_refused(world: World) -> None:
    table = await open_table(world, world.members[:3])
    ann = world.members[0]
    hand = await my_hand(world, ann)
    custom_id = f"ff:t:{table.id}:leave_next"
    forged = copy.copy(world.env.backend.get_message(table.channel_id, hand.id))
    button = {"type": 2, "style": 2, "label": "Leave after this round", "custom_id": custom_id}
    forged.components = [{"type": 1, "components": [button]}]
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    result = await _component_interaction(ann, forged, data)
    assert result.ephemeral and "doesn't belong on this message" in result.response.content
    assert table.leave_after_round == []
    await conserved(world)


async def test_controls_a_client_still_shows_after_the_table_closed_say_so_and_change_nothing(
    world: World,
) -> None:
    """The table closed (a manager closed it): a hand, table or lobby control still on screen."""
    ann, dan = world.members[0], world.members[3]
    table = await open_table(world, world.members[:3])
    hand, public = await my_hand(world, ann), table_message(world)
    refresh = buttons(hand)["Refresh"]
    await runtime(world).close_by_manager(table.id, world.admin.id)
    await world.env.settle()
    assert table_in(world) is None
    before = await dump(world)

    async def click(who: Any, message_id: int, custom_id: str) -> Any:
        shown = copy.copy(world.env.backend.get_message(table.channel_id, message_id))
        button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
        shown.components = [{"type": 1, "components": [button]}]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        return await _component_interaction(who, shown, data)

    old_hand = await click(ann, hand.id, refresh)  # its own message says so, without its buttons
    assert old_hand.response.content == "This table has closed." and not old_hand.response.components
    for who, custom_id in [(ann, f"ff:t:{table.id}:hand"), (dan, f"ff:l:{table.id}:join")]:
        late = await click(who, public.id, custom_id)
        assert late.ephemeral and late.response.content.startswith(
            "This table has closed. Open a new one with </flipflop start:"
        ), custom_id
    assert await dump(world) == before and table_in(world) is None
    await conserved(world)


async def test_direct_messages_offer_no_commands_and_get_no_answer(world: World, sent: Any) -> None:
    """Every command is registered for servers only: Discord lists none in a member's direct messages
    with the bot (so none can be sent from there), and a message written to the bot is not answered."""
    ann = world.members[0]
    assert "flipflop start" in ann.available_commands(world.channel)
    assert ann.user.available_commands() == ()
    before = len(sent.texts)
    await ann.send_dm("how do I play?")
    await world.env.advance_time(5)
    assert sent.texts[before:] == []
    assert await world.bot.ledger.audit(world.guild.id) == []
