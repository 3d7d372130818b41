"""The runtime's notifier for Discord: outcomes become channel messages and message edits.

Every Discord call is made here and its failure is returned as a value
(``Sent``), logged as one warning line: 404 Unknown Channel means the channel
is gone; 403 means the bot lacks a permission there; anything else is a
passing failure (a 5xx, a 429 past discord.py's own retries, a timeout or a
broken connection). Open hands are edited through their interactions, which
need no channel permission, so a game goes on while the bot can not post.

The table message converges: an edit that fails in passing is made again,
paced and with backoff (``RETRY_SECONDS``), rendering the state of that moment,
until it succeeds or the message is gone. A table message that is gone (deleted
by a moderator, mid-game or while the bot was down) is posted again and play
goes on. Calls go one way: what the runtime must learn from a call made
outside a table's lock — the table message moved, the channel is gone or
refuses the bot — is handed as ``News`` to ``tell``, a sink the cog gives, and
the cog tells the runtime. The notifier never calls the runtime; it only reads the
table as it is now (``live``) when a paced edit of the table message is made.
The open hands (``open_hands.py``), the table message's place in its channel
(``placement.py``) and what a call can come to (``delivery.py``) are modules of their own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.client import fitted
from bot.i18n import SOURCE_LANGUAGE, Texts, texts
from bot.presentation.limits import split_message
from bot.presentation.table_render import last_move_line, log_lines, unreadable_line
from bot.runtime import Delivery, Outcome, Sent
from bot.storage import StoreError
from bot.table.model import Table, Unreadable
from cogs.flipflop.delivery import (
    PASSING,
    PERMISSION,
    SEND_AND_EMBED,
    SEND_MESSAGES,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    News,
    Undelivered,
    backoff,
    worst,
)
from cogs.flipflop.open_hands import OpenHand, OpenHands
from cogs.flipflop.pacing import CallBudget, EditPacer
from cogs.flipflop.pings import TurnPings
from cogs.flipflop.placement import Placement
from cogs.flipflop.said import MOVES, Said, game_finished, only_a_draw, round_record, what_is_said
from cogs.flipflop.screens import Screen, current_screen, play_again_view
from cogs.flipflop.turns import channel_budget, heard, known_answer
from engine.events import RoundStarted

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.notifier")
DRAW_SETTLE = 0.5
"""A lone draw's table edit waits this share of the pacer's window (2.5 s of Discord's 5 s) for the
discard that usually follows: one edit shows both; a slower player's draw shows by itself."""


class DiscordNotifier(OpenHands, Placement):
    """Posts outcomes in a table's channel, keeps the table message and open hands current."""

    def __init__(self, bot: FlipFlopBot, tell: Callable[[News], object] | None = None) -> None:
        self.bot = bot
        self.open_hands: dict[tuple[str, int], OpenHand] = {}
        """The latest interaction behind each player's private hand message (valid 15 minutes)."""
        self.budget = channel_budget(bot)
        """This process's channel calls within the bot's budget (``bot.budget``); interactions are exempt."""
        gate = getattr(bot, "send_gate", None)
        if gate is not None:  # every request the bot makes waits for this budget's turn
            gate.attach(self.budget)
        self.pacer = EditPacer(limit=bot.harness.edit_limit, budget=self.budget)
        """Table-message edits, at most 5 per 5 s per channel, made outside the table's lock."""
        self.below: dict[str, int] = {}
        """How many members' messages were posted below each table message since it was posted."""
        self.public: dict[int, Texts] = {}
        """Each server's language for public messages, as last read (for callers that can not wait)."""
        self.tell: Callable[[News], object] = tell or (lambda news: None)
        """Where news for the runtime goes (the cog, which tells the runtime): never awaited here."""
        self.dealt: Callable[[Table], object] = lambda table: None
        """Told of each new round dealt at a table (the cog's coach clears the last round's hints)."""
        self.reposted: dict[str, tuple[int, int]] = {}
        """Tables whose message this notifier posted again: (old id, new id) until the runtime saves it."""
        self.failures: dict[str, int] = {}
        """Failed table edits in a row, per table (the backoff grows with them)."""
        self.moving: dict[str, bool] = {}
        """Tables being posted anew (a new round): whether an edit was asked for meanwhile (made after)."""
        self._tasks: set[asyncio.Future[None]] = set()
        self.pings = TurnPings(self)
        """A mention when a member's turn starts and no hand of theirs is open (cogs/flipflop/pings.py)."""
        self.calls = CallBudget()
        """Each table's channel calls against its players' moves (a lone draw shows within it)."""
        self.live: Callable[[str], Table | None] = lambda table_id: None
        """The table now, by id (the runtime's ``get``): a paced edit draws it, not an outcome's snapshot."""

    async def server_texts(self, guild_id: int) -> Texts:
        """The server's language for the table message, the round log and the channel's news.

        Read through the language book (a memory in front of the database); if the database can
        not answer, the language last read is used (English at first): a game never stops for it.
        """
        try:
            self.public[guild_id] = await self.bot.languages.server_texts(guild_id)
        except StoreError:
            log.warning("Server %s: could not read its language; using the last one known", guild_id)
        return self.public.get(guild_id) or texts(SOURCE_LANGUAGE)

    async def table_texts(self, table: Table) -> Texts:
        """The server's language as a table's messages use it: a practice table's chips say so."""
        return (await self.server_texts(table.guild_id)).at(table.practice)

    def channel(self, table: Table) -> discord.PartialMessageable:
        """Where the table plays: its game's thread, else its channel (no fetch needed to post)."""
        return self.bot.get_partial_messageable(table.plays_in, guild_id=table.guild_id)

    async def _call(
        self, table_id: str, what: str, call: Awaitable[Any], timeout: float | None = None
    ) -> Sent:
        stopped = await known_answer(self.bot, table_id, what, call)
        if stopped is not None:
            return stopped
        self.calls.spent(table_id)
        try:
            async with asyncio.timeout(timeout):
                await call
        except discord.HTTPException as e:
            sent = self._classify(e, what)
            heard(self.bot, table_id, what, e, sent)
            log.warning("Table %s: could not %s (%s %s: %s)", table_id, what, e.status, e.code, e.text)
            return sent
        except PASSING as e:
            log.warning("Table %s: could not %s (%s)", table_id, what, type(e).__name__)
            return Sent(Delivery.FAILED)
        heard(self.bot, table_id, what, None, Sent(Delivery.OK))
        return Sent(Delivery.OK)

    @staticmethod
    def _classify(e: discord.HTTPException, what: str) -> Sent:
        if isinstance(e, discord.NotFound) and e.code == UNKNOWN_CHANNEL:
            return Sent(Delivery.GONE)
        if isinstance(e, discord.NotFound) and e.code == UNKNOWN_MESSAGE and what == "edit the table message":
            return Sent(Delivery.MESSAGE_GONE)
        if isinstance(e, discord.Forbidden):
            default = SEND_MESSAGES if what == "post" else SEND_AND_EMBED
            return Sent(Delivery.FORBIDDEN, PERMISSION.get(e.code, default))
        return Sent(Delivery.FAILED)

    def message_id(self, table: Table) -> int | None:
        """The table message as this notifier knows it: one it posted again counts before it is saved."""
        moved = self.reposted.get(table.id)
        if moved is None:
            return table.message_id
        old, new = moved
        if table.message_id == old:
            return new
        del self.reposted[table.id]  # saved (or the table was shown again by a command)
        return table.message_id

    async def publish(self, outcome: Outcome, table_message: bool = True) -> Sent:
        """Tell the channel and the open hands what happened.

        A lobby's news is posted. Once the game is on, the channel gets no
        message per event: the round's story is a log inside the table
        message (edited, paced per channel), and each new round moves the
        table to the bottom of the channel, leaving the finished round behind
        as a short record: about one new channel message per round.
        """
        table = outcome.table
        self.calls.acted(table.id, sum(isinstance(e, MOVES) for e in outcome.events))
        t = await self.table_texts(table)
        said = what_is_said(outcome, t)
        if table.game is None:
            results = await self._post_lobby_news(table, said, t)
            if results and results[-1].status is Delivery.GONE:
                return results[-1]
            if table_message:
                self.refresh_soon(table)
        else:
            self._record_finished_round(table, outcome, t)
            self._refresh_for(outcome, said, table_message)
            results = await self._post_game_news(table, said, t)
        await self._update_open_hands(table)
        self.pings.after(outcome)
        if table.status == "closed":
            self.forget(table.id)
        sent = worst(results)
        return Sent(sent.status, sent.missing, posted=bool(results) and sent.ok)

    async def _post_lobby_news(self, table: Table, said: Said, t: Texts) -> list[Sent]:
        """A lobby's news is posted, all of it, until the channel turns out to be gone."""
        results: list[Sent] = []
        for text in split_message(said.news_lines(table, t) + said.lines + said.final):
            results.append(await self.post(table, text))
            if results[-1].status is Delivery.GONE:
                break
        return results

    def _refresh_for(self, outcome: Outcome, said: Said, table_message: bool) -> None:
        """Edit the table message for a game's outcome; a lone draw waits a little for its discard."""
        table = outcome.table
        if said.lines or (table_message and not only_a_draw(outcome)):
            self.refresh_soon(table)
        elif table_message and self.calls.spare(table.id):
            self.refresh_soon(table, settle=self.pacer.window * DRAW_SETTLE * self.bot.harness.draw_settle)

    async def _post_game_news(self, table: Table, said: Said, t: Texts) -> list[Sent]:
        """In a game, a restart, a closing and the final standings are news; the rest is the log.

        The last message of the final standings offers **Play again** in the channel (not at a
        tournament table, nor in a thread); a thread's game wraps up in its lobby.
        """
        news = said.news_lines(table, t) + said.final
        chunks = split_message(news)
        threaded = table.thread_id is not None
        offered = bool(said.final) and not (table.tournament or threaded)
        results: list[Sent] = []
        for i, text in enumerate(chunks):
            again = offered and i == len(chunks) - 1
            results.append(await self.post(table, text, play_again_view(table, t) if again else None))
        if threaded and table.status == "closed" and not table.tournament:  # the lobby shows how it ended
            self._spawn(self.wrap_up_thread(table, news, bool(said.final), t))
        return results

    def _record_finished_round(self, table: Table, outcome: Outcome, t: Texts) -> None:
        """A new deal moves the table down; the old message keeps the finished round as its record.

        The record is drawn from the table's saved log of the finished round (``Table.log``),
        so a restart in between loses none of it.
        """
        if not any(isinstance(e, RoundStarted) for e in outcome.events):
            return
        self.dealt(table)
        assert table.game is not None
        number = table.game.public_view().round_number
        old = self.message_id(table)
        if number > 1 and old is not None:
            record = round_record(table, number - 1, table.log.finished, t)
            stored = None if table.practice else table.last_round_id  # the round that just ended
            self.moving[table.id] = False  # now: the old message is not edited to show the new round
            self._spawn(self._move_down(table, old, record, stored))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _retry(self, table: Table) -> None:
        """A call to bring the table message up to date failed in passing: again, after a backoff."""
        failures = self.failures[table.id] = self.failures.get(table.id, 0) + 1
        self.refresh_soon(table, self.backoff(failures))

    def forget(self, table_id: str) -> None:
        """A closed table: nothing of it to keep."""
        for key in [k for k in self.open_hands if k[0] == table_id]:
            self.forget_hand(*key)
        self.below.pop(table_id, None)
        self.calls.forget(table_id)
        self.failures.pop(table_id, None)

    async def post(self, table: Table, text: str, view: discord.ui.View | None = None) -> Sent:
        """One message in the table's channel (the final standings carry **Play again**)."""
        shown = view if view is not None else discord.utils.MISSING
        call = self.channel(table).send(text, allowed_mentions=discord.AllowedMentions.none(), view=shown)
        return await self._call(table.id, "post", call)

    def refresh_soon(self, table: Table, delay: float = 0.0, settle: float = 0.0) -> None:
        """Bring the table message up to date as soon as the channel's edit budget allows.

        Rendered when the edit is made, so the latest state wins; never awaited
        here, so no rate-limited call waits under the table's lock. ``delay``: not
        sooner than that (a backoff after a failure, which a new change keeps);
        ``settle``: within that, unless another change asks sooner (``EditPacer``).
        """
        self.pacer.request(
            table.channel_id, lambda: self._refresh_and_report(table), delay=delay, settle=settle
        )

    async def _refresh_and_report(self, table: Table) -> None:
        """One paced edit of the table message, and what follows from how it went.

        A passing failure is tried again with backoff, a deleted message is posted
        again, and a channel gone or refusing the bot is news for the runtime.
        """
        table = self.live(table.id) or table
        if table.id in self.moving:  # the new round's message is on its way: this edit waits for it
            self.moving[table.id] = True
            return
        old = self.message_id(table)
        sent = await self.refresh(table)
        if sent.status is Delivery.FAILED:
            self._retry(table)
            return
        self.failures.pop(table.id, None)
        if sent.status is Delivery.MESSAGE_GONE and old is not None:
            await self._repost(table, old)
        elif sent.status in (Delivery.GONE, Delivery.FORBIDDEN):
            self.tell(Undelivered(table.id, sent))

    async def refresh(self, table: Table) -> Sent:
        """Edit the table message to read as the table is now (``FAILED``: a passing failure)."""
        message_id = self.message_id(table)
        if message_id is None:
            return Sent(Delivery.OK)
        message = self.channel(table).get_partial_message(message_id)
        if game_finished(table):  # the last round's record, with its picture and replay, like every round's
            assert table.game is not None
            t = await self.table_texts(table)
            record = round_record(table, table.game.public_view().round_number, table.log.lines, t)
            view = await self._replay_view(table, None if table.practice else table.last_round_id, t)
            fields = await record.edit(t, view)
        else:
            fields = self.screen(table, await self.server_texts(table.guild_id)).edit()
        return await self._call(table.id, "edit the table message", message.edit(**fields), self.call_seconds)

    def backoff(self, failures: int) -> float:
        """The wait before the next try after ``failures`` failures, in ``EDIT_BACKOFF_SECONDS``."""
        return backoff(failures, self.bot.settings.edit_backoff_seconds)

    async def close(self) -> None:
        """Shutdown: wait (``SHUTDOWN_DRAIN_SECONDS`` at most) for pending edits and moves, then stop."""
        loop = asyncio.get_running_loop()
        drain = self.bot.settings.shutdown_drain_seconds
        end = loop.time() + drain
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=drain)
        if not await self.pacer.close(max(0.0, end - loop.time())):
            log.warning("Stopped with table edits still pending; the next start brings the tables up to date")
        await self.budget.close()
        gate = getattr(self.bot, "send_gate", None)
        if gate is not None and gate.budget is self.budget:  # the last requests (logging out) go unbudgeted
            gate.attach(None)
        for task in list(self._tasks):
            task.cancel()
        for key in list(self.open_hands):
            self.forget_hand(*key)

    def screen(self, table: Table, t: Texts | None = None) -> Screen:
        """The table message as it should read now (for a reply that shows it), in the server's language.

        Without ``t``, the server's language as last read (``server_texts``) is used; if it was
        never read here, English now and the server's language by one paced edit right after.
        """
        if t is None:
            t = self.public.get(table.guild_id)
            if t is None:
                t = texts(SOURCE_LANGUAGE)
                self.refresh_soon(table)
        activity = self.bot.live is not None and self.bot.live.activity is not None
        lines = log_lines(table, table.log.lines, t)
        screen = current_screen(table, t, last_move_line(table, t), lines, activity)
        fields = fitted(screen.edit())  # within Discord's limits, however long the log
        return Screen(**{k: v for k, v in fields.items() if k != "allowed_mentions"})

    async def unreadable(self, bad: Unreadable) -> Sent:
        """Say in its channel that a table this version can not read was closed and refunded."""
        channel = self.bot.get_partial_messageable(bad.channel_id, guild_id=bad.guild_id)
        t = await self.server_texts(bad.guild_id)
        call = channel.send(unreadable_line(bad.refunds, t), allowed_mentions=discord.AllowedMentions.none())
        return await self._call(bad.table_id, "post", call)
