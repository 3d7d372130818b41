"""A tournament's place in Discord: its store, its message, its channel, and stopping it there.

A tournament whose channel is deleted is cancelled (every fee back) or, running,
stopped: its tables close and the prizes go by the stacks. A deleted tournament
message is posted again, once, with its buttons. The tournaments' rows are read
through one store per cog (``tournaments``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.runtime import TableRuntime
from bot.storage import StoreError
from bot.tournament.model import Tournament, TournamentError
from bot.tournament.ref import TableRef
from bot.tournament.store import TournamentStore
from cogs.flipflop.tournament_view import NO_PINGS, tournament_view

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.tournament")


class TournamentPlace(commands.Cog):
    """The tournaments' store and messages, and what is done when a tournament can not go on where it is.

    The base of ``TournamentPlay`` (``cogs/flipflop/tournament_play.py``), which gives it what it
    declares here.
    """

    bot: FlipFlopBot
    runtime: TableRuntime
    _reposting: dict[str, asyncio.Lock]
    show_tournament: Callable[[Tournament], Awaitable[None]]

    @property
    def tournaments(self) -> TournamentStore:
        """The tournaments in the bot's store (made on first use)."""
        store: TournamentStore | None = getattr(self, "_tournaments", None)
        if store is None:
            store = TournamentStore(self.bot.ledger, clock=lambda: discord.utils.utcnow().timestamp())
            self._tournaments = store
        return store

    @property
    def tournament_messages(self) -> set[int]:
        """The messages of the tournaments this process runs: a deleted message is looked up only then."""
        known: set[int] | None = getattr(self, "_tournament_messages", None)
        if known is None:
            known = set()
            self._tournament_messages = known
        return known

    async def stop_tournament(self, tour: Tournament, why: str) -> None:
        """It can not go on here: stopped, its tables closed, its message edited to say so.

        The prizes go by the stacks: equal before a round is played, so the pool is shared evenly.
        """
        log.warning("Tournament %s stopped: %s", tour.id, why)
        try:
            tour = await self.tournaments.update(tour.id, Tournament.stop)
        except (TournamentError, StoreError):
            log.exception("Tournament %s: could not be stopped", tour.id)
            return
        await self.close_tournament_tables(tour, tour.host_id)
        await self.show_tournament(tour)

    async def tournament_place_gone(self, guild_id: int, channel_id: int) -> None:
        """The tournament's channel was deleted: nothing is left waiting on a channel that is no more.

        An open tournament is cancelled (every fee back), a running one stopped (prizes by the stacks).
        """
        tour = await self.tournaments.in_channel(guild_id, channel_id)
        if tour is None:
            return
        if tour.status == "running":
            await self.stop_tournament(tour, "its channel was deleted")
            return
        try:
            await self.tournaments.cancel(tour.id)
        except (TournamentError, StoreError):
            log.exception("Tournament %s: could not be cancelled with its channel", tour.id)

    async def tournament_message_gone(self, guild_id: int, channel_id: int, message_id: int) -> None:
        """A moderator deleted the tournament's message: it is posted again (its buttons with it)."""
        if message_id not in self.tournament_messages:  # any other message deleted anywhere: no query
            return
        self.tournament_messages.discard(message_id)
        tour = await self.tournaments.in_channel(guild_id, channel_id)
        if tour is None or tour.message_id != message_id:
            return
        await self._post_again(tour, message_id)

    async def _post_again(self, tour: Tournament, gone: int | None) -> None:
        """Post the tournament's message anew in place of message ``gone``, and keep its id.

        Once per message gone: two edits finding it gone at once (two tables' rounds recorded
        together) post it once; the second finds it posted already.
        """
        async with self._reposting.setdefault(tour.id, asyncio.Lock()):
            try:
                fresh = await self.tournaments.load(tour.id)
                if fresh is None or fresh.message_id != gone:
                    return
                t = await self.bot.languages.server_texts(fresh.guild_id)
                channel = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
                posted = await channel.send(view=tournament_view(fresh, t), allowed_mentions=NO_PINGS)
                self.tournament_messages.add(posted.id)
                await self.tournaments.update(tour.id, lambda tr: setattr(tr, "message_id", posted.id))
            except (discord.HTTPException, TournamentError, StoreError) as e:
                log.warning("Tournament %s: its message could not be posted again (%s)", tour.id, e)

    async def close_tournament_tables(self, tour: Tournament, actor: int) -> None:
        """A stopped tournament's tables close now (their round is given up; the prizes are paid)."""
        for table in [t for t in self.runtime.tables.values() if of_tournament(t.tournament or "", tour)]:
            try:
                await self.runtime.close_by_manager(table.id, actor)
            except Exception:  # one table that will not close must not keep the others open
                log.exception("Tournament %s: table %s did not close", tour.id, table.id)


def of_tournament(ref: str, tour: Tournament) -> bool:
    """Whether a table's reference is one of ``tour``'s tables (a reference that does not read is not)."""
    try:
        return TableRef.parse(ref).tournament == tour.id
    except ValueError:
        return False
