"""The players' private hand messages the notifier keeps current, through their interactions.

A hand is edited when its table's moment changes (a new deal, the turn coming or
going, the end), never twice for one moment; a passing failure is tried again with
backoff. An interaction's token lasts 15 minutes: just before it runs out, the hand
says it stopped updating. Editing a hand needs no channel permission.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.client import token_left
from bot.i18n import N_, Texts
from bot.table.model import Table
from cogs.flipflop.delivery import OTHER_EDIT_TRIES, PASSING
from cogs.flipflop.screens import hand_screen

log = logging.getLogger("flipflop.notifier")


STOPPED_UPDATING = N_(
    "⏸️ This hand has stopped updating itself (Discord lets the bot change it for 15 minutes). "
    "Click 🔄 **Refresh** or **My hand** on the table for a fresh one."
)


Moment = tuple[int, bool, bool]
"""What an open hand must follow: (round number, the player's turn, the game still on)."""


def moment(table: Table, user_id: int) -> Moment:
    """The moments an open hand is brought up to date for: a new deal, the turn coming or going, the end."""
    if table.game is None:
        return (0, False, False)
    v = table.game.public_view()
    on = table.status == "playing" and not v.over
    return (v.round_number, on and v.in_round and v.to_act == table.pid(user_id), on)


@dataclass
class OpenHand:
    """A player's private hand message and the moment it shows."""

    interaction: discord.Interaction
    table: Table
    shown: Moment
    t: Texts
    """The member's language (their hand is private)."""
    expiry: asyncio.TimerHandle | None = None


class OpenHands:
    """Each player's private hand message, kept current as the table's moment changes, marked as it expires.

    A part of ``DiscordNotifier`` (``cogs/flipflop/notifier.py``), which gives it what it declares here.
    """

    open_hands: dict[tuple[str, int], OpenHand]
    live: Callable[[str], Table | None]
    backoff: Callable[[int], float]
    _spawn: Callable[[Awaitable[None]], None]

    def remember_hand(self, table: Table, user_id: int, interaction: discord.Interaction, t: Texts) -> None:
        """``interaction``'s message is this player's hand now, as it reads at this moment: keep it current.

        ``t`` is the member's language, kept to update the hand in it. Before its token runs
        out the message is told that it stopped updating.
        """
        key = (table.id, user_id)
        self.forget_hand(*key)
        hand = OpenHand(interaction, table, moment(table, user_id), t)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            hand.expiry = loop.call_later(
                max(0.0, token_left(interaction)), lambda: loop.create_task(self.expire_hand(key, hand))
            )
        self.open_hands[key] = hand

    def forget_hand(self, table_id: str, user_id: int) -> None:
        """Stop following a player's hand message."""
        hand = self.open_hands.pop((table_id, user_id), None)
        if hand is not None and hand.expiry is not None:
            hand.expiry.cancel()

    async def expire_hand(self, key: tuple[str, int], hand: OpenHand) -> None:
        """The hand's token is about to run out: say on it that it stopped updating."""
        if self.open_hands.get(key) is not hand:
            return
        self.forget_hand(*key)
        try:
            note = hand.t.gettext(STOPPED_UPDATING)
            table = self.live(key[0]) or hand.table
            screen = hand_screen(table, key[1], hand.t, note) if table.game else None
            await hand.interaction.edit_original_response(
                **(screen.edit() if screen else {"content": note, "view": None})
            )
        except discord.HTTPException as e:
            log.warning("Table %s: could not mark a hand as stopped (%s %s)", key[0], e.status, e.code)

    async def _update_open_hands(self, table: Table) -> None:
        """Edit each open hand whose moment changed: a new deal, the turn coming or going, the end.

        A hand just answered by its own click already shows this moment, so
        it is not edited twice; a finished game leaves every hand with no controls.
        """
        for key in [k for k in self.open_hands if k[0] == table.id]:
            hand = self.open_hands[key]
            now = moment(table, key[1])
            if now == hand.shown or table.game is None or table.seq < hand.table.seq:
                continue  # the same moment, or an older one than the hand shows (it answered a click since)
            hand.shown = now
            hand.table = table
            await self._edit_hand(key, hand, 0)

    async def _edit_hand(self, key: tuple[str, int], hand: OpenHand, failures: int) -> None:
        """Edit an open hand to its table's moment; a passing failure is tried again with backoff."""
        table = hand.table
        try:
            await hand.interaction.edit_original_response(**hand_screen(table, key[1], hand.t).edit())
        except (discord.HTTPException, *PASSING) as e:
            status = (e.status, e.code) if isinstance(e, discord.HTTPException) else (type(e).__name__, "")
            log.warning("Table %s: could not update a hand (%s %s)", table.id, *status)
            passing = not isinstance(e, discord.HTTPException) or e.status == 429 or e.status >= 500
            if passing and failures + 1 < OTHER_EDIT_TRIES:
                self._spawn(self._hand_again(key, hand, failures + 1))
            else:
                self.forget_hand(*key)

    async def _hand_again(self, key: tuple[str, int], hand: OpenHand, failures: int) -> None:
        await asyncio.sleep(self.backoff(failures))
        if self.open_hands.get(key) is hand and hand.table.game is not None:
            hand.shown = moment(hand.table, key[1])
            await self._edit_hand(key, hand, failures)
