"""Chips: /balance, /daily, /leaderboard, /chips grant and /chips take."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from babel.dates import format_interval, format_skeleton
from discord import app_commands
from discord.ext import commands

from bot.history import leaderboard_by_rating, season_leaderboard
from bot.history.seasons import WHICH, Season, season_at
from bot.i18n import LANGUAGES, N_, SOURCE_LANGUAGE, Texts
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
from bot.tournament.store import TournamentStore
from cogs.member_names import as_written, known_names, look_up, member_name
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


def _medal(place: int, t: Texts) -> str:
    """🥇🥈🥉 for the first three places, then the place as a number."""
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, f"`{t.number(place):>2}`")


SEASON_EMPTY = {
    "current": N_("No rounds have ended here this season ({season}) yet. Nothing was changed."),
    "previous": N_("No rounds ended here last season ({season}), so it has no leaderboard."),
}
"""A season with nothing to rank, said privately (the all-time leaderboard still has everyone)."""
NOT_A_SEASON = N_("A season is current, previous or all time. Nothing was changed.")


def season_name(season: Season, t: Texts) -> str:
    """The season's months as the reader's language writes them: "January 2026", "April – June 2026"."""
    locale = t.language if t.language in LANGUAGES else SOURCE_LANGUAGE
    first = datetime(season.year, season.month, 1, tzinfo=UTC)
    if season.months == 12:
        return format_skeleton("y", first, locale=locale)
    if season.months == 1:
        return format_skeleton("yMMMM", first, locale=locale)
    last = datetime(season.year, season.last_month, 1, tzinfo=UTC)
    return format_interval(first, last, "yMMMM", locale=locale)


def signed(x: float, t: Texts) -> str:
    """A rating change with its sign: "+1.5", "−0.3", "0.0"."""
    shown = t.decimal(abs(x))
    if round(x, 1) == 0:
        return t.decimal(0.0)
    return f"+{shown}" if x > 0 else f"−{shown}"


def account_of(member: discord.abc.User, me: discord.abc.User | None) -> int:
    """The ledger account for a member; the bot itself stands for the house (computer players' chips)."""
    return HOUSE_ID if me is not None and member.id == me.id else member.id


class Economy(commands.Cog):
    """Each server's chips, kept in its own ledger."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot

    @property
    def ledger(self):  # type: ignore[no-untyped-def]
        return self.bot.ledger

    @app_commands.command(name="balance", description="Your chips (or another member's) and rank here.")
    @app_commands.describe(member="Whose balance to show (default: yours)")
    @app_commands.guild_only()
    async def balance(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        assert interaction.guild is not None
        target = member or interaction.user
        t = await self.bot.languages.reader(interaction)
        if (msg := _refuse_bot(target, self.bot.user, t)) is not None:
            await interaction.response.send_message(msg, ephemeral=True)
            return
        guild = interaction.guild.id
        await self.ledger.balance(guild, interaction.user.id)
        who = account_of(target, self.bot.user)
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
                name=as_written(target.display_name), **shown
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
                f"{_medal(i, t)} {member_name(interaction.guild, user_id, known)} — {t.chips(balance)}"
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

    def _known(self, guild_id: int, caller: discord.abc.User) -> dict[int, str]:
        """Names the bot knows without asking Discord: its open tables' seats and the caller."""
        tables = self.bot.runtime.tables.values() if self.bot.runtime is not None else ()
        return known_names(guild_id, tables, caller)

    async def _by_rating(self, interaction: discord.Interaction, guild: discord.Guild) -> None:
        """Humans by their conservative skill rating (ordinal μ − 3σ); computers are left off."""
        top = await leaderboard_by_rating(self.bot.db, guild.id, 10)
        t = await self.bot.languages.public(interaction)
        known = await look_up(guild, [e.member for e in top], self._known(guild.id, interaction.user))
        lines = []
        for i, entry in enumerate(top, start=1):
            shown = {
                "member": member_name(guild, entry.member, known),
                "rating": t.decimal(entry.rating.ordinal),
                "games": t.ngettext("{count} game", "{count} games", entry.games).format(
                    count=t.number(entry.games)
                ),
            }
            if entry.member == interaction.user.id:
                line = t.gettext("{member} (you) — rating **{rating}** ({games})").format(**shown)
            else:
                line = t.gettext("{member} — rating **{rating}** ({games})").format(**shown)
            lines.append(f"{_medal(i, t)} {line}")
        embed = discord.Embed(
            title=t.gettext("🏆 Flip Flop skill ratings — {server}").format(server=guild.name)[:256],
            description="\n".join(lines)
            or t.gettext("No one has a rating yet: ratings come from finished games of Flip Flop."),
            colour=discord.Colour.gold(),
        )
        embed.set_footer(
            text=t.gettext("Rating = μ − 3σ (OpenSkill, Plackett–Luce): it grows as you win and play more.")
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    async def _season(
        self, interaction: discord.Interaction, guild: discord.Guild, which: str, by: str
    ) -> None:
        """A season's leaderboard: chips won, rounds won and rating change, from the stored history.

        Seasons are UTC calendar months grouped by the server's season length (``bot.history.seasons``);
        nothing resets when one ends. The current season's board also names the last season's top
        three, read from the same history, so they stay on show for good.
        """
        now = interaction.created_at.timestamp()
        months = (await self.ledger.settings(guild.id)).season_months
        current = season_at(now, months)
        chosen = current if which == "current" else current.previous()
        top = await season_leaderboard(self.bot.db, guild.id, chosen.start, chosen.end, by=by, limit=10)
        tournaments = (await TournamentStore(self.ledger).results(guild.id, chosen.start, chosen.end))[:3]
        if not top and not tournaments:
            t = await self.bot.languages.reader(interaction)
            text = t.gettext(SEASON_EMPTY[which]).format(season=season_name(chosen, t))
            await interaction.response.send_message(text, ephemeral=True)
            return
        t = await self.bot.languages.public(interaction)
        last = chosen.previous()
        podium = (
            await season_leaderboard(self.bot.db, guild.id, last.start, last.end, by=by, limit=3)
            if which == "current"
            else []
        )
        named = [e.member for e in top] + [e.member for e in podium] + [r[0] for r in tournaments]
        known = await look_up(guild, named, self._known(guild.id, interaction.user))
        lines = []
        for i, entry in enumerate(top, start=1):
            shown = {
                "member": member_name(guild, entry.member, known),
                "chips": t.chips(entry.chips),
                "rounds": t.ngettext("{count} round won", "{count} rounds won", entry.rounds_won).format(
                    count=t.number(entry.rounds_won)
                ),
                "rating": signed(entry.rating_change, t),
            }
            line = t.gettext("{member} — net **{chips}** · {rounds} · rating {rating}").format(**shown)
            lines.append(f"{_medal(i, t)} {line}")
        if which == "previous":
            lines.insert(0, t.gettext("This season is over; its standings stay here for good."))
        embed = discord.Embed(
            title=t.gettext("🏆 Season {season} — {server}").format(
                season=season_name(chosen, t), server=guild.name
            )[:256],
            description="\n".join(lines) or "—",
            colour=discord.Colour.gold(),
        )
        if podium:
            embed.add_field(
                name=t.gettext("Last season's top three ({season})").format(season=season_name(last, t))[
                    :256
                ],
                value=" · ".join(
                    f"{_medal(i, t)} {member_name(guild, e.member, known)}"
                    for i, e in enumerate(podium, start=1)
                )[:1024],
                inline=False,
            )
        if tournaments:
            embed.add_field(
                name=t.gettext("Tournaments this season")[:256],
                value="\n".join(
                    t.gettext("{member}: {played} played · {wins} won · prizes **{prizes}**").format(
                        member=member_name(guild, member, known),
                        played=t.number(played),
                        wins=t.number(wins),
                        prizes=t.chips(prizes),
                    )
                    for member, played, wins, prizes in tournaments
                )[:1024],
                inline=False,
            )
        embed.set_footer(
            text=t.ngettext(
                "A season lasts {count} calendar month (UTC). Balances and all-time ratings never reset.",
                "A season lasts {count} calendar months (UTC). Balances and all-time ratings never reset.",
                months,
            ).format(count=t.number(months))
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    chips_group = app_commands.Group(
        name="chips",
        description="Give or take chips (Manage Server only).",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def _refused(
        self, interaction: discord.Interaction, member: discord.Member, reason: str
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
        await interaction.response.send_message(
            t.gettext("➕ {admin} granted **{chips}** to {member}. Their balance: {balance}.").format(
                admin=interaction.user.mention,
                chips=t.chips(amount),
                member=member.mention,
                balance=t.chips(balance),
            )
        )

    @chips_group.command(name="take", description="Take chips from a member (Manage Server only).")
    @app_commands.describe(
        member="Who loses the chips",
        amount="How many chips",
        reason="Why (kept for the audit; only managers see it)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def take(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount, reason: Reason
    ) -> None:
        assert interaction.guild is not None
        if (msg := await self._refused(interaction, member, reason)) is not None:
            await interaction.response.send_message(msg, ephemeral=True)
            return
        t = await self.bot.languages.reader(interaction)
        try:
            who = account_of(member, self.bot.user)
            balance = await self.ledger.take(
                interaction.guild.id, who, amount, interaction.user.id, note=check_note(reason)
            )
        except InsufficientChips as e:
            await interaction.response.send_message(
                t.gettext("{name} has only {balance}; you can't take {chips}. Nothing was changed.").format(
                    name=as_written(member.display_name), balance=t.chips(e.balance), chips=t.chips(amount)
                ),
                ephemeral=True,
            )
            return
        t = await self.bot.languages.public(interaction)
        await interaction.response.send_message(
            t.gettext("➖ {admin} took **{chips}** from {member}. Their balance: {balance}.").format(
                admin=interaction.user.mention,
                chips=t.chips(amount),
                member=member.mention,
                balance=t.chips(balance),
            )
        )


async def setup(bot: FlipFlopBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(Economy(bot))
