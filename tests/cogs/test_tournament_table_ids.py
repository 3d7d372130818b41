"""A tournament table's id: derived from its reference, and never one another table has."""

from __future__ import annotations

import hashlib
import itertools
import json

import pytest

from bot.table.model import Table
from bot.table.transitions import tournament_table_ids
from tests.cogs.helpers import runtime
from tests.cogs.test_tournament import clean, opened, tournament_now
from tests.cogs.test_tournament_dumping import first_round_played
from tests.conftest import World

pytestmark = pytest.mark.simcord(settle_timeout=30.0)  # a click deals every table (test_tournament's note)


def test_the_ids_come_from_the_reference_and_differ() -> None:
    ids = list(itertools.islice(tournament_table_ids("t1:2:0"), 50))
    assert ids[0] == hashlib.sha256(b"t1:2:0").hexdigest()[:8]  # the id every table had so far
    assert ids[1] == hashlib.sha256(b"t1:2:0#1").hexdigest()[:8]
    assert len(set(ids)) == 50 and all(len(i) == 8 and int(i, 16) >= 0 for i in ids)
    assert list(itertools.islice(tournament_table_ids("t1:2:0"), 50)) == ids  # the same every time


async def test_a_table_saved_with_a_tournament_tables_id_is_passed_over_not_overwritten(world: World) -> None:
    """A server's closed table saved with the 32 bits a tournament table's reference hashes to first:
    the tournament's table takes the next of its ids, plays its round, and the old table is as it was.
    (Before, the tournament's table could not be saved over it and was dealt again and again.)"""
    ann, ben = world.members[:2]
    lobby = await opened(world, ann, fee=100, seats=6)
    tid = (await tournament_now(world)).id
    repository = runtime(world).open_tables.repository
    taken = {}
    for n in (1, 2):  # two members and four computers: two tables in the first round
        first = next(tournament_table_ids(f"{tid}:{n}:0"))
        old = Table(
            id=first,
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            host_id=ann.id,
            stake=5,
            buy_in=100,
            status="closed",
        )
        async with world.bot.db.transaction() as tx:
            assert await repository.save(tx, old)
        taken[first] = await world.bot.db.fetchone(
            "SELECT version, state FROM tables WHERE table_id = ?", (first,)
        )
    await ann.click(lobby, label="Join")
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await first_round_played(world)
    for first, row in taken.items():  # the server's tables are as they were saved
        assert (
            await world.bot.db.fetchone("SELECT version, state FROM tables WHERE table_id = ?", (first,))
            == row
        )
    for n in (1, 2):
        ref = f"{tid}:{n}:0"
        second = list(itertools.islice(tournament_table_ids(ref), 2))[1]
        state = await world.bot.db.fetchone("SELECT state FROM tables WHERE table_id = ?", (second,))
        assert state is not None and json.loads(state[0])["tournament"] == ref  # dealt under its next id
        assert await runtime(world).tournament_table_id(ref) == second  # and found there again
    await clean(world)
