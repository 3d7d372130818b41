"""Where a table message is in its channel, and what the messages it leaves behind say.

The table moves to the bottom of the channel at each new round (the old message
keeps the finished round's record) or once members pushed it up a screenful; a
table message deleted is posted again. A game played in a thread wraps up in its
lobby message in the channel, which also says when the thread was deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.history import round_story
from bot.i18n import N_, Texts
from bot.presentation.controls import play_again_control
from bot.presentation.replay_link import story_file
from bot.presentation.table_render import seat_name
from bot.runtime import Delivery, Sent, Whereabouts
from bot.storage import StoreError
from bot.table.model import Table
from cogs.flipflop.delivery import OTHER_EDIT_TRIES, PASSING, Moved, News, Undelivered
from cogs.flipflop.layout import note, watch_button
from cogs.flipflop.pacing import CallBudget, EditPacer
from cogs.flipflop.screens import RoundRecord, Screen, item
from cogs.flipflop.turns import heard, known_answer

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.notifier")


PUSHED_UP_AFTER = 5
"""Members' messages below the table message before it moves to the bottom (about a screenful)."""


MOVED = N_("The table moved to the bottom of the channel ⬇️")
THREAD_ENDED = N_("🧵 The game was played in {thread}.")
THREAD_DELETED = N_(
    "🧵 The game's thread was deleted, so the table closed and every chip went back: {refunds}."
)


class Placement:
    """Where the table message is: moved down, posted again when deleted, and what its old messages say.

    A part of ``DiscordNotifier`` (``cogs/flipflop/notifier.py``), which gives it what it declares here.
    """

    bot: FlipFlopBot
    pacer: EditPacer
    calls: CallBudget
    below: dict[str, int]
    moving: dict[str, bool]
    reposted: dict[str, tuple[int, int]]
    failures: dict[str, int]
    tell: Callable[[News], object]
    live: Callable[[str], Table | None]
    backoff: Callable[[int], float]
    message_id: Callable[[Table], int | None]
    refresh_soon: Callable[..., None]
    channel: Callable[[Table], discord.PartialMessageable]
    screen: Callable[..., Screen]
    table_texts: Callable[[Table], Awaitable[Texts]]
    _retry: Callable[[Table], None]
    _spawn: Callable[[Awaitable[None]], None]
    _call: Callable[..., Awaitable[Sent]]
    _classify: Callable[[discord.HTTPException, str], Sent]

    @property
    def call_seconds(self) -> float:
        """``DISCORD_CALL_SECONDS``: a call to Discord not answered by then counts as failed."""
        return self.bot.settings.discord_call_seconds

    def pushed_up(self, table: Table) -> None:
        """Someone posted below the table message: past a screenful, move the table to the bottom.

        The move is one post (the table anew) and one paced edit (the old
        message says where the table went, with nothing left to click).
        """
        count = self.below.get(table.id, 0) + 1
        self.below[table.id] = count
        old = self.message_id(table)
        if count >= PUSHED_UP_AFTER and old is not None and table.game is not None:
            self.below[table.id] = 0
            self._spawn(self._move_down(table, old, None))

    async def _move_down(
        self, table: Table, old_id: int, record: RoundRecord | None, round_id: int | None = None
    ) -> None:
        """Post the table at the bottom of the channel; the old message keeps the finished round.

        With no ``record`` (moved mid-round) the old message says where the table went; with
        the stored ``round_id`` the record offers **Watch the replay** (when ``REPLAY_URL`` is set).
        """
        self.below[table.id] = 0
        try:
            posted = await self._post_again(table, old_id)
        finally:  # an edit asked for meanwhile is made now (of the new message, or the old if none came)
            if self.moving.pop(table.id, False):
                self.refresh_soon(table)
        if posted is None:
            return
        old = self.channel(table).get_partial_message(old_id)
        key = f"record:{old_id}"

        async def freeze(failures: int = 0) -> None:
            if record is None:
                sent = await self.retire(table, old_id)
            else:
                shown = await self.table_texts(table)
                view = await self._replay_view(table, round_id, shown)
                edit = old.edit(**await record.edit(shown, view))  # drawn anew on each try
                sent = await self._call(table.id, "edit the old table message", edit, self.call_seconds)
            # a passing failure: again with backoff, or the old message keeps its controls
            if sent.status is Delivery.FAILED and failures + 1 < OTHER_EDIT_TRIES:
                self.pacer.request(
                    table.channel_id, lambda: freeze(failures + 1), key, self.backoff(failures + 1)
                )

        self.pacer.request(table.channel_id, freeze, key=key)

    async def _replay_view(self, table: Table, round_id: int | None, t: Texts) -> discord.ui.View | None:
        """**Watch the replay** for a stored round, or None (no ``REPLAY_URL``, no stored round)."""
        url = self.bot.settings.replay_url
        if not url or round_id is None:
            return None
        try:
            found = await round_story(self.bot.db, table.guild_id, round_id)
        except StoreError as e:  # the record still goes up, without its button
            log.warning("Table %s: round %s not read for its replay link (%s)", table.id, round_id, e)
            return None
        if found is None:
            return None
        view = discord.ui.View(timeout=None)
        data = story_file(found, self.bot.get_guild(table.guild_id), t, table.names)
        view.add_item(watch_button(url, data, t))
        return view

    async def _post_again(self, table: Table, old_id: int | None) -> int | None:
        """Post the table message anew in place of ``old_id``; the runtime learns its id through ``tell``.

        A passing failure is tried again (a paced edit of the old message finds it gone and
        comes back here); a channel that is gone or refuses the bot is news for the runtime.
        """
        table = self.live(table.id) or table  # drawn as it is now, not as an outcome left it
        stopped = await known_answer(self.bot, table.id, "post")
        if stopped is not None:  # the channel refuses the bot, and the guard is up
            if stopped.status is not Delivery.FAILED:
                self.tell(Undelivered(table.id, stopped))
            return None
        self.calls.spent(table.id)
        try:
            t = await self.table_texts(table)
            async with asyncio.timeout(self.call_seconds):  # in this task (a simulated Discord follows it)
                message = await self.channel(table).send(**self.screen(table, t).send())
        except (discord.HTTPException, *PASSING) as e:
            status = (e.status, e.code) if isinstance(e, discord.HTTPException) else (type(e).__name__, "")
            log.warning("Table %s: could not post the table message again (%s %s)", table.id, *status)
            sent = (
                self._classify(e, "post") if isinstance(e, discord.HTTPException) else Sent(Delivery.FAILED)
            )
            if isinstance(e, discord.HTTPException):
                heard(self.bot, table.id, "post", e, sent)
            if sent.status is Delivery.FAILED:
                self._retry(table)
            else:
                self.tell(Undelivered(table.id, sent))
            return None
        self.failures.pop(table.id, None)
        if old_id is not None:
            self.reposted[table.id] = (old_id, message.id)
        self.tell(Moved(table.id, message.id))
        return message.id

    def message_deleted(self, table: Table, message_id: int) -> None:
        """A message was deleted in the table's channel: if it was the table message, post it again."""
        if message_id == self.message_id(table) and table.status != "closed":
            self.pacer.request(table.channel_id, lambda: self._repost(table, message_id))

    async def _repost(self, table: Table, gone: int) -> None:
        """The table message ``gone`` is deleted: post the table again, unless that was done already."""
        if self.message_id(table) == gone and table.status != "closed":
            await self._post_again(table, gone)

    async def locate(self, table: Table) -> Whereabouts:
        """After a restart, whether the channel is there (from the gateway's cache when it can).

        The table message itself is not fetched: the one edit that brings it up
        to date finds out (404 Unknown Message: the table is posted again).
        """
        if self.bot.get_channel(table.plays_in) is None:
            try:
                await self.bot.fetch_channel(table.plays_in)
            except (discord.NotFound, discord.Forbidden):
                return "channel_gone"
        return "ok" if table.message_id is not None else "message_gone"

    async def post_table(self, table: Table) -> int | None:
        """Post the table message again at the bottom of the channel (its request waits its turn)."""
        table = self.live(table.id) or table
        try:
            t = await self.table_texts(table)
            sent = await self.channel(table).send(**self.screen(table, t).send())
        except discord.HTTPException as e:
            log.warning("Table %s: could not post the table message (%s %s)", table.id, e.status, e.code)
            return None
        return sent.id

    async def wrap_up_thread(self, table: Table, lines: Sequence[str], final: bool, t: Texts) -> None:
        """A game played in a thread ended: the channel's lobby message shows how; the thread is archived.

        The final standings come with a link to the thread and **Play again** (a new lobby
        in the channel). An archived thread can still be read and opened again by anyone.
        """
        thread_id, lobby = table.thread_id, table.lobby_message_id
        if thread_id is None:
            return
        if lobby is not None:
            text = "\n".join([*lines, t.gettext(THREAD_ENDED).format(thread=f"<#{thread_id}>")])
            old = self.bot.get_partial_messageable(
                table.channel_id, guild_id=table.guild_id
            ).get_partial_message(lobby)
            again = [item(table, play_again_control(t))] if final else []
            edit = old.edit(
                content=None,
                embed=None,
                view=note(text, again),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self._call(table.id, "edit the lobby message", edit, self.call_seconds)
        await self._call(table.id, "archive the thread", self.bot.http.edit_channel(thread_id, archived=True))

    async def thread_gone(self, table: Table, refunds: dict[int, int]) -> None:
        """The game's thread was deleted: the lobby message in the channel says the table closed, refunded."""
        if table.lobby_message_id is None:
            return
        t = await self.table_texts(table)
        paid = ", ".join(
            t.gettext("{name} got {amount} back").format(name=seat_name(table, t, u), amount=t.chips(a))
            for u, a in refunds.items()
            if a
        )
        text = t.gettext(THREAD_DELETED).format(refunds=paid or "—")
        old = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id).get_partial_message(
            table.lobby_message_id
        )
        edit = old.edit(
            content=None, embed=None, view=note(text), allowed_mentions=discord.AllowedMentions.none()
        )
        await self._call(table.id, "edit the lobby message", edit, self.call_seconds)

    async def retire(self, table: Table, message_id: int) -> Sent:
        """The table moved to a new message: say so on the old one (a V2 message, as the table was)."""
        old = self.channel(table).get_partial_message(message_id)
        t = await self.table_texts(table)
        call = old.edit(content=None, embed=None, view=note(t.gettext(MOVED)))
        return await self._call(table.id, "edit the old table message", call, self.call_seconds)
