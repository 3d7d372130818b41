"""The /flipflop slash commands, and the cog that wires the runtime to Discord.

The cog builds the table runtime with its Discord notifier, binds the
controls, resumes saved tables once connected, and closes a table at once
when its channel is deleted. Its commands only translate: a refusal from the
runtime or the ledger becomes a private answer and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import send_ephemeral
from bot.i18n import LANGUAGES, N_, Texts, language_name, picker_label
from bot.i18n import picker as picker_words
from bot.i18n.languages import SERVER
from bot.ledger import GuildSettings, InsufficientChips, LedgerError, buy_in_for, setting_range
from bot.presentation.controls import fit
from bot.presentation.first_game import ServerWelcomes, help_text, welcome_text
from bot.presentation.limits import CONTENT, shorten
from bot.presentation.refusals import NOTHING_CHANGED, Refusal, explain
from bot.presentation.table_render import notice_line
from bot.runtime import NOTHING_SHOWN, Delivery, Outcome, Sent, Shown, TableRuntime
from bot.storage import StoreError
from bot.table.model import MAX_SEATS, Table, TableError
from cogs.flipflop import controls
from cogs.flipflop.admin import TABLES_CHOICES, AdminCommands, AwayRounds, table_settings_lines
from cogs.flipflop.answer import REFUSED, Answer, may_manage, not_enough
from cogs.flipflop.cards import STYLE_CHOICES, CardCommands, config_line
from cogs.flipflop.coach import Coach
from cogs.flipflop.dealing import THREAD_NAME_CHARS
from cogs.flipflop.delivery import Moved, News
from cogs.flipflop.history import HistoryCommands
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.play import LIVE_OFF, Controls, web_link_text
from cogs.flipflop.practice import CoachCommands
from cogs.flipflop.privacy import PrivacyCommands
from cogs.flipflop.screens import rules_screen
from cogs.flipflop.tournament import TournamentCommands
from cogs.newcomers import newcomer_wait

# Slash-command ranges come from the guild settings model, the one source of their bounds.
Stake = app_commands.Range[int, setting_range("default_stake")[0], setting_range("default_stake")[1]]
BuyIn = app_commands.Range[int, setting_range("default_buy_in")[0], setting_range("default_buy_in")[1]]
Balance = app_commands.Range[int, setting_range("starting_balance")[0], setting_range("starting_balance")[1]]
Daily = app_commands.Range[int, setting_range("daily_amount")[0], setting_range("daily_amount")[1]]
TurnSeconds = app_commands.Range[int, setting_range("turn_seconds")[0], setting_range("turn_seconds")[1]]

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

FORUM_TITLE = N_("🃏 Flip Flop · stake {stake} · {seats} seats open")
"""A forum post's title (at most 100 characters, cut with "…" if a translation runs longer)."""
FORUM_OPENING = N_("🃏 Opening a Flip Flop table…")
FORUM_OPENED = N_("Your table is open in its own post: {post}. Players join there.")
FORUM_REFUSED = N_(
    "I couldn't open a post in this forum: I need the **Create Posts** and **Send Messages in Posts** "
    "permissions here. Nothing was changed."
)
NO_TABLE = N_("There's no table in this channel. Open one with `/flipflop start`.")
NO_TABLE_TO_STOP = N_("There's no table in this channel.")
TABLE_IN_THREAD = N_("This channel's game is played in its thread: {thread}. The table is there.")
"""``/flipflop table`` in the lobby's channel while the game plays in a thread: the channel stays quiet."""
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
NOTIFY_CHOICES = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
NEWS_SECONDS = 2.0
"""At shutdown, how long recording what the notifier's last calls found may take."""
FOLLOW_CLIENT = N_("You now follow your Discord client's language: {language}.")


def now() -> float:
    """Wall-clock seconds (virtual under simcord)."""
    return discord.utils.utcnow().timestamp()


@app_commands.guild_only()
class FlipFlop(
    CardCommands,
    CoachCommands,
    HistoryCommands,
    AdminCommands,
    PrivacyCommands,
    TournamentCommands,
    commands.GroupCog,
    group_name="flipflop",
    group_description="Play Flip Flop.",
):
    """Tables of Flip Flop in this server's channels."""

    notifier: DiscordNotifier  # the coach's part sees only its ``TableMessages`` side

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot
        self.notifier = DiscordNotifier(bot, tell=self.tell_runtime)
        self.turn_pings = self.notifier.pings.book
        self.recording: set[asyncio.Future[None]] = set()
        self.runtime = TableRuntime(
            bot.db,
            bot.ledger,
            self.notifier,
            clock=now,
            rng=bot.rng,
            computer_pause=bot.computer_pause,
            round_pause=bot.pause_between_rounds,
            owns=bot.owns_guild,
            repost_missing_messages=bot.harness.repost_missing_messages,
            outbox_wait=bot.settings.outbox_wait_seconds,
            table_cooldown=bot.settings.table_cooldown_seconds,
        )
        self.notifier.live = self.runtime.get
        self.controls = Controls(self.runtime, self.notifier)
        self.coach = Coach(bot, self.runtime)
        self.notifier.dealt = self.coach.round_dealt  # a new round: the last one's hints go
        self.welcomes = ServerWelcomes(bot.db, now)
        super().__init__()

    async def cog_load(self) -> None:
        """Bind the persistent controls; read saved tables (they resume once connected)."""
        controls.bind(self.bot, self.controls)
        self.coach.bind()
        self.bind_tournaments()
        self.bot.runtime = self.runtime
        if self.bot.live is not None:
            languages = self.bot.languages
            self.bot.live.attach(
                self.runtime,
                lambda guild_id, user_id: languages.member_texts(guild_id, user_id, None),
                languages.server_texts,
            )
        await self.runtime.load()

    async def cog_unload(self) -> None:
        """Stop (a clean shutdown): pending table edits are made, within a bound, before Discord closes."""
        controls.unbind(self.bot)
        self.coach.unbind()
        self.unbind_tournaments()
        await self.runtime.scheduler.close()
        await self.notifier.close()
        if self.recording:  # what the last edits found is recorded before the database closes
            await asyncio.wait(list(self.recording), timeout=NEWS_SECONDS)

    def tell_runtime(self, news: News) -> None:
        """The notifier's news, as a command to the runtime: calls go one way, cog to runtime."""
        task = asyncio.ensure_future(self.record(news))
        self.recording.add(task)
        task.add_done_callback(self.recording.discard)

    async def record(self, news: News) -> None:
        """The table message moved (save its id), or its channel is gone or refuses the bot."""
        try:
            if isinstance(news, Moved):
                await self.runtime.moved(news.table_id, news.message_id)
                await self.runtime.report(news.table_id, Sent(Delivery.OK, posted=True))
            else:
                await self.runtime.report(news.table_id, news.sent)
        except Exception:  # a store fault: the table carries on, its message id as last saved
            logging.getLogger("flipflop").exception("Could not record news of table %s", news.table_id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A moderator deleted the table message: post it again (play goes on)."""
        table = self.runtime.in_channel(payload.channel_id)
        if table is not None:
            self.notifier.message_deleted(table, payload.message_id)
        if payload.guild_id is not None:  # a tournament's message is posted again too
            await self.tournament_message_gone(payload.guild_id, payload.channel_id, payload.message_id)

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """A moderator purged messages, the table's or a tournament's message among them: post it again."""
        table = self.runtime.in_channel(payload.channel_id)
        if table is not None:
            for message_id in payload.message_ids:
                self.notifier.message_deleted(table, message_id)
        if payload.guild_id is not None:
            for message_id in payload.message_ids:
                await self.tournament_message_gone(payload.guild_id, payload.channel_id, message_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.bot.harness.resume_on_ready:
            await self.runtime.resume()
            await self.resume_tournaments()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A control under the bot's prefix that no item answers (an older version's) is answered here."""
        await controls.answer_unknown(interaction)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.runtime.channel_gone(channel.id)
        await self.tournament_place_gone(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        table = self.runtime.in_channel(payload.thread_id)
        refunds = await self.runtime.channel_gone(payload.thread_id)
        if table is not None and refunds is not None and table.thread_id == payload.thread_id:
            await self.notifier.thread_gone(table, refunds)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread was archived mid-game: opened again if the bot may, else closed with refunds."""
        table = self.runtime.in_channel(payload.thread_id)
        archived = bool(payload.data.get("thread_metadata", {}).get("archived"))
        if table is None or table.thread_id != payload.thread_id or not archived:
            return
        try:
            await self.bot.http.edit_channel(payload.thread_id, archived=False)
        except discord.HTTPException as e:
            logging.getLogger("flipflop").warning(
                "Table %s: its thread was archived and can't be opened again (%s %s)",
                table.id,
                e.status,
                e.code,
            )
            refunds = await self.runtime.channel_gone(payload.thread_id)
            if refunds is not None:
                await self.notifier.thread_gone(table, refunds)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Members' chat pushes the table up: the notifier moves it down past a screenful."""
        if message.guild is None or self.bot.user is None or message.author.id == self.bot.user.id:
            return
        table = self.runtime.in_channel(message.channel.id)
        if table is not None and table.status == "playing" and table.plays_in == message.channel.id:
            self.notifier.pushed_up(table)

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="start", description="Open a Flip Flop table in this channel.")
    @app_commands.describe(stake="Chips per stake (default: the server's)", buy_in="Chips to sit down with")
    async def start(
        self,
        interaction: discord.Interaction,
        stake: Stake | None = None,
        buy_in: BuyIn | None = None,
    ) -> None:
        assert interaction.guild is not None and interaction.channel is not None
        t = await self.bot.languages.reader(interaction)
        settings = await self.bot.ledger.settings(interaction.guild.id)
        if stake is None:
            stake = settings.default_stake
        user = interaction.user
        try:
            if (wait := newcomer_wait(self.bot, interaction)) is not None:
                raise wait
            buy_in = buy_in_for(stake, buy_in, settings.default_stake, settings.default_buy_in)
        except Refusal as e:
            await send_ephemeral(interaction, t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t)))
            return
        if isinstance(interaction.channel, discord.ForumChannel):
            await self.start_in_forum(interaction, interaction.channel, stake, buy_in, settings, t)
            return
        try:
            table = await self.runtime.open(
                interaction.guild.id,
                interaction.channel.id,
                user.id,
                user.display_name,
                stake,
                buy_in,
                settings.turn_seconds,
                away_rounds=settings.away_rounds,
            )
        except InsufficientChips as e:
            await send_ephemeral(interaction, not_enough(e.balance, buy_in, t))
            return
        except (LedgerError, TableError) as e:
            await send_ephemeral(interaction, self.refused(e, interaction.channel.id, t))
            return
        await self.post_table(interaction, table)
        await self.welcome(interaction, table)

    async def start_in_forum(
        self,
        interaction: discord.Interaction,
        forum: discord.ForumChannel,
        stake: int,
        buy_in: int,
        settings: GuildSettings,
        t: Texts,
        *,
        practice: tuple[int, str] | None = None,
    ) -> None:
        """In a forum, a new post is the lobby and the game's place; its title says the stake and open seats.

        The post is made first, so the table is bound to it from the start; a lobby the
        member can not open (the buy-in, a refusal) takes its post away again. ``practice``
        (computers, level): a practice table (``/flipflop practice``), its computers seated.
        """
        assert interaction.guild is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        public = await self.bot.languages.public(interaction)
        if practice is None:
            title = public.gettext(FORUM_TITLE).format(
                stake=public.chips(stake), seats=public.number(MAX_SEATS - 1)
            )
        else:
            open_seats = MAX_SEATS - 1 - practice[0]  # the host's and the computers' seats are taken
            title = public.ngettext(  # a practice table's post: practice chips are not the server's stake
                "🃏 Flip Flop · practice · {seats} seat open",
                "🃏 Flip Flop · practice · {seats} seats open",
                open_seats,
            ).format(seats=public.number(open_seats))
        user = interaction.user
        try:
            post = await forum.create_thread(
                name=fit(title, THREAD_NAME_CHARS), content=public.gettext(FORUM_OPENING)
            )
        except discord.HTTPException as e:
            logging.getLogger("flipflop").warning("Could not open a forum post (%s %s)", e.status, e.code)
            await interaction.followup.send(t.gettext(FORUM_REFUSED), ephemeral=True)
            return
        try:
            table = await self.runtime.open(
                interaction.guild.id,
                post.thread.id,
                user.id,
                user.display_name,
                stake,
                buy_in,
                settings.turn_seconds,
                away_rounds=settings.away_rounds,
                practice=practice,
            )
        except (InsufficientChips, LedgerError, TableError) as e:
            await post.thread.delete()
            text = (
                not_enough(e.balance, buy_in, t)
                if isinstance(e, InsufficientChips)
                else t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t))
            )
            await interaction.followup.send(text, ephemeral=True)
            return
        await post.message.edit(content=None, **self.notifier.screen(table, public).send())
        await self.runtime.placed(table.id, post.message.id)
        opened = t.gettext(FORUM_OPENED).format(post=post.thread.mention)
        try:
            if await self.welcomes.first_table(table.guild_id):  # the server's first table: how to play
                opened = f"{opened}\n\n{welcome_text(t)}"
        except StoreError as e:
            logging.getLogger("flipflop").warning("Could not welcome a server's first table: %s", e)
        await interaction.followup.send(opened, ephemeral=True)

    async def _channel_table(
        self, interaction: discord.Interaction, missing: str, *, mine: bool = True
    ) -> Table | None:
        """The table in the channel asked from; None once the member was told (``missing``) there is none.

        ``mine``: in a tournament's channel, the member's own table there (``/flipflop hand``, ``web``,
        ``table``); ``/flipflop stop`` is not offered it (a tournament stops by its message's button).
        """
        assert interaction.channel is not None
        table = self.runtime.in_channel(interaction.channel.id)
        if table is None and mine:
            table = self._my_tournament_table(interaction)
        if table is None:
            t = await self.bot.languages.reader(interaction)
            await send_ephemeral(interaction, t.gettext(missing))
        return table

    def _my_tournament_table(self, interaction: discord.Interaction) -> Table | None:
        """In a tournament's channel, whose tables are its threads: the table the member plays at."""
        for table in self.runtime.tables.values():
            if table.status != "closed" and table.is_seated(interaction.user.id):
                if controls.in_tournament_channel(interaction, table):
                    return table
        return None

    @app_commands.command(
        name="hand", description="See your cards at this channel's table (only you see them)."
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        if (table := await self._channel_table(interaction, NO_TABLE)) is not None:
            await self.controls.show_hand(interaction, table)

    @app_commands.command(
        name="web", description="Open this channel's table in your browser (a private one-time link)."
    )
    async def web(self, interaction: discord.Interaction) -> None:
        if self.bot.live is None:
            t = await self.bot.languages.reader(interaction)
            await send_ephemeral(interaction, t.gettext(LIVE_OFF))
            return
        if (table := await self._channel_table(interaction, NO_TABLE)) is None:
            return
        t = await self.bot.languages.reader(interaction)
        await send_ephemeral(interaction, web_link_text(self.bot, table, interaction.user.id, t))

    @app_commands.command(
        name="help", description="New to Flip Flop? What to type first and how a turn goes."
    )
    async def help(self, interaction: discord.Interaction) -> None:
        t = await self.bot.languages.reader(interaction)
        await send_ephemeral(interaction, help_text(t))

    @app_commands.command(name="rules", description="Learn the rules of Flip Flop, a page at a time.")
    async def rules(self, interaction: discord.Interaction) -> None:
        t = await self.bot.languages.reader(interaction)
        await interaction.response.send_message(ephemeral=True, **rules_screen(1, t).send())

    @app_commands.command(name="table", description="Show the table again at the bottom of the channel.")
    async def table(self, interaction: discord.Interaction) -> None:
        table = await self._channel_table(interaction, NO_TABLE)
        if table is None:
            return
        if interaction.channel_id != table.plays_in:  # its thread (a game's, a tournament table's)
            t = await self.bot.languages.reader(interaction)
            where = t.gettext(TABLE_IN_THREAD).format(thread=f"<#{table.plays_in}>")
            await send_ephemeral(interaction, where)
            return
        old = table.message_id
        public = await self.bot.languages.public(interaction)
        await interaction.response.send_message(**self.notifier.screen(table, public).send())
        message = await interaction.original_response()
        await self.runtime.placed(table.id, message.id)
        if old is not None:
            await self.notifier.retire(table, old)

    @app_commands.command(
        name="stop", description="End the game at this channel's table (host or Manage Server)."
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        table = await self._channel_table(interaction, NO_TABLE_TO_STOP, mine=False)
        if table is None:
            return
        public = await self.bot.languages.public(interaction)

        async def reply(outcome: Outcome) -> Shown:
            """The stop is said publicly by the command's own answer; the channel is told the rest.

            Asked in the lobby's channel of a game played in its thread, the answer is the
            stopper's alone and the thread is told: the channel gets no message from the game.
            """
            text = shorten(
                "\n".join(line for n in outcome.notices if (line := notice_line(outcome.table, n, public))),
                CONTENT,
            )
            elsewhere = interaction.channel_id != outcome.table.plays_in
            try:
                await interaction.response.send_message(
                    text, ephemeral=elsewhere, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                return NOTHING_SHOWN
            return NOTHING_SHOWN if elsewhere else Shown(notices=True)

        try:
            await self.runtime.stop(
                table.id,
                interaction.user.id,
                may_manage(interaction),
                interaction_id=interaction.id,
                reply=reply,
            )
        except REFUSED as e:
            t = await self.bot.languages.reader(interaction)
            await Answer(interaction).refused(e, t, table)
            return
        await self.controls.warn_if_muted(interaction, table.id)

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
                await send_ephemeral(interaction, t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t)))
                return
        else:
            s = await ledger.settings(interaction.guild.id)
        if language is not None:
            await books.choose(interaction.guild.id, SERVER, language.value)
        if cards is not None and books.cards is not None:
            await books.cards.choose(interaction.guild.id, SERVER, cards.value)
        t = await books.reader(interaction)
        head = (
            t.gettext("Settings saved. New tables use them; tables already open keep theirs.")
            if changes or language is not None or cards is not None
            else t.gettext("This server's Flip Flop settings:")
        )
        public = await books.server(interaction.guild.id)
        lines = [
            head,
            t.gettext("• Starting balance: **{chips}**").format(chips=t.chips(s.starting_balance)),
            t.gettext("• Daily chips: **{chips}**").format(chips=t.chips(s.daily_amount)),
            t.gettext("• Default stake: **{stake}**, buy-in: **{buy_in}**").format(
                stake=t.chips(s.default_stake), buy_in=t.chips(s.default_buy_in)
            ),
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
            *table_settings_lines(s, t),
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
