"""The notifier's channel calls and the bot's budget: each call waits its turn; some are not made.

Every request the notifier makes waits for a turn in the process's ``ChannelBudget``
(``bot.budget``) where it goes out, at the HTTP session (``bot.send_gate``): as a must-post,
or, for a paced edit, the turn the pacer waited for. Near Discord's invalid-request
limit (``InvalidRequests``, counted on the HTTP session) a call known to fail is not made:
one to a table whose channel answered 403 or is gone, or one that answered 404 (a message
deleted). It gets the answer it had last time, so the notifier goes on as it did then.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.budget import ChannelBudget
from bot.runtime import Sent

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.notifier")
UNKNOWN_CHANNEL = 10003


def channel_budget(bot: FlipFlopBot) -> ChannelBudget:
    """The process's channel-call budget from the settings (off where simcord's clock stands still)."""
    settings = bot.settings
    per_second = 0 if bot.harness.edit_limit is not None else settings.calls_per_second
    shards = settings.shard_ids or (0,)
    index = shards[0] // len(shards)  # which process this is, for its share's first turn
    return ChannelBudget(per_second, settings.processes, settings.redis_url, index=index)


def _targets(table_id: str, what: str) -> tuple[str, str]:
    """What a refusal is kept against: the table's channel (403, gone), or this call of it (404)."""
    return table_id, f"{table_id}:{what}"


async def known_answer(
    bot: FlipFlopBot, table_id: str, what: str, call: Awaitable[Any] | None = None
) -> Sent | None:
    """The call's last answer if it is stopped (known to fail, the guard up); None: make it."""
    guard = bot.invalid_requests
    channel, this_call = _targets(table_id, what)
    refusal = await guard.refuses(channel) or await guard.refuses(this_call)
    if refusal is None:
        return None
    if asyncio.iscoroutine(call):
        call.close()
    log.info(
        "Table %s: did not %s (it answered %s; invalid requests near the limit)",
        table_id,
        what,
        refusal.status,
    )
    answer = refusal.answer
    assert isinstance(answer, Sent)
    return answer


def heard(bot: FlipFlopBot, table_id: str, what: str, e: discord.HTTPException | None, sent: Sent) -> None:
    """Remember how a call went for the invalid-request guard: 403 or 404 is kept, success forgets."""
    guard = bot.invalid_requests
    channel, this_call = _targets(table_id, what)
    if e is None:
        guard.succeeded(channel)
        guard.succeeded(this_call)
    elif e.status == 403 or (e.status == 404 and e.code == UNKNOWN_CHANNEL):
        guard.failed(channel, e.status, sent)
    elif e.status == 404:
        guard.failed(this_call, e.status, sent)
