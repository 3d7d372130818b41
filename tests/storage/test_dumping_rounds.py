"""``played_rounds``: the chip-dumping report's reading of a server's rounds, on either store."""

from __future__ import annotations

from bot.dumping import flagged
from bot.history.queries import played_rounds
from bot.storage import Store
from tests.cogs.test_admin_dumping import store_round

GUILD, OTHER = 7, 8
ANN, BEN = 101, 102


async def test_rounds_are_read_per_server_latest_first_and_in_seat_order(store: Store) -> None:
    assert await played_rounds(store, GUILD) == []
    for k in range(20):
        seats = (
            [(ANN, -15, None, True), (BEN, 20, 20, False), (-1, -5, None, False)]
            if k % 2 == 0
            else [(ANN, -5, None, False), (BEN, -5, None, False), (-1, 10, 10, False)]
        )
        await store_round(store, GUILD, f"t{k // 10}", seats)
        await store_round(store, OTHER, "elsewhere", [(ANN, 5, 5, False), (BEN, -5, None, True)])
    rounds = await played_rounds(store, GUILD)
    assert len(rounds) == 20 and {r.table_id for r in rounds} == {"t0", "t1"}
    first = rounds[0]
    assert [(s.member, s.net, s.won_game, s.caught) for s in first.seats] == [
        (-1, -5, None, False),
        (ANN, -15, None, True),
        (BEN, 20, 20, False),
    ]  # by seat id, as stored
    assert [(p.giver, p.taker, p.dumps) for p in flagged(rounds)] == [(ANN, BEN, 10)]
    latest = await played_rounds(store, GUILD, limit=5)
    assert [r.round_id for r in latest] == [r.round_id for r in rounds[-5:]]
