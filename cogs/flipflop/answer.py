"""The one answer to one click: acknowledged within Discord's 3 seconds, never twice.

``Answer`` defers a click whose work runs past ``ANSWER_WITHIN`` and completes it by
editing its response; the table's controls (``play.py``, ``hands.py``, ``dealing.py``)
and the group cog's commands answer through it. Also the few words they all share:
who may manage a table, a buy-in not afforded, and what a command may refuse with.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.client import fitted
from bot.i18n import Texts
from bot.i18n.mentions import mention
from bot.ledger import InsufficientChips, LedgerError
from bot.presentation.refusals import explain
from bot.storage import StoreError
from bot.table.model import Table, TableError
from cogs.flipflop.control_answers import OUR_SIDE
from engine import IllegalAction

log = logging.getLogger("flipflop.controls")


FollowUp = Callable[[], Awaitable[None]]
"""What a click still does once its command's outcome is told (the lobby saying where the game went)."""


async def nothing_more() -> None:
    """A follow-up with nothing left to do."""


ANSWER_WITHIN = 1.0
"""Seconds a click's work may take before the click is acknowledged (deferred) and answered later.

Discord drops an interaction not answered within 3 s of its creation ("This
interaction failed"). A click is normally answered in a few tens of
milliseconds, so 1 s almost never defers one (a deferral costs a REST call);
and a deferral sent at 1 s reaches Discord before 3 s even when its REST
answers in 1–2 s and the gateway delivered the click a few hundred ms late.
"""


def may_manage(interaction: discord.Interaction) -> bool:
    """The member has Manage Server here (may stop or cancel any table)."""
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def not_enough(balance: int, buy_in: int, t: Texts) -> str:
    """A member who can not afford the buy-in (R2.2), in their language."""
    return t.gettext(
        "You have {balance}, but the buy-in is {buy_in}. Claim your free chips with {daily}, or ask an admin."
    ).format(balance=t.chips(balance), buy_in=t.chips(buy_in), daily=mention("daily"))


class Answer:
    """The one answer to one interaction: acknowledged by ``ANSWER_WITHIN`` at the latest, never twice.

    ``start`` arms the deferral. An answer that edits the clicked message
    (``edit``) is deferred as an update, invisibly; one that is a new private
    message (``fresh=True``: a hand, a refusal) is deferred as a private
    "thinking…" message that ``private`` then fills. A lock keeps the deferral
    and the answer from racing (both would be the interaction's first callback).
    """

    def __init__(self, interaction: discord.Interaction, *, fresh: bool = False) -> None:
        self.interaction = interaction
        self.fresh = fresh
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._deferral: asyncio.Future[None] | None = None
        self._thinking = False

    def start(self, within: float = ANSWER_WITHIN) -> Answer:
        """Acknowledge the interaction after ``within`` seconds unless it has been answered by then."""
        self._timer = asyncio.get_running_loop().call_later(within, self._defer_now)
        return self

    def _defer_now(self) -> None:
        self._timer = None
        self._deferral = asyncio.ensure_future(self.defer())

    def stop(self) -> None:
        """No deferral: the answer is made elsewhere (or already was)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def defer(self) -> None:
        """Acknowledge the interaction without answering it yet (if not answered already)."""
        self.stop()
        async with self._lock:
            if self.interaction.response.is_done():
                return
            try:
                if self.fresh:
                    await self.interaction.response.defer(ephemeral=True, thinking=True)
                    self._thinking = True
                else:
                    await self.interaction.response.defer()
            except discord.HTTPException as e:
                log.warning("Could not acknowledge an interaction (%s %s)", e.status, e.code)
            except discord.InteractionResponded:  # answered by a path that does not use this Answer
                pass

    async def edit(self, **fields: Any) -> None:
        """Change the clicked message (a hand, the lobby)."""
        fields = fitted(fields)
        self.stop()
        async with self._lock:
            if self.interaction.response.is_done():
                await self.interaction.edit_original_response(**fields)
            else:
                await self.interaction.response.edit_message(**fields)

    async def private(self, content: str | None = None, **fields: Any) -> None:
        """A private message to the member: the "thinking…" one filled in, or a new one."""
        fields = fitted({"content": content, **fields})
        content = fields.pop("content")
        self.stop()
        async with self._lock:
            response = self.interaction.response
            if not response.is_done():
                await response.send_message(content, ephemeral=True, **fields)
            elif self._thinking:
                self._thinking = False
                await self.interaction.edit_original_response(content=content, **fields)
            else:
                await self.interaction.followup.send(content or "", ephemeral=True, **fields)

    async def post(self, **fields: Any) -> int:
        """A new public message as the answer (following up a deferral); its id."""
        fields = fitted(fields)
        self.stop()
        async with self._lock:
            if not self.interaction.response.is_done():
                callback = await self.interaction.response.send_message(**fields)
                if callback.message_id is not None:
                    return callback.message_id
                return (await self.interaction.original_response()).id
            return (await self.interaction.followup.send(wait=True, **fields)).id

    async def refused(self, error: BaseException, t: Texts, table: Table | None) -> None:
        """A refusal or a fault, privately and in the member's language; nothing was changed."""
        if isinstance(error, InsufficientChips):
            await self.private(not_enough(error.balance, table.buy_in if table else 0, t))
        elif isinstance(error, StoreError):
            log.warning("A click was refused for a database fault: %s: %s", type(error).__name__, error)
            await self.private(t.gettext(OUR_SIDE))
        else:
            await self.private(explain(error, t))


REFUSED = (TableError, LedgerError, IllegalAction, StoreError)
"""What a command may refuse with (a database fault included): the member is told, nothing changed."""
