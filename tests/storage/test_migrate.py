"""``python -m bot.migrate``: a SQLite deployment copied into an empty store, ids kept, verified."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.i18n.languages import LanguageBook
from bot.ledger import Ledger
from bot.migrate import COPIED, main
from bot.storage import SCHEMA_VERSION, Store, open_store
from cogs.flipflop.pings import NotifyBook

G, ANN, BEN = 2**61, 2**61 + 1, 2**61 + 2


async def _deployment(path: Path) -> str:
    """A SQLite file with accounts, ledger entries, settings, an open and a closed table, a round."""
    url = f"sqlite:///{path}"
    async with open_store(url) as db:
        ledger = Ledger(db)
        await ledger.update_settings(G, default_stake=10, default_buy_in=100, season_months=3)
        await ledger.grant(G, ANN, 50, actor_id=BEN)
        await ledger.claim_daily(G, BEN, now=100.0)
        await LanguageBook(db).choose(G, BEN, "be")
        await NotifyBook(db).choose(G, ANN, False)
        async with db.transaction() as tx:
            await ledger.debit(tx, G, ANN, 100, "buy_in", reference="t1")
            await ledger.debit(tx, G, BEN, 100, "buy_in", reference="t1")
            for table_id, status, chips in (("t1", "playing", 200), ("t0", "closed", 0)):
                await tx.execute(
                    "INSERT INTO tables VALUES (?, ?, ?, ?, ?, '{}', 1, '{\"seats\": []}', 5.5)",
                    (table_id, G, G + 9, status, chips),
                )
            row = await tx.fetchone(
                "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
                " VALUES (?, 't0', 1, 9.5, '[]', '{}') RETURNING id",
                (G,),
            )
            assert row is not None
            await tx.executemany(
                "INSERT INTO round_players VALUES (?, ?, ?)", [(row[0], G, ANN), (row[0], G, BEN)]
            )
            await tx.executemany(
                "INSERT INTO rating_changes VALUES (?, ?, 9.5, 0.0, ?)", [(G, ANN, 1.5), (G, BEN, -1.5)]
            )
            await tx.execute("INSERT INTO turn_pings VALUES ('t1', ?, ?, 1, ?)", (G + 9, ANN, G + 10))
    return url


async def _dump(db: Store) -> dict[str, list[tuple[object, ...]]]:
    return {
        table: await db.fetchall(f"SELECT {', '.join(cols)} FROM {table} ORDER BY 1, 2")
        for table, cols in COPIED.items()
    }


async def _migrate(*argv: str) -> int:
    return await asyncio.to_thread(main, list(argv))


async def test_a_deployment_is_copied_whole_and_verified(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await _deployment(tmp_path / "live.sqlite3")
    assert await _migrate("--from", source, "--to", target) == 0
    out = capsys.readouterr().out
    assert (
        "Copied accounts 2, guild_settings 1, ledger 6, tables 2, rounds 1, round_players 2,"
        " round_seats 0, ratings 0, language_choices 1, forget_permits 0, privacy_requests 0,"
        " card_styles 0, rating_changes 2, notify_choices 1, turn_pings 1, server_welcomes 0,"
        " tournaments 0, tournament_results 0, tournament_round_seats 0, forget_key 0, forget_marks 0." in out
    )
    assert "Verified: 2 balances equal their ledger sums and the source; 200 chips at open tables." in out
    async with open_store(source) as old, open_store(target) as new:
        assert await _dump(new) == await _dump(old)
        ledger = Ledger(new)
        assert await ledger.audit(G) == []
        assert await ledger.grant(G, ANN, 1, actor_id=BEN) == 951  # the id sequence continues after the copy
        assert await new.fetchone("SELECT MAX(id) FROM ledger") == (7,)


async def test_a_target_with_data_is_refused_and_unchanged(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await _deployment(tmp_path / "live.sqlite3")
    async with open_store(target) as db:
        await Ledger(db).balance(G, ANN)
    assert await _migrate("--from", source, "--to", target) == 1
    assert "The target is not empty (accounts has 1 rows)" in capsys.readouterr().err
    async with open_store(target) as db:
        assert await db.fetchall("SELECT reason FROM ledger") == [("starting",)]


async def test_a_source_that_does_not_add_up_is_not_copied(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "live.sqlite3"
    source = await _deployment(path)
    con = sqlite3.connect(path)
    con.execute("UPDATE accounts SET balance = balance + 1 WHERE user_id = ?", (BEN,))
    con.commit()
    con.close()
    assert await _migrate("--from", source, "--to", target) == 1
    err = capsys.readouterr().err
    assert "did not verify, so it was rolled back" in err and f"account {G}/{BEN}: balance 1101" in err
    async with open_store(target) as db:
        assert await db.fetchone("SELECT COUNT(*) FROM accounts") == (0,)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--from", "sqlite:///{tmp}/missing.sqlite3", "--to", "sqlite:///{tmp}/new.sqlite3"],
            "no SQLite file",
        ),
        (["--from", "sqlite:///{tmp}/a.sqlite3", "--to", "sqlite:///{tmp}/a.sqlite3"], "the same database"),
        (["--from", "sqlite:///{tmp}/a.sqlite3", "--to", "mysql://x/y"], "scheme 'mysql' is not supported"),
        (
            ["--from", "sqlite:///{tmp}/a.sqlite3", "--to", "postgresql://u:pw@127.0.0.1:1/x"],
            "Can not connect",
        ),
        (["--from", "sqlite:///{tmp}/newer.sqlite3", "--to", "sqlite:///{tmp}/new.sqlite3"], "newer version"),
    ],
)
async def test_bad_runs_say_why_in_one_line(
    tmp_path: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await _deployment(tmp_path / "a.sqlite3")
    con = sqlite3.connect(tmp_path / "newer.sqlite3")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    assert await _migrate(*(a.format(tmp=tmp_path) for a in argv)) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and "pw" not in err
    assert not (tmp_path / "missing.sqlite3").exists()


def test_a_wrong_command_line_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--from", "sqlite:///x.sqlite3"])
    assert info.value.code == 2
    assert "--to" in capsys.readouterr().err


async def test_every_table_and_column_of_the_schema_is_copied(tmp_path: Path) -> None:
    async with open_store(tmp_path / "s.sqlite3") as db:
        tables = await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'sqlite_sequence'"
        )
        assert {t for (t,) in tables} == set(COPIED)
        for table, cols in COPIED.items():
            assert tuple(r[1] for r in await db.fetchall(f"PRAGMA table_info({table})")) == cols
