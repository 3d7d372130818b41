"""Clicks on a table's controls, translated into runtime commands and answered with screens.

No rule, timer or policy here: the runtime decides and reports an outcome;
this module only picks the screen that answers the member who clicked.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace

import discord

from bot.client import send_ephemeral
from bot.first_hands import FirstHands
from bot.i18n import N_, SOURCE_LANGUAGE, Texts, texts
from bot.i18n.mentions import mention
from bot.ledger import InsufficientChips, LedgerError
from bot.refusals import explain
from bot.rules_pages import FIRST_HAND_TIP
from bot.runtime import Answered, Outcome, Reply, StaleControl, TableClosed, TableRuntime
from bot.storage import StoreError
from bot.table_render import notice_line
from bot.tables import Table, TableError
from cogs.flipflop.coach import coach_of
from cogs.flipflop.controls import parse_action
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.screens import (
    closed_screen,
    hand_screen,
    leave_confirm_screen,
    lobby_screen,
    practice_embed,
    rules_screen,
)
from engine import IllegalAction


def now() -> float:
    """Wall-clock seconds (virtual under simcord), the clock a confirmation's expiry uses."""
    return discord.utils.utcnow().timestamp()


STALE_NOTE = N_("⚠️ That control was from an earlier turn; nothing was done. Here is your hand now:")


def may_manage(interaction: discord.Interaction) -> bool:
    """The member has Manage Server here (may stop or cancel any table)."""
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def not_enough(balance: int, buy_in: int, t: Texts) -> str:
    """A member who can not afford the buy-in (R2.2), in their language."""
    return t.gettext(
        "You have {balance}, but the buy-in is {buy_in}. Claim your free chips with {daily}, or ask an admin."
    ).format(balance=t.chips(balance), buy_in=t.chips(buy_in), daily=mention("daily"))


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

    async def attempt(self, interaction: discord.Interaction, tid: str, command: Awaitable[Outcome]) -> None:
        """Run a command; a refusal becomes a private message (member's language) and changes nothing."""
        try:
            await command
        except InsufficientChips as e:
            table = self.runtime.get(tid)
            t = await self.member_texts(interaction)
            await send_ephemeral(interaction, not_enough(e.balance, table.buy_in if table else 0, t))
        except (TableError, LedgerError, IllegalAction) as e:
            await send_ephemeral(interaction, explain(e, await self.member_texts(interaction)))
        await self.warn_if_muted(interaction, tid)

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

    # ------------------------------------------------------------------ lobby

    async def on_lobby(self, interaction: discord.Interaction, tid: str, op: str, value: str) -> None:
        """Join, Leave, Start, Cancel, and the host's computer players."""
        user, rt, manage, heard = interaction.user, self.runtime, may_manage(interaction), interaction.id
        show = self._lobby_reply(interaction, await self.server_texts(interaction))
        if op == "join":
            command = rt.join(tid, user.id, user.display_name, show, interaction_id=heard)
        elif op == "leave":
            command = rt.leave_lobby(tid, user.id, show, interaction_id=heard)
        elif op == "start":
            command = rt.start(tid, user.id, manage, self._defer(interaction), interaction_id=heard)
        elif op == "cancel":
            command = rt.cancel(tid, user.id, manage, show, interaction_id=heard)
        elif op == "removecpu":
            command = rt.remove_computer(tid, user.id, manage, show, interaction_id=heard)
        else:
            command = rt.add_computer(tid, user.id, manage, value, show, interaction_id=heard)
        await self.attempt(interaction, tid, command)

    @staticmethod
    def _lobby_reply(interaction: discord.Interaction, t: Texts) -> Reply:
        """The lobby message, public, edited in the server's language ``t``."""

        async def show(outcome: Outcome) -> Answered:
            table = outcome.table
            closed = next((n for n in outcome.notices if isinstance(n, TableClosed)), None)
            if closed is not None:
                title = (
                    t.gettext("🃏 Flip Flop — table cancelled")
                    if closed.reason == "cancelled"
                    else t.gettext("🃏 Flip Flop — table closed")
                )
                screen = closed_screen(
                    title, notice_line(table, closed, t.at(table.practice)) or t.gettext("The table closed.")
                )
                if table.practice and screen.embed is not None:  # its refunds are practice chips
                    screen = replace(screen, embed=practice_embed(table, screen.embed, t))
            else:
                screen = lobby_screen(table, t)
            await interaction.response.edit_message(**screen.edit())
            return Answered(table_message=True, notices=True)

        return show

    @staticmethod
    def _defer(interaction: discord.Interaction) -> Reply:
        async def defer(outcome: Outcome) -> Answered:
            await interaction.response.defer()
            return Answered()

        return defer

    # ------------------------------------------------------------------ table message

    async def on_table(self, interaction: discord.Interaction, tid: str, op: str) -> None:
        """My hand, Leave after this round."""
        table = self.runtime.get(tid)
        assert table is not None  # the guard saw it open
        if op == "hand":
            await self.show_hand(interaction, table)
            return
        t = await self.member_texts(interaction)
        if op == "stay":

            async def stays(outcome: Outcome) -> Answered:
                await send_ephemeral(
                    interaction, t.gettext("Got it: you stay at the table for the next round.")
                )
                return Answered()

            stay = self.runtime.stay(tid, interaction.user.id, stays, interaction_id=interaction.id)
            await self.attempt(interaction, tid, stay)
            return

        async def said(outcome: Outcome) -> Answered:
            if table.practice:  # practice chips never reach a balance
                text = (
                    t.gettext("You left the practice table.")
                    if outcome.events
                    else t.gettext(
                        "Got it: you'll leave the practice table when this round ends. "
                        "Changed your mind? Click **Stay after all** on the table."
                    )
                )
            else:
                text = (
                    t.gettext("You left the table; your stack went back to your balance.")
                    if outcome.events
                    else t.gettext(
                        "Got it: you'll leave when this round ends, and your stack goes back to your "
                        "balance. Changed your mind? Click **Stay after all** on the table."
                    )
                )
            await send_ephemeral(interaction, text)
            return Answered()

        await self.attempt(
            interaction,
            tid,
            self.runtime.leave_after_round(tid, interaction.user.id, said, interaction_id=interaction.id),
        )

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        """A player's private hand, as a new ephemeral message."""
        user_id = interaction.user.id
        t = await self.member_texts(interaction)
        if table.status == "lobby":
            text = (
                t.gettext("The game hasn't started yet.")
                if table.is_seated(user_id)
                else t.gettext("You're not at this table yet: click **Join**.")
            )
            await send_ephemeral(interaction, text)
            return
        if table.game is None or table.pid(user_id) not in table.game.order:
            await send_ephemeral(interaction, t.gettext("You're not playing at this table."))
            return
        screen = hand_screen(table, user_id, t)
        tip = await self._tip(table, user_id, t)
        if tip:  # last, under the cards and what to do now
            screen = replace(screen, content=f"{screen.content}\n{tip}")
        await interaction.response.send_message(ephemeral=True, **screen.send())
        self.notifier.remember_hand(table, user_id, interaction, t)

    async def _tip(self, table: Table, user_id: int, t: Texts) -> str:
        """The one-line tip, on a member's first hand ever (remembered per member), in their language."""
        try:
            first = await self.first_hands.first(self.runtime.store.db, table.guild_id, user_id)
        except StoreError:
            return ""
        return "💡 " + t.gettext(FIRST_HAND_TIP).format(rules=mention("flipflop rules")) if first else ""

    async def on_rules(self, interaction: discord.Interaction, page: int) -> None:
        """Turn a page of the rules (in the member's language)."""
        t = await self.member_texts(interaction)
        await interaction.response.edit_message(**rules_screen(page, t).edit())

    # ------------------------------------------------------------------ hands

    async def on_hand(
        self, interaction: discord.Interaction, tid: str, seq: int, op: str, value: str | None
    ) -> None:
        """A move from a private hand, or a refresh."""
        table = self.runtime.get(tid)
        assert table is not None  # the guard saw it open
        user_id = interaction.user.id
        t = await self.member_texts(interaction)
        if op == "refresh":
            await interaction.response.edit_message(**hand_screen(table, user_id, t).edit())
            self.notifier.remember_hand(table, user_id, interaction, t)
            return
        if op == "leave":
            screen = leave_confirm_screen(table, user_id, now(), t)
            await interaction.response.edit_message(**screen.edit())
            return
        if op == "hint":  # practice tables only (issue 16): answered privately, changes nothing
            await coach_of(interaction).hint(interaction, table)
            return
        if op == "leaveok" and (value is None or now() > int(value)):
            note = t.gettext(
                "⌛ That question about leaving expired; nothing was done. Here is your hand now:"
            )
            await interaction.response.edit_message(**hand_screen(table, user_id, t, note).edit())
            self.notifier.remember_hand(table, user_id, interaction, t)
            return
        action = parse_action(table.pid(user_id), op, value)
        if action is None:
            await send_ephemeral(
                interaction, t.gettext("That choice isn't something you can do; nothing was done.")
            )
            return

        draws = op in ("stock", "take")

        async def show(outcome: Outcome) -> Answered:
            played = outcome.table
            drawn = played.game.view(played.pid(user_id)).just_drawn if draws and played.game else None
            gone = played.status == "closed" or (op == "leaveok" and not played.is_seated(user_id))
            if gone:
                await interaction.response.edit_message(content=t.gettext("You left the game."), view=None)
                self.notifier.forget_hand(played.id, user_id)
            else:
                await interaction.response.edit_message(**hand_screen(played, user_id, t, drawn=drawn).edit())
                self.notifier.remember_hand(played, user_id, interaction, t)
            return Answered()

        try:
            await self.runtime.act(tid, user_id, seq, action, show, interaction_id=interaction.id)
        except StaleControl:
            await interaction.response.edit_message(
                **hand_screen(table, user_id, t, t.gettext(STALE_NOTE)).edit()
            )
            self.notifier.remember_hand(table, user_id, interaction, t)
        except IllegalAction as e:
            await send_ephemeral(
                interaction, t.gettext("{refusal} Nothing was done.").format(refusal=explain(e, t))
            )
        except TableError as e:
            await send_ephemeral(interaction, explain(e, t))
        await self.warn_if_muted(interaction, tid)
