"""``/flipflop cards``: how cards look in a member's private messages (and the server's, in config).

Three styles (``bot.cards``): the bot's classic card faces, the four-colour deck, or words for
screen readers. A member's choice is used in their hands, menus and answers; the server's
(``/flipflop config cards:``) in public messages, and for members who chose none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cards import STYLE_NAME, STYLES
from bot.client import send_ephemeral
from bot.i18n import N_, Texts
from bot.presentation.render import cards
from engine import Card

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

FOLLOW_SERVER = "server"
"""``/flipflop cards style:Server's style``: forget the member's choice."""
STYLE_CHOICES = [
    app_commands.Choice(name="Classic", value="classic"),
    app_commands.Choice(name="Four-colour (clubs green, diamonds blue)", value="four"),
    app_commands.Choice(name="Text (words, for screen readers)", value="text"),
]
"""The styles as ``/flipflop config cards:`` offers them."""
SAMPLE = tuple(Card.parse(code) for code in ("AS", "TH", "QD", "7C"))
"""The cards an answer shows in the chosen style: one of each suit."""

SHOWN = {
    "choice": N_("Your cards look like this: {sample} ({style}, your own choice)."),
    "server": N_(
        "Your cards look like this: {sample} ({style}, this server's style)."
        " Choose your own with `/flipflop cards`."
    ),
}
PUBLIC_STYLE = N_("Public messages (the table, round logs) show cards in this server's style: {style}.")
SAVED = N_("Saved. Your cards look like this from now on: {sample} ({style}).")
CLEARED = N_("You now see cards in this server's style: {sample} ({style}).")
CONFIG_LINE = N_("• Cards in public messages: **{style}**")


def style_name(style: str, t: Texts) -> str:
    """A style's name in ``t``'s language."""
    return t.gettext(STYLE_NAME[style])


def sample(t: Texts) -> str:
    """Four cards, one of each suit, as ``t``'s reader sees cards."""
    return cards(SAMPLE, t=t)


class CardCommands(commands.Cog):
    """``/flipflop cards`` (mixed into the group cog)."""

    bot: FlipFlopBot

    @app_commands.command(
        name="cards", description="Choose how cards look in your private messages and menus."
    )
    @app_commands.describe(style="Classic, four-colour, words for screen readers, or the server's style")
    @app_commands.choices(
        style=[*STYLE_CHOICES, app_commands.Choice(name="The server's style", value=FOLLOW_SERVER)]
    )
    async def cards(
        self, interaction: discord.Interaction, style: app_commands.Choice[str] | None = None
    ) -> None:
        """Show or save how a member sees cards; the answer shows them the new way."""
        assert interaction.guild is not None
        books = self.bot.languages
        styles = books.cards
        assert styles is not None
        guild, user = interaction.guild.id, interaction.user.id
        # A value Discord offers that is not a choice here never arrives: discord.py refuses it
        # (TransformerError), and the bot answers that it is out of range, changing nothing.
        if style is not None:
            await styles.choose(guild, user, None if style.value == FOLLOW_SERVER else style.value)
        t = await books.reader(interaction)
        mine = await styles.member(guild, user)
        words = {"sample": sample(t), "style": style_name(mine, t)}
        if style is None:
            own = "choice" if await styles.saved(guild, user) in STYLES else "server"
            public = style_name(await styles.server(guild), t)
            text = "\n".join(
                [t.gettext(SHOWN[own]).format(**words), t.gettext(PUBLIC_STYLE).format(style=public)]
            )
        elif style.value == FOLLOW_SERVER:
            text = t.gettext(CLEARED).format(**words)
        else:
            text = t.gettext(SAVED).format(**words)
        await send_ephemeral(interaction, text)


async def config_line(bot: FlipFlopBot, guild_id: int, t: Texts) -> str:
    """The server's style as ``/flipflop config`` lists it."""
    assert bot.languages.cards is not None
    return t.gettext(CONFIG_LINE).format(style=style_name(await bot.languages.cards.server(guild_id), t))
