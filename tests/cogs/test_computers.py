"""Computer players at a Discord table: added by the host, paid by the house, playing to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord.actors import _component_interaction
from simcord.builders import UserHandle
from simcord.enums import ComponentType

from bot.client import create_bot
from bot.ledger import HOUSE_ID
from bot.settings import Settings, load_settings
from bot.table.model import ComputerSeat
from tests.cogs.helpers import (
    Hands,
    buttons,
    channel_text,
    conserved,
    displayed,
    message,
    play_simple_turn,
    section,
    select_id,
    table_in,
    walk,
)
from tests.conftest import GUARDS_OFF, World, make_bot


def bot_member(world: World) -> simcord.MemberActor:
    user = world.env.backend.get_user(world.bot.user.id)  # type: ignore[union-attr]
    return simcord.MemberActor(world.env, world.guild, UserHandle(world.env, user))


async def add_computer(
    world: World, host: simcord.MemberActor, lobby: object, level: str
) -> simcord.InteractionResult:
    return await host.select(lobby, [level], custom_id=select_id(lobby, "addcpu"))


def refusal_from_the_menu(result: simcord.InteractionResult) -> str:
    """A refused choice in the lobby's menu: the lobby is shown again (the menu drops the choice) and
    the member is told why, privately."""
    assert not result.ephemeral and result.response is not None and "Seated (" in displayed(result.response)
    [told] = result.followups
    assert told.ephemeral
    return told.content


async def test_a_new_house_seats_computers_from_its_float_and_admins_top_it_up(world: World) -> None:
    ann = world.members[0]
    start = await ann.slash(world.channel, "flipflop start", buy_in=400)
    lobby = start.response.message
    added = await add_computer(world, ann, lobby, "basic")  # no admin needed: the house float pays
    assert "🤖 Basic 1" in section(added.response, "Seated (2/5)")
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == 1000 - 400
    floated = await world.bot.db.fetchone(
        "SELECT change, reason FROM ledger WHERE guild_id = ? AND user_id = ? ORDER BY id LIMIT 1",
        (world.guild.id, HOUSE_ID),
    )
    assert floated is not None and tuple(floated) == (1000, "house_float")  # audited like any chips
    await add_computer(world, ann, lobby, "basic")
    refused = await add_computer(world, ann, lobby, "basic")
    assert "The house has only 200 chips" in refusal_from_the_menu(refused)
    house = bot_member(world)
    granted = await world.admin.slash(world.channel, "chips grant", member=house, amount=1000, reason="float")
    assert not granted.ephemeral
    # the house's chips, not the bot's ("granted … to @bot. Their balance: …")
    assert granted.response.content == (
        f"➕ <@{world.admin.id}> granted **1,000 chips** to the house (the computer players' chips)."
        " It has 1,200 chips."
    )
    took = await world.admin.slash(world.channel, "chips take", member=house, amount=1, reason="back")
    assert took.response.content == (
        f"➖ <@{world.admin.id}> took **1 chip** from the house (the computer players' chips)."
        " It has 1,199 chips."
    )
    await world.admin.slash(world.channel, "chips grant", member=house, amount=1, reason="again")
    shown = await ann.slash(world.channel, "balance", member=house)
    assert "The house" in shown.response.content and "1,200 chips" in shown.response.content
    added = await add_computer(world, ann, lobby, "basic")
    assert "🤖 Basic 3" in section(added.response, "Seated (4/5)")
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == 800
    board = await ann.slash(world.channel, "leaderboard")
    assert "house" not in board.response.embeds[0].description.lower()
    await conserved(world)


async def test_the_house_float_is_a_setting(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "db.sqlite3")
    assert bot.ledger.house_float == 1000
    await bot.db.close()
    none = create_bot(Settings(database_path=tmp_path / "none.sqlite3", house_float=0))
    await none.db.open()
    try:
        assert await none.ledger.balance(5, HOUSE_ID) == 0
        assert await none.db.fetchone("SELECT COUNT(*) FROM ledger") == (0,)
    finally:
        await none.db.close()
    assert load_settings({"HOUSE_FLOAT": "250"}, env_file=tmp_path / "no.env").house_float == 250


async def test_only_the_host_adds_and_removes_computers(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    refused = await add_computer(world, ben, lobby, "basic")
    assert "Only the host" in refusal_from_the_menu(refused)
    await add_computer(world, ann, lobby, "strong")
    table = table_in(world)
    assert table is not None and list(table.computers.values()) == [ComputerSeat("strong", 1)]
    lobby = world.channel.history()[-1]
    refused = await ben.click(lobby, label="Remove computer")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await ann.click(lobby, label="Remove computer")
    assert table.computers == {} and await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == 1000
    await conserved(world)


def menu_levels(lobby: Any) -> list[str]:
    """The levels the lobby's computer menu offers."""
    [menu] = [c for c in walk(lobby) if c.get("type") == 3 and c["custom_id"].endswith(":addcpu")]
    return [o["value"] for o in menu["options"]]


async def test_a_real_chip_table_seats_basic_or_strong_computers_never_random(world: World) -> None:
    """Random loses about 6.8 chips a round to sound play: seated for the house's chips, it is farmed."""
    ann, ben = world.members[:2]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    lobby = world.channel.history()[-1]
    assert menu_levels(lobby) == ["basic", "strong"]
    table = table_in(world)
    assert table is not None
    g, before = world.guild.id, (list(table.seats), dict(table.lobby.stacks), displayed(lobby))
    balances = [await world.bot.ledger.balance(g, who) for who in (HOUSE_ID, ann.id, ben.id)]
    stored = world.env.backend.get_message(world.channel.id, lobby.id)  # a stale or forged pick of Random
    data: dict[str, Any] = {
        "custom_id": select_id(lobby, "addcpu"),
        "component_type": ComponentType.STRING_SELECT,
        "values": ["random"],
    }
    refused = await _component_interaction(ann, stored, data)
    assert refusal_from_the_menu(refused) == (
        "🤖 Random computers play only at practice tables: at a table played for real chips the house"
        " seats Basic or Strong. Nothing was changed."
    )
    assert (table.seats, table.lobby.stacks, displayed(world.channel.history()[-1])) == before
    assert [await world.bot.ledger.balance(g, who) for who in (HOUSE_ID, ann.id, ben.id)] == balances
    await add_computer(world, ann, world.channel.history()[-1], "strong")
    assert list(table.computers.values()) == [ComputerSeat("strong", 1)]
    await ann.click(world.channel.history()[-1], label="Cancel")
    await conserved(world)
    # a practice table (practice chips, nothing from the house) seats Random too
    balances = [await world.bot.ledger.balance(g, who) for who in (HOUSE_ID, ann.id, ben.id)]
    lobby = (await ann.slash(world.channel, "flipflop practice", computers=1)).response.message
    assert menu_levels(lobby) == ["basic", "strong", "random"]
    await add_computer(world, ann, lobby, "random")
    table = table_in(world)
    assert table is not None and [c.level for c in table.computers.values()] == ["basic", "random"]
    assert [await world.bot.ledger.balance(g, who) for who in (HOUSE_ID, ann.id, ben.id)] == balances


async def test_one_human_and_two_computers_play_to_the_end(world: World) -> None:
    ann = world.members[0]
    lobby = (await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)).response.message
    await add_computer(world, ann, lobby, "basic")
    lobby = world.channel.history()[-1]
    await add_computer(world, ann, lobby, "basic")
    lobby = world.channel.history()[-1]
    await ann.click(lobby, label="Start")
    hands = Hands(world)
    for _ in range(3000):
        t = table_in(world)
        if t is None:
            break
        g = t.game
        assert g is not None
        if g.in_round and g.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=15, hands=hands)
        else:
            await world.env.advance_time(10)  # computers move after 1-2 s each; the pause between rounds
        await conserved(world)
    else:
        raise AssertionError("the game did not end")
    public = channel_text(world)
    assert "🤖 Basic 1" in public and "Game over!" in public
    if str(ann.id) not in g.seated and len(g.seated) >= 2:
        assert "Only computer players are left" in public
    total = await world.bot.ledger.balance(world.guild.id, ann.id) + await world.bot.ledger.balance(
        world.guild.id, HOUSE_ID
    )
    assert total == 2000
    assert await world.bot.ledger.audit(world.guild.id) == []


async def test_timeout_plays_the_turn_with_the_basic_strategy(world: World) -> None:
    from tests.cogs.helpers import open_table

    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    absent = g.to_act
    await world.env.advance_time(61)
    assert g.to_act != absent or not g.in_round
    assert "ran out of time and is away: the basic computer plays their seat" in channel_text(world)
    await conserved(world)


async def test_computers_leave_with_the_last_human(world: World) -> None:
    ann = world.members[0]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await add_computer(world, ann, lobby, "basic")
    lobby = world.channel.history()[-1]
    await ann.click(lobby, label="Leave")
    assert table_in(world) is None
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == 1000
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 1000
    closed = message(world, world.channel.id, lobby.id)
    assert (
        buttons(closed) == {} and "closed" in displayed(closed).splitlines()[0]
    )  # the controls went with it
    await conserved(world)


async def test_computers_pause_like_a_person_before_moving(db_path: object) -> None:
    """With the bot's default pause, a computer's move comes 1-2 s after its turn begins."""
    import random

    from bot.client import create_bot
    from bot.settings import Settings

    # the bot's own settings, but for the call budget: its waits are real time, and simcord's clock
    # stands still between steps (tests/conftest.py's bots run without it too)
    settings = Settings(database_path=db_path, shard_count=1, calls_per_second=0, **GUARDS_OFF)  # type: ignore[arg-type]
    bot = create_bot(settings, rng=random.Random(4))
    assert bot.computer_pause == (1.0, 2.0)
    async with simcord.run(bot) as env:
        world = World(env)
        ann = world.members[0]
        lobby = (await ann.slash(world.channel, "flipflop start")).response.message
        await add_computer(world, ann, lobby, "basic")
        await add_computer(world, ann, world.channel.history()[-1], "basic")
        await ann.click(world.channel.history()[-1], label="Start")
        table = table_in(world)
        assert table is not None and table.game is not None
        hands = Hands(world)
        while table.game.in_round and table.game.to_act != str(ann.id):
            await env.advance_time(0.5)
        assert table.game.in_round
        seq_before, clock_before = table.seq, env.now().timestamp()
        await play_simple_turn(world, ann, hands=hands)  # draw and discard: two actions
        computer_moves = table.seq - seq_before - 2
        elapsed = env.now().timestamp() - clock_before
        assert computer_moves >= 1
        assert 1.0 * computer_moves <= elapsed <= 2.0 * computer_moves + 0.01
    await bot.db.close()


@pytest.mark.parametrize("how", ["left", "away"])
async def test_the_last_member_gone_ends_the_game_at_the_rounds_end_without_a_next_deal(
    world: World, how: str
) -> None:
    """ann leaves mid-round, or is away, and the rest are computers: the next deal ends the game
    (computers never play on alone), so the round's end names no next dealer first."""
    from tests.cogs.helpers import my_hand

    ann = world.members[0]
    lobby = (await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)).response.message
    await add_computer(world, ann, lobby, "basic")
    await add_computer(world, ann, world.channel.history()[-1], "basic")
    await ann.click(world.channel.history()[-1], label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    hand = await my_hand(world, ann)
    if how == "left":
        asked = await ann.click(hand.message, custom_id=buttons(hand)["Leave game…"])
        await ann.click(asked.response.message, custom_id=buttons(asked.response)["Yes, leave"])
    else:
        await ann.click(hand.message, custom_id=buttons(hand)["Away"])
        assert table.is_away(ann.id)
    for _ in range(300):
        if table_in(world) is None:
            break
        await world.env.advance_time(10)  # the computers play the round out
    else:
        raise AssertionError("the game did not end")
    said = channel_text(world)
    after = said.split("leaves the game")[-1] if how == "left" else said
    assert "Only computer players are left" in after and "Game over!" in after
    assert "Next deal" not in after, after
    await conserved(world)
