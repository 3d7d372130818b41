"""``/flipflop admin dumping`` sees tournament tables' rounds, and shows their tournament chips apart."""

from __future__ import annotations

import pytest

from bot.history.queries import played_rounds
from bot.tournament.model import Tournament
from tests.cogs.test_admin_dumping import store_round
from tests.cogs.test_tournament import opened, tournament_now
from tests.conftest import World

pytestmark = pytest.mark.simcord(settle_timeout=30.0)  # a click deals every table (test_tournament's note)


async def test_a_tournament_tables_round_reaches_the_dumping_report(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6)
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    assert await played_rounds(world.bot.db, world.guild.id) == []
    tour = await first_round_played(world)
    rounds = [r for r in await played_rounds(world.bot.db, world.guild.id) if r.round_id == 1]
    assert len(rounds) == 2 and all(r.tournament and r.table_id == tour.id for r in rounds)  # its two tables
    members = [s.member for r in rounds for s in r.seats]
    assert sorted(m for m in members if m > 0) == sorted([ann.id, ben.id]) and len(members) == 6
    assert await world.bot.db.fetchall("SELECT COUNT(*) FROM round_seats") == [(0,)]  # still no history


async def first_round_played(world: World) -> Tournament:
    """The tournament once its first round is in: the members' turns run out, the computer plays them."""
    for _ in range(100):
        tour = await tournament_now(world)
        if tour.round >= 1:
            return tour
        await world.env.advance_time(5)
    raise AssertionError("the first round never ended")


async def tournament_round(world: World, number: int, seats: list[tuple[int, int, int | None, bool]]) -> None:
    """A tournament table's round as ``tournament_round_seats`` keeps it (seats as ``store_round``'s)."""
    async with world.bot.db.transaction() as tx:
        if number == 1:  # its tournament first
            await tx.execute(
                "INSERT INTO tournaments (tournament_id, guild_id, channel_id, status, chips, refunds,"
                " version, state, updated_at) VALUES (?, ?, ?, 'finished', 0, '{}', 1, '{}', 0)",
                (TID, world.guild.id, world.channel.id),
            )
        for member, net, won, caught in seats:
            await tx.execute(
                "INSERT INTO tournament_round_seats (tournament_id, round_number, seat, guild_id, user_id,"
                " table_id, ended_at, net, won_game, caught) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                (TID, number, str(member), world.guild.id, member, f"t{number}", net, won, int(caught)),
            )


TID = "0123456789ab"


def dumping(ann: int, ben: int, k: int) -> list[tuple[int, int, int | None, bool]]:
    """Round ``k``: ann drops and is caught every other round, ben takes the pot; a computer plays third."""
    if k % 2 == 0:
        return [(ann, -15, None, True), (ben, 20, 20, False), (-2, -5, None, False)]
    return [(ann, -5, None, False), (ben, -5, None, False), (-2, 10, 10, False)]


async def test_the_evidence_shows_tournament_chips_apart(world: World) -> None:
    """ann drops to ben at a table for server chips and in a tournament: the chips she passed are listed
    as server chips plus tournament chips, never added up, and the head says where those rounds are."""
    ann, ben = world.members[:2]
    for k in range(10):
        await store_round(world.bot.db, world.guild.id, "t0", dumping(ann.id, ben.id, k))
        await tournament_round(world, k + 1, dumping(ann.id, ben.id, k))
    lines = (await world.admin.slash(world.channel, "flipflop admin dumping")).response.content.splitlines()
    assert lines[0].startswith("Possible chip dumping in this server's latest 20 rounds")
    said = " Rounds at tournament tables count too, their chips as tournament chips (not server chips); they"
    assert (
        said + " are not in </flipflop history:" in lines[0]
    )  # the command as a mention, as Discord shows it
    assert lines[0].endswith(">: look in the tournament's table threads.")
    assert lines[1].startswith(f"• <@{ann.id}> → <@{ben.id}> · games together: 2 · rounds: 20")
    assert f"pots to <@{ben.id}>: 10, 75 chips + 75 tournament chips · score **" in lines[1]


async def test_a_pair_seen_only_in_tournaments_shows_tournament_chips_alone(world: World) -> None:
    ann, ben = world.members[:2]
    for k in range(20):
        await tournament_round(world, k + 1, dumping(ann.id, ben.id, k))
    await store_round(world.bot.db, world.guild.id, "t0", [(ann.id, -1, None, False), (-2, 1, 1, False)])
    lines = (await world.admin.slash(world.channel, "flipflop admin dumping")).response.content.splitlines()
    assert "latest 21 rounds" in lines[0] and "Rounds at tournament tables count too" in lines[0]
    assert "games together: 1 · rounds: 20" in lines[1]  # the tournament is one game
    assert f"pots to <@{ben.id}>: 10, 150 tournament chips · score **" in lines[1]


async def test_without_tournament_rounds_the_head_says_nothing_of_them(world: World) -> None:
    ann, ben = world.members[:2]
    for k in range(20):
        await store_round(world.bot.db, world.guild.id, "t0", dumping(ann.id, ben.id, k))
    lines = (await world.admin.slash(world.channel, "flipflop admin dumping")).response.content.splitlines()
    assert (
        "tournament" not in "\n".join(lines) and f"pots to <@{ben.id}>: 10, 150 chips · score **" in lines[1]
    )
