"""Transcript rows: one append-only row per round and who played it, on either store."""

from __future__ import annotations

import json

import pytest

from bot.storage import IntegrityError, Store

G, ANN, BEN, CAT = 2**60, 2**60 + 1, 2**60 + 2, 2**60 + 3


async def _record_round(store: Store, table_id: str, number: int, players: list[int]) -> int:
    async with store.transaction() as tx:
        row = await tx.fetchone(
            "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
            " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (
                G,
                table_id,
                number,
                1000.5 + number,
                json.dumps({"actions": ["draw"] * number}),
                '{"winner": 1}',
            ),
        )
        assert row is not None
        await tx.executemany(
            "INSERT INTO round_players (round_id, guild_id, user_id) VALUES (?, ?, ?)",
            [(row[0], G, p) for p in players],
        )
        return int(row[0])


async def test_rounds_are_numbered_and_read_back_by_member(store: Store) -> None:
    first = await _record_round(store, "t1", 1, [ANN, BEN])
    second = await _record_round(store, "t1", 2, [ANN, CAT])
    third = await _record_round(store, "t2", 1, [BEN, CAT])
    assert first < second < third
    ann_rounds = await store.fetchall(
        "SELECT r.id, r.table_id, r.number, r.ended_at, r.transcript FROM round_players p"
        " JOIN rounds r ON r.id = p.round_id WHERE p.guild_id = ? AND p.user_id = ? ORDER BY p.round_id",
        (G, ANN),
    )
    assert [(r[0], r[1], r[2], r[3]) for r in ann_rounds] == [
        (first, "t1", 1, 1001.5),
        (second, "t1", 2, 1002.5),
    ]
    assert json.loads(ann_rounds[1][4]) == {"actions": ["draw", "draw"]}


async def test_a_round_and_its_players_are_written_together(store: Store) -> None:
    with pytest.raises(IntegrityError):  # the same player twice in one round
        await _record_round(store, "t1", 1, [ANN, ANN])
    assert await store.fetchone("SELECT COUNT(*) FROM rounds") == (0,)


async def test_players_must_name_a_round(store: Store) -> None:
    with pytest.raises(IntegrityError):
        async with store.transaction() as tx:
            await tx.execute(
                "INSERT INTO round_players (round_id, guild_id, user_id) VALUES (404, ?, ?)", (G, ANN)
            )


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE rounds SET result = '{}'",
        "DELETE FROM rounds",
        "UPDATE round_players SET user_id = 5",
        "DELETE FROM round_players",
    ],
)
async def test_rounds_are_append_only(store: Store, sql: str) -> None:
    await _record_round(store, "t1", 1, [ANN, BEN])
    with pytest.raises(IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await tx.execute(sql)
    assert await store.fetchone("SELECT COUNT(*) FROM round_players") == (2,)
    assert await store.fetchone("SELECT result FROM rounds") == ('{"winner": 1}',)
