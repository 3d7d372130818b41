"""A player's private hand: showing it, and answering the clicks on it.

A move, **Away** or **I'm back**, **Leave** (asked again first), **Refresh** and
picking cards are translated into runtime commands, and the hand answers with
itself as it is now; the runtime tells the table the rest. One hand message per
player: a newer one retires the older. A part of ``Controls`` (``cogs/flipflop/play.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from bot.first_hands import FirstHands
from bot.i18n import N_, Texts
from bot.i18n.mentions import mention
from bot.presentation.refusals import explain
from bot.presentation.rules_pages import FIRST_HAND_TIP
from bot.runtime import NOTHING_SHOWN, Outcome, Shown, StaleControl, TableRuntime
from bot.storage import StoreError
from bot.table.model import Table
from cogs.flipflop.answer import REFUSED, Answer
from cogs.flipflop.coach import coach_of
from cogs.flipflop.controls import parse_action
from cogs.flipflop.notifier import DiscordNotifier
from cogs.flipflop.open_hands import OpenHand
from cogs.flipflop.screens import hand_screen, leave_confirm_screen, moved_hand_screen
from engine import IllegalAction
from engine.events import SeatClosed


def now() -> float:
    """Wall-clock seconds (virtual under simcord), the clock a confirmation's expiry uses."""
    return discord.utils.utcnow().timestamp()


STALE_NOTE = N_("⚠️ That control was from an earlier turn; nothing was done. Here is your hand now:")


def away_note(t: Texts, table: Table) -> str:
    """What **Away** answers on the member's private hand: who plays, until when, and what happens after.

    As the table's away rule (``away_rule``) says it: a tournament keeps the seat, a practice table's
    chips never reach a balance.
    """
    rounds = table.away_rounds
    if not table.releases_away_seats:  # a tournament's
        return t.gettext(
            "💤 You're away: the basic computer plays your seat with your tournament chips, in this round "
            "and the next ones, until you click **I'm back** (here or on the table)."
        )
    if table.practice:
        return t.ngettext(
            "💤 You're away: the basic computer plays your seat until you click **I'm back** (here or on the "
            "table). After {rounds} round away your seat is released.",
            "💤 You're away: the basic computer plays your seat until you click **I'm back** (here or on the "
            "table). After {rounds} rounds away your seat is released.",
            rounds,
        ).format(rounds=t.number(rounds))
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
LEFT_GAME = N_("You left the game.")
"""The hand of a member whose own click took them out of the game (they left, or the table closed)."""
OUT_OF_CHIPS = N_("💀 You're out of chips and leave the game.")
"""The hand of a member whose own move lost their last chips (not a leave they chose)."""


def knocked_out(outcome: Outcome, player: str) -> bool:
    """Whether ``outcome`` closed ``player``'s seat because their chips ran out."""
    return any(
        isinstance(e, SeatClosed) and e.player == player and e.reason == "eliminated" for e in outcome.events
    )


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


class HandClicks:
    """A player's private hand: shown as a new message, and every click on it answered by the hand itself.

    A part of ``Controls`` (``cogs/flipflop/play.py``), which gives it what it declares here.
    """

    runtime: TableRuntime
    notifier: DiscordNotifier
    first_hands: FirstHands
    member_texts: Callable[[discord.Interaction], Awaitable[Texts]]
    warn_if_muted: Callable[[discord.Interaction, str], Awaitable[None]]
    _answered: Callable[[str, Any], Awaitable[bool]]

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

    async def _tip(self, table: Table, user_id: int, t: Texts) -> str:
        """The one-line tip, on a member's first hand ever (remembered per member), in their language."""
        try:
            first = await self.first_hands.first(self.runtime.db, table.guild_id, user_id)
        except StoreError:
            return ""
        return "💡 " + t.gettext(FIRST_HAND_TIP).format(rules=mention("flipflop rules")) if first else ""

    async def away_or_back(
        self, answer: Answer, interaction: discord.Interaction, table: Table, op: str, t: Texts
    ) -> None:
        """**Away** or **I'm back** from a private hand: the hand answers with what it means."""
        user_id, heard = interaction.user.id, interaction.id

        async def reply(outcome: Outcome) -> Shown:
            note = (
                away_note(t, outcome.table)
                if op == "away"
                else t.gettext(BACK_NOTE)
            )
            screen = hand_screen(outcome.table, user_id, t, note, away_said=op == "away")
            if await self._answered(table.id, answer.edit(**screen.edit())):
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
            # the hand's picture goes too (an edit keeps a message's files unless told otherwise)
            words = OUT_OF_CHIPS if knocked_out(outcome, played.pid(user_id)) else LEFT_GAME
            reply = answer.edit(content=t.gettext(words), view=None, attachments=[])
            self.notifier.forget_hand(tid, user_id)
            await self._answered(tid, reply)
        elif await self._answered(tid, answer.edit(**hand_screen(played, user_id, t, drawn=drawn).edit())):
            self.notifier.remember_hand(played, user_id, interaction, t)
