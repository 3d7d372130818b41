"""``/flipflop privacy forget`` and ``export``: what the bot keeps about a member, on their request.

A mixin of the ``/flipflop`` group cog (``commands.FlipFlop``); the work is
``bot.privacy``'s (docs/PRIVACY.md). Every answer is private. Forgetting
asks first, and is refused — changing nothing — while an open table still
holds the member; a member with nothing stored is told so.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import privacy as personal
from bot.client import send_ephemeral
from bot.i18n import N_, Texts
from cogs.flipflop.confirm import FAILED, KEPT, Confirm
from cogs.flipflop.control_answers import QUESTION_GONE
from cogs.flipflop.pings import NotifyBook

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

ATTACHMENT_BYTES = 8 * 1024 * 1024
"""The largest file sent: within what Discord accepts from a bot in any server."""

NOTHING_STORED = N_("This bot keeps nothing about you, so there is nothing to forget or export.")
AT_TABLE = N_(
    "You're still part of the table in {channels} (seated, played in its game, or asked to play again"
    " in its lobby). You can be forgotten once that game has ended, or once the lobby starts or closes"
    " without you; nothing was changed."
)
IN_TOURNAMENT = N_(
    "You're entered in the tournament in {channels}. You can be forgotten once it has ended;"
    " nothing was changed."
)
FORGET_ASK = N_(
    "**Forget you?** Your Discord id is replaced by a random pseudonym everywhere this bot keeps it, in"
    " every server: balances, ledger entries, rounds, ratings and settings. The chips stay in the books,"
    " but no one can link them to you any more, and you leave the leaderboards. This can't be undone."
    " Get a copy first with `/flipflop privacy export` if you want one."
)
FORGET_YES = N_("Forget me")
EXPORTED = N_("Here is everything this bot keeps about you, as JSON. Only you can see this message.")
EXPORT_TOO_BIG = N_(
    "What this bot keeps about you is too large to send here. Ask the bot's operator for it"
    " (they can export it with `python -m bot.privacy export`)."
)


def _still_playing(held: personal.Holding, t: Texts) -> str:
    """Why forgetting waits: the tables (and tournaments) in play that hold the member, by channel."""
    channels = ", ".join(f"<#{channel}>" for _, channel in held.places)
    return t.gettext(AT_TABLE if held.tables else IN_TOURNAMENT).format(channels=channels)


class PrivacyCommands(commands.Cog):
    """The ``/flipflop privacy`` subgroup (mixed into the group cog)."""

    bot: FlipFlopBot
    turn_pings: NotifyBook
    """Who wants turn pings: its memory forgets a member with their rows."""

    privacy = app_commands.Group(name="privacy", description="See or delete what this bot keeps about you.")

    @privacy.command(name="forget", description="Delete what this bot keeps about you (asks first).")
    async def privacy_forget(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        t = await self.bot.languages.reader(interaction)
        if not await personal.anything_stored(self.bot.db, user):
            await send_ephemeral(interaction, t.gettext(NOTHING_STORED))
            return
        held = await personal.open_tables_holding(self.bot.db, user)
        if held:
            await send_ephemeral(interaction, _still_playing(held, t))
            return

        async def forget(_: discord.Interaction) -> str:
            return await self._forget(user, t)

        view = Confirm(
            user,
            t.gettext(FORGET_YES),
            t.gettext("Cancel"),
            forget,
            t.gettext(KEPT),
            t.gettext(FAILED),
            t.gettext(QUESTION_GONE),
        )
        view.asked = interaction
        await interaction.response.send_message(t.gettext(FORGET_ASK), view=view, ephemeral=True)

    async def _forget(self, user: int, t: Texts) -> str:
        try:
            done = await personal.forget(self.bot.db, user, "member")
        except personal.AtTable as e:
            return _still_playing(e.held, t)
        if done is None:
            return t.gettext(NOTHING_STORED)
        self.bot.languages.forget_member(user)  # the choices read so far: theirs are gone now
        self.turn_pings.forget_member(user)
        return t.ngettext(
            "Done: {count} stored row no longer names you. If you play again, you start as a new member.",
            "Done: {count} stored rows no longer name you. If you play again, you start as a new member.",
            done.rows,
        ).format(count=t.number(done.rows))

    @privacy.command(name="export", description="Get a file of everything this bot keeps about you.")
    async def privacy_export(self, interaction: discord.Interaction) -> None:
        t = await self.bot.languages.reader(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await personal.export(self.bot.db, interaction.user.id)
        if data is None:
            await send_ephemeral(interaction, t.gettext(NOTHING_STORED))
            return
        name, content = personal.export_file(data, ATTACHMENT_BYTES)
        if len(content) > ATTACHMENT_BYTES:
            await send_ephemeral(interaction, t.gettext(EXPORT_TOO_BIG))
            return
        await send_ephemeral(interaction, t.gettext(EXPORTED), file=discord.File(io.BytesIO(content), name))
