"""Clicks on a table's controls, translated into runtime commands and answered with screens.

No rule, timer or policy here: the runtime decides. Each click hands its
command a ``reply``: the screen that answers the member who clicked, sent on
the command's way out (the table's lock is released by then), saying what it
showed (``Shown``); the runtime then tells the channel the rest itself. Every click is answered
within Discord's 3 seconds: one whose work runs past ``ANSWER_WITHIN`` is
acknowledged first (``Answer``) and completed by editing its response.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from bot.client import FlipFlopBot, fitted, send_ephemeral
from bot.first_hands import FirstHands
from bot.i18n import N_, SOURCE_LANGUAGE, Texts, texts
from bot.i18n.mentions import mention
from bot.ledger import InsufficientChips, LedgerError
from bot.live.links import LINK_SECONDS, Pass
from bot.presentation.controls import fit
from bot.presentation.refusals import Refusal, explain
from bot.presentation.rules_pages import FIRST_HAND_TIP
from bot.presentation.table_layout import fair_text
from bot.presentation.table_render import notice_line
from bot.runtime import NOTHING_SHOWN, Outcome, Shown, StaleControl, TableClosed, TableRuntime
from bot.storage import StoreError
from bot.table.model import Table, TableError
from cogs.flipflop.coach import coach_of
from cogs.flipflop.controls import OUR_SIDE, parse_action
from cogs.flipflop.notifier import DiscordNotifier, OpenHand
from cogs.flipflop.screens import (
    Screen,
    closed_screen,
    hand_screen,
    leave_confirm_screen,
    lobby_screen,
    moved_hand_screen,
    rules_screen,
)
from cogs.newcomers import newcomer_wait
from engine import IllegalAction

FollowUp = Callable[[], Awaitable[None]]
"""What a click still does once its command's outcome is told (the lobby saying where the game went)."""


async def nothing_more() -> None:
    """A follow-up with nothing left to do."""


log = logging.getLogger("flipflop.controls")

ANSWER_WITHIN = 1.0
"""Seconds a click's work may take before the click is acknowledged (deferred) and answered later.

Discord drops an interaction not answered within 3 s of its creation ("This
interaction failed"). A click is normally answered in a few tens of
milliseconds, so 1 s almost never defers one (a deferral costs a REST call);
and a deferral sent at 1 s reaches Discord before 3 s even when its REST
answers in 1–2 s and the gateway delivered the click a few hundred ms late.
"""


def now() -> float:
    """Wall-clock seconds (virtual under simcord), the clock a confirmation's expiry uses."""
    return discord.utils.utcnow().timestamp()


STALE_NOTE = N_("⚠️ That control was from an earlier turn; nothing was done. Here is your hand now:")


def away_note(t: Texts, rounds: int) -> str:
    """What **Away** answers on the member's private hand: who plays, until when, and what happens after."""
    return t.ngettext(
        "💤 You're away: the basic computer plays your seat with your chips until you click **I'm back** "
        "(here or on the table). After {rounds} round away your seat is released and your stack goes back "
        "to your balance.",
        "💤 You're away: the basic computer plays your seat with your chips until you click **I'm back** "
        "(here or on the table). After {rounds} rounds away your seat is released and your stack goes back "
        "to your balance.",
        rounds,
    ).format(rounds=t.number(rounds))


BACK_NOTE = N_("👋 Welcome back: you play your own seat again.")
NO_COMMITMENT = N_("🔒 No deal is committed at this table yet: the commitment is published before each deal.")


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


def may_manage(interaction: discord.Interaction) -> bool:
    """The member has Manage Server here (may stop or cancel any table)."""
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def not_enough(balance: int, buy_in: int, t: Texts) -> str:
    """A member who can not afford the buy-in (R2.2), in their language."""
    return t.gettext(
        "You have {balance}, but the buy-in is {buy_in}. Claim your free chips with {daily}, or ask an admin."
    ).format(balance=t.chips(balance), buy_in=t.chips(buy_in), daily=mention("daily"))


class Answer:
    """The one answer to one interaction: acknowledged by ``ANSWER_WITHIN`` at the latest, never twice.

    ``start`` arms the deferral. An answer that edits the clicked message
    (``edit``) is deferred as an update, invisibly; one that is a new private
    message (``fresh=True``: a hand, a refusal) is deferred as a private
    "thinking…" message that ``private`` then fills. A lock keeps the deferral
    and the answer from racing (both would be the interaction's first callback).
    """

    def __init__(self, interaction: discord.Interaction, *, fresh: bool = False) -> None:
        self.interaction = interaction
        self.fresh = fresh
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._deferral: asyncio.Future[None] | None = None
        self._thinking = False

    def start(self, within: float = ANSWER_WITHIN) -> Answer:
        """Acknowledge the interaction after ``within`` seconds unless it has been answered by then."""
        self._timer = asyncio.get_running_loop().call_later(within, self._defer_now)
        return self

    def _defer_now(self) -> None:
        self._timer = None
        self._deferral = asyncio.ensure_future(self.defer())

    def stop(self) -> None:
        """No deferral: the answer is made elsewhere (or already was)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def defer(self) -> None:
        """Acknowledge the interaction without answering it yet (if not answered already)."""
        self.stop()
        async with self._lock:
            if self.interaction.response.is_done():
                return
            try:
                if self.fresh:
                    await self.interaction.response.defer(ephemeral=True, thinking=True)
                    self._thinking = True
                else:
                    await self.interaction.response.defer()
            except discord.HTTPException as e:
                log.warning("Could not acknowledge an interaction (%s %s)", e.status, e.code)
            except discord.InteractionResponded:  # answered by a path that does not use this Answer
                pass

    async def edit(self, **fields: Any) -> None:
        """Change the clicked message (a hand, the lobby)."""
        fields = fitted(fields)
        self.stop()
        async with self._lock:
            if self.interaction.response.is_done():
                await self.interaction.edit_original_response(**fields)
            else:
                await self.interaction.response.edit_message(**fields)

    async def private(self, content: str | None = None, **fields: Any) -> None:
        """A private message to the member: the "thinking…" one filled in, or a new one."""
        fields = fitted({"content": content, **fields})
        content = fields.pop("content")
        self.stop()
        async with self._lock:
            response = self.interaction.response
            if not response.is_done():
                await response.send_message(content, ephemeral=True, **fields)
            elif self._thinking:
                self._thinking = False
                await self.interaction.edit_original_response(content=content, **fields)
            else:
                await self.interaction.followup.send(content or "", ephemeral=True, **fields)

    async def post(self, **fields: Any) -> int:
        """A new public message as the answer (following up a deferral); its id."""
        fields = fitted(fields)
        self.stop()
        async with self._lock:
            if not self.interaction.response.is_done():
                callback = await self.interaction.response.send_message(**fields)
                if callback.message_id is not None:
                    return callback.message_id
                return (await self.interaction.original_response()).id
            return (await self.interaction.followup.send(wait=True, **fields)).id

    async def refused(self, error: BaseException, t: Texts, table: Table | None) -> None:
        """A refusal or a fault, privately and in the member's language; nothing was changed."""
        if isinstance(error, InsufficientChips):
            await self.private(not_enough(error.balance, table.buy_in if table else 0, t))
        elif isinstance(error, StoreError):
            log.warning("A click was refused for a database fault: %s: %s", type(error).__name__, error)
            await self.private(t.gettext(OUR_SIDE))
        else:
            await self.private(explain(error, t))


LIVE_OFF = N_("The live table is not turned on for this bot (its operator sets `LIVE_URL`).")
LIVE_LINK_PLAYER = N_(
    "🌐 Your table in the browser, with your hand to play: {link}\n"
    "Only for you: it works once, within {minutes} minutes. Don't share it."
)
LIVE_LINK_WATCHER = N_(
    "🌐 This table in the browser (you watch; hands stay hidden): {link}\n"
    "Only for you: it works once, within {minutes} minutes."
)


def web_link_text(bot: FlipFlopBot, table: Table, user_id: int, t: Texts) -> str:
    """``/flipflop web``'s private answer: a one-time link to the live table for this member."""
    live = bot.live
    if live is None:
        return t.gettext(LIVE_OFF)
    link = live.link(Pass(user_id, table.guild_id, table.id, t.language))
    words = LIVE_LINK_PLAYER if table.is_seated(user_id) else LIVE_LINK_WATCHER
    return t.gettext(words).format(link=link, minutes=t.number(LINK_SECONDS // 60))


REFUSED = (TableError, LedgerError, IllegalAction, StoreError)
"""What a command may refuse with (a database fault included): the member is told, nothing changed."""


def shown_again(
    table: Table, seq: int, op: str, value: str | None, t: Texts
) -> tuple[str, str | None] | None:
    """The note and selection to show the hand again with, for a click that changes nothing at the table.

    Those clicks: **Refresh**, a **Leave** whose question expired, and picking cards to lay
    down (only this hand changes; a pick on an older hand starts the selection afresh).
    None for any other click.
    """
    if op == "refresh":
        return "", None
    if op == "leaveok" and (value is None or not value.isdigit() or now() > int(value)):
        return t.gettext(
            "⌛ That question about leaving expired; nothing was done. Here is your hand now:"
        ), None
    if op == "pick":
        return (t.gettext(STALE_NOTE), None) if seq != table.seq else ("", value or None)
    return None


class Controls:
    """Answers every control of every table (bound to the bot in ``controls.bind``)."""

    def __init__(self, runtime: TableRuntime, notifier: DiscordNotifier) -> None:
        self.runtime = runtime
        self.notifier = notifier
        self.first_hands = FirstHands()

    async def member_texts(self, interaction: discord.Interaction) -> Texts:
        """The clicking member's language (their choice, their client's, the server's), for private answers.

        If the database can not say, English: an answer is never lost for a language.
        """
        try:
            return await self.notifier.bot.languages.member_texts(
                interaction.guild_id, interaction.user.id, str(interaction.locale)
            )
        except StoreError:
            return texts(SOURCE_LANGUAGE)

    async def server_texts(self, interaction: discord.Interaction) -> Texts:
        """The server's language, for a public message a click edits (the lobby)."""
        return await self.notifier.server_texts(interaction.guild_id or 0)

    async def warn_if_muted(self, interaction: discord.Interaction, tid: str) -> None:
        """Tell the first member to act after the bot lost a permission in the table's channel."""
        missing = self.runtime.permission_notice(tid)
        if missing is not None:
            t = await self.member_texts(interaction)
            await send_ephemeral(
                interaction,
                t.gettext(
                    "⚠️ I can't post in this channel: I need the **{permission}** permission here. The game "
                    "goes on through your private hands; ask a server admin to give the permission back."
                ).format(permission=t.gettext(missing)),
            )

    @staticmethod
    async def _answered(tid: str, reply: Any) -> bool:
        """Send the member's answer; False (logged) when Discord refused it: the channel is then told all."""
        try:
            await reply
        except discord.HTTPException as e:
            log.warning("Table %s: could not answer a click (%s %s)", tid, e.status, e.code)
            return False
        return True

    # ------------------------------------------------------------------ lobby

    async def on_lobby(self, interaction: discord.Interaction, tid: str, op: str, value: str) -> None:
        """Join, Leave, Start, Cancel, and the host's computer players."""
        answer = Answer(interaction).start()
        user, rt, manage, heard = interaction.user, self.runtime, may_manage(interaction), interaction.id
        afterwards: list[FollowUp] = []

        async def reply(outcome: Outcome) -> Shown:
            if op == "start":
                afterwards.append(await self.dealt(answer, outcome))
                return NOTHING_SHOWN
            # the click's own answer is the lobby message: it shows the lobby (or its closing) and its news
            screen = self.lobby_screen(outcome, await self.server_texts(interaction))
            if await self._answered(tid, answer.edit(**screen.edit())):
                return Shown(notices=True, table_message=True)
            return NOTHING_SHOWN

        table = rt.get(tid)
        if op == "join" and table is not None and not table.practice:
            if (wait := newcomer_wait(self.notifier.bot, interaction)) is not None:
                await answer.refused(wait, await self.member_texts(interaction), table)
                return
        try:
            if op == "join":
                await rt.join(tid, user.id, user.display_name, interaction_id=heard, reply=reply)
            elif op == "leave":
                await rt.leave_lobby(tid, user.id, interaction_id=heard, reply=reply)
            elif op == "start":
                await rt.start(tid, user.id, manage, interaction_id=heard, reply=reply)
            elif op == "cancel":
                await rt.cancel(tid, user.id, manage, interaction_id=heard, reply=reply)
            elif op == "removecpu":
                await rt.remove_computer(tid, user.id, manage, interaction_id=heard, reply=reply)
            else:
                await rt.add_computer(tid, user.id, manage, value, interaction_id=heard, reply=reply)
        except REFUSED as e:
            now = self.runtime.get(tid)
            if op == "addcpu" and now is not None and now.status == "lobby":  # the menu drops the choice
                shown = lobby_screen(now, await self.server_texts(interaction))
                await self._answered(tid, answer.edit(**shown.edit()))
            await answer.refused(e, await self.member_texts(interaction), now)
            await self.warn_if_muted(interaction, tid)
            return
        for then in afterwards:  # once the deal is told: where the lobby went, and why
            await then()
        await self.warn_if_muted(interaction, tid)

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

    @staticmethod
    def lobby_screen(outcome: Outcome, t: Texts) -> Screen:
        """The lobby message after a lobby command, in the server's language ``t`` (or its closing)."""
        table = outcome.table
        closed = next((n for n in outcome.notices if isinstance(n, TableClosed)), None)
        if closed is None:
            return lobby_screen(table, t)
        title = (
            t.gettext("🃏 Flip Flop — table cancelled")
            if closed.reason == "cancelled"
            else t.gettext("🃏 Flip Flop — table closed")
        )
        text = notice_line(table, closed, t.at(table.practice)) or t.gettext("The table closed.")
        return closed_screen(title, text, table, t)  # a practice table's refunds are practice chips

    # ------------------------------------------------------------------ table message

    async def on_table(self, interaction: discord.Interaction, tid: str, op: str) -> None:
        """My hand, Leave after this round, Stay after all."""
        table = self.runtime.get(tid)
        assert table is not None  # the guard saw it open
        if op == "hand":
            await self.show_hand(interaction, table)
            return
        if op == "fair":
            await self.show_fair(interaction, table)
            return
        if op == "activity":
            await self.open_activity(interaction, table)
            return
        answer = Answer(interaction, fresh=True).start()
        t = await self.member_texts(interaction)
        user_id, heard = interaction.user.id, interaction.id

        async def reply(outcome: Outcome) -> Shown:
            await self._answered(tid, answer.private(self.table_note(op, table, outcome, t)))
            return NOTHING_SHOWN

        try:
            if op == "back":
                await self.runtime.back(tid, user_id, interaction_id=heard, reply=reply)
            elif op == "stay":
                await self.runtime.stay(tid, user_id, interaction_id=heard, reply=reply)
            else:
                await self.runtime.leave_after_round(tid, user_id, interaction_id=heard, reply=reply)
        except REFUSED as e:
            await answer.refused(e, t, table)
        await self.warn_if_muted(interaction, tid)

    @staticmethod
    def table_note(op: str, table: Table, outcome: Outcome, t: Texts) -> str:
        """The private answer to **I'm back**, **Stay after all** or **Leave after this round**."""
        if op == "back":
            return t.gettext(BACK_NOTE)
        if op == "stay":
            return t.gettext("Got it: you stay at the table for the next round.")
        if table.tournament:  # tournament chips stay in the tournament (its later rounds play the seat)
            return (
                t.gettext(
                    "You left this table; your stack stays in the tournament, and the computer plays "
                    "your seat in its next rounds until you click **I'm back**."
                )
                if outcome.events
                else t.gettext(
                    "Got it: you'll leave this table when the round ends; your stack stays in the "
                    "tournament, and the computer plays your seat in its next rounds until you click "
                    "**I'm back**. Changed your mind? Click **Stay after all** on the table."
                )
            )
        if table.practice:  # practice chips never reach a balance
            return (
                t.gettext("You left the practice table.")
                if outcome.events
                else t.gettext(
                    "Got it: you'll leave the practice table when this round ends. "
                    "Changed your mind? Click **Stay after all** on the table."
                )
            )
        return (
            t.gettext("You left the table; your stack went back to your balance.")
            if outcome.events
            else t.gettext(
                "Got it: you'll leave when this round ends, and your stack goes back to your "
                "balance. Changed your mind? Click **Stay after all** on the table."
            )
        )

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        """A player's private hand, as a new ephemeral message (deferred if the database is slow)."""
        answer = Answer(interaction, fresh=True).start()
        user_id = interaction.user.id
        t = await self.member_texts(interaction)
        if table.status == "lobby":
            text = (
                t.gettext("The game hasn't started yet.")
                if table.is_seated(user_id)
                else t.gettext("You're not at this table yet: click **Join**.")
            )
            await answer.private(text)
            return
        if table.game is None or table.pid(user_id) not in table.game.order:
            await answer.private(t.gettext("You're not playing at this table."))
            return
        tip = await self._tip(table, user_id, t)
        screen = hand_screen(table, user_id, t)  # as the table is now, after the tip's read
        if tip:  # last, under the cards and what to do now
            screen = replace(screen, content=f"{screen.content}\n{tip}")
        older = self.notifier.open_hands.get((table.id, user_id))
        await answer.private(**screen.send())
        self.notifier.remember_hand(table, user_id, interaction, t)
        if older is not None:
            await self._retire_hand(older)

    @staticmethod
    async def _retire_hand(older: OpenHand) -> None:
        """One hand message per player: the older one is deleted once the newer one shows.

        Ephemeral messages can be deleted through their interaction's token for 15 minutes,
        so `/flipflop hand` leaves nothing behind. If Discord refuses (a fault other than the
        message being gone already), the older hand at least says where the hand went.
        """
        try:
            await older.interaction.delete_original_response()
        except discord.NotFound:
            pass  # dismissed by the member, or its token ran out: nothing left to retire
        except discord.HTTPException:
            try:
                await older.interaction.edit_original_response(**moved_hand_screen(older.t).edit())
            except discord.HTTPException:
                pass  # it already says it stopped updating

    async def open_activity(self, interaction: discord.Interaction, table: Table) -> None:
        """**Open table**: Discord launches the live table as an Activity; else a private one-time link."""
        try:
            await interaction.response.launch_activity()
            return
        except discord.HTTPException as e:
            log.warning("Table %s: could not launch the Activity (%s %s)", table.id, e.status, e.code)
        except discord.InteractionResponded:
            return
        t = await self.member_texts(interaction)
        await send_ephemeral(interaction, web_link_text(self.notifier.bot, table, interaction.user.id, t))

    async def show_fair(self, interaction: discord.Interaction, table: Table) -> None:
        """**Fair deal** on the table: the whole commitment, client seed and how to check, privately."""
        answer = Answer(interaction, fresh=True).start()
        t = await self.member_texts(interaction)
        await answer.private(fair_text(table, t) or t.gettext(NO_COMMITMENT))

    async def _tip(self, table: Table, user_id: int, t: Texts) -> str:
        """The one-line tip, on a member's first hand ever (remembered per member), in their language."""
        try:
            first = await self.first_hands.first(self.runtime.db, table.guild_id, user_id)
        except StoreError:
            return ""
        return "💡 " + t.gettext(FIRST_HAND_TIP).format(rules=mention("flipflop rules")) if first else ""

    async def on_play_again(self, interaction: discord.Interaction, tid: str) -> None:
        """**Play again**: a new lobby below, same stake and buy-in, the clicker seated as host."""
        answer = Answer(interaction).start()
        user = interaction.user
        try:
            settings = await self.notifier.bot.ledger.settings(interaction.guild_id or 0)
            table = await self.runtime.play_again(
                tid,
                user.id,
                user.display_name,
                away_rounds=settings.away_rounds,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                turn_seconds=settings.turn_seconds,
                held_back=newcomer_wait(self.notifier.bot, interaction),
            )
        except InsufficientChips as e:
            await answer.private(not_enough(e.balance, e.needed, await self.member_texts(interaction)))
            return
        except (Refusal, *REFUSED) as e:
            await answer.refused(e, await self.member_texts(interaction), None)
            return
        screen = lobby_screen(table, await self.server_texts(interaction))
        try:
            posted = await answer.post(**screen.send())
        except discord.HTTPException as e:
            log.warning("Table %s: could not post the Play again lobby (%s %s)", table.id, e.status, e.code)
            again = await self.notifier.post_table(table)
            if again is None:
                return  # the lobby expires with its buy-ins refunded, as any lobby nobody can see
            posted = again
        await self.runtime.placed(table.id, posted)

    async def on_rules(self, interaction: discord.Interaction, page: int) -> None:
        """Turn a page of the rules (in the member's language)."""
        answer = Answer(interaction).start()
        t = await self.member_texts(interaction)
        await answer.edit(**rules_screen(page, t).edit())

    # ------------------------------------------------------------------ hands

    async def away_or_back(
        self, answer: Answer, interaction: discord.Interaction, table: Table, op: str, t: Texts
    ) -> None:
        """**Away** or **I'm back** from a private hand: the hand answers with what it means."""
        user_id, heard = interaction.user.id, interaction.id

        async def reply(outcome: Outcome) -> Shown:
            note = (
                away_note(t, outcome.table.away_rounds)
                if op == "away"
                else t.gettext(BACK_NOTE)
            )
            if await self._answered(
                table.id, answer.edit(**hand_screen(outcome.table, user_id, t, note).edit())
            ):
                self.notifier.remember_hand(outcome.table, user_id, interaction, t)
            return NOTHING_SHOWN  # a private hand: the table is told all

        try:
            if op == "away":
                await self.runtime.away(table.id, user_id, interaction_id=heard, reply=reply)
            else:
                await self.runtime.back(table.id, user_id, interaction_id=heard, reply=reply)
        except REFUSED as e:
            await answer.refused(e, t, table)

    async def on_hand(
        self, interaction: discord.Interaction, tid: str, seq: int, op: str, value: str | None
    ) -> None:
        """A move from a private hand, or a refresh."""
        table = self.runtime.get(tid)
        assert table is not None  # the guard saw it open
        if op == "hint":  # practice tables only: answered privately by the coach, changes nothing
            await coach_of(interaction).hint(interaction, table)
            return
        answer = Answer(interaction).start()
        t = await self.member_texts(interaction)
        table = self.runtime.get(tid) or table
        user_id = interaction.user.id
        if op == "leave":
            await answer.edit(**leave_confirm_screen(table, user_id, now(), t).edit())
        elif op in ("away", "back"):
            await self.away_or_back(answer, interaction, table, op, t)
        elif (again := shown_again(table, seq, op, value, t)) is not None:
            note, selection = again
            await answer.edit(**hand_screen(table, user_id, t, note, selection=selection).edit())
            self.notifier.remember_hand(table, user_id, interaction, t)
        else:
            await self._hand_move(answer, interaction, table, seq, op, value, t)

    async def _hand_move(
        self,
        answer: Answer,
        interaction: discord.Interaction,
        table: Table,
        seq: int,
        op: str,
        value: str | None,
        t: Texts,
    ) -> None:
        """A move at the table from a private hand: played, or refused with a private word."""
        user_id = interaction.user.id
        action = parse_action(table.pid(user_id), op, value)
        if action is None:
            await answer.private(t.gettext("That choice isn't something you can do; nothing was done."))
            return
        draws = op in ("stock", "take")

        async def reply(outcome: Outcome) -> Shown:
            await self._hand_after(answer, interaction, outcome, draws, t)
            return NOTHING_SHOWN  # a private hand: the table is told all

        try:
            await self.runtime.act(table.id, user_id, seq, action, interaction_id=interaction.id, reply=reply)
        except StaleControl:
            current = self.runtime.get(table.id) or table
            await answer.edit(**hand_screen(current, user_id, t, t.gettext(STALE_NOTE)).edit())
            self.notifier.remember_hand(current, user_id, interaction, t)
        except IllegalAction as e:
            await answer.private(t.gettext("{refusal} Nothing was done.").format(refusal=explain(e, t)))
        except REFUSED as e:
            await answer.refused(e, t, table)
        await self.warn_if_muted(interaction, table.id)

    async def _hand_after(
        self, answer: Answer, interaction: discord.Interaction, outcome: Outcome, draws: bool, t: Texts
    ) -> None:
        """The hand after the member's move (with the card a draw brought); the table is told next."""
        user_id, played = interaction.user.id, outcome.table
        tid = played.id
        drawn = played.game.view(played.pid(user_id)).just_drawn if draws and played.game else None
        ended = played.game.public_view() if played.game is not None else None
        if ended is not None and ended.over and played.pid(user_id) not in ended.dead:
            # the move ended the game (a drop, going out, the last chips): the final hand, not "you left"
            reply = answer.edit(**hand_screen(played, user_id, t).edit())
            self.notifier.forget_hand(tid, user_id)
            await self._answered(tid, reply)
        elif played.status == "closed" or not played.is_seated(user_id):
            reply = answer.edit(content=t.gettext("You left the game."), view=None)
            self.notifier.forget_hand(tid, user_id)
            await self._answered(tid, reply)
        elif await self._answered(tid, answer.edit(**hand_screen(played, user_id, t, drawn=drawn).edit())):
            self.notifier.remember_hand(played, user_id, interaction, t)
