"""A running tournament's tables: each round dealt at every table (a thread each), then the next.

The table runtime plays every table like any other (members' hands, computer
players, the away rules, the turn timer); a tournament table holds
tournament chips, never the ledger's, and stops after one round. When a
table's round ends (or its thread is lost: its stacks are settled as the
rules settle a closed table), the runtime says so (``TableRuntime.closing``)
and the stacks go back to the tournament. When every table's round is in,
the tournament counts it, puts out who can not pay the stake, rebalances
(seats move between rounds only, chips with them) and deals the next round;
the standings message is edited each time. After a restart, the tables of
the current round that are neither open nor played are dealt again. The
tournaments' store and message, and a tournament stopped or cancelled where it
can not go on, are in its base, ``TournamentPlace`` (``tournament_place.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.runtime import NOTHING_SHOWN, Outcome, Shown, TableRuntime
from bot.storage import StoreError
from bot.table.model import Table, TableError
from bot.tournament.model import Tournament, TournamentError
from bot.tournament.ref import TableRef
from cogs.flipflop.delivery import UNKNOWN_MESSAGE
from cogs.flipflop.tournament_place import TournamentPlace
from cogs.flipflop.tournament_view import NO_PINGS, tournament_view
from engine.events import Pot

if TYPE_CHECKING:
    from bot.client import FlipFlopBot
    from cogs.flipflop.notifier import DiscordNotifier

log = logging.getLogger("flipflop.tournament")
POTS: dict[str, Pot] = {"game": "game", "flip": "flip", "flop": "flop"}
DEAL_AGAIN = (30.0, 600.0)
"""A table left undealt (its thread not opened, a fault) is dealt again in 30 s, then 1, 2… up to 10 min."""


def round_result(table: Table) -> tuple[dict[int, int], dict[str, int], set[int]]:
    """The stacks and carried pots a tournament table ended its round with, and who was away or gone.

    A table closed mid-round (its thread lost) is settled as the rules settle a closed table (R8.3).
    """
    game = table.game
    if game is None:
        return {}, {}, set()
    gone = {int(p) for p in game.order if p not in game.seated or table.leaves_after_round(p)}
    if game.in_round:
        return dict(table.refunds()), {}, set(table.away) | gone
    stacks = {int(p): game.stacks.get(p, 0) for p in game.order}
    return stacks, {str(k): v for k, v in game.pots.items() if v}, set(table.away) | gone


class TournamentPlay(TournamentPlace):
    """Deals a running tournament's rounds at the runtime's tables (mixed into the group cog)."""

    bot: FlipFlopBot
    runtime: TableRuntime
    notifier: DiscordNotifier

    def hear_tournament_tables(self) -> None:
        """Be told when a tournament table closes."""
        self._recording: set[asyncio.Future[None]] = set()
        self._timers: set[asyncio.Future[None]] = set()
        """Timed starts and deals tried again: stopped with the process (a restart arms them again)."""
        self._dealing_again: dict[str, float] = {}
        """Tournaments with a table left undealt: the wait before the next try."""
        self._next_try: set[str] = set()
        """Tournaments whose next try is waiting (one at most each, however many deals found a table left)."""
        self._deal_locks: dict[str, asyncio.Lock] = {}
        self._reposting: dict[str, asyncio.Lock] = {}
        """One repost of a tournament's lost message at a time."""
        self.runtime.closing.append(self._table_closed)

    def stop_tournament_timers(self) -> None:
        for timer in list(self._timers):
            timer.cancel()

    def _after(self, wait: float, work: Callable[[], Awaitable[None]]) -> None:
        """``work`` in ``wait`` seconds: stopping the cog stops the wait, never the work once begun."""

        async def waited() -> None:
            await asyncio.sleep(wait)
            self._timers.discard(task)
            await work()

        task = asyncio.ensure_future(waited())
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    def _table_closed(self, table: Table) -> None:
        task = asyncio.ensure_future(self.record_table(table))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    async def record_table(self, table: Table) -> None:
        """A table's round is over: its stacks back to the tournament; the next round when all are in.

        A database fault is tried again a little later: the deal's next try records every table
        that closed and was not recorded (``_record_closed``), as a restart's deal does.
        """
        assert table.tournament is not None
        try:
            tour, advanced = await self._record(table)
        except StoreError:
            log.exception("Tournament table %s's round could not be recorded; trying again", table.tournament)
            self._try_later(TableRef.parse(table.tournament).tournament)
            return
        if tour is None:
            return
        await self.show_tournament(tour)
        if advanced and tour.status == "running":
            await self.deal_tournament(tour)

    async def _record(self, table: Table) -> tuple[Tournament | None, bool]:
        """Record a closed table's round in its tournament; the tournament now, and whether it advanced.

        None: it can not be recorded. A round told twice is recorded once.
        """
        assert table.tournament is not None
        ref = TableRef.parse(table.tournament)
        tid, n, rnd = ref.tournament, ref.table, ref.played
        stacks, pots, away = round_result(table)
        advanced = []

        def step(t: Tournament) -> None:
            if t.status != "running" or t.round != rnd or t.played.get(n, 1):
                return  # told twice, or after a restart dealt it again
            for e in t.tables[n]:
                t.entrants[e].away = e > 0 and e in away
            if t.table_round_ended(n, {e: stacks.get(e, 0) for e in t.tables[n]}, pots):
                t.advance()
                advanced.append(True)
                if t.status == "running" and not t.can_go_on():
                    t.stop()

        try:
            return await self.tournaments.update(tid, step), bool(advanced)
        except (TournamentError, ValueError):
            log.exception("Tournament %s: table %s's round %s could not be recorded", tid, n, rnd)
            return None, False

    def _due(self, tour: Tournament, n: int, ref: str) -> bool:
        """Table ``n`` of the tournament's round (``ref``) is neither played nor in play here."""
        return not tour.played.get(n) and not any(t.tournament == ref for t in self.runtime.tables.values())

    async def _record_closed(self, tour: Tournament) -> bool:
        """Record every table of ``tour`` that closed and was not recorded; whether any was.

        A restart or a database fault came between the table's end and its record.
        """
        recorded = False
        for n in tour.tables:
            ref = str(TableRef.of(tour, n))
            if not self._due(tour, n, ref):
                continue
            table_id = await self.runtime.tournament_table_id(ref)
            ended = await self.runtime.open_tables.repository.ended(table_id)
            if ended is not None and ended.tournament == ref:
                log.info("Tournament %s: table %s's round recorded late", tour.id, ref)
                recorded = (await self._record(ended))[0] is not None or recorded
        return recorded

    async def show_tournament(self, tour: Tournament) -> None:
        """Edit the tournament's message to show it now (standings, level, moves, prizes).

        A message deleted unseen (while the bot was away) is posted again, buttons and all.
        """
        if tour.message_id is None:
            return
        t = await self.bot.languages.server_texts(tour.guild_id)
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        try:
            shown = tournament_view(tour, t)
            await channel.get_partial_message(tour.message_id).edit(view=shown, allowed_mentions=NO_PINGS)
        except discord.NotFound as e:
            if e.code == UNKNOWN_MESSAGE:
                self.tournament_messages.discard(tour.message_id)
                await self._post_again(tour, tour.message_id)
            else:
                log.warning("Tournament %s: could not edit its message (%s %s)", tour.id, e.status, e.code)
        except discord.HTTPException as e:
            log.warning("Tournament %s: could not edit its message (%s %s)", tour.id, e.status, e.code)

    async def deal_tournament(self, tour: Tournament) -> None:
        """Deal the round at every table not yet dealt or played (after a start, a round, a restart).

        A table that can not be dealt now (Discord failing to open its thread, a fault) keeps none
        of the others from their round, and is dealt again a little later (``DEAL_AGAIN``). A
        **Stop** that lands while the tables are dealt (it does not wait for the deal: its click
        is answered at once) closes the tables it finds, and the deal closes those it made after.
        """
        lock = self._deal_locks.setdefault(tour.id, asyncio.Lock())
        async with lock:  # a try again and a round's end at once: each table dealt once
            fresh = await self.tournaments.load(tour.id)
            if fresh is not None and fresh.status == "running" and await self._record_closed(fresh):
                fresh = await self.tournaments.load(tour.id)
                if fresh is not None:
                    await self.show_tournament(fresh)
            if fresh is None or fresh.status != "running":
                self._dealing_again.pop(tour.id, None)
                return
            left = await self._deal_tables(fresh)
            now = await self.tournaments.load(tour.id)
            if now is None or now.status != "running":  # stopped meanwhile: no table plays for it
                await self.close_tournament_tables(fresh, fresh.host_id)
                self._dealing_again.pop(tour.id, None)
                return
        if not left:
            self._dealing_again.pop(tour.id, None)
        elif (wait := self._try_later(tour.id)) is not None:
            log.warning("Tournament %s: %s table(s) not dealt; trying again in %.0f s", tour.id, left, wait)

    def _try_later(self, tid: str) -> float | None:
        """Deal (and record) the tournament again later, backing off; the wait, or None if one is set."""
        if tid in self._next_try:
            return None
        wait = self._dealing_again.get(tid, DEAL_AGAIN[0])
        self._dealing_again[tid] = min(wait * 2, DEAL_AGAIN[1])
        self._next_try.add(tid)
        self._after(wait, lambda: self._deal_again(tid))
        return wait

    async def _deal_again(self, tid: str) -> None:
        """The next try at a tournament's tables left undealt."""
        self._next_try.discard(tid)
        tour = await self.tournaments.load(tid)
        if tour is not None and tour.status == "running":
            await self.deal_tournament(tour)

    async def _deal_tables(self, tour: Tournament) -> int:
        """Deal the current round's tables not in play; how many could not be dealt."""
        settings = await self.bot.ledger.settings(tour.guild_id)
        left = 0
        for n, players in list(tour.tables.items()):
            ref = str(TableRef.of(tour, n))
            if not self._due(tour, n, ref):
                continue
            thread = await self._thread(tour, n)
            if thread is None and not self.bot.is_ready():  # reconnecting: the cache says nothing yet
                left += 1
                continue
            if thread is None and not self._threads_possible(tour):  # the permission taken, the channel gone
                await self.stop_tournament(tour, "its tables can no longer have threads")
                return 0
            if thread is None:  # a passing failure: this table is dealt again a little later
                left += 1
                continue
            seats = [(e, tour.entrants[e].stack, tour.names.get(e, ""), -e if e < 0 else 0) for e in players]
            carried = {POTS[k]: v for k, v in tour.pots.get(n, {}).items() if k in POTS}
            away = [e for e in players if e > 0 and tour.entrants[e].away]

            async def post(outcome: Outcome) -> Shown:
                posted = await self.notifier.post_table(outcome.table)
                if posted is not None:
                    try:
                        await self.runtime.placed(outcome.table.id, posted)
                    except TableError:  # its one round is over already (a dealt 49 or 50): closed, recorded
                        log.info("Table %s ended before its message was saved", outcome.table.id)
                return NOTHING_SHOWN  # the deal is told on the command's way out

            turn = settings.turn_seconds
            try:
                await self.runtime.open_tournament_table(
                    ref, tour.guild_id, thread, seats, tour.stake, carried, turn, away, reply=post
                )
            except Exception:  # one table that can not be dealt must not keep the others from their round
                log.exception("Tournament %s: table %s could not be dealt", tour.id, ref)
                left += 1
        return left

    async def _thread(self, tour: Tournament, n: int) -> int | None:
        """The table's thread: the one it had, or a new one from the tournament's channel."""
        known = tour.threads.get(n)
        if known is not None and self.bot.get_channel(known) is not None:
            return known
        channel = self.bot.get_channel(tour.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        try:
            thread = await channel.create_thread(
                name=f"🏆 {tour.id} · {n}", type=discord.ChannelType.public_thread, auto_archive_duration=1440
            )
        except discord.HTTPException as e:
            log.warning(
                "Tournament %s: could not open table %s's thread (%s %s)", tour.id, n, e.status, e.code
            )
            return None
        tour.threads[n] = thread.id
        await self.tournaments.update(tour.id, lambda t: t.threads.__setitem__(n, thread.id))
        return thread.id

    def _threads_possible(self, tour: Tournament) -> bool:
        """Whether the tournament's channel is still one where the bot may open threads and play in them."""
        channel = self.bot.get_channel(tour.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return False
        perms = channel.permissions_for(channel.guild.me)
        return perms.create_public_threads and perms.send_messages_in_threads

    def arm_start(self, tour: Tournament) -> None:
        """A tournament that starts at a time: a timer that starts it then (or cancels it, refunded)."""
        if (at := tour.settings.start_at) is not None:
            tid = tour.id
            self._after(max(0.0, at - discord.utils.utcnow().timestamp()), lambda: self._start_at(tid))

    async def _start_at(self, tid: str) -> None:
        tour = await self.tournaments.load(tid)
        if tour is None or tour.status != "open":
            return  # started when full, or cancelled
        try:
            try:
                tour = await self.tournaments.start(tid, self.bot.rng)
            except TournamentError as e:  # too few without computers, or the house short: the fees go back
                log.info("Tournament %s did not start at its time (%s); cancelled", tid, e.code)
                tour = await self.tournaments.cancel(tid)
        except (TournamentError, StoreError):  # a database fault: tried again shortly (a restart does too)
            log.exception("Tournament %s: could not start at its time; trying again", tid)
            self._after(DEAL_AGAIN[0], lambda: self._start_at(tid))
            return
        await self.show_tournament(tour)
        if tour.status == "running":
            await self.deal_tournament(tour)

    async def resume_tournaments(self) -> None:
        """After a restart: each running tournament's round dealt where it is not in play, timers again.

        An open tournament that starts at a time gets its timer back (a time already past starts it now).
        Each message is shown as it is now, and posted again if it was deleted while the bot was away.
        """
        for tour in await self.tournaments.unfinished():
            if not self.bot.owns_guild(tour.guild_id):
                continue
            if tour.message_id is not None:
                self.tournament_messages.add(tour.message_id)
                await self.show_tournament(tour)
            if tour.status == "running":
                await self.deal_tournament(tour)
            else:
                self.arm_start(tour)
