"""Tournament tables' rounds, kept for the chip-dumping report alone, on either store.

A tournament table's round ends in the runtime's own transaction: its seats reach
``tournament_round_seats`` (tournament chips), never the rounds history, stats or ratings;
``played_rounds`` reads both kinds together; the rows are append-only but for a forget's rewrite;
``bot.migrate`` copies them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import privacy
from bot.dumping import flagged
from bot.history import COMPUTER_MEMBERS, HistoryError, record_tournament_round
from bot.history.queries import played_rounds
from bot.migrate import COPIED, main
from bot.storage import IntegrityError, Store, open_store
from bot.tournament.ref import TableRef
from tests.bot.runtime.fakes import FakeClock, Harness
from tests.cogs.test_admin_dumping import store_round

G, CH = 2**59, 2**59 + 7
ANN, BEN = 2**59 + 11, 2**59 + 12
TID = "0123456789ab"
HISTORY = ("rounds", "round_players", "round_seats", "ratings", "rating_changes")
"""The history tables, which a tournament table's round never reaches."""
SEATS = "SELECT tournament_id, round_number, seat, user_id, table_id, net, won_game, caught"


async def a_tournament(db: Store, tid: str = TID, status: str = "running") -> None:
    """The tournament's row (its tables' rounds name it)."""
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO tournaments (tournament_id, guild_id, channel_id, status, chips, refunds, version,"
            " state, updated_at) VALUES (?, ?, ?, ?, 0, '{}', 1, '{}', 0)",
            (tid, G, CH, status),
        )


async def tournament_table_round(h: Harness, played: int = 2) -> str:
    """Table 1 of the tournament dealt after ``played`` rounds, played by timeouts to its round's end."""
    ref = str(TableRef(TID, 1, played))
    seats = [(ANN, 1000, "Ann", 0), (BEN, 1000, "Ben", 0), (-1, 1000, "", 1)]
    dealt = await h.runtime.open_tournament_table(ref, G, CH, seats, 10, {}, 60)
    table = dealt.table
    if h.runtime.get(table.id) is not None:  # a dealt 49 or 50 ends the round at the deal
        await h.runtime.placed(table.id, 77)
        await h.until(lambda: h.runtime.get(table.id) is None, limit=2000)
    return table.id


async def test_a_tournament_tables_round_is_kept_for_the_report_and_never_as_history(store: Store) -> None:
    h = Harness(store, FakeClock())
    await a_tournament(store)
    dealt_at = h.clock()
    table_id = await tournament_table_round(h, played=2)
    rows = await store.fetchall(f"{SEATS}, ended_at FROM tournament_round_seats ORDER BY seat")
    assert [r[:5] for r in rows] == [
        (TID, 3, "-1", COMPUTER_MEMBERS["basic"], table_id),  # a computer: its level's member, as in history
        (TID, 3, str(ANN), ANN, table_id),
        (TID, 3, str(BEN), BEN, table_id),
    ]
    assert sum(r[5] for r in rows) <= 0 and {r[7] for r in rows} <= {0, 1}  # tournament chips, no more
    assert len({r[8] for r in rows}) == 1 and dealt_at < rows[0][8] <= h.clock()  # when it ended
    for table in HISTORY:  # tournament chips are not server chips: no history, stats or rating
        assert await store.fetchall(f"SELECT * FROM {table}") == [], table
    (read,) = await played_rounds(store, G)
    assert read.tournament and (read.round_id, read.table_id) == (3, TID)  # a tournament is one game
    assert [(s.member, s.net, s.won_game, s.caught) for s in read.seats] == [
        (user_id, net, won, bool(caught)) for _, _, _, user_id, _, net, won, caught, _ in rows
    ]


async def test_bad_input_writes_nothing(store: Store) -> None:
    await a_tournament(store)
    for tid, number in (("", 1), (TID, 0)):
        with pytest.raises(HistoryError):
            async with store.transaction() as tx:
                await record_tournament_round(tx, G, tid, "t1", number, 5.0, {}, {})
    assert await store.fetchall("SELECT * FROM tournament_round_seats") == []


async def table_round(db: Store, at: float, seats: list[tuple[int, int, int | None, bool]]) -> None:
    """A table's round as history keeps it, ended ``at``: (member, net, game pot won, dropped and caught)."""
    await store_round(db, G, "tab1", seats, ended_at=at)


async def tournament_round(
    db: Store, number: int, at: float, seats: list[tuple[int, int, int | None, bool]], table: str = "x1"
) -> None:
    """A tournament table's round as ``tournament_round_seats`` keeps it (seats as ``table_round``'s)."""
    async with db.transaction() as tx:
        for member, net, won, caught in seats:
            await tx.execute(
                "INSERT INTO tournament_round_seats (tournament_id, round_number, seat, guild_id, user_id,"
                " table_id, ended_at, net, won_game, caught) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (TID, number, str(member), G, member, f"{table}-{number}", at, net, won, int(caught)),
            )


DUMP = [(ANN, -15, None, True), (BEN, 20, 20, False), (-2, -5, None, False)]
"""ann drops, is caught, and ben takes the game pot."""
HONEST = [(ANN, -5, None, False), (BEN, -5, None, False), (-2, 10, 10, False)]


async def test_the_report_counts_both_kinds_as_the_latest_rounds_by_time(store: Store) -> None:
    await a_tournament(store)
    for k in range(10):  # alternately: a table's round at 10, 20, …; a tournament's at 15, 25, …
        await table_round(store, 10.0 * k + 10, DUMP if k % 2 == 0 else HONEST)
        await tournament_round(store, k + 1, 10.0 * k + 15, DUMP if k % 2 == 0 else HONEST)
    await tournament_round(store, 1, 15.0, [(-3, 0, None, False)], table="y1")  # another table, same time
    rounds = await played_rounds(store, G)
    assert len(rounds) == 21 and [r.tournament for r in rounds[:4]] == [False, True, True, False]
    assert [len(r.seats) for r in rounds[1:3]] == [3, 1]  # each of the tournament's tables is a round
    latest = await played_rounds(store, G, limit=5)
    assert latest == rounds[-5:] and [r.tournament for r in latest] == [True, False, True, False, True]
    assert [r.round_id for r in latest if r.tournament] == [8, 9, 10]
    assert await played_rounds(store, G, limit=0) == []
    (pair,) = flagged(rounds)
    assert (pair.giver, pair.taker, pair.games, pair.rounds, pair.dumps) == (ANN, BEN, 2, 20, 10)
    assert (pair.chips, pair.tournament_chips) == (75, 75)  # apart: tournament chips are not server chips
    only_tournaments = [r for r in rounds if r.tournament]
    (pair,) = flagged(only_tournaments)
    assert (pair.games, pair.dumps, pair.chips, pair.tournament_chips) == (1, 5, 0, 75)


async def test_a_round_is_never_read_in_part(store: Store) -> None:
    """The latest rounds are read newest first with a limit of seats (five a round): the round that
    limit cuts short is left out, never read short."""
    await a_tournament(store)
    for k in range(4):
        await tournament_round(store, k + 1, 10.0 * k, HONEST)
    for limit in (1, 2, 3, 4, 5):
        latest = await played_rounds(store, G, limit=limit)
        assert [(r.round_id, len(r.seats)) for r in latest] == [(k, 3) for k in range(max(1, 5 - limit), 5)]


async def test_they_are_append_only_but_for_a_forget(store: Store) -> None:
    await a_tournament(store, status="finished")
    await tournament_round(store, 1, 5.0, DUMP)
    refused = [
        "UPDATE tournament_round_seats SET net = net + 1 WHERE user_id = ?",
        "UPDATE tournament_round_seats SET user_id = 5 WHERE user_id = ?",
        "UPDATE tournament_round_seats SET seat = '5' WHERE user_id = ?",
        "DELETE FROM tournament_round_seats WHERE user_id = ?",
    ]
    if store.dialect == "postgres":
        refused.append("TRUNCATE tournament_round_seats")
    for sql in refused:
        with pytest.raises(IntegrityError, match="append-only"):
            async with store.transaction() as tx:
                await tx.execute(sql, (ANN,) * sql.count("?"))
    with pytest.raises(IntegrityError, match="append-only"):  # a permit lets the id through, nothing else
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO forget_permits (user_id, pseudonym) VALUES (?, ?)", (ANN, -(2**62)))
            await tx.execute(
                "UPDATE tournament_round_seats SET user_id = ?, net = 0 WHERE user_id = ?", (-(2**62), ANN)
            )
    before = await store.fetchall(f"{SEATS} FROM tournament_round_seats ORDER BY user_id")
    exported = await privacy.export(store, ANN)
    assert exported is not None
    assert [(r["user_id"], r["net"]) for r in exported["tables"]["tournament_round_seats"]] == [(ANN, -15)]

    done = await privacy.forget(store, ANN, "member")

    assert done is not None and done.by_table["tournament_round_seats"] == 1
    after = await store.fetchall(f"{SEATS} FROM tournament_round_seats ORDER BY user_id")
    pseudonym = (str(done.pseudonym), done.pseudonym)
    assert after == sorted(
        ((*r[:2], *pseudonym, *r[4:]) if r[3] == ANN else r for r in before), key=lambda r: r[3]
    )  # the seat and the member, nothing else
    assert await privacy.export(store, ANN) is None
    assert await store.fetchall("SELECT * FROM forget_permits") == []


async def test_bot_migrate_copies_them(tmp_path: Path, target: str) -> None:
    source = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    async with open_store(source) as db:
        await a_tournament(db, status="finished")
        await tournament_round(db, 1, 5.0, DUMP)
        await tournament_round(db, 2, 6.0, HONEST)
    assert await asyncio.to_thread(main, ["--from", source, "--to", target]) == 0
    columns = ", ".join(COPIED["tournament_round_seats"])
    query = f"SELECT {columns} FROM tournament_round_seats ORDER BY 1, 2, 3"
    async with open_store(source) as old, open_store(target) as new:
        copied = await new.fetchall(query)
        assert len(copied) == 6 and copied == await old.fetchall(query)
        assert await played_rounds(new, G) == await played_rounds(old, G)
