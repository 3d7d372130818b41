"""The /flipflop commands a player types at a channel's table: start, hand, web, help, rules, table, stop.

A mixin of the group cog (``cogs/flipflop/commands.py``). In a forum, ``/flipflop
start`` opens a post of its own as the lobby (``start_in_forum``, which
``/flipflop practice`` uses too). The commands only translate: a refusal from the
runtime or the ledger becomes a private answer and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import send_ephemeral
from bot.i18n import N_, Texts
from bot.ledger import GuildSettings, InsufficientChips, LedgerError, buy_in_for
from bot.presentation.controls import fit
from bot.presentation.first_game import ServerWelcomes, help_text, welcome_text
from bot.presentation.limits import CONTENT, shorten
from bot.presentation.refusals import NOTHING_CHANGED, Refusal, explain
from bot.presentation.table_render import notice_line
from bot.runtime import NOTHING_SHOWN, Outcome, Shown, TableRuntime
from bot.storage import StoreError
from bot.table.model import MAX_SEATS, Table, TableError
from cogs.flipflop import controls
from cogs.flipflop.answer import REFUSED, Answer, may_manage, not_enough
from cogs.flipflop.dealing import THREAD_NAME_CHARS
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.play import LIVE_OFF, Controls, web_link_text
from cogs.flipflop.screens import rules_screen
from cogs.flipflop.settings_commands import BuyIn, Stake
from cogs.newcomers import newcomer_wait

if TYPE_CHECKING:
    from bot.client import FlipFlopBot
    from bot.tournament.model import Tournament
    from bot.tournament.store import TournamentStore


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
BETWEEN_TOURNAMENT_ROUNDS = N_(
    "Your tournament table's round is over. The next round is dealt when every table's round is in;"
    " try again then."
)
"""``/flipflop hand`` (``web``, ``table``) from an entrant still in, while no table of theirs is in play."""
NOT_ENTERED = N_("You're not in this channel's tournament, so you have no hand or table here.")
OUT_OF_TOURNAMENT = N_(
    "You're out of this channel's tournament (you went out in round {round}, in place {place} of"
    " {entrants}), so you have no hand or table here."
)
WATCH_TABLES = N_("To watch, open one of its tables' threads: {threads}.")
WATCH_ON_WEB = N_("There, `/flipflop web` opens the table in your browser.")
"""``/flipflop hand`` (``web``, ``table``) in a running tournament's channel from a member not entered
(or out of it: ``OUT_OF_TOURNAMENT``, then where to watch)."""
OPEN_TOURNAMENT_CANCEL = N_(
    "This channel's tournament hasn't started yet, so there's no game to stop. To call it off, click"
    " **Cancel** on the tournament's message: every entry fee goes back."
)
OPEN_TOURNAMENT_NOT_YOURS = N_(
    "This channel's tournament hasn't started yet, so there's no game to stop. Only its host or a member"
    " with **Manage Server** can cancel it; if you entered, **Leave** on its message gives your fee back."
)
"""``/flipflop stop`` where a tournament is open for entries: its host's or a manager's, anyone else's."""
TABLE_IN_THREAD = N_("This channel's game is played in its thread: {thread}. The table is there.")
"""``/flipflop table`` in the lobby's channel while the game plays in a thread: the channel stays quiet."""


class TableCommands(commands.Cog):
    """``/flipflop start``, ``hand``, ``web``, ``help``, ``rules``, ``table``, ``stop`` (mixed into the cog).

    What it needs of the cog it declares here; ``open_here``, ``refused``, ``post_table`` and
    ``welcome`` are the practice commands' (``cogs/flipflop/practice.py``).
    """

    bot: FlipFlopBot
    runtime: TableRuntime
    notifier: DiscordNotifier
    controls: Controls
    welcomes: ServerWelcomes
    open_here: Callable[..., Coroutine[Any, Any, Table]]
    refused: Callable[[LedgerError | TableError, int, Texts], str]
    tournaments: TournamentStore
    post_table: Callable[[discord.Interaction, Table], Coroutine[Any, Any, None]]
    welcome: Callable[[discord.Interaction, Table], Coroutine[Any, Any, None]]

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
            table = await self.open_here(interaction, interaction.channel.id, stake, buy_in, settings)
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
        try:
            post = await forum.create_thread(
                name=fit(title, THREAD_NAME_CHARS), content=public.gettext(FORUM_OPENING)
            )
        except discord.HTTPException as e:
            logging.getLogger("flipflop").warning("Could not open a forum post (%s %s)", e.status, e.code)
            await interaction.followup.send(t.gettext(FORUM_REFUSED), ephemeral=True)
            return
        try:
            table = await self.open_here(interaction, post.thread.id, stake, buy_in, settings, practice)
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
            tour = await self._tournament_here(interaction) if mine else None
            if tour is not None and interaction.user.id in tour.alive():
                said = t.gettext(BETWEEN_TOURNAMENT_ROUNDS)
            elif tour is not None:
                said = self._not_playing(tour, interaction.user.id, t)
            else:  # no tournament running here
                said = t.gettext(missing)
            await send_ephemeral(interaction, said)
        return table

    def _not_playing(self, tour: Tournament, member: int, t: Texts) -> str:
        """A member not entered in the tournament running here, or out of it: where its tables can be watched.

        An entrant who is out is told when they went out and where they finished (as its message's
        standings say).
        """
        out = tour.entrants[member].out_round if member in tour.entrants else None
        if out is None:
            lines = [t.gettext(NOT_ENTERED)]
        else:
            lines = [
                t.gettext(OUT_OF_TOURNAMENT).format(
                    round=t.number(out),
                    place=t.number(tour.place_of(member)),
                    entrants=t.number(len(tour.entrants)),
                )
            ]
        playing = sorted((n, thread) for n, thread in tour.threads.items() if n in tour.tables)
        if playing:  # a table broken in a rebalance keeps its thread, where nothing plays any more
            threads = ", ".join(f"<#{thread}>" for _, thread in playing)
            lines.append(t.gettext(WATCH_TABLES).format(threads=threads))
            if self.bot.live is not None:
                lines.append(t.gettext(WATCH_ON_WEB))
        return " ".join(lines)

    async def _tournament_here(
        self, interaction: discord.Interaction, statuses: tuple[str, ...] = ("running",)
    ) -> Tournament | None:
        """The tournament (running, or in ``statuses``) in this channel, which has no table of its own."""
        channel, guild = interaction.channel_id, interaction.guild_id
        if channel is None or guild is None or self.runtime.in_channel(channel) is not None:
            return None
        tour = await self.tournaments.in_channel(guild, channel)
        return tour if tour is not None and tour.status in statuses else None

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
        if (tour := await self._tournament_here(interaction, ("open", "running"))) is not None:
            t = await self.bot.languages.reader(interaction)
            if tour.status == "running":  # its tables are threads; its message has Stop
                await Answer(interaction).refused(TableError("tournament_table_stop"), t, None)
                return
            manages = interaction.user.id == tour.host_id or may_manage(interaction)  # its message has Cancel
            said = OPEN_TOURNAMENT_CANCEL if manages else OPEN_TOURNAMENT_NOT_YOURS
            await send_ephemeral(interaction, t.gettext(said))
            return
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
