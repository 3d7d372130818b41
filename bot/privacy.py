"""What the bot keeps about a member, handed over (export) or made anonymous (forget) on request.

``PERSONAL_DATA`` below is **the one list** of every place a member's Discord
id is stored: ``(table, column, how)``. Exporting reads it, forgetting
rewrites it, and a test fails when a table of ``bot.migrate.COPIED`` has a
``user_id`` or ``actor_id`` column that is not on it. Whoever adds a table or
a column that holds a member's id (or text that mentions one) adds a line
here, in the same change, and a column to ``bot.migrate.COPIED``; nothing
else needs to know. The kinds (``how``):

- ``"key"``: an id column that other tables' foreign keys point at (the
  accounts): the row is copied under the pseudonym first and the original
  deleted once every row pointing at it has moved;
- ``"id"``: a plain id column, set to the pseudonym;
- ``"id_text"``: a text column that holds the id itself, as text (a seat id);
- ``"text"``: JSON (or plain) text that may mention the member — transcripts,
  saved tables, a seat id: every whole-token occurrence of the id (a JSON
  number, a JSON string or key, a ``<@id>`` mention; never digits inside a
  longer number) becomes the pseudonym, and a display name filed under it (a
  saved table's ``names``) is blanked. ``rows`` is the SQL condition that
  picks the rows that may mention them (read before the ids move, so a text
  line comes before the ``id`` lines it relies on).

Forgetting replaces the id by one random negative pseudonym (Discord ids are
positive; computer players are -1, -2, -3; pseudonyms are at most
``-2**62``), in one transaction on either store. Amounts never change, so
every audit still balances. The ledger, rounds, round players, round seats, rating changes
and tournament round seats are append-only (their triggers refuse UPDATE and DELETE); the one
exception is this rewrite: the transaction first writes a permit (``forget_permits``: the
id and its pseudonym), the triggers let an UPDATE through only when it
changes nothing but that id into that pseudonym (or, in rounds, the texts
that mention it, while the permit exists), and the permit is deleted before
the commit. Each forget is recorded in ``privacy_requests`` (append-only:
when, on whose request, how many rows — never the old id).

Stats and leaderboards count humans as ``user_id > 0``, so a forgotten
member drops out of them; their old rounds show a pseudonym.

Operators (requests that arrive outside Discord)::

    python -m bot.privacy export --user ID [--out FILE]
    python -m bot.privacy forget --user ID

Exit status: 0 done; 1 nothing stored, refused (at a table) or failed; 2 bad command line.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from bot.audit import existing, store_from_env
from bot.forget_marks import mark_forgotten
from bot.migrate import COPIED
from bot.settings import SettingsError
from bot.storage import Store, StoreError, Tx, open_store

EXPORT_FORMAT = 1
PSEUDONYM_FLOOR = -(2**62)
"""Every pseudonym is at most this: far from Discord's (positive) ids and the computers' -1…-3."""


@dataclass(frozen=True)
class Stored:
    """One place a member's id is stored (see the module's docstring for ``how``)."""

    table: str
    column: str
    how: Literal["key", "id", "id_text", "text"]
    rows: str = ""
    """``text`` only: the SQL condition picking rows that may mention the member; ``?`` is the id."""
    like: bool = False
    """``rows`` binds ``%<id>%`` (for ``LIKE``) instead of the id."""
    row_key: tuple[str, ...] = ()
    """``text`` only: the columns that name one row, for writing it back."""


IN_THEIR_ROUNDS = (
    "(guild_id, table_id) IN (SELECT r.guild_id, r.table_id FROM round_players p"
    " JOIN rounds r ON r.id = p.round_id WHERE p.user_id = ?)"
)
"""The rounds of every table where the member was dealt a round, not only those rounds: a player
out of the game (out of chips, or gone between rounds) stays a seat of its later rounds'
transcripts, never dealt in (R2.3). Of these, only the rows that do mention the member (a whole
token) are exported or rewritten. It reads ``round_players``, whose ids move after the rounds' texts;
the rounds are found by the ``rounds_by_table`` index."""
PERSONAL_DATA: tuple[Stored, ...] = (
    Stored("accounts", "user_id", "key"),
    Stored("ledger", "user_id", "id"),
    Stored("ledger", "actor_id", "id"),
    Stored("rounds", "transcript", "text", IN_THEIR_ROUNDS, row_key=("id",)),
    Stored("rounds", "result", "text", IN_THEIR_ROUNDS, row_key=("id",)),
    Stored("rounds", "reveal", "text", IN_THEIR_ROUNDS, row_key=("id",)),
    Stored("rounds", "away", "text", IN_THEIR_ROUNDS, row_key=("id",)),
    Stored("round_players", "user_id", "id"),
    Stored("round_seats", "seat", "id_text"),
    Stored("round_seats", "user_id", "id"),
    Stored("ratings", "user_id", "id"),
    Stored("language_choices", "user_id", "id"),
    Stored("card_styles", "user_id", "id"),
    Stored("rating_changes", "user_id", "id"),
    Stored("notify_choices", "user_id", "id"),
    Stored("turn_pings", "user_id", "id"),
    Stored("tables", "state", "text", "state LIKE ?", like=True, row_key=("table_id",)),
    Stored("tables", "refunds", "text", "refunds LIKE ?", like=True, row_key=("table_id",)),
    Stored("tournament_results", "user_id", "id"),
    Stored("tournament_round_seats", "seat", "id_text"),
    Stored("tournament_round_seats", "user_id", "id"),
    Stored("tournaments", "state", "text", "state LIKE ?", like=True, row_key=("tournament_id",)),
    Stored("tournaments", "refunds", "text", "refunds LIKE ?", like=True, row_key=("tournament_id",)),
)
"""Every place a member's id is stored, in the order forgetting rewrites them. Add new tables here."""
JSON_TEXT = {(s.table, s.column) for s in PERSONAL_DATA if s.how == "text"}
"""Text columns holding JSON: an export shows them as JSON, not as strings."""
WITHHELD_WHILE_OPEN = ("tables", "state")
"""A table still in play: its saved state holds others' hidden cards and the next deal's secret seed."""


@dataclass(frozen=True)
class Holding:
    """Where a member still plays: (server id, channel id) of open tables and of tournaments not over."""

    tables: tuple[tuple[int, int], ...] = ()
    tournaments: tuple[tuple[int, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.tables or self.tournaments)

    @property
    def places(self) -> list[tuple[int, int]]:
        """Every (server, channel) once, tables first."""
        return list(dict.fromkeys((*self.tables, *self.tournaments)))


class AtTable(Exception):
    """The member is still part of an open table or tournament: it must end before they can be forgotten."""

    def __init__(self, held: Holding) -> None:
        super().__init__(f"still at {len(held.tables)} open table(s), {len(held.tournaments)} tournament(s)")
        self.held = held


@dataclass(frozen=True)
class Forgotten:
    """What one forget did."""

    pseudonym: int
    rows: int
    """Rows rewritten: per table, the most rows any one of its places changed (a transcript and
    its result are one row; an account copied under the pseudonym is one)."""
    by_table: dict[str, int]


def new_pseudonym() -> int:
    """A random id no Discord member and no computer player has."""
    return PSEUDONYM_FLOOR - secrets.randbits(61)


def _params(s: Stored, user_id: int) -> tuple[Any, ...]:
    """The values ``_where(s)`` binds."""
    if s.how != "text":
        return (str(user_id) if s.how == "id_text" else user_id,)
    value: Any = f"%{user_id}%" if s.like else user_id
    return (value,) * s.rows.count("?")


def _where(s: Stored) -> str:
    """The condition on ``s.table`` picking the rows that may name the member."""
    return s.rows if s.how == "text" else f"{s.column} = ?"


@lru_cache(maxsize=64)
def _pattern(user_id: int) -> re.Pattern[str]:
    """The id as a whole token of JSON or text: never digits inside a longer number or word.

    A token is delimited by JSON's punctuation, quotes, white space, or a mention's ``<@`` and ``>``.
    """
    return re.compile(rf"(?<=[\[{{,:\"@\s]){user_id}(?=[\]}},:\">\s])")


def mentions(text: str | None, user_id: int) -> bool:
    """Whether a stored text (JSON, a seat id) mentions the member."""
    if text is None:
        return False
    return text == str(user_id) or _pattern(user_id).search(text) is not None


def rewrite(text: str | None, user_id: int, pseudonym: int) -> str | None:
    """The text with every mention of the member's id (a number, a text, a key, ``<@id>``) as the pseudonym.

    Display names filed under them (a saved table's ``names``) are blanked.
    """
    if text is None:
        return None
    if text == str(user_id):
        return str(pseudonym)
    new = _pattern(user_id).sub(str(pseudonym), text)
    if new != text and '"names"' in new:
        try:
            value = json.loads(new)
        except ValueError:
            return new
        return json.dumps(_blank_names(value, str(pseudonym)), separators=(",", ":"), ensure_ascii=False)
    return new


def _blank_names(value: Any, key: str) -> Any:
    """Every ``names`` map's entry under ``key`` set to an empty display name."""
    if isinstance(value, list):
        return [_blank_names(v, key) for v in value]
    if isinstance(value, dict):
        out = {k: _blank_names(v, key) for k, v in value.items()}
        names = out.get("names")
        if isinstance(names, dict) and key in names:
            out["names"] = {**names, key: ""}
        return out
    return value


async def anything_stored(db: Store, user_id: int) -> bool:
    """Whether any row names the member (a quick look before asking them to confirm)."""
    for s in PERSONAL_DATA:
        if s.how in ("key", "id") and await db.fetchone(
            f"SELECT 1 FROM {s.table} WHERE {s.column} = ? LIMIT 1", (user_id,)
        ):
            return True
    return False


async def open_tables_holding(tx: Store | Tx, user_id: int) -> Holding:
    """Every open table, and every tournament not over, that names the member.

    A tournament entry counts: it is a seat to come, its fee held and its prize not yet paid.
    """
    like = (f"%{user_id}%",)
    tables = await tx.fetchall(
        "SELECT guild_id, channel_id, state FROM tables WHERE status != 'closed' AND state LIKE ?", like
    )
    tournaments = await tx.fetchall(
        "SELECT guild_id, channel_id, state FROM tournaments WHERE status IN ('open', 'running') "
        "AND state LIKE ?",
        like,
    )

    def places(rows: list[Any]) -> tuple[tuple[int, int], ...]:
        return tuple(dict.fromkeys((int(g), int(c)) for g, c, state in rows if mentions(state, user_id)))

    return Holding(places(tables), places(tournaments))


async def _rows_about(tx: Tx, user_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every stored row about the member, table by table, as column → value."""
    found: dict[str, list[dict[str, Any]]] = {}
    for table in dict.fromkeys(s.table for s in PERSONAL_DATA):
        places = [s for s in PERSONAL_DATA if s.table == table]
        cols = COPIED[table]
        where = " OR ".join(f"({_where(s)})" for s in places)
        params = [p for s in places for p in _params(s, user_id)]
        rows = await tx.fetchall(f"SELECT {', '.join(cols)} FROM {table} WHERE {where} ORDER BY 1", params)
        kept = []
        for row in rows:
            record = dict(zip(cols, row, strict=True))
            if all(s.how == "text" for s in places) and not any(
                mentions(record[s.column], user_id) for s in places
            ):
                continue  # LIKE matched digits inside another number, or a round of their table without them
            kept.append(record)
        if kept:
            found[table] = kept
    return found


def _parsed(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


async def export(db: Store, user_id: int, now: float | None = None) -> dict[str, Any] | None:
    """Everything stored about the member in every server, or None when nothing is."""
    async with db.transaction() as tx:
        found = await _rows_about(tx, user_id)
    if not found:
        return None
    for table, rows in found.items():
        for record in rows:
            for column in record:
                if (table, column) in JSON_TEXT and record[column] is not None:
                    record[column] = _parsed(record[column])
            if table == WITHHELD_WHILE_OPEN[0] and record.get("status") != "closed":
                record[WITHHELD_WHILE_OPEN[1]] = None
    return {
        "format": EXPORT_FORMAT,
        "member": str(user_id),
        "exported_at": time.time() if now is None else now,
        "about": (
            "Everything this Flip Flop bot stores about this Discord member, table by table"
            " (docs/PRIVACY.md explains each). Amounts are chips; times are Unix seconds."
            " A table still in play is listed without its saved state (it holds other players'"
            " hidden cards)."
        ),
        "tables": found,
    }


def export_file(data: dict[str, Any], limit: int) -> tuple[str, bytes]:
    """(file name, bytes) of an export: JSON, or gzipped JSON when it would not fit ``limit`` bytes."""
    raw = json.dumps(data, indent=1, ensure_ascii=False).encode()
    name = f"flipflop-data-{data['member']}.json"
    if len(raw) <= limit:
        return name, raw
    return name + ".gz", gzip.compress(raw, compresslevel=9)


class _NothingToForget(Exception):
    """Nothing was stored: the transaction is rolled back (its permit with it)."""


async def forget(
    db: Store, user_id: int, requested_by: Literal["member", "operator"], now: float | None = None
) -> Forgotten | None:
    """Replace the member's id everywhere by a new pseudonym, in one transaction.

    Returns None when nothing is stored about them (a second request), and
    raises ``AtTable`` (changing nothing) while an open table still holds them.
    """
    pseudonym = new_pseudonym()
    by_table: dict[str, int] = {}
    try:
        async with db.transaction() as tx:
            # Hold their accounts first: a buy-in at the same moment (another process) waits for
            # this transaction, so no table can seat them between the check below and the commit.
            await tx.execute("UPDATE accounts SET balance = balance WHERE user_id = ?", (user_id,))
            held = await open_tables_holding(tx, user_id)
            if held:
                raise AtTable(held)
            await tx.execute(
                "INSERT INTO forget_permits (user_id, pseudonym) VALUES (?, ?)", (user_id, pseudonym)
            )
            keys = []
            for s in PERSONAL_DATA:
                changed = await _rewrite(tx, s, user_id, pseudonym)
                by_table[s.table] = max(by_table.get(s.table, 0), changed)
                if s.how == "key":
                    keys.append(s)
            for s in reversed(keys):
                await tx.execute(f"DELETE FROM {s.table} WHERE {s.column} = ?", (user_id,))
            await tx.execute("DELETE FROM forget_permits WHERE user_id = ?", (user_id,))
            total = sum(by_table.values())
            if not total:
                raise _NothingToForget
            when = time.time() if now is None else now
            await mark_forgotten(tx, user_id, when)  # coming back is no way to mint starting chips
            await tx.execute(
                "INSERT INTO privacy_requests (pseudonym, requested_by, rows_changed, created_at)"
                " VALUES (?, ?, ?, ?)",
                (pseudonym, requested_by, total, when),
            )
    except _NothingToForget:
        return None
    return Forgotten(pseudonym, total, {t: n for t, n in by_table.items() if n})


async def _rewrite(tx: Tx, s: Stored, user_id: int, pseudonym: int) -> int:
    """Move one place's mentions of the member to the pseudonym; return the rows changed."""
    if s.how == "id_text":
        return await tx.execute(
            f"UPDATE {s.table} SET {s.column} = ? WHERE {s.column} = ?", (str(pseudonym), str(user_id))
        )
    if s.how == "id":
        return await tx.execute(
            f"UPDATE {s.table} SET {s.column} = ? WHERE {s.column} = ?", (pseudonym, user_id)
        )
    if s.how == "key":
        cols = COPIED[s.table]
        picked = ", ".join("CAST(? AS BIGINT)" if c == s.column else c for c in cols)
        return await tx.execute(
            f"INSERT INTO {s.table} ({', '.join(cols)}) SELECT {picked} FROM {s.table} WHERE {s.column} = ?",
            (pseudonym, user_id),
        )
    keys = ", ".join(s.row_key)
    rows = await tx.fetchall(f"SELECT {keys}, {s.column} FROM {s.table} WHERE {s.rows}", _params(s, user_id))
    changes = []
    for *key, text in rows:
        new = rewrite(text, user_id, pseudonym)
        if new != text:
            changes.append((new, *key))
    if changes:
        match = " AND ".join(f"{k} = ?" for k in s.row_key)
        await tx.executemany(f"UPDATE {s.table} SET {s.column} = ? WHERE {match}", changes)
    return len(changes)


# ---------------------------------------------------------------------- command line


async def _run(target: str, command: str, user_id: int, out: str | None) -> int:
    async with open_store(target) as db:
        if command == "export":
            data = await export(db, user_id)
            if data is None:
                print(f"Nothing is stored about {user_id}: there is nothing to export.")
                return 1
            text = json.dumps(data, indent=1, ensure_ascii=False)
            if out is None:
                print(text)
            else:
                try:
                    with open(out, "w", encoding="utf-8") as f:
                        f.write(text)
                except OSError as e:
                    print(f"Could not write {out}: {e.strerror or e}. Nothing was written.", file=sys.stderr)
                    return 1
                print(f"Wrote everything stored about {user_id} to {out}.", file=sys.stderr)
            return 0
        try:
            done = await forget(db, user_id, "operator")
        except AtTable as e:
            where = ", ".join(f"server {g} channel {c}" for g, c in e.held.places)
            print(
                f"{user_id} is still part of an open table or tournament ({where}); nothing was changed."
                " Run this again once it has ended (or close a table with /flipflop admin close, cancel"
                " or stop a tournament with its buttons).",
                file=sys.stderr,
            )
            return 1
        if done is None:
            print(f"Nothing is stored about {user_id}: there is nothing left to forget.")
            return 1
        counts = ", ".join(f"{t} {n}" for t, n in done.by_table.items())
        print(f"Forgotten: {done.rows} rows now name pseudonym {done.pseudonym} instead ({counts}).")
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The operator's command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.privacy",
        description="Export or forget everything the bot stores about one Discord member (docs/PRIVACY.md).",
    )
    parser.add_argument("command", choices=("export", "forget"))
    parser.add_argument("--user", required=True, type=int, help="the member's Discord id")
    parser.add_argument("--out", help="export: write the JSON to this file instead of the output")
    parser.add_argument("--database", help="default: DATABASE_URL, else DATABASE_PATH, as the bot reads them")
    args = parser.parse_args(argv)
    if args.user <= 0:
        parser.error("--user is a Discord id: a positive whole number")
    try:
        target = existing(args.database or store_from_env())
        return asyncio.run(_run(target, args.command, args.user, args.out))
    except (StoreError, SettingsError) as e:
        print(f"bot.privacy: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
