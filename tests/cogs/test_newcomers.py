"""Against farming by alt accounts: chips wait for an account of some age and time in the server;
tables wait for a cooldown.

Every refusal is private, says why and when (a Discord timestamp), and changes nothing.
simcord's members are created, and join, as the test begins: each test here turns the
guards on (``tests.conftest.GUARDS_OFF`` keeps them off everywhere else).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.client import FlipFlopBot
from bot.guards import DAY_SECONDS, Newcomers, TableCooldown
from bot.presentation.refusals import Refusal
from bot.storage.base import StoreError
from bot.table.model import TableError
from engine.actions import Drop
from tests.cogs.helpers import displayed, message, open_table, table_in
from tests.cogs.test_practice import ended_practice
from tests.conftest import World, make_bot

GUARDS = {"min_account_days": 7.0, "min_member_days": 1.0, "table_cooldown_seconds": 60.0}


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[FlipFlopBot]:
    bot = make_bot(db_path, settings=GUARDS)
    yield bot
    await bot.db.close()


def private(result: Any) -> str:
    assert result.ephemeral and result.response is not None
    return str(result.response.content)


def when(text: str) -> int:
    """The Discord timestamp (``<t:…:R>``) a refusal names."""
    found = re.search(r"<t:(\d+):R>", text)
    assert found, text
    return int(found.group(1))


def now(world: World) -> int:
    return int(world.env.now().timestamp())


async def ledger_rows(world: World) -> list[Any]:
    return await world.bot.db.fetchall("SELECT * FROM ledger ORDER BY id")


async def test_a_new_account_waits_for_daily_chips_and_is_told_when(world: World) -> None:
    ann = world.members[0]
    before = await ledger_rows(world)
    refused = await ann.slash(world.channel, "daily")
    text = private(refused)
    assert "account is too new" in text and "Nothing was changed." in text
    assert "/flipflop practice" in text
    assert abs(when(text) - (now(world) + 7 * DAY_SECONDS)) <= 2  # the account was made as the test began
    assert await ledger_rows(world) == before  # not even an account opened
    await world.env.advance_time(7 * DAY_SECONDS + 5)
    claimed = await ann.slash(world.channel, "daily")
    assert not claimed.ephemeral and "200 chips" in claimed.response.content


async def test_a_new_member_of_an_old_account_waits_a_day(world: World) -> None:
    old_user = world.env.create_user("old")
    await world.env.advance_time(30 * DAY_SECONDS)
    joiner = world.guild.add_member(old_user)  # a month-old account that joins the server now
    before = await ledger_rows(world)
    text = private(await joiner.slash(world.channel, "daily"))
    assert "joined this server too recently" in text and "Nothing was changed." in text
    assert abs(when(text) - (now(world) + DAY_SECONDS)) <= 2
    assert await ledger_rows(world) == before
    await world.env.advance_time(DAY_SECONDS + 5)
    assert not (await joiner.slash(world.channel, "daily")).ephemeral


async def test_a_new_account_can_not_open_or_join_a_chip_table_but_may_practise(world: World) -> None:
    ann, ben = world.members[:2]
    before = await ledger_rows(world)
    opened = await ann.slash(world.channel, "flipflop start")
    assert "account is too new" in private(opened)
    assert table_in(world) is None and await ledger_rows(world) == before
    practice = await ann.slash(world.channel, "flipflop practice")
    assert not practice.ephemeral  # practice chips are not chips
    table = table_in(world)
    assert table is not None and table.practice
    await world.env.advance_time(7 * DAY_SECONDS + 5)  # ann's and ben's accounts are a week old now
    other = world.guild.create_text_channel("chips")
    lobby_result = await world.admin.slash(other, "flipflop start")  # Manage Server: never held back
    assert not lobby_result.ephemeral
    fresh = world.guild.add_member(world.env.create_user("fresh"))
    before = await ledger_rows(world)
    join = await fresh.click(lobby_result.response.message, label="Join")
    assert "account is too new" in private(join)
    assert await ledger_rows(world) == before
    joined = await ben.click(lobby_result.response.message, label="Join")  # a week old now
    assert joined.acknowledged and not joined.ephemeral
    chips_table = table_in(world, other)
    assert chips_table is not None and ben.id in chips_table.seats


async def test_a_member_waits_between_opening_two_tables(world: World) -> None:
    await world.env.advance_time(8 * DAY_SECONDS)
    ann = world.members[0]
    first = await ann.slash(world.channel, "flipflop start")
    assert not first.ephemeral
    cancelled = await ann.click(first.response.message, label="Cancel")
    assert cancelled.acknowledged and table_in(world) is None
    before = await ledger_rows(world)
    again = await ann.slash(world.channel, "flipflop start")
    text = private(again)
    assert "You opened a table a moment ago" in text and "Nothing was changed." in text
    assert abs(when(text) - (now(world) + 60)) <= 2
    assert table_in(world) is None and await ledger_rows(world) == before
    practice = await ann.slash(world.channel, "flipflop practice")  # any kind of table waits
    assert "You opened a table a moment ago" in private(practice)
    await world.env.advance_time(61)
    assert not (await ann.slash(world.channel, "flipflop start")).ephemeral


async def test_a_member_waits_between_opening_two_tournaments(world: World) -> None:
    ann = world.members[0]
    first = await ann.slash(world.channel, "flipflop tournament", fee=10)
    assert not first.ephemeral
    cancelled = await ann.click(first.response.message, label="Cancel")
    assert cancelled.acknowledged and not cancelled.ephemeral
    messages = len(world.channel.history())
    rows = await world.bot.db.fetchall("SELECT tournament_id FROM tournaments")
    again = await ann.slash(world.channel, "flipflop tournament", fee=10)
    text = private(again)
    assert "You opened a tournament a moment ago" in text and "Nothing was changed." in text
    assert abs(when(text) - (now(world) + 60)) <= 2
    elsewhere = await ann.slash(world.guild.create_text_channel("other"), "flipflop tournament", fee=10)
    assert "You opened a tournament a moment ago" in private(elsewhere)
    assert await world.bot.db.fetchall("SELECT tournament_id FROM tournaments") == rows
    assert len(world.channel.history()) == messages
    ben = world.members[1]  # another member, and tables, are not held back by ann's tournament
    assert not (await ben.slash(world.channel, "flipflop tournament", fee=10)).ephemeral
    await world.env.advance_time(8 * DAY_SECONDS)
    later = world.guild.create_text_channel("later")
    assert not (await ann.slash(later, "flipflop tournament", fee=10)).ephemeral


async def test_play_again_asks_the_same(world: World) -> None:
    await world.env.advance_time(8 * DAY_SECONDS)
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    rt = world.bot.runtime
    assert rt is not None and table.game is not None and table.game.to_act is not None
    await rt.act(table.id, int(table.game.to_act), table.seq, Drop(table.game.to_act))
    await rt.stop(table.id, ann.id, may_manage=False)
    final = next(m for m in world.channel.history() if "Final standings" in (m.content or ""))
    fresh = world.guild.add_member(world.env.create_user("fresh"))
    refused = await fresh.click(final, label="Play again")
    assert "account is too new" in private(refused) and table_in(world) is None
    soon = await ann.click(final, label="Play again")  # ann opened the last table a moment ago
    assert "You opened a table a moment ago" in private(soon) and table_in(world) is None
    again = await ben.click(final, label="Play again")
    assert again.acknowledged and not again.ephemeral and table_in(world) is not None


def test_the_rules_alone() -> None:
    rule = Newcomers(min_account_days=7, min_member_days=1)
    now = 100 * DAY_SECONDS
    rule.check(now - 8 * DAY_SECONDS, now - 2 * DAY_SECONDS, now)  # old enough: nothing raised
    rule.check(now - 8 * DAY_SECONDS, None, now)  # no join date: nothing to wait for
    with pytest.raises(Refusal) as account:
        rule.check(now - DAY_SECONDS, now - DAY_SECONDS / 2, now)
    assert account.value.code == "account_too_new"  # the later of the two waits is named
    assert account.value.params == {"when": f"<t:{now + 6 * DAY_SECONDS}:R>"}
    with pytest.raises(Refusal) as member:
        rule.check(now - 30 * DAY_SECONDS, now - 3600, now)
    assert member.value.code == "member_too_new"
    Newcomers(0, 0).check(now, now + 1, now)  # 0 switches both off (a join stamped a moment late too)
    Newcomers(7, 0).check(now - 8 * DAY_SECONDS, now + 1, now)
    with pytest.raises(Refusal):
        Newcomers(0, 1).check(now, now - 3600, now)  # a new account, but only the member's time counts
    cooldown = TableCooldown(60)
    cooldown.check(1, 2, now)
    cooldown.opened(1, 2, now)
    with pytest.raises(TableError) as wait:
        cooldown.check(1, 2, now + 59)
    assert wait.value.params == {"when": f"<t:{now + 60}:R>"}
    cooldown.check(1, 3, now + 1)  # another member
    cooldown.check(9, 2, now + 1)  # another server
    cooldown.check(1, 2, now + 60)
    off = TableCooldown(0)
    off.opened(1, 2, now)
    off.check(1, 2, now)


async def test_a_new_account_can_not_enter_a_tournament_for_its_fee(world: World) -> None:
    ann = world.members[0]
    opened = await world.admin.slash(world.channel, "flipflop tournament", fee=100, seats=6, computers=False)
    assert not opened.ephemeral  # Manage Server: never held back
    lobby = opened.response.message
    before = await ledger_rows(world)
    refused = await ann.click(lobby, label="Join")
    text = private(refused)
    assert "account is too new" in text and "/flipflop practice" in text
    assert abs(when(text) - (now(world) + 7 * DAY_SECONDS)) <= 2
    assert await ledger_rows(world) == before  # no fee taken, not even an account opened
    assert "Entered (0/6)" in displayed(message(world, world.channel.id, lobby.id))
    await world.env.advance_time(7 * DAY_SECONDS + 5)
    entered = await ann.click(lobby, label="Join")
    assert entered.acknowledged and not entered.ephemeral
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 900
    assert "Entered (1/6)" in displayed(message(world, world.channel.id, lobby.id))


async def test_two_openings_at_the_same_instant_count_as_two(world: World) -> None:
    """The cooldown is checked and counted before an opening's first await: two tables opened by one
    member at the same instant, in two channels, can not both pass; a failed opening is not counted."""
    await world.env.advance_time(8 * DAY_SECONDS)
    ann = world.members[0]
    rt = world.bot.runtime
    assert rt is not None
    other = world.guild.create_text_channel("other")
    both = await asyncio.gather(
        *(rt.open(world.guild.id, c.id, ann.id, "ann", 10, 1000, 60) for c in (world.channel, other)),
        return_exceptions=True,
    )
    refused = [r for r in both if isinstance(r, TableError)]
    assert len(refused) == 1 and refused[0].code == "table_cooldown", both
    assert len([r for r in both if not isinstance(r, BaseException)]) == 1
    ben = world.members[1]

    async def broken(*_: Any, **__: Any) -> None:
        raise StoreError("the database is away")

    original = rt._commit
    rt._commit = broken  # type: ignore[method-assign]
    failed = world.guild.create_text_channel("failed")
    with pytest.raises(StoreError):
        await rt.open(world.guild.id, failed.id, ben.id, "ben", 10, 1000, 60)
    rt._commit = original  # type: ignore[method-assign]
    assert rt.in_channel(failed.id) is None
    assert (await rt.open(world.guild.id, failed.id, ben.id, "ben", 10, 1000, 60)).host_id == ben.id


async def test_a_tournament_opening_is_counted_before_its_first_await(world: World) -> None:
    """simcord runs one command at a time, so the race is seen from inside: while the tournament is
    being stored, a second opening by the same member is already refused. A failed one is not counted."""
    ann = world.members[0]
    cog: Any = world.bot.get_cog("FlipFlop")
    store = cog.tournaments
    original = store.open
    seen: list[str] = []

    async def watched(tour: Any) -> Any:
        try:
            cog.tournament_cooldown.check(world.guild.id, ann.id, now(world))
            seen.append("not counted yet")
        except TableError as error:
            seen.append(error.code)
        if len(seen) == 1:
            raise StoreError("the database is away")
        return await original(tour)

    store.open = watched
    try:
        failed = await ann.slash(world.channel, "flipflop tournament", fee=10)
        assert failed.ephemeral and await world.bot.db.fetchall("SELECT tournament_id FROM tournaments") == []
        opened = await ann.slash(world.channel, "flipflop tournament", fee=10)  # the failure did not count
        assert not opened.ephemeral
    finally:
        store.open = original
    assert seen == ["tournament_cooldown", "tournament_cooldown"]


async def test_a_newcomer_may_play_a_practice_game_again(world: World) -> None:
    """Practice tables don't ask how old an account is (practice chips are not chips); nor does
    their **Play again**."""
    final = await ended_practice(world)
    fresh = world.guild.add_member(world.env.create_user("fresh"))
    assert "account is too new" in private(await fresh.slash(world.channel, "daily"))
    again = await fresh.click(final, label="Play again")
    assert again.acknowledged and not again.ephemeral
    lobby = table_in(world)
    assert lobby is not None and lobby.practice and lobby.host_id == fresh.id
