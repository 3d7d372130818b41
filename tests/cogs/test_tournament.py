"""``/flipflop tournament`` through simcord: opening, entries and their refusals, start, cancel, audit."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.audit import audit_guild
from bot.i18n import texts
from bot.ledger import HOUSE_ID
from bot.table.model import TableError
from bot.tournament.model import Tournament
from bot.tournament.ref import TableRef
from cogs.flipflop.tournament_play import DEAL_AGAIN, TournamentPlay
from tests.cogs.helpers import buttons, deny_bot, displayed, message, runtime
from tests.cogs.test_restart import restart, settle_within
from tests.conftest import World

# A click here may deal five tables at once, and one virtual second may play whole rounds at every
# table: on a busy machine that takes more than simcord's default 5 s of real time to settle (the
# tests fail slow, not wrong, without this). The window is also how far ahead simcord waits out, in
# real time, timers a restarted bot sets (stop_and_restart settles for 5 s: three resumed tables' 8 s
# round pauses took 26 s of a 30 s window alone, and more with the suite running beside it).
pytestmark = pytest.mark.simcord(settle_timeout=30.0)


async def clean(world: World) -> None:
    audit = await audit_guild(world.bot.ledger, world.guild.id)
    assert audit.ok and audit.difference == 0, audit.lines()


async def balance(world: World, member: simcord.MemberActor) -> int:
    return await world.bot.ledger.balance(world.guild.id, member.id)


async def shown(world: World) -> Any:
    """The tournament message as it is now."""
    rows = await world.bot.db.fetchall("SELECT state, version FROM tournaments ORDER BY updated_at DESC")
    tour = Tournament.from_json(str(rows[0][0]))
    assert tour.message_id is not None
    return message(world, world.channel.id, tour.message_id)


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
    assert "Entered (1/8)" in displayed(await shown(world))
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
    assert "cancelled" in displayed(await shown(world))
    assert not buttons(await shown(world))  # no more entries (late ones: tests/storage)
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
    text = displayed(await shown(world))
    assert "round 1" in text and "Standings" in text and "table 1" in text and "table 2" in text
    assert "stack 1,000" in text and set(buttons(await shown(world))) == {"Stop (prizes by the stacks)"}
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
    text = displayed(await shown(world))
    assert (
        "🤖 Basic 9" in text and "table 3" in text and "Level 1: stake **10** · 3 tables · 11 players" in text
    )
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == house - 9 * 20
    await clean(world)


async def test_the_host_is_warned_at_the_opening_when_the_house_cant_pay_the_computers(world: World) -> None:
    """The start would be refused (or, at its time, the tournament cancelled): said privately at once."""
    ann = world.members[0]
    house = await world.bot.ledger.balance(world.guild.id, HOUSE_ID)  # the float, 1,000
    short = await ann.slash(world.channel, "flipflop tournament", fee=300, seats=8)
    assert not short.ephemeral
    [warning] = short.followups
    assert warning.ephemeral and (warning.content or "").startswith(
        f"⚠️ The house has {house:,} chips: enough for 3 computer players' entry fees (300 chips each). "
        "If more seats than that are still empty at the start, the tournament can't start"
    )
    plenty = await ann.slash(world.channel, "flipflop tournament", fee=100, seats=8)
    unpaid = await ann.slash(world.channel, "flipflop tournament", fee=900, seats=8, computers=False)
    assert not plenty.followups and not unpaid.followups  # 7 × 100 paid; no computers, nothing to pay
    assert await world.bot.ledger.balance(world.guild.id, HOUSE_ID) == house  # a warning moves no chip
    await clean(world)


async def tournament_now(world: World) -> Tournament:
    rows = await world.bot.db.fetchall("SELECT state, version FROM tournaments ORDER BY updated_at DESC")
    return Tournament.from_json(str(rows[0][0]), int(rows[0][1]))


def seated_once(world: World) -> None:
    """No entrant sits at two of the tournament's open tables."""
    rt = world.bot.runtime
    assert rt is not None
    seats = [s for t in rt.tables.values() if t.tournament for s in t.seats]
    assert len(seats) == len(set(seats)), seats


async def play_out(world: World, rounds: int = 2000, step: float = 10) -> tuple[Tournament, list[str]]:
    """Let the clock run (members time out and go away; computers play) until the tournament ends."""
    shapes: list[str] = []
    for _ in range(rounds):
        tour = await tournament_now(world)
        if tour.status != "running":
            return tour, shapes
        assert tour.chips() == len(tour.entrants) * 1000
        shape = f"{tour.round}:" + "+".join(str(len(s)) for s in tour.tables.values())
        if not shapes or shapes[-1] != shape:
            shapes.append(shape)
        seated_once(world)
        await clean(world)
        await world.env.advance_time(step)
    raise AssertionError(f"the tournament did not end: {shapes}")


async def test_a_tournament_with_computers_is_played_to_its_prizes(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=9, level_rounds=1, payout="50_30_20")
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    house = await balance_of_house(world)
    await ann.click(lobby, label="Start")
    tour = await tournament_now(world)
    assert sorted(len(s) for s in tour.tables.values()) == [4, 5] and len(tour.threads) == 2
    tour, shapes = await play_out(world)
    assert tour.status == "finished" and tour.round >= 2, shapes
    prizes = await world.bot.db.fetchall(
        "SELECT SUM(change) FROM ledger WHERE reason = 'tournament_prize' AND reference = ?", (tour.id,)
    )
    assert prizes == [(900,)]
    assert (
        await balance(world, ann) + await balance(world, ben) + await balance_of_house(world) == 2000 + house
    )
    text = displayed(await shown(world))
    assert "finished" in text and "Prizes" in text
    # a table's round is played for tournament chips: its standings offer no Play again (it would
    # open a table for server chips), and a forged Play again is refused, nothing opened
    threads = [m for th in world.channel.threads for m in th.history()]
    assert threads and not [m for m in threads if "Play again" in buttons(m)]
    # its rounds are not stored: a round's seed is published, without a /flipflop verify that finds nothing
    seeds = [displayed(m) for m in threads if "server seed" in displayed(m)]
    assert seeds and all("tournament rounds are not kept" in s and "check the deal" not in s for s in seeds)
    rows = await world.bot.db.fetchall("SELECT table_id, state FROM tables")
    ended = [t for t, state in rows if json.loads(state).get("tournament")]
    assert ended and (before := await balance(world, ben))
    with pytest.raises(TableError) as refused:
        await runtime(world).play_again(
            ended[0], ben.id, "ben", guild_id=world.guild.id, channel_id=next(iter(tour.threads.values()))
        )
    assert refused.value.code == "table_closed"
    assert await balance(world, ben) == before and not runtime(world).tables
    await clean(world)


async def test_members_who_leave_the_server_are_played_for_and_their_chips_stay_theirs(world: World) -> None:
    """The bot has no members intent (no leave event): a departed entrant times out, goes away, and the
    computer plays their seat; the tournament finishes, every chip is accounted for, prizes are paid."""
    ann, ben, cat = world.members[:3]
    lobby = await opened(world, ann, fee=100, seats=9, level_rounds=1)
    for m in (ann, ben, cat):
        await m.click(lobby, label="Join")
    world.guild.remove_member(ben)  # entered, fee paid, gone before the start
    house = await balance_of_house(world)
    await ann.click(lobby, label="Start")
    world.guild.remove_member(cat)  # gone once seated
    tour, shapes = await play_out(world)
    assert tour.status == "finished", shapes
    paid = await world.bot.db.fetchall(
        "SELECT SUM(change) FROM ledger WHERE reason = 'tournament_prize' AND reference = ?", (tour.id,)
    )
    assert paid == [(900,)]
    members = [await balance(world, m) for m in (ann, ben, cat)]
    assert sum(members) + await balance_of_house(world) == 3000 + house
    await clean(world)


async def balance_of_house(world: World) -> int:
    return await world.bot.ledger.balance(world.guild.id, HOUSE_ID)


async def test_twenty_five_entrants_with_computers_to_the_end(
    simcord_env: simcord.Env, capsys: pytest.CaptureFixture[str]
) -> None:
    """The limit: 25 seats (4 members, 21 computers), every step conserved, no seat at two tables."""
    world = World(simcord_env, members=4)
    started = time.perf_counter()
    lobby = await opened(world, world.members[0], fee=40, seats=25, level_rounds=2)
    for m in world.members:
        await m.click(lobby, label="Join")
    await world.members[0].click(lobby, label="Start")
    tour = await tournament_now(world)
    assert len(tour.entrants) == 25 and len(tour.tables) == 5 and len(tour.threads) == 5
    virtual = simcord_env.now()
    tour, shapes = await play_out(world, rounds=20000, step=1)
    seconds = time.perf_counter() - started
    assert tour.status == "finished" and sum(tour.prizes().values()) == 1000
    with capsys.disabled():
        print(
            f"\n25 entrants: {tour.round} rounds, {seconds:.1f} s wall time,"
            f" {(simcord_env.now() - virtual).total_seconds() / 60:.0f} virtual minutes;"
            f" tables over time (round:sizes) {' '.join(shapes)}"
        )
    await clean(world)


async def stop_and_restart(world: World, db_path: Path) -> None:
    """The process stops (its timers with it) and a new one starts on the same database."""
    rt = world.bot.runtime
    assert rt is not None
    await rt.scheduler.close()  # a stopped process has no timers left to fire
    await restart(world, db_path, settle=5.0)  # the resumed rounds' pauses pass on the test's clock


async def test_a_restart_mid_round_and_mid_rebalance_carries_on(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=11, level_rounds=1)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await stop_and_restart(
        world, db_path
    )  # mid-round: the runtime resumes the tables, the tournament follows
    assert (await tournament_now(world)).status == "running"
    stalled: list[int] = []

    async def not_now(self: TournamentPlay, tour: Tournament) -> None:
        stalled.append(tour.round)  # the round is counted and the seats moved, but nothing is dealt

    monkeypatch.setattr(TournamentPlay, "deal_tournament", not_now)
    for _ in range(200):
        if stalled:
            break
        await world.env.advance_time(5)
    tour = await tournament_now(world)
    assert stalled and tour.status == "running" and not any(tour.played.values())
    rt = world.bot.runtime
    assert rt is not None and not [t for t in rt.tables.values() if t.tournament]
    monkeypatch.undo()
    await stop_and_restart(world, db_path)  # the bot stopped between the rebalance and the next deal

    def dealt() -> dict[int, int]:  # the tournament's tables dealt in this round: number -> seats
        out: dict[int, int] = {}
        for table in world.bot.runtime.tables.values():  # type: ignore[union-attr]
            if table.tournament and (ref := TableRef.parse(table.tournament)).played == tour.round:
                out[ref.table] = len(table.seats)
        return out

    def accounted(now: Tournament) -> bool:  # every table in play, or its round already ended
        return now.round > tour.round or all(n in dealt() or now.played.get(n) for n in tour.tables)

    for _ in range(6):  # every table is dealt again (on a loaded machine, after more than one window)
        if accounted(await tournament_now(world)):
            break
        await settle_within(world, 5.0)
    after = await tournament_now(world)
    assert accounted(after), (dealt(), after.played, after.round, tour.tables)
    # a table still in play has the seats of the rebalance; one whose round ended was dealt too (a
    # dealt 49 or 50, or a quick drop, can end a computer table's one-round game at once)
    assert all(seats == len(tour.tables[n]) for n, seats in dealt().items()), (dealt(), tour.tables)
    tour, shapes = await play_out(world)
    assert tour.status == "finished"
    await clean(world)


async def test_a_deleted_table_thread_settles_its_round_and_play_goes_on(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=9, level_rounds=1)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    tour = await tournament_now(world)
    world.env.backend.delete_channel(tour.threads[1])  # the gateway says THREAD_DELETE
    await world.env.settle()
    after = await tournament_now(world)
    assert after.chips() == 9000 and (after.played.get(1) or after.round > tour.round)
    tour, shapes = await play_out(world)
    assert tour.status == "finished"
    await clean(world)


async def test_the_host_stops_it_and_the_stacks_decide_the_prizes(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, payout="65_35")
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    running = await shown(world)
    refused = await ben.click(running, label="Stop (prizes by the stacks)")
    assert refused.ephemeral and "Only the host" in refused.response.content
    stopped = await ann.click(running, label="Stop (prizes by the stacks)")
    assert not stopped.ephemeral
    tour = await tournament_now(world)
    assert tour.status == "finished" and tour.stopped
    rt = world.bot.runtime
    assert rt is not None and not [t for t in rt.tables.values() if t.tournament]
    paid = await world.bot.db.fetchall("SELECT SUM(change) FROM ledger WHERE reason = 'tournament_prize'")
    assert paid == [(600,)]
    # stopped before any stack changed: every place is shared, each wins their own fee; said so, not
    # as six winners of 100 chips each
    text = displayed(await shown(world))
    assert "tournament — stopped" in text and "every entry fee went back" in text, text
    assert "wins" not in text
    await clean(world)


async def test_a_timed_start_fills_with_computers_or_is_called_off(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=7, start_in=5)
    assert "Starts <t:" in displayed(lobby)
    await ann.click(lobby, label="Join")
    await world.env.advance_time(299)
    assert (await tournament_now(world)).status == "open"
    await world.env.advance_time(2)
    tour = await tournament_now(world)
    assert tour.status == "running" and len(tour.entrants) == 7
    other = world.guild.create_text_channel("other")
    result = await ben.slash(other, "flipflop tournament", fee=50, start_in=1, computers=False)
    await ben.click(result.response.message, label="Join")
    assert await balance(world, ben) == 950
    await world.env.advance_time(61)
    rows = await world.bot.db.fetchall("SELECT status FROM tournaments WHERE channel_id = ?", (other.id,))
    assert rows == [("cancelled",)] and await balance(world, ben) == 1000
    await clean(world)


async def test_the_season_leaderboard_and_ratings_count_tournaments(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, payout="winner")
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await ann.click(await shown(world), label="Stop (prizes by the stacks)")
    rated = await world.bot.db.fetchall("SELECT user_id FROM ratings ORDER BY user_id")
    assert {ann.id, ben.id} <= {r[0] for r in rated}
    mine = (await ann.slash(world.channel, "flipflop stats")).response.content  # rated, no stored round
    assert "hasn't finished a round" in mine and "1 rated game)" in mine, mine
    board = await ann.slash(world.channel, "leaderboard", season="current")
    assert not board.ephemeral
    fields = {f.name: f.value for f in board.response.embeds[0].fields}
    assert "1 played" in fields["Tournaments this season"]
    results = await world.bot.db.fetchall("SELECT COUNT(*) FROM tournament_results")
    assert results == [(2,)]
    (tid, ended), *_ = await world.bot.db.fetchall("SELECT tournament_id, ended_at FROM tournament_results")
    async with world.bot.db.transaction() as tx:  # three more finishers: the board lists three, says the rest
        for n in range(3):
            await tx.execute(
                "INSERT INTO tournament_results (tournament_id, guild_id, user_id, place, prize, entrants,"
                " ended_at) VALUES (?, ?, ?, ?, 0, 6, ?)",
                (tid, world.guild.id, 10**17 + n, 3 + n, ended),
            )
    board = await ann.slash(world.channel, "leaderboard", season="current")
    rows = {f.name: f.value for f in board.response.embeds[0].fields}["Tournaments this season"]
    assert rows.count(" played · ") == 3 and rows.endswith("\n… and 2 more players"), rows


async def test_tournament_buttons_from_elsewhere_change_nothing(world: World) -> None:
    """A custom id names its tournament: a button passed on or forged in another server or channel (or on
    another message of the bot) is refused privately; no entry, no fee, no cancel, no second message."""
    from cogs.flipflop.tournament_view import TournamentButton
    from tests.cogs.test_other_place import posted_in

    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, computers=False)
    await ann.click(lobby, label="Join")
    tour = await tournament_now(world)
    other = world.env.create_guild(name="Elsewhere")
    there = other.create_text_channel("cards")
    managers = other.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    mallory = other.add_member(world.env.create_user("mallory"), roles=[managers])
    side = world.guild.create_text_channel("side")
    elsewhere = "That button belongs to a tournament in another channel or server; nothing was done."
    for where, who, op in [(there, mallory, "cancel"), (there, mallory, "join"), (side, ann, "cancel")]:
        forged = await posted_in(world, where, TournamentButton(tour.id, op, op.title()))
        refused = await who.click(forged, label=op.title())
        assert refused.ephemeral and refused.response.content == elsewhere
    again = await posted_in(world, world.channel, TournamentButton(tour.id, "join", "Join"))
    copied = await ben.click(again, label="Join")  # the bot's own message, but not the tournament's
    assert copied.ephemeral and copied.response.content == elsewhere
    now = await tournament_now(world)
    assert now.status == "open" and list(now.entrants) == [ann.id]
    assert await balance(world, ben) == 1000
    rows = await world.bot.db.fetchone("SELECT COUNT(*) FROM ledger WHERE guild_id = ?", (other.id,))
    assert rows is not None and rows[0] == 0  # no account opened over there
    await clean(world)


async def cancelled(world: World, host: simcord.MemberActor) -> tuple[Any, str]:
    """A tournament the host entered and then cancelled (every fee back): its message and its id."""
    lobby = await opened(world, host, fee=100, seats=6, computers=False)
    await host.click(lobby, label="Join")
    await host.click(lobby, label="Cancel")
    return lobby, (await tournament_now(world)).id


async def test_a_cancelled_tournament_says_so_to_a_late_click(world: World) -> None:
    """A click that reaches a cancelled tournament (a client still showing its buttons) reads why."""
    from bot.presentation.refusals import explain
    from bot.tournament.model import TournamentError

    ann, ben = world.members[:2]
    _, tid = await cancelled(world, ann)
    store = world.bot.get_cog("FlipFlop").tournaments  # type: ignore[union-attr]
    for late in (store.join(tid, ben.id, "ben"), store.leave(tid, ann.id)):
        with pytest.raises(TournamentError) as refused:
            await late
        assert explain(refused.value, texts("en")) == "This tournament is over or was cancelled."
    assert await balance(world, ann) == 1000 and await balance(world, ben) == 1000
    await clean(world)



async def test_every_button_a_client_still_shows_on_a_cancelled_tournament_says_so(world: World) -> None:
    """Its message lost its buttons; a client that has not redrawn it clicks one: private, no change."""
    import copy

    from simcord.actors import _component_interaction
    from simcord.enums import ComponentType

    from tests.cogs.test_privacy_admin import dump

    ann, ben = world.members[:2]
    lobby, tid = await cancelled(world, ann)
    before = await dump(world)
    for who, op in [(ben, "join"), (ann, "leave"), (ann, "start"), (ann, "cancel"), (world.admin, "stop")]:
        shown = copy.copy(world.env.backend.get_message(world.channel.id, lobby.id))
        custom_id = f"ff:tn:{tid}:{op}"
        shown.components = [{"type": 1, "components": [{"type": 2, "style": 2, "custom_id": custom_id}]}]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        late = await _component_interaction(who, shown, data)
        assert late.ephemeral and late.response.content == "This tournament is over or was cancelled.", op
    assert await dump(world) == before
    assert (await tournament_now(world)).status == "cancelled"
    await clean(world)

async def test_a_nickname_that_reads_like_a_mention_pings_nobody(world: World) -> None:
    ann = world.members[0]
    ben = world.guild.add_member(world.env.create_user("ben2"), nick=f"<@{ann.id}> **b**")
    lobby = await opened(world, ben, fee=10, seats=6, computers=False)
    await ben.click(lobby, label="Join")
    message = await shown(world)
    stored = world.env.backend.get_message(world.channel.id, message.id)
    assert f"<@{ann.id}>" in displayed(message) and not stored.ping_user_ids


async def test_forget_waits_while_the_member_is_entered_in_a_tournament(world: World) -> None:
    """An entry is a seat to come: forgetting the member now would seat a pseudonym, fee and prize with it."""
    ann, ben = world.members[:2]
    lobby = await opened(world, ben, fee=100, seats=6, computers=False)
    await ann.slash(world.channel, "daily")  # something stored about her
    asked_first = await ann.slash(world.channel, "flipflop privacy forget")  # asked before joining
    assert "Forget me" in str(asked_first.response.components)
    await ann.click(lobby, label="Join")
    asked = await ann.slash(world.channel, "flipflop privacy forget")
    said = asked.response.content
    assert asked.ephemeral and "entered in the tournament in" in said and f"<#{world.channel.id}>" in said
    assert "nothing was changed" in said and (await tournament_now(world)).entrants.keys() == {ann.id}
    # the question asked before the entry, answered after it: the same refusal, nothing forgotten
    answered = await ann.click(asked_first.response, label="Forget me")
    assert "entered in the tournament in" in answered.response.content
    assert (await tournament_now(world)).entrants.keys() == {ann.id}
    await ben.click(lobby, label="Cancel")  # over: the fee went back, and the member may go
    again = await ann.slash(world.channel, "flipflop privacy forget")
    assert again.ephemeral and "still part" not in again.response.content
    await clean(world)


NEEDS_THREADS = (
    "A tournament plays each table in a thread of its own: open it in a text channel where I can create "
    "public threads (**Create Public Threads**) and send messages in them (**Send Messages in Threads**)."
)


async def test_a_tournament_is_refused_where_its_tables_can_not_have_threads(world: World) -> None:
    ann = world.members[0]
    forum = world.guild.create_forum_channel("cards")
    voice = world.guild.create_voice_channel("talk")
    await ann.slash(forum, "flipflop start")
    (post,) = forum.threads
    for place in (post, voice):
        refused = await ann.slash(place, "flipflop tournament", fee=100)
        assert refused.ephemeral and refused.response.content == NEEDS_THREADS
    deny_bot(world, create_public_threads=True)
    refused = await ann.slash(world.channel, "flipflop tournament", fee=100)
    assert refused.ephemeral and refused.response.content == NEEDS_THREADS
    assert await world.bot.db.fetchone("SELECT COUNT(*) FROM tournaments") == (0,)
    await clean(world)


async def test_tables_that_can_not_have_threads_stop_it_and_share_the_pool(world: World) -> None:
    """The permission taken after the opening: at the start no table can be dealt, so it stops at once,
    every stack equal: the pool goes back evenly (nobody's fee is kept waiting)."""
    members = world.members[:2]
    lobby = await opened(world, members[0], fee=100, seats=6)
    for m in members:
        await m.click(lobby, label="Join")
    deny_bot(world, create_public_threads=True)
    await members[0].click(lobby, label="Start")
    tour = await tournament_now(world)
    assert tour.status == "finished" and tour.stopped and runtime(world).tables == {}
    assert [await balance(world, m) for m in members] == [1000, 1000]
    assert "Stop" not in buttons(await shown(world))
    await clean(world)


async def test_a_passing_failure_to_open_a_thread_stops_nothing(world: World) -> None:
    """Discord failing once to open a thread (a 500) is no reason to end a tournament: it plays on."""
    members = world.members[:2]
    lobby = await opened(world, members[0], fee=100, seats=6)
    for m in members:
        await m.click(lobby, label="Join")
    world.env.inject_error("POST", "/channels/*/threads", status=500, times=1)
    await members[0].click(lobby, label="Start")
    tour = await tournament_now(world)
    assert tour.status == "running" and not tour.stopped
    assert len(tour.tables) == 2 and len(tour.threads) == 1  # one table's thread failed to open
    assert len([t for t in runtime(world).tables.values() if t.tournament]) == 1
    play = next(c for c in world.bot.cogs.values() if isinstance(c, TournamentPlay))
    world.env.inject_error("POST", "/channels/*/threads", status=500, times=2)
    await play.deal_tournament(tour)  # dealt again meanwhile (a resume): it fails too, one next try
    assert play._next_try == {tour.id}
    # the next try, 30 s on, fails once more: the one after waits twice as long, then deals it
    await world.env.advance_time(DEAL_AGAIN[0] + 1)
    assert len((await tournament_now(world)).threads) == 1 and play._next_try == {tour.id}
    await world.env.advance_time(2 * DEAL_AGAIN[0] - 5)
    assert len((await tournament_now(world)).threads) == 1
    await world.env.advance_time(10)
    tour = await tournament_now(world)
    assert len(tour.threads) == 2 and tour.status == "running" and not tour.stopped and not play._next_try
    in_play = {t.tournament for t in runtime(world).tables.values()}
    dealt = {n: str(TableRef.of(tour, n)) for n in tour.tables}
    assert all(tour.played.get(n) or dealt[n] in in_play for n in tour.tables), (tour.played, in_play)
    await clean(world)


async def test_a_deleted_tournament_message_is_posted_again_with_its_buttons(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, computers=False)
    await ann.click(lobby, label="Join")
    world.env.backend.delete_message(world.channel.id, lobby.id)  # a moderator's delete
    await world.env.settle()
    again = await shown(world)
    assert again.id != lobby.id and "Entered (1/6)" in displayed(again)
    joined = await ben.click(again, label="Join")
    assert not joined.ephemeral and await balance(world, ben) == 900
    world.env.backend.bulk_delete_messages(world.channel.id, [again.id])  # a moderator's purge
    await world.env.settle()
    purged = await shown(world)
    assert purged.id not in (lobby.id, again.id) and "Entered (2/6)" in displayed(purged)
    await clean(world)


async def test_a_tournament_message_deleted_while_the_bot_was_away_comes_back_after_a_restart(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No delete event reached the bot (it was down): the restart finds the message gone and posts it
    again, so the entrants keep their Leave and the host the Cancel (the fees were held with neither)."""
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, computers=False)
    await ann.click(lobby, label="Join")

    async def not_heard(self: TournamentPlay, *args: object) -> None:
        return None  # the bot is down: no process hears MESSAGE_DELETE

    monkeypatch.setattr(TournamentPlay, "tournament_message_gone", not_heard)
    world.env.backend.delete_message(world.channel.id, lobby.id)  # a moderator's delete meanwhile
    await world.env.settle()
    monkeypatch.undo()
    await restart(world, db_path, settle=5.0)
    again = await shown(world)
    assert again.id != lobby.id and "Entered (1/6)" in displayed(again)
    assert {"Join", "Leave", "Cancel"} <= set(buttons(again))
    left = await ann.click(again, label="Leave")
    assert not left.ephemeral and await balance(world, ann) == 1000
    await clean(world)


async def test_a_deleted_channel_cancels_an_open_tournament_and_gives_every_fee_back(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, computers=False)
    for m in (ann, ben):
        await m.click(lobby, label="Join")
    world.env.backend.delete_channel(world.channel.id)  # the gateway says CHANNEL_DELETE
    await world.env.settle()
    row = await world.bot.db.fetchone("SELECT status FROM tournaments")
    assert row == ("cancelled",)
    assert [await balance(world, m) for m in (ann, ben)] == [1000, 1000]
    await clean(world)


async def test_an_admin_sees_and_closes_a_tournament_table_as_one(world: World) -> None:
    """``/flipflop admin tables`` marks a tournament's table; closing it says where its stacks went."""
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6)
    for m in (ann, ben):
        await m.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    tour = await tournament_now(world)
    table = next(iter(runtime(world).tables.values()))
    listed = (await world.admin.slash(world.channel, "flipflop admin tables")).response.content
    assert f"`{table.id}`" in listed and "· tournament table ·" in listed
    asked = (await world.admin.slash(world.channel, "flipflop admin close", table=table.id)).response
    assert asked.content.startswith(f"Close tournament table `{table.id}`")
    assert "the stacks go back to the tournament" in asked.content
    closed = await world.admin.click(asked.message, custom_id=buttons(asked)["Close the table"])
    assert closed.response.content == (
        f"Tournament table `{table.id}` is closed; its stacks went back to the tournament."
    )
    assert (await tournament_now(world)).id == tour.id
    await clean(world)


async def test_a_table_that_ends_before_its_message_is_saved_keeps_the_others_dealt(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer table's one round can end at its deal (a dealt 49 or 50) before its message is saved:
    the deal of the round goes on at the other tables (it stopped there, and the tournament stalled)."""
    from bot.table.model import TableError

    rt = runtime(world)
    placed, calls = rt.placed, []

    async def closed_first(table_id: str, message_id: int) -> None:
        calls.append(table_id)
        if len(calls) == 1:
            raise TableError("table_closed")  # as when the table closed while its message was posted
        await placed(table_id, message_id)

    monkeypatch.setattr(rt, "placed", closed_first)
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=11)
    for m in (ann, ben):
        await m.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    assert started.acknowledged and not started.ephemeral
    tour = await tournament_now(world)
    assert len(tour.tables) == 3 and len(calls) == 3  # every table dealt, the first one's error let be
    await clean(world)


async def test_leaving_a_tournament_table_says_the_stack_stays_in_the_tournament(world: World) -> None:
    """Tournament chips never reach a balance: leaving a table keeps the stack in the tournament (its
    next rounds play the seat as away), and the table's question and answer say so."""
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    table = next(t for t in runtime(world).tables.values() if t.tournament and ann.id in t.seats)
    assert table.message_id is not None
    hand = (await ann.click(message(world, table.plays_in, table.message_id), label="My hand")).response
    asked = await ann.click(hand.message, custom_id=buttons(hand)["Leave game…"])
    question = asked.response.content
    assert "stack stays in the tournament" in question
    assert "balance" not in question
    answer = await ann.click(message(world, table.plays_in, table.message_id), label="Leave after this round")
    said = answer.response.content
    assert answer.ephemeral and "your stack stays in the tournament" in said and "balance" not in said
    assert await balance(world, ann) == 900  # the fee paid; the stack is the tournament's
    await clean(world)


async def test_a_stop_while_the_tables_are_dealt_leaves_no_table_playing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's Stop lands while table 2's thread is being opened (a Stop does not wait for the deal):
    the deal closes the table it then makes, so no one plays a round that counts for nothing."""
    ann, ben = world.members[:2]
    real_thread = TournamentPlay._thread
    stopped: list[int] = []

    async def thread_while_host_stops(self: TournamentPlay, tour: Tournament, n: int) -> Any:
        if n == 2 and not stopped:
            stopped.append(n)
            done = await self.tournaments.update(tour.id, Tournament.stop)
            await self.close_tournament_tables(done, ann.id)  # what the Stop button does
        return await real_thread(self, tour, n)

    monkeypatch.setattr(TournamentPlay, "_thread", thread_while_host_stops)
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await world.env.settle()
    tour = await tournament_now(world)
    assert stopped and tour.status == "finished"
    assert not [t.tournament for t in runtime(world).tables.values() if t.tournament]
    await clean(world)


async def test_the_entry_that_fills_a_tournament_starts_it_in_one_transaction(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault while the last seat's entry starts the tournament rolls back both: the joiner is told
    nothing changed and keeps the fee (it was taken, the tournament left full and never started)."""
    from bot.storage import Unavailable
    from bot.tournament.store import TournamentStore

    world = World(simcord_env, members=6)
    lobby = await opened(world, world.members[0], fee=50, seats=6, computers=False)
    for m in world.members[:5]:
        assert not (await m.click(lobby, label="Join")).ephemeral

    async def dropped(self: TournamentStore, *args: object) -> None:
        raise Unavailable("connection reset")  # the database drops while the start is written

    monkeypatch.setattr(TournamentStore, "_begin", dropped)
    last = world.members[5]
    answer = await last.click(lobby, label="Join")
    assert answer.ephemeral and "nothing was changed" in answer.response.content
    tour = await tournament_now(world)
    assert await balance(world, last) == 1000 and tour.status == "open" and len(tour.entrants) == 5
    monkeypatch.undo()
    assert not (await last.click(lobby, label="Join")).ephemeral  # tried again: entered and started
    tour = await tournament_now(world)
    assert await balance(world, last) == 950 and tour.status == "running" and len(tour.entrants) == 6
    await clean(world)


async def test_a_fault_recording_a_tables_round_is_tried_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One database fault while a table's round is recorded: the record is tried again shortly, the
    tournament goes on (it stalled for good, every fee held)."""
    from collections.abc import Callable

    from bot.storage import Unavailable
    from bot.tournament.store import TournamentStore

    ann, ben = world.members[:2]
    real_update = TournamentStore.update
    failed: list[str] = []

    async def flaky(self: TournamentStore, tid: str, step: Callable[[Tournament], object]) -> Tournament:
        if "record" in getattr(step, "__qualname__", "") and not failed:
            failed.append(tid)
            raise Unavailable("connection reset")  # one passing fault
        return await real_update(self, tid, step)

    monkeypatch.setattr(TournamentStore, "update", flaky)
    lobby = await opened(world, ann, fee=100, seats=6, level_rounds=1)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    for _ in range(120):  # members time out and the computer plays them
        await world.env.advance_time(30)
        if (await tournament_now(world)).round >= 1:
            break
    assert failed and (await tournament_now(world)).round >= 1
    await clean(world)


async def test_a_round_that_ended_just_before_a_crash_is_recorded_not_dealt_again(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after a table's last move was saved and before the tournament recorded it: the
    restart records that round from the saved table (it dealt the round again from the old stacks)."""
    from bot.table.model import Table
    from cogs.flipflop.tournament_play import round_result

    ann, ben = world.members[:2]
    ended: list[Table] = []
    real_record = TournamentPlay.record_table

    async def crash_before_recording(self: TournamentPlay, table: Table) -> None:
        if not ended:
            ended.append(table)
            return
        await real_record(self, table)

    monkeypatch.setattr(TournamentPlay, "record_table", crash_before_recording)
    lobby = await opened(world, ann, fee=100, seats=6, level_rounds=20)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    for _ in range(120):
        if ended:
            break
        await world.env.advance_time(30)
    assert ended and ended[0].tournament is not None
    ref = ended[0].tournament
    stacks, _, _ = round_result(ended[0])
    monkeypatch.undo()
    told: list[tuple[int, int, dict[int, int]]] = []  # each table's round as the tournament is told it
    real_told = Tournament.table_round_ended

    def telling(self: Tournament, table: int, result: dict[int, int], pots: dict[str, int]) -> bool:
        told.append((self.round, table, dict(result)))
        return real_told(self, table, result, pots)

    monkeypatch.setattr(Tournament, "table_round_ended", telling)
    await stop_and_restart(world, db_path)
    assert not [t for t in runtime(world).tables.values() if t.tournament == ref]  # not dealt again
    tour = await tournament_now(world)
    n, rnd = TableRef.parse(ref).table, TableRef.parse(ref).played
    assert tour.round > rnd or tour.played.get(n)  # recorded (the round advanced if it was the last)
    # as that table ended it (the tables may play on while the restart settles: the round's own record)
    assert [result for r, table, result in told if (r, table) == (rnd, n)][:1] == [stacks], told
    await clean(world)


async def test_a_fault_at_the_timed_start_is_tried_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.storage import Unavailable
    from bot.tournament.store import TournamentStore

    ann = world.members[0]
    real_start = TournamentStore.start
    failed: list[str] = []

    async def flaky_start(self: TournamentStore, tid: str, rng: Any) -> Tournament:
        if not failed:
            failed.append(tid)
            raise Unavailable("connection reset")  # one passing fault at the start time
        return await real_start(self, tid, rng)

    monkeypatch.setattr(TournamentStore, "start", flaky_start)
    lobby = await opened(world, ann, fee=100, seats=6, start_in=1)
    await ann.click(lobby, label="Join")
    await world.env.advance_time(61)
    assert failed and (await tournament_now(world)).status == "open"
    await world.env.advance_time(31)  # tried again 30 s later: one member and five computers
    assert (await tournament_now(world)).status == "running"
    await clean(world)


async def a_round_in_won_by(world: World, member: simcord.MemberActor) -> None:
    """Stands for the tournament's first round in: ``member`` took 500 chips from a computer."""
    cog = world.bot.get_cog("FlipFlop")
    assert isinstance(cog, TournamentPlay)

    def won(t: Tournament) -> None:
        t.entrants[member.id].stack += 500
        t.entrants[-1].stack -= 500
        t.played[next(iter(t.played))] = 1

    await cog.tournaments.update((await tournament_now(world)).id, won)


async def test_a_host_playing_in_it_can_not_stop_it_once_a_round_is_in(world: World) -> None:
    """ann hosts and plays, five computers paid by the house: once a round is in, her Stop would pay
    by the stacks at the moment she picks (a lead: the whole pool, 500 of it the house's). Refused,
    nothing changes; an admin may still stop it."""
    ann = world.members[0]
    lobby = await opened(world, ann, fee=100, seats=6, payout="winner")
    await ann.click(lobby, label="Join")
    await ann.click(lobby, label="Start")  # five computers, their fees from the house
    await a_round_in_won_by(world, ann)
    refused = await ann.click(await shown(world), label="Stop (prizes by the stacks)")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert (await tournament_now(world)).status == "running" and await balance(world, ann) == 900
    stopped = await world.admin.click(await shown(world), label="Stop (prizes by the stacks)")
    assert not stopped.ephemeral and (await tournament_now(world)).status == "finished"
    text = displayed(await shown(world))
    assert "before the first round is in" in text and "tournament — finished" in text
    assert "**ann** wins 600 chips" in text and "every entry fee went back" not in text, text
    await clean(world)


async def test_a_host_who_does_not_play_can_not_stop_it_for_a_friend_in_the_lead(world: World) -> None:
    """ann hosts without playing; ben plays against five computers paid by the house. Once a round is
    in, ann's Stop would pay by the stacks at the moment she picks, for ben: the same grab as a host in
    the lead, made by two accounts (an alt hosts: opening a tournament takes no chips). Refused, nothing
    changes; an admin may still stop it."""
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6, payout="winner")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")  # five computers, their fees from the house
    await a_round_in_won_by(world, ben)
    for who in (ben, world.members[2]):  # a player, a bystander: told who may stop it now, not the host
        told = (await who.click(await shown(world), label="Stop (prizes by the stacks)")).response.content
        assert "Manage Server" in told and "host" not in told, told
    refused = await ann.click(await shown(world), label="Stop (prizes by the stacks)")
    assert refused.ephemeral and "Manage Server" in refused.response.content, refused.response.content
    assert "playing in" not in refused.response.content  # ann is not: said as it is
    assert (await tournament_now(world)).status == "running" and await balance(world, ben) == 900
    stopped = await world.admin.click(await shown(world), label="Stop (prizes by the stacks)")
    assert not stopped.ephemeral and (await tournament_now(world)).status == "finished"
    await clean(world)


async def test_two_edits_finding_the_message_gone_post_it_again_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables' rounds recorded at once each show the tournament: the message deleted unseen is
    posted again once (twice, the first copy's buttons refused as another message's)."""
    import asyncio

    ann = world.members[0]
    lobby = await opened(world, ann, fee=100, seats=6, computers=False)
    await ann.click(lobby, label="Join")

    async def not_heard(self: TournamentPlay, *args: object) -> None:
        return None  # no MESSAGE_DELETE heard

    monkeypatch.setattr(TournamentPlay, "tournament_message_gone", not_heard)
    world.env.backend.delete_message(world.channel.id, lobby.id)
    await world.env.settle()
    cog = world.bot.get_cog("FlipFlop")
    assert isinstance(cog, TournamentPlay)
    tour = await tournament_now(world)
    await asyncio.gather(cog.show_tournament(tour), cog.show_tournament(tour))
    await world.env.settle()
    posts = [m for m in world.channel.history() if m.author.id == world.bot.user.id and m.id != lobby.id]
    assert len(posts) == 1 and (await tournament_now(world)).message_id == posts[0].id
    assert "Leave" in buttons(posts[0])
    await clean(world)


async def test_in_the_tournaments_channel_hand_and_table_find_the_members_own_table(world: World) -> None:
    """The tables are the tournament's threads: /flipflop hand in its channel shows the member's hand
    at their table, /flipflop table points to that table's thread; someone not entered is told so and
    which threads to open to watch (not "There's no table in this channel. Open one")."""
    ann, ben, cat = world.members[:3]
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    tour = await tournament_now(world)
    rt = runtime(world)
    mine = next(t for t in rt.tables.values() if t.tournament and t.is_seated(ann.id))
    before = len(world.channel.history())
    hand = await ann.slash(world.channel, "flipflop hand")
    assert hand.ephemeral and "There's no table" not in str(hand.response.content), hand.response.content
    assert buttons(hand.response), "the hand comes with its cards"
    table = await ann.slash(world.channel, "flipflop table")
    assert table.ephemeral and f"<#{mine.channel_id}>" in table.response.content
    assert mine.channel_id in tour.threads.values()
    outsider = await cat.slash(world.channel, "flipflop hand")  # not entered: where to watch (no live page)
    threads = ", ".join(f"<#{tour.threads[n]}>" for n in sorted(tour.threads))
    assert outsider.ephemeral and outsider.response.content == (
        "You're not in this channel's tournament, so you have no hand or table here."
        f" To watch, open one of its tables' threads: {threads}."
    )
    assert len(world.channel.history()) == before  # the channel got nothing from it
    await clean(world)



async def test_flipflop_stop_in_a_tournament_tables_thread_is_refused_privately(world: World) -> None:
    """A tournament's table plays one round and stops: /flipflop stop in its thread, a manager's (it was
    announced publicly as a stop, which it was not) or an entrant's, is told so and where the
    tournament is stopped."""
    from tests.cogs.test_privacy_admin import dump

    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    mine = next(t for t in runtime(world).tables.values() if t.tournament and t.is_seated(ann.id))
    thread = next(t for t in world.channel.threads if t.id == mine.channel_id)
    before, said = await dump(world), len(thread.history())
    words = (
        "A tournament table plays one round and ends by itself. To end the tournament, a member with"
        " **Manage Server** clicks **Stop (prizes by the stacks)** on the tournament's message (its host"
        " can too, until the first round is in)."
    )  # the host alone stops it only before a round is in (a leader's friend could hand them the pool)
    for who in [world.admin, ann]:
        refused = await who.slash(thread, "flipflop stop")
        assert refused.ephemeral and refused.response.content.startswith(words), refused.response.content
    assert await dump(world) == before and len(thread.history()) == said
    await clean(world)

async def test_flipflop_stop_in_the_tournaments_channel_touches_no_table(world: World) -> None:
    """The channel's fallback to the member's own tournament table is for /flipflop hand, web and
    table (README). A manager seated at a tournament table who types /flipflop stop in its channel
    (the tournament is stopped by its message's button) was told 'will stop the game when this
    round ends' and their table's thread was told so too; nothing of the tournament stopped."""
    ann, boss = world.members[0], world.admin
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await boss.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    mine = next(t for t in runtime(world).tables.values() if t.tournament and t.is_seated(boss.id))
    thread = next(th for th in world.channel.threads if th.id == mine.channel_id)
    before = len(thread.history())
    said = await boss.slash(world.channel, "flipflop stop")
    text = said.response.content
    assert said.ephemeral and "**Stop (prizes by the stacks)** on the tournament's message" in text, text
    await world.env.settle()
    assert len(thread.history()) == before  # the table's thread was told nothing
    assert (await tournament_now(world)).status == "running"
    await clean(world)


async def test_in_a_tournaments_channel_stop_and_hand_say_how_the_tournament_goes_on(world: World) -> None:
    """The channel has no table of its own (the tables are threads): ``/flipflop stop`` there says how a
    tournament is cancelled (open for entries: its host's or a manager's **Cancel**) or stops (running)
    instead of "There's no table in this channel", and changes nothing; once an
    entrant's table has played its round, ``/flipflop hand`` there says the next round is coming (and to
    a member not entered, that they are not in it), not "There's no table in this channel. Open one with
    /flipflop start"."""
    ann, ben, dan = world.members[0], world.members[1], world.members[3]
    lobby = await opened(world, ann, fee=20, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    not_started = "This channel's tournament hasn't started yet, so there's no game to stop. "
    for who, then in [
        (ann, "To call it off, click **Cancel** on the tournament's message: every entry fee goes back."),
        (world.admin, "To call it off, click **Cancel**"),
        (ben, "Only its host or a member with **Manage Server** can cancel it; if you entered, **Leave**"),
        (dan, "Only its host or a member with **Manage Server** can cancel it"),
    ]:
        said = await who.slash(world.channel, "flipflop stop")  # open for entries: it has Cancel
        assert said.ephemeral and said.response.content.startswith(not_started + then), said.response.content
    assert (await tournament_now(world)).status == "open" and await balance(world, ben) == 980
    await ann.click(lobby, label="Start")
    for who in (ann, world.admin):
        said = await who.slash(world.channel, "flipflop stop")
        assert said.ephemeral and "**Stop (prizes by the stacks)** on the tournament's message" in (
            said.response.content
        ), said.response.content
    assert (await tournament_now(world)).status == "running" and await balance(world, ann) == 980
    table = next(t for t in runtime(world).tables.values() if t.is_seated(ann.id))
    table.status = "closed"  # as its round's end leaves it while the other table plays on
    try:
        for command in ("flipflop hand", "flipflop table"):
            said = await ann.slash(world.channel, command)
            assert said.ephemeral and said.response.content.startswith(
                "Your tournament table's round is over. The next round is dealt when every table's"
            ), said.response.content
        stranger = await dan.slash(world.channel, "flipflop hand")  # not entered: not "open a table"
        assert stranger.ephemeral and stranger.response.content.startswith(
            "You're not in this channel's tournament, so you have no hand or table here. To watch, open"
        ), stranger.response.content
    finally:
        table.status = "playing"


async def test_an_entrant_who_is_out_is_told_so_and_where_to_watch(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entrant put out of a running tournament had no table left, and ``/flipflop hand`` (or ``table``)
    in its channel told them "There's no table in this channel. Open one with /flipflop start". They are
    told they are out, when and in what place, and which tables' threads to watch: only the tables
    still playing (a table broken in the rebalance keeps its thread, where nothing plays any more), as a
    member not entered is told."""
    import cogs.flipflop.tournament_play as tournament_play

    ann, ben, cat = world.members[:3]
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    real_result = tournament_play.round_result

    def busted(table: Any) -> Any:  # ann's table ends its round with her stack gone to a neighbour
        stacks, pots, away = real_result(table)
        if stacks.get(ann.id):
            neighbour = next(e for e in stacks if e != ann.id)
            stacks[neighbour], stacks[ann.id] = stacks[neighbour] + stacks[ann.id], 0
        return stacks, pots, away

    monkeypatch.setattr(tournament_play, "round_result", busted)
    for _ in range(200):
        tour = await tournament_now(world)
        if tour.round:
            break
        await world.env.advance_time(10)
    assert tour.status == "running" and tour.entrants[ann.id].out_round == 1, tour
    assert len(tour.tables) == 1 and len(tour.threads) == 2  # ann's table broke; its thread is still there
    watch = f" To watch, open one of its tables' threads: <#{tour.threads[next(iter(tour.tables))]}>."
    # The table left plays on with computers only (ben timed out): each move's timer also fires in
    # real time under simcord, so every command would wait for a stream of moves to settle (25 s
    # each, and past simcord's limit on a loaded machine). Its next moves are an hour away instead.
    runtime(world).computer_pause = (3600.0, 3600.0)
    before = len(world.channel.history())
    for command in ("flipflop hand", "flipflop table"):
        said = await ann.slash(world.channel, command)
        assert said.ephemeral and said.response.content == (
            "You're out of this channel's tournament (you went out in round 1, in place 6 of 6), so you"
            " have no hand or table here." + watch
        ), said.response.content
    outsider = await cat.slash(world.channel, "flipflop hand")
    assert outsider.ephemeral and outsider.response.content == (
        "You're not in this channel's tournament, so you have no hand or table here." + watch
    ), outsider.response.content
    assert len(world.channel.history()) == before  # the channel got nothing from it
    await clean(world)
