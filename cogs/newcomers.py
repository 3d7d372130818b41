"""The minimum account age and time in the server before chips (``bot.guards.Newcomers``), read from Discord.

``/daily``, opening a table played for chips, joining one (or a tournament) and **Play again** ask here first.
Members with Manage Server are never held back: they can grant chips anyway. Practice
tables do not ask: practice chips are not chips.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.guards import Newcomers
from bot.presentation.refusals import Refusal

if TYPE_CHECKING:
    from bot.client import FlipFlopBot


def newcomer_wait(bot: FlipFlopBot, interaction: discord.Interaction) -> Refusal | None:
    """Why the member may not take chips yet (``account_too_new``, ``member_too_new``), or None."""
    perms = interaction.permissions
    if perms is not None and perms.manage_guild:
        return None
    user = interaction.user
    joined = user.joined_at if isinstance(user, discord.Member) else None
    rule = Newcomers(bot.settings.min_account_days, bot.settings.min_member_days)
    try:
        rule.check(
            user.created_at.timestamp(),
            joined.timestamp() if joined is not None else None,
            interaction.created_at.timestamp(),
        )
    except Refusal as e:
        return e
    return None
