"""Finished rounds, one append-only row each, written with the action that ended the round.

The saved table keeps only what the next action needs; the story of every
round goes here instead, so a table's saved state stays the same size however
long the game runs. ``transcript`` is ``Game.round_transcript()`` (one round,
replayable on its own); ``result`` is what the round's events decided. The SQL
is plain enough for SQLite and PostgreSQL alike (``?`` placeholders, no
engine-specific functions).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bot.db import Database, Tx
from engine.events import Event, PotCarried, PotPaid, RoundEnded, SideStakePaid

if TYPE_CHECKING:
    from bot.tables import Table


def round_result(
    events: Iterable[Event], stacks_before: dict[str, int], stacks_after: dict[str, int]
) -> dict[str, Any]:
    """The outcome of a round from its events (R7, R2.6): how it ended, who won which pot, stacks."""
    result: dict[str, Any] = {
        "reason": None,
        "player": None,
        "values": {},
        "pots": {},
        "carried": {},
        "side_stakes": [],
        "stacks_before": dict(stacks_before),
        "stacks_after": dict(stacks_after),
    }
    for e in events:
        if isinstance(e, RoundEnded):
            result["reason"] = e.reason
            result["player"] = e.player
            result["values"] = dict(e.values)
        elif isinstance(e, PotPaid):
            result["pots"][e.pot] = {"total": e.total, "shares": dict(e.shares)}
        elif isinstance(e, PotCarried):
            result["carried"][e.pot] = e.amount
        elif isinstance(e, SideStakePaid):
            result["side_stakes"].append({"from": e.player, "to": e.to_player, "amount": e.amount})
    return result


async def record_round(tx: Tx, table: Table, events: Sequence[Event], now: float) -> int:
    """Append the round that ``events`` ended, and who played it; returns the row's id."""
    assert table.game is not None
    transcript = table.game.round_transcript()
    seats: list[dict[str, Any]] = transcript["seats"]  # type: ignore[assignment]
    before = {str(s["id"]): int(s["stack"]) for s in seats}
    public = table.game.public_view()
    after = {p: public.stacks.get(p, 0) for p in before}
    row = await tx.fetchone(
        "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
        " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (
            table.guild_id,
            table.id,
            public.round_number,
            now,
            json.dumps(transcript, separators=(",", ":")),
            json.dumps(round_result(events, before, after), separators=(",", ":")),
        ),
    )
    assert row is not None
    round_id = int(row[0])
    for player in before:
        await tx.execute(
            "INSERT INTO round_players (round_id, guild_id, user_id) VALUES (?, ?, ?)",
            (round_id, table.guild_id, int(player)),
        )
    return round_id


async def rounds_of_table(db: Database, table_id: str) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(number, transcript, result) of every finished round of a table, oldest first."""
    rows = await db.fetchall(
        "SELECT number, transcript, result FROM rounds WHERE table_id = ? ORDER BY id", (table_id,)
    )
    return [(int(n), json.loads(t), json.loads(r)) for n, t, r in rows]
