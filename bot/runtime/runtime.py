"""A table's whole life without Discord: commands in, outcomes out, deadlines from the saved table.

``TableRuntime`` is the only code that drives tables. Each command takes the
table's lock, changes the table through the store (``TableService``: engine,
ledger and save in one transaction), arms the table's next deadline and
returns an ``Outcome`` with its turn to be told. Calls go one way: the caller
answers its member from the outcome, after the lock is released, then hands
the rest to ``tell``, which tells the channel through the notifier in the
order of the table's changes (``Outbox``). Nothing Discord-bound is awaited
while a table's lock is held. Timers, the timeout policy (R8.4), leave and stop requests,
computer turns, the pause between rounds, lobby expiry and recovery after a
restart all live here, so each can be tested with a fake clock and no Discord.

A notifier's failure never stops a game: a channel that is gone closes the
table at once with every chip refunded; a channel the bot may not post in
leaves the game running through the members' own interactions, and the
first member to act afterwards is told what permission is missing.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from bot.fair_deal import PLAYER_SEED_MAX, FairDealError, check_player_seed
from bot.runtime.computers import LEVEL_LABEL, LEVELS, ComputerPlayers
from bot.runtime.outbox import Outbox
from bot.runtime.outcomes import (
    CameBack,
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Outcome,
    Released,
    Resumed,
    Stopped,
    StopRequested,
    TableClosed,
    WentAway,
)
from bot.runtime.ports import Clock, Delivery, Notifier, Scheduler, Sent, Whereabouts
from bot.runtime.scheduler import AsyncioScheduler
from bot.tables import (
    AWAY_ROUNDS_BEFORE_RELEASE,
    LOBBY_IDLE_SECONDS,
    Table,
    TableError,
    TableService,
    Unreadable,
)
from engine import Game, Leave
from engine.actions import Action
from engine.events import Event

log = logging.getLogger("flipflop.runtime")


class StaleControl(TableError):
    """A control from an earlier state of the table; nothing was done."""


class TableRuntime:
    """Every open table's life: lobby, game, deadlines, computer turns, recovery."""

    def __init__(
        self,
        store: TableService,
        notifier: Notifier,
        *,
        clock: Clock,
        rng: random.Random,
        scheduler: Scheduler | None = None,
        computers: ComputerPlayers | None = None,
        computer_pause: tuple[float, float] = (1.0, 2.0),
        repost_missing_messages: bool = False,
    ) -> None:
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.rng = rng
        self.scheduler: Scheduler = scheduler if scheduler is not None else AsyncioScheduler(clock, self.fire)
        self.computers = computers if computers is not None else ComputerPlayers()
        self.computer_pause = computer_pause
        """Seconds (at least, at most) a computer player waits before each move, to feel human."""
        self.repost_missing_messages = repost_missing_messages
        """After a restart, post a lost table message again instead of closing the table."""
        self.lacking: dict[str, str] = {}
        """Tables whose channel refuses the bot's messages, and the permission it lacks."""
        self._told: set[str] = set()
        self._loaded: list[Table] = []
        self._unreadable: list[Unreadable] = []
        self._resumed = False
        self.outbox = Outbox()
        """The order in which each table's changes are told, outside its lock."""

    # ---------------------------------------------------------------- lookup

    @property
    def tables(self) -> dict[str, Table]:
        """The open tables by id."""
        return self.store.tables

    def get(self, table_id: str) -> Table | None:
        """An open table by id."""
        return self.store.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table in a channel."""
        return self.store.in_channel(channel_id)

    def _open(self, table_id: str) -> Table:
        table = self.store.get(table_id)
        if table is None:
            raise TableError("table_closed")
        return table

    @asynccontextmanager
    async def _command(self, table_id: str, interaction_id: int | None) -> AsyncIterator[Table]:
        """A member's command on an open table: under the table's lock, the interaction heard."""
        async with self.store.lock(table_id):
            table = self._open(table_id)
            self._heard(table, interaction_id)
            yield table

    @staticmethod
    def _heard(table: Table, interaction_id: int | None) -> None:
        """A member's Discord interaction: its id goes into the next round's client seed (docs/FAIRNESS.md).

        Saved with whatever the command changes next; ids past the first 16
        after a commitment, and repeats, are ignored by ``FairDeal``.
        """
        if interaction_id is not None:
            table.fair.add_interaction(interaction_id)

    def permission_notice(self, table_id: str) -> str | None:
        """The permission the bot lacks in this table's channel, once per episode (then None)."""
        missing = self.lacking.get(table_id)
        if missing is None or table_id in self._told:
            return None
        self._told.add(table_id)
        return missing

    # ---------------------------------------------------------------- lobby

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        stake: int,
        buy_in: int,
        turn_seconds: int,
        *,
        practice: tuple[int, str] | None = None,
        away_rounds: int = AWAY_ROUNDS_BEFORE_RELEASE,
    ) -> Table:
        """Open a lobby seating the host; the caller posts it and then calls ``placed``.

        ``away_rounds``: the server's rounds away before a seat is released, kept by the table.

        ``practice=(computers, level)`` opens a practice lobby (issue 16) with that many
        computer players of ``level``: practice chips never touch the ledger
        (``TableService``), and friends may join before the host starts. A level that
        does not exist is refused before anything is opened.
        """
        if practice is not None and practice[1] not in LEVELS:
            raise TableError("pick_a_level")
        table = await self.store.create(
            guild_id,
            channel_id,
            host_id,
            host_name,
            stake,
            buy_in,
            turn_seconds,
            practice=practice is not None,
            away_rounds=away_rounds,
        )
        if practice is not None:
            computers, level = practice
            async with self.store.lock(table.id):
                for _ in range(computers):
                    await self.store.add_computer(table, level, LEVEL_LABEL[level])
        return table

    async def play_again(
        self, ended_id: str, host_id: int, host_name: str, away_rounds: int | None = None
    ) -> Table:
        """**Play again** on a game's final standings: a new lobby in its channel, same stake and buy-in.

        The member who clicked is seated as its host (their buy-in debited anew); the
        previous game's other players are named in it until they join. Refused (nothing
        opened) when the game is unknown or still open, the channel has a table, or the
        buy-in is more than the member has (``InsufficientChips``).
        """
        ended = await self.store.ended(ended_id)
        if ended is None or ended.practice:
            raise TableError("table_closed")
        table = await self.open(
            ended.guild_id,
            ended.channel_id,
            host_id,
            host_name,
            ended.stake,
            ended.buy_in,
            ended.turn_seconds,
            away_rounds=ended.away_rounds if away_rounds is None else away_rounds,
        )
        invited = [u for u in ended.seats if u >= 0 and u != host_id]
        if invited:
            async with self.store.lock(table.id):
                await self.store.set_flag(table, lambda t: setattr(t, "invited", invited))
        return table

    async def placed(self, table_id: str, message_id: int) -> None:
        """The table's message is now ``message_id``, just created (a lobby, a deal, the table again)."""
        async with self.store.lock(table_id):
            table = self._open(table_id)
            await self.store.set_flag(table, lambda t: self._shown(t, message_id))
            self._arm(table)

    async def in_thread(self, table_id: str, thread_id: int | None, lobby_message_id: int | None) -> None:
        """The game is played in ``thread_id`` from now on; the lobby message stays in the channel."""
        async with self.store.lock(table_id):
            table = self._open(table_id)

            def change(t: Table) -> None:
                t.thread_id, t.lobby_message_id = thread_id, lobby_message_id

            await self.store.set_flag(table, change)

    async def moved(self, table_id: str, message_id: int) -> None:
        """The notifier posted the table again at the bottom of the channel: save where (no timer changes)."""
        async with self.store.lock(table_id):
            table = self.store.get(table_id)
            if table is not None and table.status != "closed":
                await self.store.set_flag(table, lambda t: self._shown(t, message_id))

    @staticmethod
    def _shown(table: Table, message_id: int) -> None:
        """A new table message, which shows the next round's commitment (docs/FAIRNESS.md)."""
        table.message_id = message_id
        table.fair.shown_in(message_id)

    async def report(self, table_id: str, sent: Sent) -> None:
        """What a notifier call made outside the table's lock achieved (a gone channel closes the table)."""
        async with self.store.lock(table_id):
            table = self.store.get(table_id)
            if table is not None:
                await self._delivered(table, sent)

    async def join(
        self,
        table_id: str,
        user_id: int,
        name: str,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """R2.2: take a seat in the lobby."""
        async with self._command(table_id, interaction_id) as table:
            await self.store.join(table, user_id, name)
            return self._done(Outcome(table))

    async def leave_lobby(self, table_id: str, user_id: int, *, interaction_id: int | None = None) -> Outcome:
        """Leave a lobby; the last member out closes it and every buy-in goes back."""
        async with self._command(table_id, interaction_id) as table:
            refunds = {u: table.buy_in for u in [user_id, *table.computers]}
            closed = await self.store.leave_lobby(table, user_id)
            notices: tuple[Notice, ...] = (TableClosed("empty", refunds, by=user_id),) if closed else ()
            return self._done(Outcome(table, notices=notices))

    async def add_computer(
        self,
        table_id: str,
        user_id: int,
        may_manage: bool,
        level: str,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """The host seats a computer player of ``level``; the house pays its buy-in."""
        async with self._command(table_id, interaction_id) as table:
            if user_id != table.host_id and not may_manage:
                raise TableError("host_adds_computers")
            if level not in LEVELS:
                raise TableError("pick_a_level")
            await self.store.add_computer(table, level, LEVEL_LABEL[level])
            return self._done(Outcome(table))

    async def remove_computer(
        self,
        table_id: str,
        user_id: int,
        may_manage: bool,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """The host takes the last computer player off the table."""
        async with self._command(table_id, interaction_id) as table:
            if user_id != table.host_id and not may_manage:
                raise TableError("host_removes_computers")
            await self.store.remove_computer(table)
            return self._done(Outcome(table))

    async def cancel(
        self,
        table_id: str,
        user_id: int,
        may_manage: bool,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """The host (or a manager) closes a lobby; every buy-in goes back."""
        async with self._command(table_id, interaction_id) as table:
            if user_id != table.host_id and not may_manage:
                raise TableError("cancel_not_allowed")
            if table.status != "lobby":
                raise TableError("cancel_after_start")
            refunds = await self.store.cancel(table)
            return self._done(Outcome(table, notices=(TableClosed("cancelled", refunds, by=user_id),)))

    # ---------------------------------------------------------------- game

    async def start(
        self,
        table_id: str,
        user_id: int,
        may_manage: bool,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """R8.1: the host starts the game; stakes are paid and the first round dealt."""
        async with self._command(table_id, interaction_id) as table:
            events = await self.store.start(table, user_id, may_manage)
            outcome = Outcome(table, tuple(events), (GameStarted(len(table.seats)),))
            return self._done(outcome)

    async def act(
        self,
        table_id: str,
        user_id: int,
        seq: int,
        action: Action,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """A member's own move; ``seq`` is the table's state the control was made for.

        Raises ``StaleControl`` for a control from an earlier state, and the
        engine's ``IllegalAction`` for a move the rules refuse (nothing changes).
        """
        async with self._command(table_id, interaction_id) as table:
            self._must_play(table, user_id)
            if seq != table.seq:
                raise StaleControl("stale_control")
            back: tuple[Notice, ...] = ()
            if table.is_away(user_id):  # their own move says they are back
                await self.store.set_flag(table, lambda t: self._back(t, user_id))
                back = (CameBack(user_id),)
            events = await self.store.apply(table, action)
            return self._done(Outcome(table, tuple(events), back))

    async def away(self, table_id: str, user_id: int, *, interaction_id: int | None = None) -> Outcome:
        """A seated member steps away: the basic computer plays their seat with their chips."""
        async with self._command(table_id, interaction_id) as table:
            self._must_play(table, user_id, seated=True)
            if table.is_away(user_id):
                raise TableError("already_away")
            await self.store.set_flag(table, lambda t: t.away.__setitem__(user_id, 0))
            return self._done(Outcome(table, notices=(WentAway(user_id, False, table.away_rounds),)))

    async def back(self, table_id: str, user_id: int, *, interaction_id: int | None = None) -> Outcome:
        """An away member is back (**I'm back**, from the table or their hand): they play their seat again."""
        async with self._command(table_id, interaction_id) as table:
            if not table.is_away(user_id) or not table.is_seated(user_id):
                raise TableError("not_away")
            await self.store.set_flag(table, lambda t: self._back(t, user_id))
            return self._done(Outcome(table, notices=(CameBack(user_id),)))

    def _back(self, table: Table, user_id: int) -> None:
        """``user_id`` plays their own seat again; a turn of theirs in progress gets a full timer."""
        table.away.pop(user_id, None)
        table.timeouts.pop(user_id, None)
        game = table.game
        if game is not None and game.in_round and game.to_act == table.pid(user_id):
            table.turn_deadline = self.clock() + table.turn_seconds

    async def leave_after_round(
        self, table_id: str, user_id: int, *, interaction_id: int | None = None
    ) -> Outcome:
        """R8.4: leave when this round ends (at once between rounds)."""
        async with self._command(table_id, interaction_id) as table:
            game = self._must_play(table, user_id, seated=True)
            if user_id in table.leave_after_round:
                raise TableError("leaving_after_round")
            if not game.in_round:
                events = await self.store.apply(table, Leave(table.pid(user_id)))
                return self._done(Outcome(table, tuple(events)))
            await self.store.set_flag(table, lambda t: t.leave_after_round.append(user_id))
            return self._done(Outcome(table, notices=(LeavingAfterRound(user_id),)))

    async def stay(self, table_id: str, user_id: int, *, interaction_id: int | None = None) -> Outcome:
        """Take back "leave after this round" (R8.4) while the round is still on."""
        async with self._command(table_id, interaction_id) as table:
            self._must_play(table, user_id, seated=True)
            if user_id not in table.leave_after_round:
                raise TableError("not_leaving")
            await self.store.set_flag(table, lambda t: t.leave_after_round.remove(user_id))
            return self._done(Outcome(table, notices=(LeavingAfterRound(user_id, staying=True),)))

    async def stop(
        self,
        table_id: str,
        user_id: int,
        may_manage: bool,
        *,
        interaction_id: int | None = None,
    ) -> Outcome:
        """R8.2: the host (or a manager) ends the game now between rounds, or when the round ends."""
        async with self._command(table_id, interaction_id) as table:
            if user_id != table.host_id and not may_manage:
                raise TableError("stop_not_allowed")
            if table.status == "lobby" or table.game is None:
                raise TableError("stop_before_start")
            if table.game.in_round:
                await self.store.set_flag(table, lambda t: setattr(t, "stop_after_round", True))
                return self._done(Outcome(table, notices=(StopRequested(user_id),)))
            events = await self.store.stop(table)
            return self._done(Outcome(table, tuple(events), (Stopped(user_id),)))

    async def seed(self, table_id: str, user_id: int, text: str, *, interaction_id: int | None = None) -> int:
        """``/flipflop seed``: a seated player's text for the next deal's client seed; returns that round.

        A bad text (empty, too long, control characters) raises ``TableError``
        with the reason, and nothing is saved.
        """
        async with self._command(table_id, interaction_id) as table:  # heard even when refused
            if not table.is_seated(user_id):
                raise TableError("seed_not_seated")
            try:
                check_player_seed(text)
            except FairDealError as e:
                raise seed_refusal(e) from None
            number: int = await self.store.set_flag(
                table, lambda t: t.fair.set_player_seed(t.pid(user_id), text)
            )
            return number

    @staticmethod
    def _must_play(table: Table, user_id: int, seated: bool = False) -> Game:
        """The table's game, if ``user_id`` plays in it (and, with ``seated``, still sits at it)."""
        game = table.game
        if game is None or table.pid(user_id) not in game.order or (seated and not table.is_seated(user_id)):
            raise TableError("not_playing")
        return game

    # ---------------------------------------------------------------- deadlines

    def _deadline(self, table: Table) -> float | None:
        """When this table next needs the runtime: lobby expiry, a turn, a computer move or a deal."""
        if table.status == "lobby":
            return table.last_activity + LOBBY_IDLE_SECONDS
        if table.status != "playing" or table.game is None:
            return None
        view = table.game.public_view()
        if view.in_round and view.to_act is not None and self._played_by_computer(table, view.to_act):
            return self.clock() + self.rng.uniform(*self.computer_pause)
        if view.in_round:
            return table.turn_deadline
        return table.next_round_at

    def _arm(self, table: Table) -> None:
        at = self._deadline(table) if self.store.get(table.id) is table else None
        if at is None:
            self.scheduler.disarm(table.id)
        else:
            self.scheduler.arm(table.id, at)

    async def fire(self, table_id: str) -> None:
        """A deadline came: do whatever is due at this table now (or nothing, if nothing is).

        The change is made under the table's lock; the channel is told after it is released.
        """
        async with self.store.lock(table_id):
            table = self.store.get(table_id)
            if table is None:
                return
            outcome = await self._due(table)
            if outcome is None:
                self._arm(table)
                return
            outcome = self._done(outcome)
        await self.tell(outcome)

    async def _due(self, table: Table) -> Outcome | None:
        now = self.clock()
        if table.status == "lobby":
            if now < table.last_activity + LOBBY_IDLE_SECONDS:
                return None
            refunds = await self.store.cancel(table)
            return Outcome(table, notices=(TableClosed("expired", refunds),))
        if table.status != "playing" or table.game is None:
            return None
        view = table.game.public_view()
        if view.in_round and view.to_act is not None and table.is_computer(view.to_act):
            return await self._computer_turn(table, view.to_act)
        if view.in_round and view.to_act is not None and table.is_away(view.to_act):
            return Outcome(table, tuple(await self._play_for(table, view.to_act)))
        if view.in_round and table.turn_deadline is not None and now >= table.turn_deadline:
            return await self._timed_out(table)
        if not view.in_round and table.next_round_at is not None and now >= table.next_round_at:
            return await self._deal_next(table)
        return None

    async def _computer_turn(self, table: Table, player: str) -> Outcome:
        """A computer player's move: its strategy sees only its view."""
        assert table.game is not None
        level = table.computers[int(player)]
        action = await self.computers.choose(level, table.game.view(player), self.rng.random())
        return Outcome(table, tuple(await self.store.apply(table, action, by_timer=True)))

    @staticmethod
    def _played_by_computer(table: Table, player: str) -> bool:
        """A computer seat, or an away member's seat (the basic computer plays it)."""
        return table.is_computer(player) or table.is_away(player)

    async def _play_for(self, table: Table, player: str) -> list[Event]:
        """The basic computer plays an away member's whole turn, with their chips."""
        game = table.game
        assert game is not None
        events: list[Event] = []
        while game.in_round and game.to_act == player:
            action = await self.computers.choose("basic", game.view(player), self.rng.random())
            events += await self.store.apply(table, action, by_timer=True)
        return events

    async def _timed_out(self, table: Table) -> Outcome:
        """A member's turn ran out: they are put in away mode (never removed) and the computer plays it."""
        game = table.game
        assert game is not None
        player = game.to_act
        assert player is not None
        user_id = int(player)
        count = table.timeouts.get(user_id, 0) + 1

        def went_away(t: Table) -> None:
            t.timeouts[user_id] = count
            t.away.setdefault(user_id, 0)

        await self.store.set_flag(table, went_away)
        events = await self._play_for(table, player)
        return Outcome(table, tuple(events), (WentAway(user_id, True, table.away_rounds),))

    async def _deal_next(self, table: Table) -> Outcome:
        """Between rounds: let leavers go, stop if asked, end if only computers are left, else deal."""
        stopping = table.stop_after_round
        releasing = [u for u, rounds in table.away.items() if rounds >= table.away_rounds]
        events = await self.store.next_round(table)
        game = table.game
        assert game is not None
        view = game.public_view()
        notices: tuple[Notice, ...] = tuple(Released(u, table.away_rounds) for u in releasing)
        if view.over and not stopping and all(self._played_by_computer(table, p) for p in view.seated):
            notices += (ComputersOnly(),)
        return Outcome(table, tuple(events), notices)

    # ---------------------------------------------------------------- telling

    def _done(self, outcome: Outcome) -> Outcome:
        """Under the table's lock: arm the next deadline and take the outcome's turn to be told."""
        self._arm(outcome.table)
        return replace(outcome, turn=self.outbox.book(outcome.table.id))

    async def tell(self, outcome: Outcome, *, table_message: bool = True) -> None:
        """Tell the channel what a command changed, after its lock is released, in the order of the changes.

        A command returns its ``Outcome`` without telling anyone: its caller answers
        its member first, then tells the channel whatever that answer did not show
        (an ``Outcome`` with fewer notices or events, or ``table_message=False``).
        Nothing here holds the table's lock while Discord is called.
        """
        async with self.outbox.turn(outcome.table.id, outcome.turn):
            try:
                sent = await self.notifier.publish(outcome, table_message)
            except Exception:
                log.exception("Notifier failed at table %s", outcome.table.id)
                sent = Sent(Delivery.FAILED)
        if not (sent.ok and not sent.posted):
            await self.report(outcome.table.id, sent)

    async def _tell(self, outcome: Outcome, table_message: bool = True) -> None:
        try:
            sent = await self.notifier.publish(outcome, table_message)
        except Exception:
            log.exception("Notifier failed at table %s", outcome.table.id)
            sent = Sent(Delivery.FAILED)
        await self._delivered(outcome.table, sent)

    async def _delivered(self, table: Table, sent: Sent) -> None:
        if sent.status is Delivery.OK and sent.posted:
            self.lacking.pop(table.id, None)
            self._told.discard(table.id)
        elif sent.status is Delivery.FORBIDDEN:
            self.lacking[table.id] = sent.missing or "Send Messages"
        elif sent.status is Delivery.GONE and self.store.get(table.id) is table:
            await self._close_lost(table, "channel_gone")
        elif sent.status is Delivery.MESSAGE_GONE and self.store.get(table.id) is table:
            await self._message_gone(table)

    async def _close_lost(self, table: Table, reason: str) -> dict[int, int]:
        refunds = await self.store.cancel(table)
        self.scheduler.disarm(table.id)
        self.lacking.pop(table.id, None)
        log.warning("Closed table %s (%s); refunded %s", table.id, reason, refunds)
        return refunds

    async def channel_gone(self, channel_id: int) -> dict[int, int] | None:
        """The channel was deleted: close its table at once and refund every stack and pot."""
        table = self.store.in_channel(channel_id)
        if table is None:
            return None
        async with self.store.lock(table.id):
            if self.store.get(table.id) is not table:
                return None
            return await self._close_lost(table, "channel_gone")

    # ---------------------------------------------------------------- restarts

    async def load(self) -> None:
        """Read the saved tables at start-up; ``resume`` carries them on once connected."""
        self._loaded, self._unreadable = await self.store.load_open()
        self._resumed = False

    async def resume(self) -> None:
        """Carry on every saved table; close (and refund) the ones whose channel or message is gone.

        Overdue deadlines (a turn that ran out while the bot was down) are due
        at once: arming them fires them on the next tick.
        """
        if self._resumed:
            return
        self._resumed = True
        for bad in self._unreadable:
            await self.store.close_unreadable(bad)
            log.warning("Closed unreadable table %s (%s); refunded %s", bad.table_id, bad.why, bad.refunds)
            await self.notifier.unreadable(bad)
        for table in list(self._loaded):
            try:
                where = await self.notifier.locate(table)  # asked of Discord before the lock is taken
                posted = None
                if where == "message_gone" and self.repost_missing_messages:
                    posted = await self.notifier.post_table(table)  # likewise outside the lock
                async with self.store.lock(table.id):
                    resumed = await self._resume_one(table, where, posted)
                if resumed is not None:
                    await self.tell(resumed)
            except Exception:
                log.exception("Could not resume table %s", table.id)
        if self._loaded or self._unreadable:
            log.info("Resumed %d table(s); closed %d unreadable.", len(self._loaded), len(self._unreadable))

    async def _resume_one(self, table: Table, where: Whereabouts, posted: int | None) -> Outcome | None:
        """Carry one table on; its "resumed" (or "closed") outcome is told once the lock is released.

        ``posted`` is the table message posted again (before the lock) for a table
        that had none; without one the table is closed and refunded.
        """
        if self.store.get(table.id) is not table:
            return None
        if where == "channel_gone":
            await self._close_lost(table, "channel_gone")
            return None
        if where == "message_gone":
            if posted is None:
                refunds = await self._close_lost(table, "message_gone")
                closed = Outcome(table, notices=(TableClosed("message_gone", refunds),))
                return replace(closed, turn=self.outbox.book(table.id))
            await self.store.set_flag(table, lambda t: setattr(t, "message_id", posted))
        # playable at once; the table message is brought up to date by one paced edit
        return self._done(Outcome(table, notices=(Resumed(),)))

    async def _message_gone(self, table: Table) -> bool:
        """The table message was deleted: post it again (the playground) or close and refund the table."""
        message_id = await self.notifier.post_table(table) if self.repost_missing_messages else None
        if message_id is None:
            refunds = await self._close_lost(table, "message_gone")
            await self._tell(Outcome(table, notices=(TableClosed("message_gone", refunds),)))
            return False
        await self.store.set_flag(table, lambda t: setattr(t, "message_id", message_id))
        return True

    async def shutdown(self) -> None:
        """Stop the timers and wait for every action in flight (a graceful SIGTERM)."""
        await self.scheduler.close()
        await self.store.idle()
        self.computers.close()

    async def close_by_manager(self, table_id: str, manager_id: int) -> Outcome:
        """A server manager closes a table (``/flipflop admin close``): every stack and pot goes back.

        The refunds' ledger entries name the manager. ``TableError('table_closed')``
        when the table has already ended (nothing changes then). The manager is
        answered privately by the caller, so the channel is told here, once the
        table's lock is released.
        """
        async with self.store.lock(table_id):
            table = self._open(table_id)
            refunds = await self.store.cancel(table, actor_id=manager_id)
            self.lacking.pop(table.id, None)
            notice = TableClosed("cancelled", refunds, by=manager_id)
            outcome = self._done(Outcome(table, notices=(notice,)))
        await self.tell(outcome)
        return outcome


def seed_refusal(error: FairDealError) -> TableError:
    """A player's bad ``/flipflop seed`` text as a refusal with its own code (words in ``bot.refusals``)."""
    if error.code == "seed_too_long":
        return TableError("seed_too_long", length=error.params["length"], limit=PLAYER_SEED_MAX)
    if error.code in ("seed_control_character", "seed_not_printable"):
        character = f"U+{int(str(error.params['codepoint'])):04X}"
        return TableError("seed_invisible", character=character, position=error.params["position"])
    return TableError("seed_empty", limit=PLAYER_SEED_MAX)
