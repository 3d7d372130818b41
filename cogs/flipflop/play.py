"""Clicks on a table's controls, translated into runtime commands and answered with screens.

No rule, timer or policy here: the runtime decides. Each click hands its
command a ``reply``: the screen that answers the member who clicked, sent on
the command's way out (the table's lock is released by then), saying what it
showed (``Shown``); the runtime then tells the channel the rest itself. Every click is answered
within Discord's 3 seconds: one whose work runs past ``ANSWER_WITHIN`` is
acknowledged first (``Answer``) and completed by editing its response. The deal's
answer (``dealing.py``), the private hand (``hands.py``) and the answer itself
(``answer.py``) are modules of their own; ``Controls`` mixes the first two in.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.client import FlipFlopBot, send_ephemeral
from bot.first_hands import FirstHands
from bot.i18n import N_, SOURCE_LANGUAGE, Texts, texts
from bot.ledger import InsufficientChips
from bot.live.links import LINK_SECONDS, Pass
from bot.presentation.refusals import Refusal
from bot.presentation.table_layout import fair_text
from bot.presentation.table_render import notice_line
from bot.runtime import NOTHING_SHOWN, Outcome, Shown, TableClosed, TableRuntime
from bot.storage import StoreError
from bot.table.model import Table
from cogs.flipflop.answer import REFUSED, Answer, FollowUp, may_manage, not_enough
from cogs.flipflop.control_answers import on_rules_page
from cogs.flipflop.dealing import Dealing
from cogs.flipflop.hands import BACK_NOTE, HandClicks
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.screens import Screen, closed_screen, lobby_screen, rules_screen
from cogs.newcomers import newcomer_wait

log = logging.getLogger("flipflop.controls")


NO_COMMITMENT = N_("🔒 No deal is committed at this table yet: the commitment is published before each deal.")


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


class Controls(HandClicks, Dealing):
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
        """Turn a page of the rules (in the member's language); clicked elsewhere, show it privately."""
        if not on_rules_page(interaction.message):  # forged on another message: that one stays as it is
            answer = Answer(interaction, fresh=True).start()
            await answer.private(**rules_screen(page, await self.member_texts(interaction)).send())
            return
        answer = Answer(interaction).start()
        t = await self.member_texts(interaction)
        await answer.edit(**rules_screen(page, t).edit())
