"""What a call to Discord can come to, for the notifier: the error codes, the retries, the news.

The codes a failed call is sorted by (a channel or message gone, a permission
missing), the failures that pass (``PASSING``) and the backoff they are tried
again after, the worst of several results, and the news (``Moved``,
``Undelivered``) that calls made outside a table's lock hand to the runtime.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import aiohttp

from bot.i18n import N_
from bot.runtime import Delivery, Sent
from bot.settings import Settings

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
PERMISSION = {MISSING_ACCESS: N_("View Channel")}
"""The permission a 403 code means; any other 403 is Send Messages (or Embed Links for an edit).

Discord's own names of the permissions, as catalog messages: the warning a member reads
(``Controls.warn_if_muted``) names it in their language, as their Discord client does."""
SEND_MESSAGES = N_("Send Messages")
SEND_AND_EMBED = N_("Send Messages and Embed Links")
_RANK = {
    Delivery.OK: 0,
    Delivery.FAILED: 1,
    Delivery.FORBIDDEN: 2,
    Delivery.MESSAGE_GONE: 3,
    Delivery.GONE: 4,
}
RETRY_SECONDS: tuple[float, float] = Settings.model_fields["edit_backoff_seconds"].default
"""Backoff after a failed table edit: the first wait, doubling up to the last (a little less, at random).

The default of ``EDIT_BACKOFF_SECONDS`` (``bot.settings``), which a notifier follows."""
CALL_SECONDS: float = Settings.model_fields["discord_call_seconds"].default
"""The default of ``DISCORD_CALL_SECONDS``: a table edit not answered by then is made again."""
OTHER_EDIT_TRIES = 5
"""Tries to update an open hand, or to freeze a table message left behind, through passing failures
(backoff as the table's) before letting it go."""
DRAIN_SECONDS: float = Settings.model_fields["shutdown_drain_seconds"].default
"""The default of ``SHUTDOWN_DRAIN_SECONDS``: how long pending table edits may take at shutdown."""
PASSING = (aiohttp.ClientError, TimeoutError)
"""Failures below discord.py's ``HTTPException``: a broken connection, a timeout."""


@dataclass(frozen=True)
class Moved:
    """The notifier posted the table message again (moved down, or the old one was deleted)."""

    table_id: str
    message_id: int


@dataclass(frozen=True)
class Undelivered:
    """A call made outside the table's lock found the channel gone or refusing the bot."""

    table_id: str
    sent: Sent


News = Moved | Undelivered
"""What the runtime must be told of the notifier's own calls (the cog tells it)."""


def backoff(failures: int, retry: tuple[float, float] = RETRY_SECONDS) -> float:
    """Seconds to wait before the next try after ``failures`` failed edits in a row.

    ``retry`` is (first wait, cap): the notifier's come from ``EDIT_BACKOFF_SECONDS``.
    """
    first, cap = retry
    return float(min(cap, first * 2 ** (failures - 1))) * random.uniform(0.8, 1.0)


def worst(results: Sequence[Sent]) -> Sent:
    """The most serious of several results (gone, then forbidden, then failed)."""
    return max(results, key=lambda s: _RANK[s.status], default=Sent(Delivery.OK))
