"""A first game that explains itself (issue 33): /flipflop help, the server's first table, a short buy-in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import simcord

from bot.i18n import LANGUAGES, texts
from bot.presentation.first_game import ServerWelcomes, help_text, rounds_to_bust, welcome_text
from bot.presentation.limits import CONTENT
from bot.storage import open_store
from tests.cogs.helpers import displayed, table_in
from tests.conftest import World, make_bot

WELCOME = "👋 **This is this server's first Flip Flop table.**"


async def test_help_says_what_to_type_first_how_a_turn_goes_and_where_the_rules_are(world: World) -> None:
    ann = world.members[0]
    shown = await ann.slash(world.channel, "flipflop help")
    assert shown.ephemeral
    text = shown.response.content
    assert text.startswith("**🃏 Flip Flop — how to play**")
    for said in ("/flipflop start", "**My hand**", "**Drop**", "discard one card", "/flipflop rules"):
        assert said in text, said
    # which computers the lobby's menu offers, and where the Random ones went (practice only)
    assert "seat Basic or Strong computer players" in text and "(Random computers play there only)" in text
    await ann.slash(world.channel, "flipflop language", language="ko")
    korean = await ann.slash(world.channel, "flipflop help")
    assert korean.ephemeral and "플립플롭" in korean.response.content  # the member's language
    assert table_in(world) is None  # help changes nothing


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_and_welcome_fit_a_message_in_every_language(language: str) -> None:
    t = texts(language)
    assert len(help_text(t)) <= CONTENT and len(welcome_text(t)) <= CONTENT
    assert "/flipflop help" in welcome_text(t) and "/flipflop rules" in help_text(t)


def welcomed(result: simcord.InteractionResult) -> bool:
    """The opener of a table was told, privately, how to play (a follow-up to the lobby)."""
    return any(f.ephemeral and WELCOME in (f.content or "") for f in result.followups)


async def test_the_first_table_of_a_server_is_welcomed_once(world: World) -> None:
    ann, ben = world.members[:2]
    opened = await ann.slash(world.channel, "flipflop start")
    assert not opened.ephemeral and table_in(world) is not None  # the lobby is the answer
    assert welcomed(opened)
    (welcome,) = [f for f in opened.followups if WELCOME in (f.content or "")]
    assert "/flipflop help" in welcome.content and "**Join**" in welcome.content
    assert "seated as its host" in welcome.content and "Click **Join** to sit down" not in welcome.content
    assert not [m for m in world.channel.history() if WELCOME in (m.content or "")]  # nothing public
    side = world.guild.create_text_channel("side")
    again = await ben.slash(side, "flipflop start")
    assert table_in(world, side) is not None and not welcomed(again)  # once per server
    other = world.env.create_guild(name="Elsewhere")
    there = other.create_text_channel("cards")
    eve = other.add_member(world.env.create_user("eve"))
    assert welcomed(await eve.slash(there, "flipflop start"))  # a new server is welcomed


async def test_a_practice_table_that_is_the_servers_first_is_welcomed_too(world: World) -> None:
    ann, ben = world.members[:2]
    opened = await ann.slash(world.channel, "flipflop practice")
    table = table_in(world)
    assert not opened.ephemeral and table is not None and table.practice
    assert welcomed(opened)  # newcomers are sent to practice first: its opener learns how to play
    side = world.guild.create_text_channel("side")
    assert not welcomed(await ben.slash(side, "flipflop start"))  # once per server, practice or not


async def test_the_welcome_is_remembered_across_a_restart(db_path: Path) -> None:
    first = make_bot(db_path)
    async with simcord.run(first) as env:
        world = World(env)
        assert welcomed(await world.members[0].slash(world.channel, "flipflop start"))
        guild = world.guild.id
    await first.db.close()
    async with open_store(db_path) as db:
        assert not await ServerWelcomes(db, lambda: 0.0).first_table(guild)
        assert await ServerWelcomes(db, lambda: 0.0).first_table(guild + 1)


async def test_servers_that_played_before_migration_9_are_not_welcomed(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with open_store(path) as db, db.transaction() as tx:
        await tx.execute("INSERT INTO tables VALUES ('ab12', 7, 8, 'closed', 0, '{}', 1, '{}', 5.0)")
    con = sqlite3.connect(path)
    con.executescript(
        "DROP TABLE tournament_round_seats;"  # migration 17
        " DROP INDEX tables_open_by_guild; DROP INDEX ledger_at_tables;"  # migrations 16 and 15
        " ALTER TABLE rounds DROP COLUMN away;"  # migration 14
        " DROP INDEX rounds_by_table;"  # migration 13
        " DROP TABLE forget_marks; DROP TABLE forget_key;"  # migration 12
        " DROP TABLE tournament_results; DROP TABLE tournaments;"  # migration 11
        "DROP INDEX ledger_by_reason; DROP TRIGGER ledger_is_append_only_u;"  # migration 10, undone
        " ALTER TABLE ledger DROP COLUMN note;"
        " CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger"
        " BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;"
        " DROP TABLE server_welcomes; PRAGMA user_version = 8;"
    )
    con.close()
    async with open_store(path) as db:
        assert await db.fetchall("SELECT guild_id, welcomed_at FROM server_welcomes") == [(7, 5.0)]
        assert not await ServerWelcomes(db, lambda: 9.0).first_table(7)


def test_stacks_that_win_nothing_last_a_few_rounds() -> None:
    assert [rounds_to_bust(k) for k in (1, 2, 3, 4, 5, 7, 8, 20)] == [1, 2, 2, 2, 3, 3, 4, 8]


async def test_a_short_buy_in_is_allowed_and_the_lobby_says_how_short(world: World) -> None:
    ann, ben = world.members[:2]
    opened = await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)
    assert not opened.ephemeral
    lobby = displayed(opened.response.message)
    assert "⚠️ **Short games:** the buy-in is only 4× the stake" in lobby
    assert "out after round 2" in lobby and "a buy-in of 40 chips or more" in lobby
    side = world.guild.create_text_channel("side")
    usual = await ben.slash(side, "flipflop start", stake=5, buy_in=40)
    assert "Short games" not in displayed(usual.response.message)
