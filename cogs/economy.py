"""Chips: /balance, /daily, /leaderboard, /chips grant and /chips take.

The leaderboards by rating and by season are in ``cogs/leaderboards.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import as_written
from bot.history.seasons import WHICH
from bot.i18n import N_, Texts
from bot.ledger import (
    HOUSE_ID,
    MAX_AMOUNT,
    NOTE_CHARS,
    DailyNotReady,
    InsufficientChips,
    LedgerError,
    check_note,
)
from bot.presentation.refusals import NOTHING_CHANGED, explain
from cogs.leaderboards import Leaderboards, medal
from cogs.member_names import NO_RECORDS, departed, look_up, member_name, named
from cogs.newcomers import newcomer_wait

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

Amount = app_commands.Range[int, 1, MAX_AMOUNT]
Reason = app_commands.Range[str, 1, NOTE_CHARS]
"""Why a manager grants or takes chips: kept on the ledger entry, listed by ``/flipflop admin audit``."""


NO_BOT_CHIPS = N_("Bots don't have chips. Pick a person (or this bot, for the house account).")


def _refuse_bot(member: discord.abc.User, me: discord.abc.User | None, t: Texts) -> str | None:
    if member.bot and (me is None or member.id != me.id):
        return t.gettext(NO_BOT_CHIPS)
    return None


NO_CHIPS = N_("{name} isn't a member of this server and has no chips here; nothing was changed.")
"""``/chips take`` from someone who left (or was never here) with no account: none is opened."""
NOT_A_SEASON = N_("A season is current, previous or all time.")
GRANTED = N_("➕ {admin} granted **{chips}** to {member}. Their balance: {balance}.")
TOOK = N_("➖ {admin} took **{chips}** from {member}. Their balance: {balance}.")
HOUSE_GRANTED = N_(
    "➕ {admin} granted **{chips}** to the house (the computer players' chips). It has {balance}."
)
HOUSE_TOOK = N_("➖ {admin} took **{chips}** from the house (the computer players' chips). It has {balance}.")
"""``/chips grant`` and ``take`` given this bot: the house's chips (they said "to @bot. Their balance")."""


def account_of(member: discord.abc.User, me: discord.abc.User | None) -> int:
    """The ledger account for a member; the bot itself stands for the house (computer players' chips)."""
    return HOUSE_ID if me is not None and member.id == me.id else member.id


class Economy(Leaderboards, commands.Cog):
    """Each server's chips, kept in its own ledger."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot

    @property
    def ledger(self):  # type: ignore[no-untyped-def]
        return self.bot.ledger

    @app_commands.command(name="balance", description="Your chips (or another member's) and rank here.")
    @app_commands.describe(member="Whose balance (default: yours); someone who left the server too")
    @app_commands.guild_only()
    async def balance(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        assert interaction.guild is not None
        target = member or interaction.user
        t = await self.bot.languages.reader(interaction)
        if (msg := _refuse_bot(target, self.bot.user, t)) is not None:
            await interaction.response.send_message(msg, ephemeral=True)
            return
        guild = interaction.guild.id
        await self.ledger.balance(guild, interaction.user.id)
        who = account_of(target, self.bot.user)
        if departed(target) and who != HOUSE_ID:  # one who left: their account as it is, none opened
            held = await self.ledger.held(guild, who)
            if held is None:
                text = t.gettext(NO_RECORDS).format(name=as_written(target.display_name))
                await interaction.response.send_message(text, ephemeral=True)
                return
        balance = await self.ledger.balance(guild, who)
        if who == HOUSE_ID:
            await interaction.response.send_message(
                t.gettext(
                    "The house (computer players' chips) has **{chips}**. "
                    "An admin tops it up with `/chips grant` to this bot."
                ).format(chips=t.chips(balance)),
                ephemeral=True,
            )
            return
        place, total = await self.ledger.rank(guild, target.id)
        shown = {
            "chips": t.chips(balance),
            "place": t.number(place),
            "total": t.number(total),
            "server": interaction.guild.name,
        }
        if target.id == interaction.user.id:
            text = t.gettext("You have **{chips}** — #{place} of {total} in {server}.").format(**shown)
        else:
            text = t.gettext("{name} has **{chips}** — #{place} of {total} in {server}.").format(
                name=named(target, t), **shown
            )
        if held := self._at_tables(guild, target.id):  # bought in: those chips are not in the balance
            text += " " + t.gettext("At a table now: **{chips}** more.").format(chips=t.chips(held))
        await interaction.response.send_message(text, ephemeral=True)

    def _at_tables(self, guild_id: int, member: int) -> int:
        """The member's chips at this server's open tables played for chips: what closing them gives back."""
        tables = self.bot.runtime.tables.values() if self.bot.runtime is not None else ()
        return sum(
            table.refunds().get(member, 0)
            for table in tables
            if table.guild_id == guild_id and table.status != "closed" and table.is_seated(member)
            and not table.practice and not table.tournament  # practice and tournament chips are not chips
        )

    @app_commands.command(name="daily", description="Claim your daily chips (once every 24 hours).")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        if (wait := newcomer_wait(self.bot, interaction)) is not None:
            t = await self.bot.languages.reader(interaction)
            text = t.gettext(NOTHING_CHANGED).format(refusal=explain(wait, t))
            await interaction.response.send_message(text, ephemeral=True)
            return
        now = interaction.created_at.timestamp()
        try:
            amount, balance = await self.ledger.claim_daily(interaction.guild.id, interaction.user.id, now)
        except DailyNotReady as e:
            t = await self.bot.languages.reader(interaction)
            await interaction.response.send_message(
                t.gettext(
                    "You've already claimed today's chips. The next ones are ready {relative} ({when})."
                ).format(relative=f"<t:{int(e.next_at)}:R>", when=f"<t:{int(e.next_at)}:f>"),
                ephemeral=True,
            )
            return
        except LedgerError as e:  # daily chips switched off here (daily_amount 0)
            t = await self.bot.languages.reader(interaction)
            text = t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t))
            await interaction.response.send_message(text, ephemeral=True)
            return
        public = await self.bot.languages.public(interaction)
        await interaction.response.send_message(
            public.gettext("🪙 {member} claimed **{chips}** — balance now {balance}.").format(
                member=interaction.user.mention, chips=public.chips(amount), balance=public.chips(balance)
            )
        )

    @app_commands.command(name="leaderboard", description="The ten richest members of this server.")
    @app_commands.describe(
        by="chips (default) or rating: the skill rating from finished games",
        season="all time (default), this season or the last one: chips won, rounds won, rating change",
    )
    @app_commands.choices(
        by=[
            app_commands.Choice(name="chips", value="chips"),
            app_commands.Choice(name="rating", value="rating"),
        ],
        season=[
            app_commands.Choice(name="current", value="current"),
            app_commands.Choice(name="previous", value="previous"),
            app_commands.Choice(name="all time", value="all"),
        ],
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        by: app_commands.Choice[str] | None = None,
        season: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild is not None
        if season is not None and season.value not in WHICH:
            t = await self.bot.languages.reader(interaction)
            await interaction.response.send_message(t.gettext(NOT_A_SEASON), ephemeral=True)
            return
        if season is not None and season.value != "all":
            ranked = "rating" if by is not None and by.value == "rating" else "chips"
            await self._season(interaction, interaction.guild, season.value, ranked)
            return
        if by is not None and by.value == "rating":
            await self._by_rating(interaction, interaction.guild)
            return
        guild = interaction.guild.id
        t = await self.bot.languages.public(interaction)
        await self.ledger.balance(guild, interaction.user.id)
        top = await self.ledger.leaderboard(guild, 10)
        known = await look_up(interaction.guild, [u for u, _ in top], self._known(guild, interaction.user))
        lines = []
        for i, (user_id, balance) in enumerate(top, start=1):
            lines.append(
                f"{medal(i, t)} {member_name(interaction.guild, user_id, known)} — {t.chips(balance)}"
            )
        if interaction.user.id not in [u for u, _ in top]:
            place, total = await self.ledger.rank(guild, interaction.user.id)
            mine = await self.ledger.balance(guild, interaction.user.id)
            lines.append(
                "…\n"
                + t.gettext("{place} {member} (you) — {chips} of {total}").format(
                    place=f"`{t.number(place):>2}`",
                    member=member_name(interaction.guild, interaction.user.id, known),
                    chips=t.chips(mine),
                    total=t.number(total),
                )
            )
        embed = discord.Embed(
            title=t.gettext("🏆 Flip Flop leaderboard — {server}").format(server=interaction.guild.name)[
                :256
            ],
            description="\n".join(lines) or t.gettext("No one has chips yet."),
            colour=discord.Colour.gold(),
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    chips_group = app_commands.Group(
        name="chips",
        description="Give or take chips (Manage Server only).",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def _refused(
        self, interaction: discord.Interaction, member: discord.Member | discord.User, reason: str
    ) -> str | None:
        """Why a grant or take can not be done as asked (a bot, a blank or long reason), or None."""
        t = await self.bot.languages.reader(interaction)
        if (msg := _refuse_bot(member, self.bot.user, t)) is not None:
            return msg
        try:
            check_note(reason)
        except LedgerError as e:
            return t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t))
        return None

    @chips_group.command(name="grant", description="Give a member chips (Manage Server only).")
    @app_commands.describe(
        member="Who gets the chips",
        amount="How many chips",
        reason="Why (kept for the audit; only managers see it)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount, reason: Reason
    ) -> None:
        assert interaction.guild is not None
        if (msg := await self._refused(interaction, member, reason)) is not None:
            await interaction.response.send_message(msg, ephemeral=True)
            return
        who = account_of(member, self.bot.user)
        try:
            balance = await self.ledger.grant(
                interaction.guild.id, who, amount, interaction.user.id, note=check_note(reason)
            )
        except LedgerError as e:  # past the largest balance (MAX_AMOUNT): nothing granted
            t = await self.bot.languages.reader(interaction)
            text = t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t))
            await interaction.response.send_message(text, ephemeral=True)
            return
        t = await self.bot.languages.public(interaction)
        said = HOUSE_GRANTED if who == HOUSE_ID else GRANTED
        await interaction.response.send_message(
            t.gettext(said).format(
                admin=interaction.user.mention,
                chips=t.chips(amount),
                member=member.mention,
                balance=t.chips(balance),
            )
        )

    @chips_group.command(name="take", description="Take chips from a member (Manage Server only).")
    @app_commands.describe(
        member="Who loses the chips (someone who left the server too)",
        amount="How many chips",
        reason="Why (kept for the audit; only managers see it)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def take(
        self,
        interaction: discord.Interaction,
        member: discord.Member | discord.User,
        amount: Amount,
        reason: Reason,
    ) -> None:
        assert interaction.guild is not None
        if (msg := await self._refused(interaction, member, reason)) is not None:
            await interaction.response.send_message(msg, ephemeral=True)
            return
        t = await self.bot.languages.reader(interaction)
        who = account_of(member, self.bot.user)
        if departed(member) and who != HOUSE_ID and await self.ledger.held(interaction.guild.id, who) is None:
            text = t.gettext(NO_CHIPS).format(name=as_written(member.display_name))  # none taken nor opened
            await interaction.response.send_message(text, ephemeral=True)
            return
        try:
            balance = await self.ledger.take(
                interaction.guild.id, who, amount, interaction.user.id, note=check_note(reason)
            )
        except InsufficientChips as e:
            await interaction.response.send_message(
                t.gettext("{name} has only {balance}; you can't take {chips}. Nothing was changed.").format(
                    name=named(member, t), balance=t.chips(e.balance), chips=t.chips(amount)
                ),
                ephemeral=True,
            )
            return
        t = await self.bot.languages.public(interaction)
        said = HOUSE_TOOK if who == HOUSE_ID else TOOK
        await interaction.response.send_message(
            t.gettext(said).format(
                admin=interaction.user.mention,
                chips=t.chips(amount),
                member=named(member, t) if departed(member) else member.mention,
                balance=t.chips(balance),
            )
        )


async def setup(bot: FlipFlopBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(Economy(bot))
