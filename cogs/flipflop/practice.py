"""``/flipflop practice`` and ``/flipflop hint``: the commands that open a practice table and ask the coach.

A mixin of the group cog (``cogs/flipflop/commands.py``), apart from the coach
itself (``cogs/flipflop/coach.py``), which also answers the hand's **Hint**
button and **Analyse my play**. A practice table's chips are practice chips: no
ledger, no history, no ratings.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import send_ephemeral
from bot.i18n import Texts
from bot.ledger import GuildSettings, LedgerError
from bot.presentation.computer_names import LEVEL_ABOUT, level_name, level_named
from bot.presentation.controls import OPTION_CHARS, fit
from bot.presentation.first_game import ServerWelcomes, welcome_text
from bot.presentation.refusals import NOTHING_CHANGED, explain, table_exists
from bot.runtime import LEVELS, TableRuntime
from bot.storage import StoreError
from bot.table.model import Table, TableError
from cogs.flipflop.coach import Coach

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.coach")


class _Message(Protocol):
    def send(self) -> dict[str, Any]: ...


class TableMessages(Protocol):
    """What the coach needs of the notifier (which imports the screens, which import the coach)."""

    def screen(self, table: Table, t: Texts | None = None) -> _Message:
        """The table message as it should read now."""
        ...


Computers = app_commands.Range[int, 1, 4]


def level_error(t: Texts, level: str) -> str:
    """A level that does not exist, and the ones that do."""
    text = t.gettext("There's no computer level “{level}”. Pick one of: {levels}. Nothing was opened.")
    return text.format(level=level[:40], levels=", ".join(f"`{name}`" for name in LEVELS))


class CoachCommands(commands.Cog):
    """``/flipflop practice`` and ``/flipflop hint`` (mixed into the group cog)."""

    bot: FlipFlopBot
    runtime: TableRuntime
    coach: Coach
    notifier: TableMessages
    welcomes: ServerWelcomes
    start_in_forum: Callable[..., Awaitable[None]]
    """A new table in a forum opens as a post (``cogs/flipflop/table_commands.py``)."""

    async def open_here(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        stake: int,
        buy_in: int,
        settings: GuildSettings,
        practice: tuple[int, str] | None = None,
    ) -> Table:
        """A new lobby in ``channel_id`` with the server's timer and away rule, whoever asked its host.

        Raises what the runtime refuses with (``InsufficientChips``, ``LedgerError``, ``TableError``).
        """
        assert interaction.guild is not None
        user = interaction.user
        return await self.runtime.open(
            interaction.guild.id,
            channel_id,
            user.id,
            user.display_name,
            stake,
            buy_in,
            settings.turn_seconds,
            away_rounds=settings.away_rounds,
            practice=practice,
        )

    def refused(self, error: LedgerError | TableError, channel_id: int, t: Texts) -> str:
        """Why a table was not opened: the channel's one table (with its link), or the refusal."""
        existing = self.runtime.in_channel(channel_id)
        if error.code == "table_exists" and existing is not None:
            in_play = existing.status != "lobby"
            return table_exists(t, existing.guild_id, existing.plays_in, existing.message_id, in_play=in_play)
        return t.gettext(NOTHING_CHANGED).format(refusal=explain(error, t))

    @app_commands.command(
        name="practice", description="Open a practice table against computer players (practice chips)."
    )
    @app_commands.describe(
        computers="Computer players to seat (1–4; default 2)",
        level="Their level: basic (default), strong or random",
    )
    async def practice(
        self, interaction: discord.Interaction, computers: Computers = 2, level: str = "basic"
    ) -> None:
        """A table of practice chips: nothing touches the balance, history, stats or ratings."""
        t = await self.bot.languages.reader(interaction)
        assert interaction.guild is not None and interaction.channel is not None
        chosen = level_named(level, t)
        if chosen not in LEVELS:
            await send_ephemeral(interaction, level_error(t, level.strip().lower()))
            return
        level = chosen
        settings = await self.bot.ledger.settings(interaction.guild.id)
        if isinstance(interaction.channel, discord.ForumChannel):  # a post of its own, as /flipflop start
            await self.start_in_forum(
                interaction,
                interaction.channel,
                settings.default_stake,
                settings.default_buy_in,
                settings,
                t,
                practice=(computers, level),
            )
            return
        try:
            table = await self.open_here(
                interaction,
                interaction.channel.id,
                settings.default_stake,
                settings.default_buy_in,
                settings,
                practice=(computers, level),
            )
        except (LedgerError, TableError) as e:
            await send_ephemeral(interaction, self.refused(e, interaction.channel.id, t))
            return
        await self.post_table(interaction, table)
        await self.welcome(interaction, table)  # a practice table may be the server's first

    async def post_table(self, interaction: discord.Interaction, table: Table) -> None:
        """A new table's message, in the server's language, as the answer to the command that opened it."""
        public = await self.bot.languages.public(interaction)
        await interaction.response.send_message(**self.notifier.screen(table, public).send())
        message = await interaction.original_response()
        await self.runtime.placed(table.id, message.id)

    async def welcome(self, interaction: discord.Interaction, table: Table) -> None:
        """The server's first table ever, once: how to join, start and play, to whoever opened it.

        Private (in their language) so the channel keeps one message per table; it follows
        the lobby, which stays the command's answer.
        """
        try:
            if not await self.welcomes.first_table(table.guild_id):
                return
            t = await self.bot.languages.reader(interaction)
            await send_ephemeral(interaction, welcome_text(t))
        except (StoreError, discord.HTTPException) as e:  # a welcome lost is no reason to fail the start
            log.warning("Could not welcome a server's first table: %s", e)

    @practice.autocomplete("level")
    async def _levels(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        t = await self.bot.languages.reader(interaction)
        return [
            app_commands.Choice(name=fit(f"{name} — {t.gettext(about)}", OPTION_CHARS), value=name)
            for name, about in LEVEL_ABOUT.items()
            if current.casefold() in name or current.casefold() in level_name(name, t).casefold()
        ]

    @app_commands.command(
        name="hint",
        description="At a practice table: what the Strong computer would do now (only you see it).",
    )
    async def hint(self, interaction: discord.Interaction) -> None:
        assert interaction.channel is not None
        table = self.runtime.in_channel(interaction.channel.id)
        if table is None:
            await send_ephemeral(
                interaction,
                (await self.bot.languages.reader(interaction)).gettext(
                    "There's no table in this channel. Open one with `/flipflop practice`."
                ),
            )
            return
        await self.coach.hint(interaction, table)
