"""Where a game is played once Start is clicked: a thread of its own, or a new message below the lobby.

In a thread opened from the lobby message the channel gets no message per round;
where none can be opened, the table is posted below the lobby and whoever clicked
Start is told why. A forum post's title, which said its open seats, is renamed once
to say its game is being played. A part of ``Controls`` (``cogs/flipflop/play.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.i18n import N_, Texts
from bot.presentation.controls import fit
from bot.runtime import Outcome, TableRuntime
from bot.table.model import Table
from cogs.flipflop.answer import REFUSED, Answer, FollowUp, nothing_more
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.screens import closed_screen

log = logging.getLogger("flipflop.controls")


IN_THREAD_TITLE = N_("🃏 Flip Flop — game on")
IN_THREAD = N_("🧵 The game is played in {thread}; the final standings will be shown here.")
NO_THREADS_HERE = N_(
    "🧵 The game is played here in the channel: threads can't be opened in this kind of channel."
)
NO_THREAD_PERMISSION = N_(
    "🧵 The game is played here in the channel: I need the **Create Public Threads** and "
    "**Send Messages in Threads** permissions to give it a thread of its own."
)
THREAD_NAME_CHARS = 100
"""Discord's limit for a thread's name."""
FORUM_PLAYING = N_("🃏 Flip Flop · stake {stake} · playing")
"""A forum post's title once its game is dealt (it said the open seats): renamed once per post."""
FORUM_PRACTICE_PLAYING = N_("🃏 Flip Flop · practice · playing")


class Dealing:
    """The Start click's answer: the game opened in a thread, a forum post retitled, or the table below.

    A part of ``Controls`` (``cogs/flipflop/play.py``), which gives it what it declares here.
    """

    runtime: TableRuntime
    notifier: DiscordNotifier
    member_texts: Callable[[discord.Interaction], Awaitable[Texts]]
    _answered: Callable[[str, Any], Awaitable[bool]]

    async def dealt(self, answer: Answer, outcome: Outcome) -> FollowUp:
        """The Start click's answer: the game opens in a thread from the lobby, else below it.

        In a thread, the lobby message (the click's answer) says where the game went, and
        the channel gets no message per round. Where no thread can be opened, the table is
        posted as a new message below the lobby, and whoever clicked Start is told why once.
        A new message either way because round 2's commitment, drawn at this deal, must be
        published in a message created before the clicks of round 1 that seed round 2
        (docs/FAIRNESS.md). The table is posted and its place saved here; the deal itself is
        told on the command's way out (the whole outcome: this answer shows none of it), and what
        is left to say about the lobby comes back as a follow-up, for after that.
        """
        table = outcome.table
        lobby = table.message_id
        t = await self.notifier.table_texts(table)
        thread, why = await self._thread_for(answer.interaction, table, lobby)
        if thread is not None:
            in_thread = await self._deal_in_thread(answer, outcome, thread, lobby, t)
            if in_thread is not None:
                return in_thread
        try:
            posted = await answer.post(**self.notifier.screen(table, t).send())
        except discord.HTTPException as e:
            log.warning("Table %s: could not post the table at the deal (%s %s)", table.id, e.status, e.code)
            await answer.defer()
            return nothing_more  # the lobby message becomes the table, edited
        await self.runtime.placed(table.id, posted)  # if this fails, the deal is still told

        async def then() -> None:
            if why is not None:
                reader = await self.member_texts(answer.interaction)
                await self._answered(table.id, answer.private(reader.gettext(why)))
            post = answer.interaction.channel
            if isinstance(post, discord.Thread) and isinstance(post.parent, discord.ForumChannel):
                self._retitle(table, post, t)
            if lobby is not None:  # one paced edit: the lobby says where the table went

                async def retire() -> None:
                    await self.notifier.retire(table, lobby)

                self.notifier.pacer.request(table.channel_id, retire, key=f"retire:{lobby}")

        return then

    def _retitle(self, table: Table, post: discord.Thread, t: Texts) -> None:
        """A forum post's title said its open seats: dealt, it says the game is being played (paced).

        Discord allows two renames of a channel in ten minutes: a post is renamed at most once
        (a second game in it, by **Play again**, finds the title already right).
        """
        playing = t.gettext(FORUM_PRACTICE_PLAYING) if table.practice else t.gettext(FORUM_PLAYING)
        name = fit(playing.format(stake=t.chips(table.stake)), THREAD_NAME_CHARS)
        if post.name == name:
            return

        async def rename() -> None:
            try:
                await post.edit(name=name)
            except discord.HTTPException as e:
                log.warning("Table %s: could not retitle its forum post (%s %s)", table.id, e.status, e.code)

        self.notifier.pacer.request(table.channel_id, rename, key=f"title:{post.id}")

    async def _thread_for(
        self, interaction: discord.Interaction, table: Table, lobby: int | None
    ) -> tuple[discord.Thread | None, str | None]:
        """A public thread opened from the lobby message, or None and why not (None: nothing to say)."""
        channel = interaction.channel
        if not self.notifier.bot.tables_in_threads or lobby is None or table.practice:
            return None, None
        if (await self.notifier.bot.ledger.settings(table.guild_id)).tables != "thread":
            return None, None  # the server plays its games in the channel
        if isinstance(channel, discord.Thread):
            return None, None  # already in a thread (a forum post), or nothing to open it from
        if not isinstance(channel, discord.TextChannel):
            return None, NO_THREADS_HERE
        perms = interaction.app_permissions
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            return None, NO_THREAD_PERMISSION
        name = fit(f"🃏 Flip Flop · {table.stake}/{table.buy_in} · {table.id}", THREAD_NAME_CHARS)
        try:
            thread = await channel.get_partial_message(lobby).create_thread(
                name=name, auto_archive_duration=1440
            )
        except discord.Forbidden:
            return None, NO_THREAD_PERMISSION
        except discord.HTTPException as e:
            log.warning("Table %s: could not open a thread (%s %s)", table.id, e.status, e.code)
            return None, None
        return thread, None

    async def _deal_in_thread(
        self, answer: Answer, outcome: Outcome, thread: discord.Thread, lobby: int | None, t: Texts
    ) -> FollowUp | None:
        """Post the table in its new thread; then the lobby points there. None: play in the channel."""
        table = outcome.table  # the deal's snapshot: where it is played is the runtime's to save
        moved = False
        try:
            await self.runtime.in_thread(table.id, thread.id, lobby)
            moved = True
            message = await thread.send(**self.notifier.screen(table, t).send())
        except (discord.HTTPException, *REFUSED) as e:
            log.warning("Table %s: could not start the game in its thread (%s)", table.id, e)
            if moved:
                await self.runtime.in_thread(table.id, None, None)
            return None
        await self.runtime.placed(table.id, message.id)  # if this fails, the deal is still told
        screen = closed_screen(t.gettext(IN_THREAD_TITLE), t.gettext(IN_THREAD).format(thread=thread.mention))

        async def then() -> None:
            await self._answered(table.id, answer.edit(**screen.edit()))

        return then
