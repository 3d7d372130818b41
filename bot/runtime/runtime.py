"""A table's whole life without Discord: commands in, outcomes out, deadlines from the saved table.

``TableRuntime`` is the only code that drives tables. Each command takes the
table's lock, runs one transition (``bot.table.transitions``: the checks and
the change, pure), makes its chips, history and save last in one transaction
(``OpenTables.commit``), arms the table's next deadline and returns an
``Outcome`` with its turn to be told, carrying a snapshot of the table as the
change left it (never the live table, which only the runtime changes; others may read
it through ``get``). Every command leaves the same one way
(``_deliver``): once the lock is released, the caller's ``reply`` answers its
member from the outcome and says what that answer showed (``Shown``), then the
channel is told the rest through the notifier, in the order of the table's
changes (``Outbox``); the command returns the outcome. No caller can forget to
tell the channel, and nothing is told twice. Nothing Discord-bound is awaited
while a table's lock is held. Timers, the timeout policy (R8.4), leave and stop requests,
computer turns, the pause between rounds, lobby expiry and recovery after a
restart all live here, so each can be tested with a fake clock and no Discord. The machinery
every command goes through (the lock, the one transaction, the arming of deadlines and the
telling) is its base, ``bot.runtime.core.RuntimeCore``.

A notifier's failure never stops a game: a channel that is gone closes the
table at once with every chip refunded; a channel the bot may not post in
leaves the game running through the members' own interactions, and the
first member to act afterwards is told what permission is missing.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from functools import partial
from typing import TypedDict, Unpack

from bot.presentation.refusals import Refusal
from bot.runtime.computers import LEVELS
from bot.runtime.core import RuntimeCore
from bot.runtime.outcomes import (
    CameBack,
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Outcome,
    Released,
    Reply,
    Resumed,
    Stopped,
    StopRequested,
    TableClosed,
    WentAway,
)
from bot.runtime.ports import Whereabouts
from bot.table import transitions
from bot.table.model import AWAY_ROUNDS_BEFORE_RELEASE, Table, TableError
from engine.actions import Action
from engine.events import Event, Pot

log = logging.getLogger("flipflop.runtime")


class Heard(TypedDict, total=False):
    """How a member's command came, and how its caller answers them (every command takes these)."""

    interaction_id: int | None
    """The click or slash command (saved as heard, so a repeat of it changes nothing twice)."""
    reply: Reply | None
    """Answers the member on the command's way out, before the channel is told (``_deliver``)."""


def clicked_at(table: Table, guild_id: int | None, channel_id: int | None) -> bool:
    """A click made where ``table``'s controls are shown: its server, and its channel or game thread.

    A custom id names its table, and a control can be passed on or forged in another
    server's message; such a click must change nothing (no lobby, no buy-in).
    """
    if guild_id != table.guild_id or channel_id is None:
        return False
    return channel_id in (table.channel_id, table.thread_id)


class StaleControl(TableError):
    """A control from an earlier state of the table; nothing was done."""


class TableRuntime(RuntimeCore):
    """Every open table's life: lobby, game, deadlines, computer turns, recovery."""

    async def apply_action(self, table: Table, action: Action, by_timer: bool = False) -> list[Event]:
        """One player's move (a member's, or one the computer plays): every game move passes here."""
        now = self.clock()
        step = await self._commit(
            table, lambda t: transitions.apply(t, action, now, self.round_pause, by_timer)
        )
        return step.events

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

        ``practice=(computers, level)`` opens a practice lobby with that many computer
        players of ``level``: practice chips never touch the ledger, and friends may
        join before the host starts. A level that does not exist is refused before
        anything is opened, as is a second table in the channel, and a host who opened
        a table less than the cooldown ago (``table_cooldown``, any kind of table).
        """
        if practice is not None and practice[1] not in LEVELS:
            raise TableError("pick_a_level")
        table_id = await self._unused_id()  # awaited before the checks below, which nothing interleaves
        if self.in_channel(channel_id) is not None:
            raise TableError("table_exists")
        now = self.clock()
        table = transitions.open_lobby(
            table_id,
            guild_id,
            channel_id,
            host_id,
            stake,
            buy_in,
            turn_seconds,
            now,
            practice=practice is not None,
            away_rounds=away_rounds,
        )
        uncount = self.cooldown.claim(guild_id, host_id, now)  # counted before the first await
        async with self.lock(table.id):
            self.tables[table.id] = table
            try:
                await self._commit(table, lambda t: transitions.join(t, host_id, host_name, now))
            except BaseException:
                self.tables.pop(table.id, None)
                uncount()  # nothing was opened
                raise
            if practice is not None:
                computers, level = practice
                for _ in range(computers):
                    await self._commit(table, lambda t: transitions.seat_computer(t, level, now))
        return table

    async def _unused_id(self) -> str:
        """A new table's id: 32 random bits that no table open here or saved (even closed) has."""
        while True:
            table_id = secrets.token_hex(4)
            if self.get(table_id) is None and not await self.open_tables.repository.taken(table_id):
                return table_id

    async def tournament_table_id(self, ref: str) -> str:
        """The id of the tournament's table for ``ref``: the first of its ids no other table has.

        The one its table was given when it was dealt (open here, or saved: even closed), or the one it
        will be given: an id taken by another table (a table of the server's or another tournament's,
        saved with those 32 bits) is passed over, never overwritten.
        """
        for table_id in transitions.tournament_table_ids(ref):
            open_here = self.get(table_id)
            if open_here is not None:
                if open_here.tournament == ref:
                    return table_id
                continue
            if not await self.open_tables.repository.taken(table_id):
                return table_id
            if await self.open_tables.repository.tournament_of(table_id) == ref:
                return table_id
        raise AssertionError("tournament_table_ids never ends")

    async def play_again(
        self,
        ended_id: str,
        host_id: int,
        host_name: str,
        away_rounds: int | None = None,
        *,
        guild_id: int | None,
        channel_id: int | None,
        turn_seconds: int | None = None,
        held_back: Refusal | None = None,
    ) -> Table:
        """**Play again** on a game's final standings: a new lobby in its channel, same stake and buy-in.

        Its turn timer and away rule: the server's now when given, else the ended table's. The
        member who clicked is seated as its host (their buy-in debited anew); the
        previous game's other players are named in it until they join. After a practice
        game, a practice lobby with the same computer players at the same levels. Refused
        (nothing opened) when the game is unknown, open or a tournament's (its tables are
        the tournament's to open), the click came from another server or channel than the
        ended table's (``other_place``: a control passed on or forged elsewhere), the
        channel has a table, or the buy-in is more than the member has (``InsufficientChips``).
        ``held_back``: why the member may not play for chips yet (a newcomer), raised unless the
        game was a practice one (practice chips are not chips).
        """
        ended = None if ended_id in self.tables else await self.open_tables.repository.ended(ended_id)
        if ended is None or ended.tournament:
            raise TableError("table_closed")
        if held_back is not None and not ended.practice:
            raise held_back
        if not clicked_at(ended, guild_id, channel_id):
            raise TableError("other_place")
        table = await self.open(
            ended.guild_id,
            ended.channel_id,
            host_id,
            host_name,
            ended.stake,
            ended.buy_in,
            ended.turn_seconds if turn_seconds is None else turn_seconds,
            away_rounds=ended.away_rounds if away_rounds is None else away_rounds,
            practice=(0, LEVELS[0]) if ended.practice else None,
        )
        invited = [u for u in ended.seats if u >= 0 and u != host_id]
        now = self.clock()
        async with self.lock(table.id):
            if invited:
                await self._commit(table, lambda t: transitions.invite(t, invited))
            for seat in sorted(ended.computers, reverse=True) if ended.practice else ():
                level = ended.computers[seat].level
                await self._commit(table, partial(transitions.seat_computer, level=level, now=now))
        return table

    async def open_tournament_table(
        self,
        ref: str,
        guild_id: int,
        channel_id: int,
        players: Sequence[transitions.TournamentSeat],
        stake: int,
        pots: dict[Pot, int],
        turn_seconds: int,
        away: Sequence[int] = (),
        reply: Reply | None = None,
    ) -> Outcome:
        """A tournament table for one round, dealt at once in ``channel_id`` (its thread); tournament chips.

        ``players``: (entrant, stack, name, computer number or 0); ``away``: members the computer plays for.
        The caller's ``reply`` posts its message (``placed``); the outcome is told on the way out.
        """
        now = self.clock()
        table_id = await self.tournament_table_id(ref)
        table, seats = transitions.tournament_table(
            guild_id, channel_id, stake, players, away, turn_seconds, now, ref, table_id
        )
        async with self.lock(table.id):
            self.tables[table.id] = table
            try:
                step = await self._commit(table, lambda t: transitions.tournament_round(t, seats, pots, now))
            except BaseException:
                self.tables.pop(table.id, None)
                raise
            outcome = self._done(Outcome(table, tuple(step.events), step.notices))
        await self._deliver(outcome, reply)
        return outcome

    async def placed(self, table_id: str, message_id: int) -> None:
        """The table's message is now ``message_id``, just created (a lobby, a deal, the table again)."""
        async with self.lock(table_id):
            table = self._open(table_id)
            await self._commit(table, lambda t: transitions.shown(t, message_id))
            self._arm(table)

    async def in_thread(self, table_id: str, thread_id: int | None, lobby_message_id: int | None) -> None:
        """The game is played in ``thread_id`` from now on; the lobby message stays in the channel."""
        async with self.lock(table_id):
            table = self._open(table_id)
            await self._commit(table, lambda t: transitions.in_thread(t, thread_id, lobby_message_id))

    async def moved(self, table_id: str, message_id: int) -> None:
        """The notifier posted the table again at the bottom of the channel: save where (no timer changes)."""
        async with self.lock(table_id):
            table = self.get(table_id)
            if table is not None and table.status != "closed":
                await self._commit(table, lambda t: transitions.shown(t, message_id))

    async def join(self, table_id: str, user_id: int, name: str, **heard: Unpack[Heard]) -> Outcome:
        """R2.2: take a seat in the lobby."""
        return await self._run(table_id, lambda t, now: transitions.join(t, user_id, name, now), **heard)

    async def leave_lobby(self, table_id: str, user_id: int, **heard: Unpack[Heard]) -> Outcome:
        """Leave a lobby; the last member out closes it and every buy-in goes back."""
        return await self._run(table_id, lambda t, now: transitions.leave_lobby(t, user_id, now), **heard)

    async def add_computer(
        self, table_id: str, user_id: int, may_manage: bool, level: str, **heard: Unpack[Heard]
    ) -> Outcome:
        """The host seats a computer player of ``level``; the house pays its buy-in."""
        return await self._run(
            table_id,
            lambda t, now: transitions.add_computer(t, user_id, may_manage, level, now),
            **heard,
        )

    async def remove_computer(
        self, table_id: str, user_id: int, may_manage: bool, **heard: Unpack[Heard]
    ) -> Outcome:
        """The host takes the last computer player off the table."""
        return await self._run(
            table_id, lambda t, now: transitions.remove_computer(t, user_id, may_manage, now), **heard
        )

    async def cancel(self, table_id: str, user_id: int, may_manage: bool, **heard: Unpack[Heard]) -> Outcome:
        """The host (or a manager) closes a lobby; every buy-in goes back."""
        return await self._run(table_id, lambda t, _: transitions.cancel(t, user_id, may_manage), **heard)

    # ---------------------------------------------------------------- game

    async def start(self, table_id: str, user_id: int, may_manage: bool, **heard: Unpack[Heard]) -> Outcome:
        """R8.1: the host starts the game; stakes are paid and the first round dealt."""
        return await self._run(
            table_id,
            lambda t, now: transitions.start(t, user_id, may_manage, now, self.round_pause),
            lambda t, _: (GameStarted(len(t.seats)),),
            **heard,
        )

    async def act(
        self, table_id: str, user_id: int, seq: int, action: Action, **heard: Unpack[Heard]
    ) -> Outcome:
        """A member's own move; ``seq`` is the table's state the control was made for.

        Raises ``StaleControl`` for a control from an earlier state, and the
        engine's ``IllegalAction`` for a move the rules refuse (nothing changes).
        The one command that is not a single transition (``_run``): an away member's
        move brings them back first, and the move itself is ``apply_action``, the path
        every game move takes (a member's, a computer's, a timer's). It leaves the same
        one way (``_deliver``).
        """
        async with self._command(table_id, heard.get("interaction_id")) as table:
            transitions.must_play(table, user_id)
            if seq != table.seq:
                raise StaleControl("stale_control")
            back: tuple[Notice, ...] = ()
            if table.is_away(user_id):  # their own move says they are back
                now = self.clock()
                back = (CameBack(user_id),)
                await self._commit(table, lambda t: transitions.back(t, user_id, now), back)
            events = await self.apply_action(table, action)
            outcome = self._done(Outcome(table, tuple(events), back))
        await self._deliver(outcome, heard.get("reply"))
        return outcome

    async def away(self, table_id: str, user_id: int, **heard: Unpack[Heard]) -> Outcome:
        """A seated member steps away: the basic computer plays their seat with their chips."""
        return await self._run(
            table_id,
            lambda t, _: transitions.away(t, user_id),
            lambda t, _: (WentAway(user_id, False, t.away_rounds),),
            **heard,
        )

    async def back(self, table_id: str, user_id: int, **heard: Unpack[Heard]) -> Outcome:
        """An away member is back (**I'm back**, from the table or their hand): they play their seat again."""
        return await self._run(
            table_id, lambda t, now: transitions.back(t, user_id, now), (CameBack(user_id),), **heard
        )

    async def leave_after_round(self, table_id: str, user_id: int, **heard: Unpack[Heard]) -> Outcome:
        """R8.4: leave when this round ends (at once between rounds)."""
        return await self._run(
            table_id,
            lambda t, now: transitions.leave_after_round(t, user_id, now, self.round_pause),
            lambda _, s: (LeavingAfterRound(user_id),) if s.later else (),
            **heard,
        )

    async def stay(self, table_id: str, user_id: int, **heard: Unpack[Heard]) -> Outcome:
        """Take back "leave after this round" (R8.4) while the round is still on."""
        return await self._run(
            table_id,
            lambda t, _: transitions.stay(t, user_id),
            (LeavingAfterRound(user_id, staying=True),),
            **heard,
        )

    async def stop(self, table_id: str, user_id: int, may_manage: bool, **heard: Unpack[Heard]) -> Outcome:
        """R8.2: the host (or a manager) ends the game now between rounds, or when the round ends."""
        return await self._run(
            table_id,
            lambda t, now: transitions.stop(t, user_id, may_manage, now, self.round_pause),
            lambda _, s: (StopRequested(user_id),) if s.later else (Stopped(user_id),),
            **heard,
        )

    async def seed(self, table_id: str, user_id: int, text: str, *, interaction_id: int | None = None) -> int:
        """``/flipflop seed``: a seated player's text for the next deal's client seed; returns that round.

        A bad text (empty, too long, control characters) raises ``TableError``
        with the reason, and nothing is saved.
        """
        async with self._command(table_id, interaction_id) as table:  # heard even when refused
            step = await self._commit(table, lambda t: transitions.seed(t, user_id, text))
            return step.seeds

    # ---------------------------------------------------------------- deadlines

    async def fire(self, table_id: str) -> None:
        """A deadline came: do whatever is due at this table now (or nothing, if nothing is).

        The change is made under the table's lock; the channel is told after it is released.
        """
        async with self.lock(table_id):
            table = self.get(table_id)
            if table is None:
                return
            outcome = await self._due(table)
            if outcome is None:
                self._arm(table)
                return
            outcome = self._done(outcome)
        await self._publish(outcome)

    async def _due(self, table: Table) -> Outcome | None:
        due = transitions.due(table, self.clock())
        if due == "expire":
            refunds = table.refunds()
            await self._commit(table, transitions.close)
            return Outcome(table, notices=(TableClosed("expired", refunds),))
        to_act = table.game.to_act if table.game is not None else None
        if due == "computer" and to_act is not None:
            return await self._computer_turn(table, to_act)
        if due == "away" and to_act is not None:
            return Outcome(table, tuple(await self._play_for(table, to_act)))
        if due == "timeout":
            return await self._timed_out(table)
        if due == "deal":
            return await self._deal_next(table)
        return None

    async def _computer_turn(self, table: Table, player: str) -> Outcome:
        """A computer player's move: its strategy sees only its view."""
        assert table.game is not None
        level = table.computers[int(player)].level
        action = await self.computers.choose(level, table.game.view(player), self.rng.random())
        return Outcome(table, tuple(await self.apply_action(table, action, by_timer=True)))

    async def _play_for(self, table: Table, player: str) -> list[Event]:
        """The basic computer plays an away member's whole turn, with their chips."""
        game = table.game
        assert game is not None
        events: list[Event] = []
        while game.in_round and game.to_act == player:
            action = await self.computers.choose("basic", game.view(player), self.rng.random())
            events += await self.apply_action(table, action, by_timer=True)
        return events

    async def _timed_out(self, table: Table) -> Outcome:
        """A member's turn ran out: they are put in away mode (never removed) and the computer plays it."""
        game = table.game
        assert game is not None
        player = game.to_act
        assert player is not None
        step = await self._commit(
            table,
            lambda t: transitions.timed_out(t, int(player)),
            lambda t, _: (WentAway(int(player), True, t.away_rounds),),
        )
        events = await self._play_for(table, player)
        return Outcome(table, tuple(events), step.notices)

    async def _deal_next(self, table: Table) -> Outcome:
        """Between rounds: let leavers go, stop if asked, end if only computers are left, else deal."""
        stopping = table.stop_after_round
        releasing = transitions.released(table)
        now = self.clock()
        released = tuple(Released(u, table.away_rounds) for u in releasing)
        step = await self._commit(table, lambda t: transitions.next_round(t, now, self.round_pause), released)
        game = table.game
        assert game is not None
        view = game.public_view()
        notices: tuple[Notice, ...] = step.notices
        if view.over and not stopping and all(transitions.played_by_computer(table, p) for p in view.seated):
            notices += (ComputersOnly(),)
        return Outcome(table, tuple(step.events), notices)

    # ---------------------------------------------------------------- lost channels

    async def channel_gone(self, channel_id: int) -> dict[int, int] | None:
        """The channel was deleted: close its table at once and refund every stack and pot."""
        table = self.in_channel(channel_id)
        if table is None:
            return None
        async with self.lock(table.id):
            if self.get(table.id) is not table:
                return None
            return await self._close_lost(table, "channel_gone")

    # ---------------------------------------------------------------- restarts

    async def load(self) -> None:
        """Read the saved tables at start-up; ``resume`` carries them on once connected."""
        self._loaded, self._unreadable = await self.open_tables.load(self.owns)
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
            await self.open_tables.close_unreadable(bad)
            log.warning("Closed unreadable table %s (%s); refunded %s", bad.table_id, bad.why, bad.refunds)
            await self.notifier.unreadable(bad)
        for table in list(self._loaded):
            try:
                where = await self.notifier.locate(table)  # asked of Discord before the lock is taken
                posted = None
                if where == "message_gone" and self.repost_missing_messages:
                    posted = await self.notifier.post_table(table)  # likewise outside the lock
                async with self.lock(table.id):
                    resumed = await self._resume_one(table, where, posted)
                if resumed is not None:
                    await self._publish(resumed)
            except Exception:
                log.exception("Could not resume table %s", table.id)
        if self._loaded or self._unreadable:
            log.info("Resumed %d table(s); closed %d unreadable.", len(self._loaded), len(self._unreadable))

    async def _resume_one(self, table: Table, where: Whereabouts, posted: int | None) -> Outcome | None:
        """Carry one table on; its "resumed" (or "closed") outcome is told once the lock is released.

        ``posted`` is the table message posted again (before the lock) for a table
        that had none; without one the table is closed and refunded.
        """
        if self.get(table.id) is not table:
            return None
        if where == "channel_gone":
            await self._close_lost(table, "channel_gone")
            return None
        if where == "message_gone":
            if posted is None:
                refunds = await self._close_lost(table, "message_gone")
                return self._sealed(Outcome(table, notices=(TableClosed("message_gone", refunds),)))
            await self._commit(table, lambda t: transitions.message_at(t, posted))
        # playable at once; the table message is brought up to date by one paced edit
        return self._done(Outcome(table, notices=(Resumed(),)))

    async def shutdown(self) -> None:
        """Stop the timers and wait for every action in flight (a graceful SIGTERM)."""
        await self.scheduler.close()
        await self.open_tables.idle()
        self.computers.close()

    async def close_by_manager(self, table_id: str, manager_id: int) -> Outcome:
        """A server manager closes a table (``/flipflop admin close``): every stack and pot goes back.

        The refunds' ledger entries name the manager. ``TableError('table_closed')``
        when the table has already ended (nothing changes then). The manager is
        answered privately by the caller, so the channel is told here, once the
        table's lock is released.
        """
        async with self.lock(table_id):
            table = self._open(table_id)
            refunds = table.refunds()
            await self._commit(table, lambda t: transitions.close(t, actor_id=manager_id))
            self.lacking.pop(table.id, None)
            notice = TableClosed("cancelled", refunds, by=manager_id)
            outcome = self._done(Outcome(table, notices=(notice,)))
        await self._publish(outcome)
        return outcome
