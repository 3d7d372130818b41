"""``/flipflop admin dumping``: flagged pairs with their evidence, privately (others: test_privacy_admin)."""

from __future__ import annotations

from bot.storage import Store
from tests.conftest import World


async def store_round(
    db: Store,
    guild_id: int,
    table_id: str,
    seats: list[tuple[int, int, int | None, bool]],
    ended_at: float = 0.0,
) -> None:
    """A finished round as ``round_seats`` keeps it: (member, net, game pot won, dropped and caught)."""
    async with db.transaction() as tx:
        row = await tx.fetchone(
            "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
            " VALUES (?, ?, 1, ?, '{}', '{}') RETURNING id",
            (guild_id, table_id, ended_at),
        )
        assert row is not None
        for member, net, won, caught in seats:
            await tx.execute(
                "INSERT INTO round_seats (guild_id, user_id, round_id, seat, opening, net, won_game,"
                " dropped, caught) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)",
                (guild_id, member, row[0], str(member), net, won, int(caught), int(caught)),
            )


async def dumping(world: World, rounds: int) -> tuple[int, int]:
    """ann drops and is caught every other round, ben takes the pot; a computer plays third."""
    ann, ben = world.members[:2]
    for k in range(rounds):
        if k % 2 == 0:
            seats = [(ann.id, -15, None, True), (ben.id, 20, 20, False), (-1, -5, None, False)]
        else:
            seats = [(ann.id, -5, None, False), (ben.id, -5, None, False), (-1, 10, 10, False)]
        await store_round(world.bot.db, world.guild.id, f"t{k // 10}", seats)
    return ann.id, ben.id


async def test_a_dumping_pair_is_listed_with_the_evidence(world: World) -> None:
    ann, ben = await dumping(world, 20)
    before = await world.bot.db.fetchall("SELECT * FROM ledger")
    result = await world.admin.slash(world.channel, "flipflop admin dumping")
    assert result.ephemeral
    lines = result.response.content.splitlines()
    assert lines[0].startswith("Possible chip dumping in this server's latest 20 rounds")
    assert "Nothing was done to anyone" in lines[0]
    assert len(lines) == 2
    assert lines[1].startswith(f"• <@{ann}> → <@{ben}> · games together: 2 · rounds: 20")
    assert (
        f"caught drops of <@{ann}>: 10 (chance: 0.4) · pots to <@{ben}>: 10, 150 chips · score **" in lines[1]
    )
    assert await world.bot.db.fetchall("SELECT * FROM ledger") == before  # nothing done to anyone


async def test_no_pair_says_so(world: World) -> None:
    await dumping(world, 4)  # two caught drops: not enough, however unlikely
    result = await world.admin.slash(world.channel, "flipflop admin dumping")
    assert result.ephemeral
    assert result.response.content == (
        "No pair of members looks like chip dumping in this server's latest 4 rounds."
    )


async def test_a_single_round_is_counted_in_the_singular(world: World) -> None:
    ann, ben = world.members[:2]
    await store_round(world.bot.db, world.guild.id, "t0", [(ann.id, -5, None, False), (ben.id, 5, 5, False)])
    result = await world.admin.slash(world.channel, "flipflop admin dumping")
    assert result.ephemeral
    assert result.response.content == (
        "No pair of members looks like chip dumping in this server's latest round."
    )


async def test_a_server_without_rounds_says_there_is_nothing_to_check(world: World) -> None:
    said = await world.admin.slash(world.channel, "flipflop admin dumping")
    assert said.ephemeral and said.response.content == (
        "No round has ended in this server yet, so there is nothing to check."
    )
