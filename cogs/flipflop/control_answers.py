"""Who answers a table's controls, and the answers a control gets when its item gives none.

Each client's ``Handler`` (the cog's ``Controls``) is bound by ``controls.bind``
and found for a click by ``handler_of``. ``answer_unknown`` answers privately a
control under the bot's prefix that no item will (an earlier version's, or a
question's from before a restart), and ``answered`` keeps a control's work from
leaving a traceback. Below ``controls.py``, which registers the items that call
it, so that nothing imports in a circle.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.client import send_ephemeral, will_dispatch
from bot.i18n import N_, SOURCE_LANGUAGE, Texts, texts
from bot.runtime import TableRuntime
from bot.storage import StoreError


class Handler(Protocol):
    """What the controls call: the cog's translation of a click into a runtime command."""

    runtime: TableRuntime

    async def member_texts(self, interaction: discord.Interaction) -> Texts:
        """The clicking member's language, for a private answer."""
        ...

    async def on_lobby(self, interaction: discord.Interaction, tid: str, op: str, value: str) -> None:
        """A lobby control (join, leave, start, cancel, computers)."""
        ...

    async def on_table(self, interaction: discord.Interaction, tid: str, op: str) -> None:
        """A table-message control (my hand, leave after this round, stay after all, fair deal)."""
        ...

    async def on_hand(
        self, interaction: discord.Interaction, tid: str, seq: int, op: str, value: str | None
    ) -> None:
        """A control in a private hand (a move, refresh, leave)."""
        ...

    async def on_rules(self, interaction: discord.Interaction, page: int) -> None:
        """A page button on the rules (``page`` counts from 1)."""
        ...

    async def on_play_again(self, interaction: discord.Interaction, tid: str) -> None:
        """**Play again** on an ended game's final standings."""
        ...


handlers: weakref.WeakValueDictionary[int, Handler] = weakref.WeakValueDictionary()
"""Each client's handler, held weakly (the cog owns it), so a finished bot can be collected; ``controls.bind``
and ``controls.unbind`` write it."""


def handler_of(interaction: discord.Interaction) -> Handler:
    """The handler bound to the client that received ``interaction``."""
    return handlers[id(interaction.client)]


PREFIX = "ff:"
"""Every custom id the bot has ever made starts with this."""
OUT_OF_DATE = N_(
    "⚠️ This control is out of date (it comes from an earlier version of the bot); nothing was done. "
    "Use {command} to show the table again with working buttons."
)
OUT_OF_DATE_HAND = N_(
    "⚠️ This control is out of date (it comes from an earlier version of the bot); nothing was done. "
    "Use {command} or click **My hand** on the table for a fresh hand."
)
RULES = PREFIX + "r:"
"""A rules page's buttons (``controls.RulesButton``): they turn the page they are clicked on."""
QUESTION = PREFIX + "q:"
"""A yes/no question's buttons (``confirm.Confirm``): they answer only in the process that asked it."""
QUESTION_GONE = N_(
    "This question has expired, so nothing was changed. Use the command again to be asked again."
)
OUR_SIDE = N_("Something went wrong on our side; nothing was changed. Please try again.")
log = logging.getLogger("flipflop.controls")


def on_rules_page(message: discord.Message | None) -> bool:
    """Whether ``message`` is a rules page the bot showed: private, and its only controls page buttons.

    A page button edits the message it is clicked on; one forged on another message of the bot's
    (the table, a result, a hand) must not turn it into a page of the rules.
    """
    if message is None or not message.flags.ephemeral or not message.components:
        return False
    controls = [
        item
        for row in message.components
        for item in (row.children if isinstance(row, discord.ActionRow) else [row])
    ]
    return all(
        isinstance(item, discord.Button) and (item.custom_id or "").startswith(RULES) for item in controls
    )


async def answer_unknown(interaction: discord.Interaction) -> bool:
    """Answer a control under the bot's prefix that nothing else will: privately, saying what to do.

    Controls made by an earlier version of the bot (a lobby button of the old
    ``ff:t:<table>:join`` form), an operation no template lists, or a question's
    button from before a restart (``QUESTION``: its view was held in memory) would
    otherwise get no answer at all, and the member would see "This
    interaction failed". Returns whether it answered.
    """
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    component_type = int(data.get("component_type", 0) or 0)
    if interaction.type is not discord.InteractionType.component or not custom_id.startswith(PREFIX):
        return False
    if will_dispatch(interaction.client, component_type, custom_id):
        return False
    log.info("Answered an out-of-date control %r", custom_id[:100])
    handler = handlers.get(id(interaction.client))
    message = interaction.message
    on_hand = message is not None and message.flags.ephemeral
    try:
        t = await handler.member_texts(interaction) if handler is not None else texts(SOURCE_LANGUAGE)
        if custom_id.startswith(QUESTION):  # asked before a restart, or already answered
            text = t.gettext(QUESTION_GONE)
        elif on_hand:
            text = t.gettext(OUT_OF_DATE_HAND).format(command="`/flipflop hand`")
        else:
            text = t.gettext(OUT_OF_DATE).format(command="`/flipflop table`")
        await send_ephemeral(interaction, text)
    except discord.HTTPException as e:
        log.warning("Could not answer an out-of-date control (%s %s)", e.status, e.code)
    return True


async def answered(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """A control's work, with no traceback left to escape it.

    Discord refusing an answer (the interaction expired, a 5xx) leaves nobody to
    tell: one warning. A database fault outside a command (which answers its own)
    is told to the member as a change that did not happen, if they were not
    answered yet. Anything else is a bug: logged with its traceback, as before.
    """
    try:
        await work
    except discord.HTTPException as e:
        log.warning("Could not answer a control (%s %s: %s)", e.status, e.code, e.text)
    except StoreError as e:
        log.warning("A control met a database fault: %s: %s", type(e).__name__, e)
        if not interaction.response.is_done():
            t = await handler_of(interaction).member_texts(interaction)
            try:
                await send_ephemeral(interaction, t.gettext(OUR_SIDE))
            except discord.HTTPException:
                pass
