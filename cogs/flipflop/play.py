"""Clicks on a table's controls, translated into runtime commands and answered with screens.

No rule, timer or policy here: the runtime decides and reports an outcome;
this module only picks the screen that answers the member who clicked.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace

import discord

from bot.client import send_ephemeral
from bot.db import StoreError
from bot.first_hands import FirstHands
from bot.i18n import texts
from bot.ledger import InsufficientChips, LedgerError
from bot.render import chips, for_players
from bot.rules_pages import FIRST_HAND_TIP
from bot.runtime import Answered, Outcome, Reply, StaleControl, TableClosed, TableRuntime
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

TIP = texts("en").gettext(FIRST_HAND_TIP)
"""The first-hand tip in English (the catalogs hold it in every language)."""


def now() -> float:
    """Wall-clock seconds (virtual under simcord), the clock a confirmation's expiry uses."""
    return discord.utils.utcnow().timestamp()


STALE_NOTE = "⚠️ That control was from an earlier turn; nothing was done. Here is your hand now:"


def may_manage(interaction: discord.Interaction) -> bool:
    """The member has Manage Server here (may stop or cancel any table)."""
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def not_enough(balance: int, buy_in: int) -> str:
    """A member who can not afford the buy-in (R2.2)."""
    return (
        f"You have {chips(balance)}, but the buy-in is {chips(buy_in)}. "
        "Claim your free chips with `/daily`, or ask an admin."
    )


class Controls:
    """Answers every control of every table (bound to the bot in ``controls.bind``)."""

    def __init__(self, runtime: TableRuntime, notifier: DiscordNotifier) -> None:
        self.runtime = runtime
        self.notifier = notifier
        self.first_hands = FirstHands()

    async def attempt(self, interaction: discord.Interaction, tid: str, command: Awaitable[Outcome]) -> None:
        """Run a command; a refusal becomes a private message and changes nothing."""
        try:
            await command
        except InsufficientChips as e:
            table = self.runtime.get(tid)
            await send_ephemeral(interaction, not_enough(e.balance, table.buy_in if table else 0))
        except (TableError, LedgerError, IllegalAction) as e:
            await send_ephemeral(interaction, for_players(str(e)))
        await self.warn_if_muted(interaction, tid)

    async def warn_if_muted(self, interaction: discord.Interaction, tid: str) -> None:
        """Tell the first member to act after the bot lost a permission in the table's channel."""
        missing = self.runtime.permission_notice(tid)
        if missing is not None:
            await send_ephemeral(
                interaction,
                f"⚠️ I can't post in this channel: I need the **{missing}** permission here. The game goes on "
                "through your private hands; ask a server admin to give the permission back.",
            )

    # ------------------------------------------------------------------ lobby

    async def on_lobby(self, interaction: discord.Interaction, tid: str, op: str, value: str) -> None:
        """Join, Leave, Start, Cancel, and the host's computer players."""
        user, rt, manage, heard = interaction.user, self.runtime, may_manage(interaction), interaction.id
        show = self._lobby_reply(interaction)
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
    def _lobby_reply(interaction: discord.Interaction) -> Reply:
        async def show(outcome: Outcome) -> Answered:
            table = outcome.table
            closed = next((n for n in outcome.notices if isinstance(n, TableClosed)), None)
            if closed is not None:
                title = (
                    "🃏 Flip Flop — table cancelled"
                    if closed.reason == "cancelled"
                    else "🃏 Flip Flop — table closed"
                )
                screen = closed_screen(title, notice_line(table, closed) or "The table closed.")
                if table.practice and screen.embed is not None:  # its refunds are practice chips
                    screen = replace(screen, embed=practice_embed(table, screen.embed))
            else:
                screen = lobby_screen(table)
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
        if op == "stay":

            async def stays(outcome: Outcome) -> Answered:
                await send_ephemeral(interaction, "Got it: you stay at the table for the next round.")
                return Answered()

            stay = self.runtime.stay(tid, interaction.user.id, stays, interaction_id=interaction.id)
            await self.attempt(interaction, tid, stay)
            return

        async def said(outcome: Outcome) -> Answered:
            text = (
                "You left the table; your stack went back to your balance."
                if outcome.events
                else "Got it: you'll leave when this round ends, and your stack goes back to your balance. "
                "Changed your mind? Click **Stay after all** on the table."
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
        if table.status == "lobby":
            text = (
                "The game hasn't started yet."
                if table.is_seated(user_id)
                else "You're not at this table yet: click **Join**."
            )
            await send_ephemeral(interaction, text)
            return
        if table.game is None or table.pid(user_id) not in table.game.order:
            await send_ephemeral(interaction, "You're not playing at this table.")
            return
        screen = hand_screen(table, user_id)
        tip = await self._tip(table, user_id)
        if tip:  # last, under the cards and what to do now
            screen = replace(screen, content=f"{screen.content}\n{tip}")
        await interaction.response.send_message(ephemeral=True, **screen.send())
        self.notifier.remember_hand(table, user_id, interaction)

    async def _tip(self, table: Table, user_id: int) -> str:
        """The one-line tip, on a member's first hand ever (remembered per member)."""
        try:
            first = await self.first_hands.first(self.runtime.store.db, table.guild_id, user_id)
        except StoreError:
            return ""
        return "💡 " + TIP.format(rules="`/flipflop rules`") if first else ""

    async def on_rules(self, interaction: discord.Interaction, page: int) -> None:
        """Turn a page of the rules."""
        await interaction.response.edit_message(**rules_screen(page).edit())

    # ------------------------------------------------------------------ hands

    async def on_hand(
        self, interaction: discord.Interaction, tid: str, seq: int, op: str, value: str | None
    ) -> None:
        """A move from a private hand, or a refresh."""
        table = self.runtime.get(tid)
        assert table is not None  # the guard saw it open
        user_id = interaction.user.id
        if op == "refresh":
            await interaction.response.edit_message(**hand_screen(table, user_id).edit())
            self.notifier.remember_hand(table, user_id, interaction)
            return
        if op == "leave":
            screen = leave_confirm_screen(table, user_id, now())
            await interaction.response.edit_message(**screen.edit())
            return
        if op == "hint":  # practice tables only (issue 16): answered privately, changes nothing
            await coach_of(interaction).hint(interaction, table)
            return
        if op == "leaveok" and (value is None or now() > int(value)):
            note = "⌛ That question about leaving expired; nothing was done. Here is your hand now:"
            await interaction.response.edit_message(**hand_screen(table, user_id, note).edit())
            self.notifier.remember_hand(table, user_id, interaction)
            return
        action = parse_action(table.pid(user_id), op, value)
        if action is None:
            await send_ephemeral(interaction, "That choice isn't something you can do; nothing was done.")
            return

        draws = op in ("stock", "take") and table.game is not None
        before = set(table.game.view(table.pid(user_id)).hand) if draws and table.game else set()

        async def show(outcome: Outcome) -> Answered:
            t = outcome.table
            new = set(t.game.view(t.pid(user_id)).hand) - before if draws and t.game else set()
            drawn = next(iter(new)) if len(new) == 1 else None
            gone = t.status == "closed" or (op == "leave" and not t.is_seated(user_id))
            if gone:
                await interaction.response.edit_message(content="You left the game.", view=None)
                self.notifier.forget_hand(t.id, user_id)
            else:
                await interaction.response.edit_message(**hand_screen(t, user_id, drawn=drawn).edit())
                self.notifier.remember_hand(t, user_id, interaction)
            return Answered()

        try:
            await self.runtime.act(tid, user_id, seq, action, show, interaction_id=interaction.id)
        except StaleControl:
            await interaction.response.edit_message(**hand_screen(table, user_id, STALE_NOTE).edit())
            self.notifier.remember_hand(table, user_id, interaction)
        except IllegalAction as e:
            await send_ephemeral(interaction, for_players(f"{e} Nothing was done."))
        except TableError as e:
            await send_ephemeral(interaction, for_players(str(e)))
        await self.warn_if_muted(interaction, tid)
