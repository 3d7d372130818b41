"""The /flipflop group cog, which wires the runtime to Discord, and its listeners.

The cog builds the table runtime with its Discord notifier, binds the
controls, resumes saved tables once connected, and closes a table at once
when its channel is deleted. Its commands only translate: a refusal from the
runtime or the ledger becomes a private answer and changes nothing. The
commands are its mixins, each in a module of its own: ``table_commands.py``
(start, hand, table, stop, …), ``settings_commands.py`` (config, notify,
language), ``practice.py``, ``cards.py``, ``history.py``, ``admin.py``,
``privacy.py`` and ``tournament.py``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.presentation.first_game import ServerWelcomes
from bot.runtime import Delivery, Sent, TableRuntime
from cogs.flipflop import control_answers, controls
from cogs.flipflop.admin import AdminCommands
from cogs.flipflop.cards import CardCommands
from cogs.flipflop.coach import Coach
from cogs.flipflop.delivery import Moved, News
from cogs.flipflop.history import HistoryCommands
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.play import Controls
from cogs.flipflop.practice import CoachCommands
from cogs.flipflop.privacy import PrivacyCommands
from cogs.flipflop.settings_commands import SettingsCommands
from cogs.flipflop.table_commands import TableCommands
from cogs.flipflop.tournament import TournamentCommands

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

NEWS_SECONDS = 2.0
"""At shutdown, how long recording what the notifier's last calls found may take."""


def now() -> float:
    """Wall-clock seconds (virtual under simcord)."""
    return discord.utils.utcnow().timestamp()


@app_commands.guild_only()
class FlipFlop(
    SettingsCommands,
    TableCommands,
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
        await control_answers.answer_unknown(interaction)

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
