"""Are the chips right? One server's, or the whole database's: ``python -m bot.audit``.

Chips come into a server only through the minting reasons (starting
balances, the house float, dailies, grants, less takes: ``ledger.MINTING_REASONS``); every
other ledger entry moves chips between a balance and a table. So, per server:

    minted = balances + chips at open tables (stacks, lobby buy-ins and pots)

and when it does not hold, these say where to look:

- an account whose balance is not the sum of its ledger entries;
- a table whose ledger entries (buy-ins, cash-outs, refunds, by reference)
  do not add up to minus what it holds now (0 once it is closed);
- an open table whose saved chips are not what it would refund if it closed;
- a ledger entry that moves chips without naming a table.

A tournament counts as a table here: its row holds the entry fees it has
taken and not yet refunded or paid out as prizes (``bot.tournament.store``).

The same checks back ``/flipflop admin audit`` and the tests' "conserved"
assertions. Exit status of the command: 0 everything balances; 1 a server
does not (each difference and its rows are printed) or the database can not
be read; 2 the command line is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.ledger import MINTING_REASONS, Ledger
from bot.settings import SettingsError, load_settings
from bot.storage import StoreError, open_store, parse_target, store_target

SHOWN_ROWS = 10
"""Ledger ids listed per problem (the rest are counted)."""


@dataclass(frozen=True)
class TableFlow:
    """A table whose chips in and out of the ledger do not match what it holds."""

    table_id: str
    status: str
    """``lobby``, ``playing``, ``closed``, or ``missing`` (entries name a table that was never saved)."""
    held: int
    """Chips the saved table holds now (0 when closed or missing)."""
    ledger_sum: int
    """The sum of its ledger entries: minus what went to it, plus what came back."""
    entries: tuple[int, ...]
    """The first ledger ids to look at."""
    count: int

    @property
    def difference(self) -> int:
        """Chips that went to the table and are neither there nor back (negative: came back twice)."""
        return -self.ledger_sum - self.held


@dataclass(frozen=True)
class Audit:
    """One server's chips, checked."""

    guild_id: int
    minted: int
    balances: int
    at_tables: int
    accounts: list[str] = field(default_factory=list)
    """``Ledger.audit``: each account whose balance is not the sum of its entries."""
    tables: list[TableFlow] = field(default_factory=list)
    refunds: list[str] = field(default_factory=list)
    """Open tables whose saved chips differ from what they would refund."""
    loose: tuple[int, ...] = ()
    """Ledger ids that move chips without naming a table."""

    @property
    def difference(self) -> int:
        """Balances plus chips at tables, minus minted: 0 when no chip appeared or vanished."""
        return self.balances + self.at_tables - self.minted

    @property
    def ok(self) -> bool:
        """Everything balances."""
        return not (self.difference or self.accounts or self.tables or self.refunds or self.loose)

    def lines(self) -> list[str]:
        """The findings, one line each, for an operator (empty when ``ok``)."""
        out = list(self.accounts)
        for t in self.tables:
            ids = ", ".join(map(str, t.entries)) + (
                f" … ({t.count} in all)" if t.count > len(t.entries) else ""
            )
            out.append(
                f"table {t.table_id} ({t.status}, holds {t.held}): its ledger entries sum to {t.ledger_sum},"
                f" so {t.difference} chips are unaccounted for; ledger ids {ids}"
            )
        out += self.refunds
        if self.loose:
            out.append(f"ledger ids {', '.join(map(str, self.loose))} move chips without naming a table")
        return out


async def audit_guild(ledger: Ledger, guild_id: int) -> Audit:
    """Check one server's chips (reads only)."""
    db = ledger.db
    marks = ",".join("?" * len(MINTING_REASONS))
    flows = await db.fetchall(
        f"SELECT reference, COALESCE(SUM(change), 0), COUNT(*), MIN(id) FROM ledger"
        f" WHERE guild_id = ? AND reason NOT IN ({marks}) GROUP BY reference",
        (guild_id, *MINTING_REASONS),
    )
    saved = {
        str(tid): (str(status), int(chips), str(refunds))
        for tid, status, chips, refunds in await db.fetchall(
            "SELECT table_id, status, chips, refunds FROM tables WHERE guild_id = ?"
            " UNION ALL SELECT tournament_id, CASE WHEN status IN ('open', 'running') THEN status"
            " ELSE 'closed' END, chips, refunds FROM tournaments WHERE guild_id = ?",
            (guild_id, guild_id),
        )
    }
    tables: list[TableFlow] = []
    loose: tuple[int, ...] = ()
    seen: set[str] = set()
    for reference, total, count, _ in flows:
        if reference is None:
            rows = await db.fetchall(
                f"SELECT id FROM ledger WHERE guild_id = ? AND reference IS NULL AND reason NOT IN ({marks})"
                " ORDER BY id LIMIT ?",
                (guild_id, *MINTING_REASONS, SHOWN_ROWS),
            )
            loose = tuple(int(r[0]) for r in rows)
            continue
        seen.add(str(reference))
        status, chips, _ = saved.get(str(reference), ("missing", 0, "{}"))
        held = chips if status != "closed" else 0
        if int(total) + held:
            rows = await db.fetchall(
                "SELECT id FROM ledger WHERE guild_id = ? AND reference = ? ORDER BY id LIMIT ?",
                (guild_id, reference, SHOWN_ROWS),
            )
            tables.append(
                TableFlow(
                    str(reference), status, held, int(total), tuple(int(r[0]) for r in rows), int(count)
                )
            )
    for tid, (status, chips, _) in saved.items():
        if tid not in seen and status != "closed" and chips:
            tables.append(TableFlow(tid, status, chips, 0, (), 0))
    refunds = []
    for tid, (status, chips, text) in saved.items():
        if status == "closed":
            continue
        try:
            owed = sum(int(v) for v in json.loads(text).values())
        except (ValueError, AttributeError, TypeError):
            refunds.append(f"table {tid} ({status}): its saved refunds are not readable: {text[:80]!r}")
            continue
        if owed != chips:
            refunds.append(f"table {tid} ({status}): holds {chips} chips but would refund {owed}")
    return Audit(
        guild_id,
        minted=await ledger.minted(guild_id),
        balances=await ledger.total_balances(guild_id),
        at_tables=await ledger.chips_at_tables(guild_id),
        accounts=await ledger.audit(guild_id),
        tables=tables,
        refunds=refunds,
        loose=loose,
    )


async def audit_all(ledger: Ledger) -> list[Audit]:
    """Every server in the database, checked."""
    rows = await ledger.db.fetchall(
        "SELECT guild_id FROM accounts UNION SELECT guild_id FROM ledger UNION SELECT guild_id FROM tables"
        " UNION SELECT guild_id FROM tournaments"
        " ORDER BY 1"
    )
    return [await audit_guild(ledger, int(g)) for (g,) in rows]


def existing(target: str) -> str:
    """The target, once it is sure to name a database that exists (an operator tool never makes one)."""
    dialect, where = parse_target(target)
    if dialect == "sqlite" and not Path(where).is_file():
        raise StoreError(
            f"There is no database file at {where}. Set DATABASE_URL or DATABASE_PATH as for the bot,"
            " or pass --database."
        )
    return target


def store_from_env() -> str:
    """The database the bot would open: ``DATABASE_URL``, else ``DATABASE_PATH`` (``.env`` read too)."""
    settings = load_settings()
    return str(store_target(settings.database_url, settings.database_path))


async def _run(target: str) -> int:
    async with open_store(target) as db:
        audits = await audit_all(Ledger(db))
    bad = [a for a in audits if not a.ok]
    for a in audits:
        state = "OK" if a.ok else f"DIFFERENCE {a.difference:+d}"
        print(
            f"server {a.guild_id}: minted {a.minted} = balances {a.balances}"
            f" + at tables {a.at_tables}: {state}"
        )
        for line in a.lines():
            print(f"  {line}")
    if not audits:
        print("No server has chips yet: nothing to check.")
    print(f"{len(audits) - len(bad)} of {len(audits)} servers balance.")
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.audit",
        description="Check that every server's chips balance: minted = balances + chips at tables.",
    )
    parser.add_argument("--database", help="default: DATABASE_URL, else DATABASE_PATH, as the bot reads them")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(_run(existing(args.database or store_from_env())))
    except (StoreError, SettingsError) as e:
        print(f"bot.audit: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
