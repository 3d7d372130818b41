"""A yes/no question asked privately before a change that can not be undone.

``Confirm`` asks the member who used the command, and only they answer, once:
``/flipflop admin close`` and ``/flipflop privacy forget`` use it. Its buttons
answer for a moment only (``CONFIRM_SECONDS``); a click after that, or after a
restart, is answered by ``control_answers.answer_unknown``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable

import discord

from bot.client import send_ephemeral
from bot.i18n import N_
from cogs.flipflop.control_answers import QUESTION

log = logging.getLogger("flipflop.admin")

CONFIRM_SECONDS = 120
"""How long a confirmation's buttons answer: a decision of the moment."""
KEPT = N_("Nothing was changed.")
FAILED = N_("Something went wrong on our side; nothing was changed. Please try again.")


class Confirm(discord.ui.View):
    """A yes/no question for the member who asked it; the buttons answer for ``CONFIRM_SECONDS``.

    Its buttons' ids are under the bot's prefix (``control_answers.QUESTION``): once the view is gone (timed
    out, or the bot restarted) a click is still answered, by ``control_answers.answer_unknown``.
    """

    def __init__(
        self,
        user_id: int,
        yes: str,
        no: str,
        on_yes: Callable[[discord.Interaction], Awaitable[str]],
        no_text: str,
        failed_text: str,
        gone_text: str,
    ) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.user_id, self.on_yes, self.no_text, self.answered = user_id, on_yes, no_text, False
        self.failed_text = failed_text
        """Said when ``on_yes`` fails (it runs in one transaction: nothing was changed)."""
        self.gone_text = gone_text
        """Said to a click on a question already answered (``control_answers.QUESTION_GONE``)."""
        asked = f"{QUESTION}{secrets.token_hex(8)}"  # under the bot's prefix: answered after a restart
        yes_button: discord.ui.Button[Confirm] = discord.ui.Button(
            label=yes, style=discord.ButtonStyle.danger, custom_id=f"{asked}:yes"
        )
        no_button: discord.ui.Button[Confirm] = discord.ui.Button(
            label=no, style=discord.ButtonStyle.secondary, custom_id=f"{asked}:no"
        )
        yes_button.callback = self._yes  # type: ignore[method-assign]
        no_button.callback = self._no  # type: ignore[method-assign]
        self.add_item(yes_button)
        self.add_item(no_button)

    asked: discord.Interaction | None = None
    """The command that showed the question: its message loses the buttons when they expire."""

    async def on_timeout(self) -> None:
        """Take the expired buttons away, so nobody clicks one that no longer answers."""
        if self.asked is not None and not self.answered:
            try:
                await self.asked.edit_original_response(view=None)
            except discord.HTTPException:
                pass  # the question was dismissed, or its interaction expired: nothing to tidy

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Only the member who was asked answers, and only once: a second click is told so."""
        if interaction.user.id == self.user_id and self.answered:
            await send_ephemeral(interaction, self.gone_text)
        return interaction.user.id == self.user_id and not self.answered

    async def _yes(self, interaction: discord.Interaction) -> None:
        self.answered = True  # the view stays until it times out: a second click is answered
        try:
            text = await self.on_yes(interaction)
        except Exception:
            log.exception("A confirmed request failed")
            text = self.failed_text
        await interaction.response.edit_message(content=text, view=None)

    async def _no(self, interaction: discord.Interaction) -> None:
        self.answered = True
        await interaction.response.edit_message(content=self.no_text, view=None)
