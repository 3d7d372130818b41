"""A kill -9 of the real bot process mid-round leaves the table message reading the same, line for line:
what a table shows (its round log, the last move, the fair-deal line) is saved with the table — on
SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_answers import PostgresBot
from tests.e2e.test_crash import BotProcess, nested, open_game, play_turn, running, to_act, wait_for

__all__ = ["running"]


@pytest_asyncio.fixture
async def on_postgres(
    database_url: str,
    tmp_path: Path,
) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    """The real bot on a fresh PostgreSQL schema (skipped with a message where none runs)."""
    fake = FakeDiscord()
    base = await fake.start()
    bot = PostgresBot(fake, base, tmp_path, database_url)
    await bot.start()
    yield fake, bot
    if bot.proc is not None and bot.proc.returncode is None:
        await bot.kill()
    await fake.stop()


def text_of(message: dict[str, Any]) -> str:
    """What a V2 message's text displays say, in order."""
    shown = nested(message.get("components") or [])
    return "\n".join(str(c["content"]) for c in shown if c.get("type") == 10)


async def settled(fake: Any, bot: Any, message_id: int | None = None) -> str:
    """The table message (or ``message_id``) once its paced edits have caught up with the saved table.

    Nothing new for 6 s: longer than the pacing window (5 edits per 5 s), so no edit is waiting.
    """
    last, still = None, 0
    for _ in range(600):
        state = bot.table()
        now = text_of(fake.messages[message_id or state["message_id"]])
        still = still + 1 if now == last else 0
        if still >= 60:
            return now
        last = now
        await asyncio.sleep(0.1)
    raise AssertionError("the table message never settled")


async def test_a_kill_mid_round_leaves_the_table_message_line_for_line(running: Any) -> None:
    await kill_mid_round(*running)


async def test_on_postgres_a_kill_mid_round_leaves_the_table_message_line_for_line(on_postgres: Any) -> None:
    await kill_mid_round(*on_postgres)


async def kill_mid_round(fake: FakeDiscord, bot: BotProcess) -> None:
    """Round 1 ends (its message becomes its record), two turns of round 2; kill -9, start again:
    the table message and round 1's record read the same, character by character."""
    await open_game(fake, bot, buy_in=200)  # deep stacks: round 2 always comes (20 could end the game)

    def shown() -> str:  # the table message as the fake Discord has it now
        state = bot.table()
        return text_of(fake.messages[state["message_id"]]) if state and state["message_id"] else ""

    def round_in(text: str) -> int:  # the round a table message shows ("— round 2"), 0 before
        found = re.search(r"— round (\d+)", text)
        return int(found.group(1)) if found else 0

    def round_shown() -> int:
        return round_in(shown())

    # the deal's own message (below the lobby) is saved; a loaded machine can take more than 10 s
    await wait_for(lambda: round_shown() >= 1 and to_act(bot) is not None, 30.0)
    # the message and its round read from one saved state: a computer's drop between two reads would
    # pair round 1's message with round 2's number (round 1 may also have ended at its deal)
    first = bot.table()["message_id"]
    dropped = round_in(text_of(fake.messages[first]))
    await play_turn(fake, bot, drop_at=99)  # the first player drops: the round ends at once
    # a later round, below the dropped round's record (it too may end at its deal: a dealt 49 or 50)
    await wait_for(lambda: round_shown() > dropped and to_act(bot) is not None, 30.0)
    assert bot.table()["message_id"] != first
    for _ in range(2):
        await play_turn(fake, bot, may_drop=False)
    before = await settled(fake, bot)
    record = await settled(fake, bot, first)
    playing = round_shown()
    assert "📜" in before and f"🔒 Round {playing + 1} commitment" in before  # the log; the next commitment
    assert "🔒 Fair deal: commitment" in record and f"Round {dropped}" in record  # the whole round
    mid = bot.table()["message_id"]

    def edits() -> int:
        return len([r for r in fake.requests if r.startswith("PATCH") and f"/messages/{mid} " in r])

    edited = edits()
    await bot.kill()
    await bot.start()
    await wait_for(lambda: edits() > edited, 30.0)  # the one edit that brings a resumed table up to date
    assert bot.table()["message_id"] == mid
    assert await settled(fake, bot) == before
    assert await settled(fake, bot, first) == record
