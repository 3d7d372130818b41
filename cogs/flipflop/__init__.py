"""Flip Flop in Discord: commands, controls, screens and the notifier around ``bot.runtime``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.flipflop.commands import FlipFlop
from cogs.flipflop.emojis import CardEmojis

if TYPE_CHECKING:
    from bot.client import FlipFlopBot


async def setup(bot: FlipFlopBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(FlipFlop(bot))
    await bot.add_cog(CardEmojis(bot))


__all__ = ["FlipFlop", "setup"]
