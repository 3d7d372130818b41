"""Forgetting and exporting a member on either store, and the append-only tables' one exception.

The members here have Discord-sized ids, as real ones do: a forgotten id is
matched as a whole number or text, never as digits inside another number.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot import privacy
from bot.audit import audit_guild
from bot.cards import CardFaces
from bot.cards.styles import CardStyles
from bot.history import leaderboard_by_rating, round_story, stats
from bot.i18n.languages import LanguageBook
from bot.migrate import COPIED
from bot.privacy import PERSONAL_DATA, AtTable, forget
from bot.storage import IntegrityError, Store, open_store
from cogs.flipflop.pings import NotifyBook
from tests.bot.runtime.fakes import FakeClock, Harness

G, CH = 2**59, 2**59 + 7
ANN, BEN, CAT, DAN = 2**59 + 11, 2**59 + 12, 2**59 + 13, 2**59 + 14
NAMES = {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan"}


async def finished_game(h: Harness, members: tuple[int, ...] = (ANN, BEN, CAT), channel: int = CH) -> str:
    """A whole game played by timeouts to its end (rounds, seats, ratings, a closed table)."""
    table = await h.runtime.open(G, channel, members[0], NAMES[members[0]], 5, 40, 60)
    await h.runtime.placed(table.id, 77)
    for m in members[1:]:
        await h.runtime.join(table.id, m, NAMES[m])
    await h.runtime.start(table.id, members[0], may_manage=False)
    await h.until(lambda: h.runtime.get(table.id) is None, limit=2000)
    return table.id


async def everything(db: Store) -> dict[str, list[Any]]:
    return {t: await db.fetchall(f"SELECT {', '.join(c)} FROM {t} ORDER BY 1, 2") for t, c in COPIED.items()}


def mentions_anywhere(dump: dict[str, list[Any]], user_id: int) -> list[str]:
    """Every table whose rows still hold the id, as a value or inside a text."""
    found = []
    for table, rows in dump.items():
        for row in rows:
            if any(v == user_id or (isinstance(v, str) and str(user_id) in v) for v in row):
                found.append(table)
                break
    return found


@pytest.fixture
async def played(target: str) -> Any:
    db = open_store(target)
    await db.open()
    try:
        h = Harness(db, FakeClock())
        await h.ledger.grant(G, ANN, 30, actor_id=BEN)
        await h.ledger.grant(G, BEN, 30, actor_id=ANN)
        await LanguageBook(db).choose(G, ANN, "ko")
        await CardStyles(db, CardFaces()).choose(G, ANN, "text")
        await NotifyBook(db).choose(G, ANN, False)
        async with db.transaction() as tx:  # a turn ping left standing (saved for a restart)
            await tx.execute("INSERT INTO turn_pings VALUES ('gone', ?, ?, 1, ?)", (CH, ANN, CH + 7))
        await finished_game(h)
        yield h
    finally:
        await db.close()


def test_every_column_that_names_a_member_is_on_the_one_list() -> None:
    listed = {(s.table, s.column) for s in PERSONAL_DATA}
    not_members = {("forget_permits", "user_id")}  # the permit itself, empty outside a forget
    naming = {
        (table, column)
        for table, columns in COPIED.items()
        for column in columns
        if column in ("user_id", "actor_id") or column.endswith("_user_id")
    }
    assert naming - not_members <= listed, "add these to bot.privacy.PERSONAL_DATA"
    assert {s.table for s in PERSONAL_DATA} <= set(COPIED)
    assert all(column in COPIED[table] for table, column in listed)


async def test_forget_replaces_the_id_everywhere_and_every_amount_stays(played: Harness) -> None:
    h, db = played, played.db
    before = await everything(db)
    assert set(mentions_anywhere(before, ANN)) >= {
        "accounts", "ledger", "rounds", "round_players", "round_seats", "ratings", "language_choices",
        "card_styles", "tables",
    }  # fmt: skip
    balances = {r[1]: r[2] for r in before["accounts"]}
    rounds_before = [json.loads(r[5]) for r in before["rounds"]]
    assert any(str(ANN) in json.loads(r[8]) for r in before["rounds"])  # away (their timeouts): a seat id

    done = await forget(db, ANN, "member", now=5.0)

    assert done is not None and done.pseudonym <= privacy.PSEUDONYM_FLOOR
    after = await everything(db)
    assert mentions_anywhere(after, ANN) == []
    for table in ("ledger", "rounds", "round_players", "round_seats", "ratings", "accounts"):
        assert len(after[table]) == len(before[table]), table  # rewritten, never deleted or added
    assert {r[1]: r[2] for r in after["accounts"]} == {
        (done.pseudonym if u == ANN else u): b for u, b in balances.items()
    }
    assert [r[3] for r in after["ledger"]] == [r[3] for r in before["ledger"]]  # every change, in order
    grants = [r for r in after["ledger"] if r[5] == "grant"]
    assert [(r[2], r[7]) for r in grants] == [(done.pseudonym, BEN), (BEN, done.pseudonym)]
    audit = await audit_guild(h.ledger, G)
    assert audit.ok, audit.lines()
    # the rounds still replay, with the pseudonym in the seat the member had
    for (round_id, *_), old in zip(after["rounds"], rounds_before, strict=True):
        story = await round_story(db, G, int(round_id))
        assert story is not None
        seats = [s["id"] for s in story.transcript["seats"]]
        assert seats == [str(done.pseudonym) if s["id"] == str(ANN) else s["id"] for s in old["seats"]]
    closed = json.loads(after["tables"][0][7])
    assert closed["names"].get(str(done.pseudonym)) == "" and "Ann" not in json.dumps(closed)
    # stats and leaderboards no longer show them; the others' are as they were
    assert all(u != done.pseudonym for u, _ in await h.ledger.leaderboard(G))
    assert done.pseudonym not in [r.member for r in await leaderboard_by_rating(db, G)]
    assert (await stats(db, G, BEN)).rounds == len(after["rounds"])
    requests = await db.fetchall(
        "SELECT pseudonym, requested_by, rows_changed, created_at FROM privacy_requests"
    )
    assert requests == [(done.pseudonym, "member", done.rows, 5.0)]
    assert await db.fetchall("SELECT * FROM forget_permits") == []
    assert done.rows == sum(done.by_table.values()) > len(after["ledger"]) // 3


async def test_a_second_forget_finds_nothing_left_and_changes_nothing(played: Harness) -> None:
    assert await forget(played.db, ANN, "operator") is not None
    before = await everything(played.db)
    assert await forget(played.db, ANN, "operator") is None
    assert await everything(played.db) == before
    assert await forget(played.db, 2**59 + 999, "member") is None  # never stored at all
    assert len(await played.db.fetchall("SELECT id FROM privacy_requests")) == 1


async def test_forget_is_refused_while_a_table_holds_the_member(played: Harness) -> None:
    h = played
    table = await h.runtime.open(G, CH + 1, DAN, "Dan", 5, 40, 60)
    await h.runtime.join(table.id, ANN, "Ann")
    before = await everything(h.db)
    with pytest.raises(AtTable) as refused:
        await forget(h.db, ANN, "member")
    assert refused.value.held.tables == ((G, CH + 1),) and not refused.value.held.tournaments
    assert await everything(h.db) == before
    assert await privacy.export(h.db, ANN) is not None
    # once the table has closed, they can be forgotten, the closed table's record too
    await h.runtime.cancel(table.id, DAN, may_manage=False)
    done = await forget(h.db, ANN, "member")
    assert done is not None and done.by_table["tables"] == 2


async def test_export_holds_every_row_about_them_and_hides_an_open_table(played: Harness) -> None:
    h = played
    table = await h.runtime.open(G, CH + 1, ANN, "Ann", 5, 40, 60)
    data = await privacy.export(h.db, ANN, now=9.0)
    assert data is not None and data["member"] == str(ANN) and data["exported_at"] == 9.0
    found = data["tables"]
    assert set(found) == {t.table for t in PERSONAL_DATA} - {
        "tournaments",
        "tournament_results",
        "tournament_round_seats",
    }  # never entered
    ledger_ids = [
        r[0]
        for r in await h.db.fetchall("SELECT id FROM ledger WHERE user_id = ? OR actor_id = ?", (ANN, ANN))
    ]
    assert [r["id"] for r in found["ledger"]] == sorted(ledger_ids)
    assert all(isinstance(r["transcript"], dict) for r in found["rounds"])  # JSON, not a string in a string
    assert found["language_choices"] == [{"guild_id": G, "user_id": ANN, "language": "ko"}]
    assert found["card_styles"] == [{"guild_id": G, "user_id": ANN, "style": "text"}]
    states = {r["table_id"]: r["state"] for r in found["tables"]}
    assert states[table.id] is None  # still open: others' cards and the next seed stay hidden
    assert any(s is not None and s["status"] == "closed" for s in states.values())
    name, content = privacy.export_file(data, limit=10**9)
    assert name == f"flipflop-data-{ANN}.json" and json.loads(content) == json.loads(json.dumps(data))
    small_name, small = privacy.export_file(data, limit=100)
    assert small_name.endswith(".json.gz") and small[:2] == b"\x1f\x8b"
    assert await privacy.export(h.db, 2**59 + 999) is None


async def test_an_ordinary_update_or_delete_of_history_is_still_refused(store: Store) -> None:
    h = Harness(store, FakeClock())
    await finished_game(h)
    statements = [
        "UPDATE ledger SET change = change + 1",
        "UPDATE ledger SET user_id = 5 WHERE user_id = ?",
        "DELETE FROM ledger WHERE user_id = ?",
        "UPDATE rounds SET ended_at = 0 WHERE id IN (SELECT round_id FROM round_players WHERE user_id = ?)",
        "UPDATE rounds SET transcript = '{}'",
        "DELETE FROM rounds WHERE id IN (SELECT round_id FROM round_players WHERE user_id = ?)",
        "UPDATE round_players SET user_id = 5 WHERE user_id = ?",
        "DELETE FROM round_players WHERE user_id = ?",
        "UPDATE round_seats SET net = net + 1 WHERE user_id = ?",
        "UPDATE round_seats SET user_id = 5 WHERE user_id = ?",
        "DELETE FROM round_seats WHERE user_id = ?",
        "UPDATE privacy_requests SET rows_changed = 0",
        "DELETE FROM privacy_requests",
    ]
    await forget(store, CAT, "operator")
    for sql in statements:
        with pytest.raises(IntegrityError, match="append-only"):
            async with store.transaction() as tx:
                await tx.execute(sql, (ANN,) * sql.count("?"))
    # with a permit, only the id into that pseudonym goes through: never an amount, nor another id
    with pytest.raises(IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO forget_permits (user_id, pseudonym) VALUES (?, ?)", (ANN, -(2**62)))
            await tx.execute("UPDATE ledger SET change = change + 1 WHERE user_id = ?", (ANN,))
    with pytest.raises(IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO forget_permits (user_id, pseudonym) VALUES (?, ?)", (ANN, -(2**62)))
            await tx.execute("UPDATE round_players SET user_id = ? WHERE user_id = ?", (-(2**62) - 1, ANN))
    assert await store.fetchall("SELECT * FROM forget_permits") == []
    assert await h.ledger.audit(G) == []


async def test_forgetting_ten_thousand_ledger_rows_is_quick(store: Store) -> None:
    """The issue's limit (2 s), with room: bench/privacy_bench.py measures it properly (among 20 others
    like them; four here: filling 210,000 rows took PostgreSQL half a minute of the suite)."""
    from bench.privacy_bench import fill

    await fill(store, rows=10_000, others=4, user_id=ANN)
    started = asyncio.get_running_loop().time()
    done = await forget(store, ANN, "operator")
    took = asyncio.get_running_loop().time() - started
    assert done is not None and done.by_table["ledger"] >= 10_000
    assert took < 8.0, took  # generous: the machine running the tests may be busy


async def test_coming_back_after_a_forget_mints_no_chips(played: Harness) -> None:
    """Forget, then /balance and /daily at once: no starting chips, and the daily a day after the
    forget's day (a forget minted 1,200 chips a minute, at will); the mark is no id and keeps no time
    (the day only), and after 30 days a return starts anew."""
    from bot.forget_marks import DAY, MARK_SECONDS
    from bot.ledger import DailyNotReady

    h, db = played, played.db
    h.ledger.clock = h.clock  # accounts open on the test's clock
    now = h.clock()
    assert await forget(db, ANN, "member", now=now) is not None
    minted = await h.ledger.minted(G)
    assert await h.ledger.balance(G, ANN) == 0  # opened again: no starting chips
    day = (int(now // DAY) + 1) * DAY  # the end of the forget's day
    assert await db.fetchall("SELECT forgotten_at FROM forget_marks") == [(day,)]
    with pytest.raises(DailyNotReady) as wait:
        await h.ledger.claim_daily(G, ANN, now + 60)
    assert wait.value.next_at == day + DAY and DAY <= wait.value.next_at - now <= 2 * DAY
    assert await h.ledger.claim_daily(G, ANN, day + DAY) == (200, 200)
    assert await h.ledger.minted(G) == minted + 200
    assert mentions_anywhere(await everything(db), ANN) != []  # (the new account, by its own id)
    marks = await db.fetchall("SELECT mark FROM forget_marks")
    assert len(marks) == 1 and str(ANN) not in marks[0][0] and len(marks[0][0]) == 64
    # a second forget renews the mark; 30 days after it, coming back is as any new member's
    assert await forget(db, ANN, "member", now=now + 100) is not None
    h.clock.now = day + MARK_SECONDS + 1  # type: ignore[attr-defined]
    assert await h.ledger.balance(G + 1, ANN) == 1000
    assert await forget(db, BEN, "member", now=h.clock()) is not None  # and the old mark is dropped
    assert len(await db.fetchall("SELECT mark FROM forget_marks")) == 1
