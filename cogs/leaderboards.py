"""The leaderboards by skill rating and by season, for ``/leaderboard`` (``cogs/economy.py``).

A season's board is read from the stored history (chips won, rounds won, rating
change), with last season's top three and the season's tournaments under it;
the rating board ranks humans by their conservative rating. Members are named
as the bot knows them, asking Discord only for the rest.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from babel.dates import format_interval, format_skeleton

from bot.history import RatingEntry, leaderboard_by_rating, rating, rating_place, season_leaderboard
from bot.history.seasons import Season, season_at
from bot.i18n import LANGUAGES, N_, SOURCE_LANGUAGE, Texts
from bot.tournament.store import TournamentStore
from cogs.member_names import known_names, look_up, member_name

if TYPE_CHECKING:
    from bot.client import FlipFlopBot


def medal(place: int, t: Texts) -> str:
    """🥇🥈🥉 for the first three places, then the place as a number."""
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, f"`{t.number(place):>2}`")


SEASON_EMPTY = {
    "current": N_("No rounds have ended here this season ({season}) yet."),
    "previous": N_("No rounds ended here last season ({season}), so it has no leaderboard."),
}
"""A season with nothing to rank, said privately (the all-time leaderboard still has everyone)."""


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


def rating_line(t: Texts, name: str, entry: RatingEntry, yours: bool) -> str:
    """One member on the rating board: name, rating and rated games; "(you)" for the caller."""
    shown = {
        "member": name,
        "rating": t.decimal(entry.rating.ordinal),
        "games": t.ngettext("{count} game", "{count} games", entry.games).format(count=t.number(entry.games)),
    }
    if yours:
        return t.gettext("{member} (you) — rating **{rating}** ({games})").format(**shown)
    return t.gettext("{member} — rating **{rating}** ({games})").format(**shown)


TOURNAMENT_ROWS = 3
"""Entrants a season's board lists under "Tournaments this season" (most prizes first)."""


def more_entrants(count: int, t: Texts) -> list[str]:
    """The line under the season's tournament rows that says how many more played, if any."""
    if count <= 0:
        return []
    return [
        t.ngettext(
            "… and {count} more player",
            "… and {count} more players",
            count,
        ).format(count=t.number(count))
    ]


def signed(x: float, t: Texts) -> str:
    """A rating change with its sign: "+1.5", "−0.3", "0.0"."""
    shown = t.decimal(abs(x))
    if shown == t.decimal(0.0):  # shown as zero (babel rounds 0.05 half to even): no sign
        return shown
    return f"+{shown}" if x > 0 else f"−{shown}"


class Leaderboards:
    """The boards ``/leaderboard`` shows besides the chips one: by rating, and a season's (a mixin).

    What it needs of the economy cog (``cogs/economy.py``) it declares here.
    """

    bot: FlipFlopBot
    ledger: Any  # the cog's ``ledger`` (an untyped property there)

    def _known(self, guild_id: int, caller: discord.abc.User) -> dict[int, str]:
        """Names the bot knows without asking Discord: its open tables' seats and the caller."""
        tables = self.bot.runtime.tables.values() if self.bot.runtime is not None else ()
        return known_names(guild_id, tables, caller)

    async def _by_rating(self, interaction: discord.Interaction, guild: discord.Guild) -> None:
        """Humans by their conservative skill rating (ordinal μ − 3σ); computers are left off.

        The caller is marked "(you)"; below the ten, their own place when they have a rating.
        """
        top = await leaderboard_by_rating(self.bot.db, guild.id, 10)
        me = interaction.user.id
        t = await self.bot.languages.public(interaction)
        known = await look_up(guild, [e.member for e in top], self._known(guild.id, interaction.user))
        lines = [
            f"{medal(i, t)} {rating_line(t, member_name(guild, e.member, known), e, e.member == me)}"
            for i, e in enumerate(top, start=1)
        ]
        mine = None if me in [e.member for e in top] else await rating(self.bot.db, guild.id, me)
        place = None if mine is None else await rating_place(self.bot.db, guild.id, me)
        if mine is not None and place is not None:
            line = rating_line(t, member_name(guild, me, known), mine, True)
            lines.append(
                "…\n"
                + t.ngettext(
                    "{place} {line}, of {total} rated player",
                    "{place} {line}, of {total} rated players",
                    place[1],
                ).format(place=f"`{t.number(place[0]):>2}`", line=line, total=t.number(place[1]))
            )
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
        entrants = await TournamentStore(self.ledger).results(guild.id, chosen.start, chosen.end)
        tournaments = entrants[:TOURNAMENT_ROWS]
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
            lines.append(f"{medal(i, t)} {line}")
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
                    f"{medal(i, t)} {member_name(guild, e.member, known)}"
                    for i, e in enumerate(podium, start=1)
                )[:1024],
                inline=False,
            )
        if tournaments:
            embed.add_field(
                name=t.gettext("Tournaments this season")[:256],
                value="\n".join(
                    [
                        t.gettext("{member}: {played} played · {wins} won · prizes **{prizes}**").format(
                            member=member_name(guild, member, known),
                            played=t.number(played),
                            wins=t.number(wins),
                            prizes=t.chips(prizes),
                        )
                        for member, played, wins, prizes in tournaments
                    ]
                    + more_entrants(len(entrants) - len(tournaments), t)
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
