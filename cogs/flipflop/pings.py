"""Turn pings: a mention when a member's turn starts and no hand of theirs is open to show it.

When a human's turn starts (the engine's ``TurnStarted``) and the notifier has no
fresh hand message of theirs open (an open hand updates itself, so they see the
turn there), one message in the table's channel mentions them, and only them
(``allowed_mentions`` names that user). It is removed as soon as they act, or
when the turn ends any other way (a timeout, the end of the round or of the
game), so pings never pile up in the channel. Computers are never pinged; a
member turns pings off for themselves with ``/flipflop notify turn:off`` (saved
per server like a language choice, in ``notify_choices``; no row means on).

**At most one ping per turn**: a ping belongs to one ``TurnStarted``; a failed
post is not retried. **Pacing**: the post and the removal go through the
notifier's per-channel ``EditPacer``, with the table edits, so a channel never
gets more calls than its budget allows; a ping whose turn ended before the
budget allowed it is never posted. **Restarts**: the standing ping of each
table is saved in ``turn_pings``; when the table resumes, a saved ping of the
turn still being played is kept (and removed when the player acts), one of a
turn that ended meanwhile is removed. A restart itself starts no turn, so it
pings no one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.client import FlipFlopBot, send_ephemeral
from bot.i18n import N_, Texts
from bot.runtime import Outcome, Resumed
from bot.storage import Store, StoreError
from bot.table.model import Table
from cogs.flipflop.pacing import CallBudget, EditPacer
from engine.events import Discarded, Drew, Dropped, LaidOff, SpreadLaid, TurnStarted

log = logging.getLogger("flipflop.pings")


class Notifier(Protocol):
    """What the pings need of the notifier (``cogs.flipflop.notifier``, which keeps them)."""

    @property
    def bot(self) -> FlipFlopBot:
        """The bot: its database, languages and channels."""
        ...

    @property
    def open_hands(self) -> Mapping[tuple[str, int], object]:
        """The hands open now, by (table id, member id): a member with one open needs no ping."""
        ...

    @property
    def pacer(self) -> EditPacer:
        """The channels' pacer: a ping is sent and deleted in turn with the table edits."""
        ...

    @property
    def calls(self) -> CallBudget:
        """Each table's channel calls against its moves: a ping and its removal count."""
        ...

    async def table_texts(self, table: Table) -> Texts:
        """The texts of the table's public messages."""
        ...

    def channel(self, table: Table) -> discord.PartialMessageable:
        """The table's channel."""
        ...

    @property
    def live(self) -> Callable[[str], Table | None]:
        """The table as it is now, by id (an outcome's table is a snapshot of its change)."""
        ...

PING = N_("🔔 {member}, it's your turn at Flip Flop.")
"""The ping itself, in the server's language (it is a public message)."""
NOT_IN_SERVER = N_(
    "Turn pings are set per server: use `/flipflop notify` in a channel of the server you play in."
    " Nothing was changed."
)
NOT_ON_OR_OFF = N_("Turn pings are either on or off. Nothing was changed.")
PINGS_ON = N_(
    "Turn pings are **on** for you here: when your turn starts and your hand isn't open,"
    " the bot mentions you once in the table's channel, and removes it when you play."
)
PINGS_OFF = N_("Turn pings are **off** for you here: you won't be mentioned when your turn starts.")
SWITCH = N_("Change it with `/flipflop notify turn:`.")

ACTIONS = (Drew, Discarded, Dropped, LaidOff, SpreadLaid)
"""A player's own moves: the first one ends their ping."""


class NotifyBook:
    """Each member's turn-ping choice per server, with a memory in front of the database."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self._saved: dict[tuple[int, int], bool] = {}

    async def turn_pings(self, guild_id: int, user_id: int) -> bool:
        """Whether this member wants turn pings here (on unless they turned them off)."""
        key = (guild_id, user_id)
        if key not in self._saved:
            row = await self.db.fetchone(
                "SELECT turn_pings FROM notify_choices WHERE guild_id = ? AND user_id = ?", key
            )
            return self._saved.setdefault(key, True if row is None else bool(row[0]))
        return self._saved[key]

    async def choose(self, guild_id: int, user_id: int, on: bool) -> None:
        """Save a member's choice."""
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO notify_choices (guild_id, user_id, turn_pings) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET turn_pings = excluded.turn_pings",
                (guild_id, user_id, int(on)),
            )
        self._saved[(guild_id, user_id)] = on

    def forget_member(self, user_id: int) -> None:
        """Drop a member's remembered choices (privacy forget rewrote their rows: back to the default)."""
        for key in [k for k in self._saved if k[1] == user_id]:
            del self._saved[key]


@dataclass
class Ping:
    """One turn's ping: posted once (``message_id``), removed once its turn is over (``done``)."""

    table_id: str
    guild_id: int
    channel_id: int
    user_id: int
    round_number: int
    message_id: int | None = None
    done: bool = False


def _on_turn(table: Table, user_id: int, round_number: int) -> bool:
    """The member is still to act in this round of a game in play."""
    if table.status != "playing" or table.game is None:
        return False
    view = table.game.public_view()
    return (
        view.in_round and not view.over and view.round_number == round_number and view.to_act == str(user_id)
    )


class TurnPings:
    """The pings standing in tables' channels (at most one per table), kept by the notifier."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        self.book = NotifyBook(notifier.bot.db)
        self.standing: dict[str, Ping] = {}
        """Each table's ping of the turn being played (posted or waiting for the channel's budget)."""
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the notifier's hook

    def after(self, outcome: Outcome) -> None:
        """After an outcome is published: end a ping whose turn is over, ping a new turn's player.

        Never waits: posts and removals are paced per channel, the saved ping read after a restart
        is a task of its own.
        """
        table = outcome.table
        ping = self.standing.get(table.id)
        if ping is not None:
            acted = any(isinstance(e, ACTIONS) and e.player == str(ping.user_id) for e in outcome.events)
            again = any(isinstance(e, TurnStarted) for e in outcome.events)
            if acted or again or not _on_turn(table, ping.user_id, ping.round_number):
                self._end(table, ping)
        if any(isinstance(n, Resumed) for n in outcome.notices):
            self._spawn(self._resume(table))
        if not any(isinstance(e, TurnStarted) for e in outcome.events) or table.game is None:
            return
        view = table.game.public_view()
        seat = view.to_act
        if seat is None or table.is_computer(seat) or not _on_turn(table, int(seat), view.round_number):
            return
        if table.is_away(seat):
            return  # the computer plays an away seat: they asked not to be there
        user = int(seat)
        if (table.id, user) in self.notifier.open_hands:
            return  # their open hand shows the turn
        ping = Ping(table.id, table.guild_id, table.plays_in, user, view.round_number)  # the game's thread
        self.standing[table.id] = ping
        self.notifier.pacer.request(
            table.channel_id, lambda: self._post(table, ping), key=f"ping:{table.id}:{id(ping)}"
        )

    # ------------------------------------------------------------------ posting and removing

    async def _post(self, table: Table, ping: Ping) -> None:
        """Post the ping if its turn is still on (at the table now), the member wants it, no hand is open."""
        table = self.notifier.live(table.id) or table
        if ping.done or not _on_turn(table, ping.user_id, ping.round_number):
            self._drop(ping)
            return
        if (table.id, ping.user_id) in self.notifier.open_hands:
            self._drop(ping)
            return
        try:
            wanted = await self.book.turn_pings(ping.guild_id, ping.user_id)
        except StoreError:
            log.warning("Table %s: could not read a member's turn-ping choice; no ping", table.id)
            wanted = False
        if not wanted:
            self._drop(ping)
            return
        t = await self.notifier.table_texts(table)
        text = t.gettext(PING).format(member=f"<@{ping.user_id}>")
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(ping.user_id)]
        )
        self.notifier.calls.spent(table.id)
        try:
            message = await self.notifier.channel(table).send(text, allowed_mentions=mentions)
        except discord.HTTPException as e:  # never retried: a turn has at most one ping
            log.warning("Table %s: could not post a turn ping (%s %s)", table.id, e.status, e.code)
            self._drop(ping)
            return
        ping.message_id = message.id
        if ping.done:  # they played while it was being posted
            await self._remove(ping)
            return
        try:
            async with self.notifier.bot.db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO turn_pings (table_id, channel_id, user_id, round_number, message_id)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
                    " channel_id = excluded.channel_id, user_id = excluded.user_id,"
                    " round_number = excluded.round_number, message_id = excluded.message_id",
                    (table.id, ping.channel_id, ping.user_id, ping.round_number, message.id),
                )
        except StoreError:
            log.warning("Table %s: could not save its turn ping (a restart would leave it)", table.id)

    def _drop(self, ping: Ping) -> None:
        ping.done = True
        if self.standing.get(ping.table_id) is ping:
            del self.standing[ping.table_id]

    def _end(self, table: Table, ping: Ping) -> None:
        """The ping's turn is over: remove its message (paced), or never post it.

        Paced as the table's edits and its ping's post are (by the table's channel), also when
        the ping is in the game's thread: one budget for all the table's calls.
        """
        self._drop(ping)
        if ping.message_id is not None:
            self.notifier.pacer.request(
                table.channel_id, lambda: self._remove(ping), key=f"unping:{ping.message_id}"
            )

    async def _remove(self, ping: Ping) -> None:
        """Delete the ping's message and its saved row (a message already gone is fine)."""
        assert ping.message_id is not None
        message = self.notifier.bot.get_partial_messageable(
            ping.channel_id, guild_id=ping.guild_id
        ).get_partial_message(ping.message_id)
        self.notifier.calls.spent(ping.table_id)
        try:
            await message.delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as e:
            log.warning("Table %s: could not remove a turn ping (%s %s)", ping.table_id, e.status, e.code)
        try:
            async with self.notifier.bot.db.transaction() as tx:
                await tx.execute(
                    "DELETE FROM turn_pings WHERE table_id = ? AND message_id = ?",
                    (ping.table_id, ping.message_id),
                )
        except StoreError:
            log.warning("Table %s: could not forget its removed turn ping", ping.table_id)

    async def _resume(self, table: Table) -> None:
        """After a restart: keep the saved ping of the turn still on, remove one of a turn that ended."""
        try:
            row = await self.notifier.bot.db.fetchone(
                "SELECT channel_id, user_id, round_number, message_id FROM turn_pings WHERE table_id = ?",
                (table.id,),
            )
        except StoreError:
            log.warning("Table %s: could not read its saved turn ping", table.id)
            return
        if row is None:
            return
        channel_id, user_id, round_number, message_id = (int(v) for v in row)
        saved = Ping(table.id, table.guild_id, channel_id, user_id, round_number, message_id)
        if table.id not in self.standing and _on_turn(table, user_id, round_number):
            self.standing[table.id] = saved
        else:
            self._end(table, saved)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for restart checks and every paced post and removal (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await self.notifier.pacer.flush()

    # ------------------------------------------------------------------ /flipflop notify

    async def command(self, interaction: discord.Interaction, turn: str | None) -> None:
        """``/flipflop notify [turn]``: show or set the member's turn pings here, privately."""
        t = await self.notifier.bot.languages.reader(interaction)
        if turn not in (None, "on", "off"):
            await send_ephemeral(interaction, t.gettext(NOT_ON_OR_OFF))
            return
        if interaction.guild is None or not isinstance(interaction.user, discord.Member):
            await send_ephemeral(interaction, t.gettext(NOT_IN_SERVER))
            return
        guild, user = interaction.guild.id, interaction.user.id
        if turn is not None:
            await self.book.choose(guild, user, turn == "on")
        on = await self.book.turn_pings(guild, user)
        await send_ephemeral(interaction, f"{t.gettext(PINGS_ON if on else PINGS_OFF)}\n{t.gettext(SWITCH)}")
