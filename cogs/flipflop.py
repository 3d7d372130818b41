"""The /flipflop command group."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ledger import LedgerError
from bot.render import chips

if TYPE_CHECKING:
    from bot.client import FlipFlopBot


@app_commands.guild_only()
class FlipFlop(commands.GroupCog, group_name="flipflop", group_description="Play Flip Flop."):
    """Tables of Flip Flop in this server's channels."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="config", description="View or change this server's Flip Flop settings.")
    @app_commands.describe(
        starting_balance="Chips a member starts with",
        daily_amount="Chips /daily gives",
        stake="Default stake for new tables",
        buy_in="Default buy-in for new tables (a multiple of the stake, at least 4 stakes)",
        turn_seconds="Seconds a player has for each turn",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction,
        starting_balance: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_amount: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        buy_in: app_commands.Range[int, 4, 1_000_000_000] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        assert interaction.guild is not None
        changes = {
            k: v
            for k, v in {
                "starting_balance": starting_balance,
                "daily_amount": daily_amount,
                "default_stake": stake,
                "default_buy_in": buy_in,
                "turn_seconds": turn_seconds,
            }.items()
            if v is not None
        }
        ledger = self.bot.ledger
        if changes:
            try:
                s = await ledger.update_settings(interaction.guild.id, **changes)
            except LedgerError as e:
                await interaction.response.send_message(f"{e} Nothing was changed.", ephemeral=True)
                return
            head = "Settings saved."
        else:
            s = await ledger.settings(interaction.guild.id)
            head = "This server's Flip Flop settings:"
        await interaction.response.send_message(
            f"{head}\n"
            f"• Starting balance: **{chips(s.starting_balance)}**\n"
            f"• Daily chips: **{chips(s.daily_amount)}**\n"
            f"• Default stake: **{chips(s.default_stake)}**, buy-in: **{chips(s.default_buy_in)}**\n"
            f"• Turn timer: **{s.turn_seconds} s**\n"
            "Change any of them with `/flipflop config` and its options.",
            ephemeral=True,
        )


async def setup(bot: FlipFlopBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(FlipFlop(bot))
