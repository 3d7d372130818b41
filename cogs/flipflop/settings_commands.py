"""The /flipflop commands that show or change settings: the server's, and a member's own.

``/flipflop config`` (Manage Server) shows or changes the server's settings;
``/flipflop notify`` a member's turn pings and ``/flipflop language`` the language
of their private messages. A mixin of the group cog (``cogs/flipflop/commands.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import send_ephemeral
from bot.i18n import LANGUAGES, N_, Texts, language_name, picker_label
from bot.i18n import picker as picker_words
from bot.i18n.languages import SERVER
from bot.ledger import MAX_AMOUNT, GuildSettings, LedgerError, min_buy_in, setting_range
from bot.presentation.refusals import NOTHING_CHANGED, explain
from cogs.flipflop.cards import STYLE_CHOICES, config_line
from cogs.flipflop.notifier import DiscordNotifier

if TYPE_CHECKING:
    from bot.client import FlipFlopBot


# Slash-command ranges come from the guild settings model, the one source of their bounds.
Stake = app_commands.Range[int, setting_range("default_stake")[0], setting_range("default_stake")[1]]
BuyIn = app_commands.Range[int, setting_range("default_buy_in")[0], setting_range("default_buy_in")[1]]
Balance = app_commands.Range[int, setting_range("starting_balance")[0], setting_range("starting_balance")[1]]
Daily = app_commands.Range[int, setting_range("daily_amount")[0], setting_range("daily_amount")[1]]
TurnSeconds = app_commands.Range[int, setting_range("turn_seconds")[0], setting_range("turn_seconds")[1]]


AUTOMATIC = "auto"
"""``/flipflop language language:Automatic``: forget the member's choice."""
LANGUAGE_CHOICES = [app_commands.Choice(name=picker_label(code, "en"), value=code) for code in LANGUAGES]
"""The six languages by their own names (Discord shows a choice's name as it is given)."""
LANGUAGE_SHOWN = {
    "choice": N_("You read your private messages here in {language}: your own choice."),
    "client": N_(
        "You read your private messages here in {language}: your Discord client's language."
        " Choose another with `/flipflop language`."
    ),
    "server": N_(
        "You read your private messages here in {language}: this server's language."
        " Choose your own with `/flipflop language`."
    ),
}
"""``/flipflop language`` without an argument: the member's language and where it comes from."""
PUBLIC_LANGUAGE = N_(
    "Public messages (the table, round logs, results) are in this server's language: {language}."
)
SEASON_CHOICES = [
    app_commands.Choice(name="1 month", value=1),
    app_commands.Choice(name="2 months", value=2),
    app_commands.Choice(name="3 months", value=3),
    app_commands.Choice(name="4 months", value=4),
    app_commands.Choice(name="6 months", value=6),
    app_commands.Choice(name="12 months", value=12),
]
"""``/flipflop config season_months:``: the lengths that divide a year (``bot.history.seasons``)."""

SAVED = N_("Settings saved. New tables use them; tables already open keep theirs.")
LOOKS_AT_ONCE = N_("The language and card style of public messages apply at once, at open tables too.")
SAVED_LOOKS = N_(
    "Settings saved. The language and card style of public messages apply at once, at open tables too."
)
"""``/flipflop config``'s first lines: table settings are each table's, the public look the server's."""

NOTIFY_CHOICES = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


FOLLOW_CLIENT = N_("You now follow your Discord client's language: {language}.")


TABLES_CHOICES = [
    app_commands.Choice(name="thread: a thread of its own for each game", value="thread"),
    app_commands.Choice(name="channel: every game in its channel", value="channel"),
]
"""``/flipflop config tables:``: where a server's games are played (a thread where the bot may)."""
AwayRounds = app_commands.Range[int, setting_range("away_rounds")[0], setting_range("away_rounds")[1]]
"""``/flipflop config away_rounds:``: its bounds come from the guild settings model."""
TABLES_LINE = {
    "thread": N_("• Games are played: **in a thread of their own** (where I may open threads)"),
    "channel": N_("• Games are played: **in the channel**"),
}
NO_THREADS_LINE = N_("• Games are played: **in the channel** (I am set up to open no threads)")
"""Where games are played when the bot itself opens no threads (``tables_in_threads``), whatever was saved."""
AWAY_LINE = N_("• A seat is released after **{rounds}** away (its stack goes home)")


def table_settings_lines(s: GuildSettings, t: Texts, threads: bool = True) -> list[str]:
    """Where games are played and how long a seat may stay away, as ``/flipflop config`` lists them.

    ``threads``: whether this bot opens threads at all (the playground's does not, unless asked):
    without, a server's ``thread`` setting is kept but its games are played in the channel, and the
    line says so.
    """
    rounds = t.ngettext("{count} round", "{count} rounds", s.away_rounds).format(
        count=t.number(s.away_rounds)
    )
    where = TABLES_LINE[s.tables] if threads or s.tables == "channel" else NO_THREADS_LINE
    return [t.gettext(where), t.gettext(AWAY_LINE).format(rounds=rounds)]


def buy_in_warning(s: GuildSettings, t: Texts) -> list[str]:
    """A warning when the default buy-in is more than a new member starts with.

    The settings are saved all the same: a server may mean it, and a host can name a smaller buy-in.
    """
    if s.default_buy_in <= s.starting_balance:
        return []
    return [
        t.gettext(
            "⚠️ The default buy-in ({buy_in}) is more than a new member starts with ({chips}): they can't "
            "join a table at the default buy-in until they have more chips. A host can name a smaller "
            "`buy_in` with `/flipflop start`."
        ).format(buy_in=t.chips(s.default_buy_in), chips=t.chips(s.starting_balance))
    ]


def buy_in_hint(error: LedgerError, stake: int, buy_in: int, t: Texts) -> str:
    """After a stake the server's buy-in doesn't suit (R2.1): two buy-ins that would, to give with it."""
    if error.code not in ("buy_in_not_multiple", "buy_in_too_small"):
        return ""
    low = max(min_buy_in(stake), buy_in // stake * stake)
    if low + stake > MAX_AMOUNT:
        return ""
    return " " + t.gettext(
        "The server's buy-in is {buy_in}: give a `buy_in` with the stake, such as {low} or {high}."
    ).format(buy_in=t.chips(buy_in), low=t.number(low), high=t.number(low + stake))


class SettingsCommands(commands.Cog):
    """``/flipflop config``, ``notify`` and ``language`` (mixed into the group cog)."""

    bot: FlipFlopBot
    notifier: DiscordNotifier

    @app_commands.command(name="config", description="View or change this server's Flip Flop settings.")
    @app_commands.describe(
        starting_balance="Chips a member starts with",
        daily_amount="Chips /daily gives",
        stake="Default stake for new tables",
        buy_in="Default buy-in for new tables (a multiple of the stake, at least 4 stakes)",
        turn_seconds="Seconds a player has for each turn",
        language="The language of public messages: the table, round logs, results",
        cards="How cards look in public messages: the table, round logs",
        season_months="How long a season of the leaderboard lasts, in calendar months from January",
        tables="Where new games are played: a thread of their own (where I may open one) or the channel",
        away_rounds="Rounds a player may be away (the computer plays for them) before their seat is released",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, cards=STYLE_CHOICES)
    @app_commands.choices(season_months=SEASON_CHOICES)
    @app_commands.choices(tables=TABLES_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction,
        starting_balance: Balance | None = None,
        daily_amount: Daily | None = None,
        stake: Stake | None = None,
        buy_in: BuyIn | None = None,
        turn_seconds: TurnSeconds | None = None,
        language: app_commands.Choice[str] | None = None,
        cards: app_commands.Choice[str] | None = None,
        season_months: app_commands.Choice[int] | None = None,
        tables: app_commands.Choice[str] | None = None,
        away_rounds: AwayRounds | None = None,
    ) -> None:
        assert interaction.guild is not None
        books = self.bot.languages
        given: dict[str, Any] = {
            "starting_balance": starting_balance,
            "daily_amount": daily_amount,
            "default_stake": stake,
            "default_buy_in": buy_in,
            "turn_seconds": turn_seconds,
            "season_months": season_months.value if season_months is not None else None,
            "tables": tables.value if tables is not None else None,
            "away_rounds": away_rounds,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        ledger = self.bot.ledger
        if language is not None and language.value not in LANGUAGES:
            t = await books.reader(interaction)
            await send_ephemeral(interaction, t.gettext(picker_words.NOT_A_LANGUAGE))
            return
        if changes:
            try:
                s = await ledger.update_settings(interaction.guild.id, **changes)
            except LedgerError as e:
                t = await books.reader(interaction)
                refusal = t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t))
                if stake is not None and buy_in is None:  # the server's buy-in doesn't suit the new stake
                    before = await ledger.settings(interaction.guild.id)
                    refusal += buy_in_hint(e, stake, before.default_buy_in, t)
                await send_ephemeral(interaction, refusal)
                return
        else:
            s = await ledger.settings(interaction.guild.id)
        if language is not None:
            await books.choose(interaction.guild.id, SERVER, language.value)
        if cards is not None and books.cards is not None:
            await books.cards.choose(interaction.guild.id, SERVER, cards.value)
        t = await books.reader(interaction)
        heads = [t.gettext(SAVED)] if changes else []
        if language is not None or cards is not None:  # public messages read the server's at each update
            heads.append(t.gettext(LOOKS_AT_ONCE if changes else SAVED_LOOKS))
        head = "\n".join(heads) or t.gettext("This server's Flip Flop settings:")
        public = await books.server(interaction.guild.id)
        lines = [
            head,
            t.gettext("• Starting balance: **{chips}**").format(chips=t.chips(s.starting_balance)),
            t.gettext("• Daily chips: **{chips}**").format(chips=t.chips(s.daily_amount)),
            t.gettext("• Default stake: **{stake}**, buy-in: **{buy_in}**").format(
                stake=t.chips(s.default_stake), buy_in=t.chips(s.default_buy_in)
            ),
            *buy_in_warning(s, t),
            t.gettext("• Turn timer: **{seconds}**").format(
                seconds=t.ngettext("{count} second", "{count} seconds", s.turn_seconds).format(
                    count=t.number(s.turn_seconds)
                )
            ),
            t.gettext("• Season length: **{months}**").format(
                months=t.ngettext("{count} month", "{count} months", s.season_months).format(
                    count=t.number(s.season_months)
                )
            ),
            *table_settings_lines(s, t, self.bot.tables_in_threads),
            t.gettext("• Language of public messages: **{language}**").format(
                language=picker_label(public, t.language)
            ),
            await config_line(self.bot, interaction.guild.id, t),
            t.gettext("Change any of them with `/flipflop config` and its options."),
        ]
        await send_ephemeral(interaction, "\n".join(lines))

    @app_commands.command(
        name="notify", description="Turn pings: be mentioned when your turn starts and your hand isn't open."
    )
    @app_commands.describe(turn="on (the default) or off, for you in this server")
    @app_commands.choices(turn=NOTIFY_CHOICES)
    async def notify(
        self, interaction: discord.Interaction, turn: app_commands.Choice[str] | None = None
    ) -> None:
        """Show or set the member's turn pings (cogs/flipflop/pings.py)."""
        await self.notifier.pings.command(interaction, turn.value if turn is not None else None)

    @app_commands.command(
        name="language", description="Choose the language of your private messages (hands, answers)."
    )
    @app_commands.describe(language="Your language, or Automatic: your Discord client's, else the server's")
    @app_commands.choices(
        language=[*LANGUAGE_CHOICES, app_commands.Choice(name="Automatic", value=AUTOMATIC)]
    )
    async def language(
        self, interaction: discord.Interaction, language: app_commands.Choice[str] | None = None
    ) -> None:
        """A member's own language here, shown or saved (the answer comes in the new one)."""
        assert interaction.guild is not None
        books, guild, user = self.bot.languages, interaction.guild.id, interaction.user.id
        client = str(interaction.locale)
        if language is not None:
            if language.value == AUTOMATIC:
                await books.choose(guild, user, None)
            elif language.value in LANGUAGES:
                await books.choose(guild, user, language.value)
            else:
                t = await books.reader(interaction)
                await send_ephemeral(interaction, t.gettext(picker_words.NOT_A_LANGUAGE))
                return
        t = await books.reader(interaction)
        source = await books.member_source(guild, user, client)
        name = language_name(t.language) if t.language in LANGUAGES else t.language
        if language is None:
            public = await books.server(guild)
            text = "\n".join(
                [
                    t.gettext(LANGUAGE_SHOWN[source]).format(language=name),
                    t.gettext(PUBLIC_LANGUAGE).format(language=picker_label(public, t.language)),
                ]
            )
        elif source == "choice":
            text = t.gettext(picker_words.SAVED).format(language=name)
        elif source == "client":
            text = t.gettext(FOLLOW_CLIENT).format(language=name)
        else:
            text = t.gettext(picker_words.CLEARED).format(language=name)
        await send_ephemeral(interaction, text)
