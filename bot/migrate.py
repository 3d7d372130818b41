"""Copy a deployment into a new, empty store: ``python -m bot.migrate --from … --to …``.

Made for the move from the embedded SQLite file to a shared PostgreSQL
(``--from sqlite:///data/flipflop.sqlite3 --to postgresql://…``), but any
store to any store works. Stop the bot first: what it writes after the copy
is read would not be copied.

The source is read in one transaction (one consistent moment); the target
is written in one transaction that also verifies the copy — row counts,
every balance, every account's ledger sum equal to its balance, the chips at
open tables — and rolls back whole if anything differs. Ids are kept (ledger
entries, rounds), and PostgreSQL's id sequences continue after them. A target
that already holds data is refused, never merged into.

Exit status: 0 copied and verified; 1 refused or failed (the message says
why, the target is unchanged); 2 the command line is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.storage import Row, Store, StoreError, Tx, open_store, parse_target

COPIED: dict[str, tuple[str, ...]] = {
    "accounts": ("guild_id", "user_id", "balance", "last_daily", "created_at"),
    "guild_settings": (
        "guild_id",
        "starting_balance",
        "daily_amount",
        "default_stake",
        "default_buy_in",
        "turn_seconds",
        "season_months",
        "tables",
        "away_rounds",
    ),
    "ledger": (
        "id",
        "guild_id",
        "user_id",
        "change",
        "balance_after",
        "reason",
        "reference",
        "actor_id",
        "created_at",
        "note",
    ),
    "tables": (
        "table_id",
        "guild_id",
        "channel_id",
        "status",
        "chips",
        "refunds",
        "version",
        "state",
        "updated_at",
    ),
    "rounds": ("id", "guild_id", "table_id", "number", "ended_at", "transcript", "result", "reveal", "away"),
    "round_players": ("round_id", "guild_id", "user_id"),
    "round_seats": (
        "guild_id",
        "user_id",
        "round_id",
        "seat",
        "opening",
        "net",
        "won_game",
        "won_flip",
        "won_flop",
        "best_pot",
        "way",
        "dropped",
        "caught",
    ),
    "ratings": ("guild_id", "user_id", "mu", "sigma", "ordinal", "games", "updated_at"),
    "language_choices": ("guild_id", "user_id", "language"),
    "forget_permits": ("user_id", "pseudonym"),
    "privacy_requests": ("id", "pseudonym", "requested_by", "rows_changed", "created_at"),
    "card_styles": ("guild_id", "user_id", "style"),
    "rating_changes": ("guild_id", "user_id", "rated_at", "ordinal_before", "ordinal_after"),
    "notify_choices": ("guild_id", "user_id", "turn_pings"),
    "turn_pings": ("table_id", "channel_id", "user_id", "round_number", "message_id"),
    "server_welcomes": ("guild_id", "welcomed_at"),
    "tournaments": (
        "tournament_id",
        "guild_id",
        "channel_id",
        "status",
        "chips",
        "refunds",
        "version",
        "state",
        "updated_at",
    ),
    "tournament_results": ("tournament_id", "guild_id", "user_id", "place", "prize", "entrants", "ended_at"),
    "tournament_round_seats": (
        "tournament_id",
        "round_number",
        "seat",
        "guild_id",
        "user_id",
        "table_id",
        "ended_at",
        "net",
        "won_game",
        "caught",
    ),
    "forget_key": ("id", "key"),
    "forget_marks": ("mark", "forgotten_at"),
}
"""Every table of the schema and its columns, in an order that satisfies the foreign keys."""
SERIAL_IDS = ("ledger", "rounds", "privacy_requests")
"""Tables whose ``id`` the database hands out: PostgreSQL's sequence must continue after the copied ids."""


class MigrateError(Exception):
    """The copy was refused or did not verify; the target is unchanged."""


@dataclass(frozen=True)
class Copied:
    """What was copied, for the closing message."""

    rows: dict[str, int]
    accounts: int
    chips_at_tables: int


async def read_all(source: Store) -> dict[str, list[Row]]:
    """Every row of every table, read in one transaction."""
    async with source.transaction() as tx:
        return {
            table: await tx.fetchall(f"SELECT {', '.join(cols)} FROM {table} ORDER BY 1, 2")
            for table, cols in COPIED.items()
        }


async def check_empty(target: Store) -> None:
    """Refuse a target that holds any row: a copy is never merged into existing chips."""
    for table in COPIED:
        row = await target.fetchone(f"SELECT COUNT(*) FROM {table}")
        if row and row[0]:
            raise MigrateError(
                f"The target is not empty ({table} has {row[0]} rows). bot.migrate only copies into a"
                " new, empty database; nothing was written."
            )


async def verify(tx: Tx, data: dict[str, list[Row]]) -> list[str]:
    """Every difference between the source rows and the target, inside the copy's transaction."""
    problems: list[str] = []
    for table, rows in data.items():
        row = await tx.fetchone(f"SELECT COUNT(*) FROM {table}")
        count = row[0] if row else 0
        if count != len(rows):
            problems.append(f"{table}: {len(rows)} rows in the source, {count} in the target")
    want = sorted((g, u, b) for g, u, b, *_ in data["accounts"])
    got = await tx.fetchall("SELECT guild_id, user_id, balance FROM accounts ORDER BY guild_id, user_id")
    problems += [
        f"account {g}/{u}: balance {b} in the source, not in the target" for g, u, b in set(want) - set(got)
    ]
    sums: Counter[tuple[int, int]] = Counter()
    for _, g, u, change, *_ in data["ledger"]:
        sums[(g, u)] += change
    for g, u, balance, total in await tx.fetchall(
        "SELECT a.guild_id, a.user_id, a.balance, COALESCE(SUM(l.change), 0) FROM accounts a"
        " LEFT JOIN ledger l ON l.guild_id = a.guild_id AND l.user_id = a.user_id"
        " GROUP BY a.guild_id, a.user_id, a.balance"
    ):
        if balance != total or total != sums[(g, u)]:
            problems.append(
                f"account {g}/{u}: balance {balance}, ledger sum {total} (source ledger sum {sums[(g, u)]})"
            )
    at_tables = sum(chips for _, _, _, status, chips, *_ in data["tables"] if status != "closed")
    row = await tx.fetchone("SELECT COALESCE(SUM(chips), 0) FROM tables WHERE status != 'closed'")
    if row != (at_tables,):
        problems.append(f"chips at open tables: {at_tables} in the source, {row and row[0]} in the target")
    return problems


async def copy(source: Store, target: Store) -> Copied:
    """Copy every row from ``source`` into the empty ``target`` and verify it, in one transaction."""
    await check_empty(target)
    data = await read_all(source)
    async with target.transaction() as tx:
        for table, cols in COPIED.items():
            marks = ", ".join("?" * len(cols))
            await tx.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", data[table])
        if target.dialect == "postgres":
            for table in SERIAL_IDS:
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                    f" FROM {table}"
                )
        problems = await verify(tx, data)
        if problems:
            shown = "\n  ".join(problems[:20])
            more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
            raise MigrateError(
                f"The copy did not verify, so it was rolled back:\n  {shown}{more}"
                "\nIf the source's own balances and ledger disagree, that is where to look first."
            )
    at_tables = sum(chips for _, _, _, status, chips, *_ in data["tables"] if status != "closed")
    return Copied({t: len(r) for t, r in data.items()}, len(data["accounts"]), at_tables)


async def run(source_url: str, target_url: str) -> Copied:
    """Open both stores (the target is migrated to this code's schema), copy, close."""
    if parse_target(source_url) == parse_target(target_url):
        raise MigrateError("--from and --to name the same database.")
    dialect, where = parse_target(source_url)
    if dialect == "sqlite" and not Path(where).is_file():
        raise MigrateError(f"There is no SQLite file at {where}.")
    async with open_store(source_url) as source, open_store(target_url) as target:
        return await copy(source, target)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.migrate",
        description="Copy the bot's data into a new, empty database and verify every balance.",
    )
    parser.add_argument("--from", dest="source", required=True, help="e.g. sqlite:///data/flipflop.sqlite3")
    parser.add_argument("--to", dest="target", required=True, help="e.g. postgresql://bot@db/flipflop")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(run(args.source, args.target))
    except (MigrateError, StoreError) as e:
        print(f"bot.migrate: {e}", file=sys.stderr)
        return 1
    except (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        print(f"bot.migrate: the copy failed and nothing was copied: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - an operator tool answers in one line, never a traceback
        print(f"bot.migrate: unexpected {type(e).__name__}, nothing was copied: {e}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{table} {n}" for table, n in copied.rows.items())
    print(f"Copied {counts}.")
    print(
        f"Verified: {copied.accounts} balances equal their ledger sums and the source;"
        f" {copied.chips_at_tables} chips at open tables."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
