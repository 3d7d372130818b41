"""A kill -9 of the real bot process mid-round leaves the table message reading the same, line for line:
what a table shows (its round log, the last move, the fair-deal line) is saved with the table."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.test_crash import nested, open_game, play_turn, running, wait_for  # noqa: F401 - fixture

__all__ = ["running"]


def text_of(message: dict[str, Any]) -> str:
    """What a V2 message's text displays say, in order."""
    shown = nested(message.get("components") or [])
    return "\n".join(str(c["content"]) for c in shown if c.get("type") == 10)


async def settled(fake: Any, bot: Any) -> str:
    """The table message once its paced edits have caught up with the saved table.

    Nothing new for 6 s: longer than the pacing window (5 edits per 5 s), so no edit is waiting.
    """
    last, still = None, 0
    for _ in range(600):
        state = bot.table()
        now = text_of(fake.messages[state["message_id"]])
        still = still + 1 if now == last else 0
        if still >= 60:
            return now
        last = now
        await asyncio.sleep(0.1)
    raise AssertionError("the table message never settled")


async def test_a_kill_mid_round_leaves_the_table_message_line_for_line(running: Any) -> None:
    fake, bot = running
    await open_game(fake, bot)
    for _ in range(3):
        await play_turn(fake, bot, may_drop=False)
    before = await settled(fake, bot)
    assert "📜" in before  # the round's log, with its deal line
    mid = bot.table()["message_id"]

    def edits() -> int:
        return len([r for r in fake.requests if r.startswith("PATCH") and f"/messages/{mid} " in r])

    edited = edits()
    await bot.kill()
    await bot.start()
    await wait_for(lambda: edits() > edited)  # the one edit that brings a resumed table up to date
    assert bot.table()["message_id"] == mid
    assert await settled(fake, bot) == before
