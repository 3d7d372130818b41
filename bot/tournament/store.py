"""A tournament's row and its server chips: entry fees, refunds and prizes, through the ledger.

The only ledger movements a tournament makes are these three, each written
with the tournament's saved state in one transaction (``reference`` = the
tournament id): ``tournament_fee`` (a member's, or the house's for a
computer), ``tournament_refund`` (a withdrawn entry, a cancelled
tournament) and ``tournament_prize`` (every prize at the end, all at once).
The row's ``chips`` are the fees it holds and ``refunds`` who paid them, so
the audit counts a tournament like a table: what went in and has not come
back is there. Every change locks the row (``Tx.lock_table``), reads it,
changes it and saves it with its version bumped, so two processes never
both change the same tournament.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Awaitable, Callable

from bot.history import COMPUTER_MEMBERS, record_game
from bot.ledger import HOUSE_ID, InsufficientChips, Ledger
from bot.ratings import Finish
from bot.storage import IntegrityError, Tx
from bot.tournament.model import Tournament, TournamentError

OPEN_STATUSES = ("open", "running")
Change = Callable[[Tournament, Tx], Awaitable[None]]


class TournamentStore:
    """Tournaments in the ledger's store."""

    def __init__(self, ledger: Ledger, clock: Callable[[], float] = time.time) -> None:
        self.ledger = ledger
        self.db = ledger.db
        self.clock = clock

    # ------------------------------------------------------------ reading

    async def load(self, tournament_id: str) -> Tournament | None:
        """The saved tournament, or None."""
        row = await self.db.fetchone(
            "SELECT state, version FROM tournaments WHERE tournament_id = ?", (tournament_id,)
        )
        return Tournament.from_json(str(row[0]), int(row[1])) if row else None

    async def in_channel(self, guild_id: int, channel_id: int) -> Tournament | None:
        """The channel's open or running tournament, if any."""
        row = await self.db.fetchone(
            "SELECT state, version FROM tournaments WHERE guild_id = ? AND channel_id = ?"
            " AND status IN ('open', 'running')",
            (guild_id, channel_id),
        )
        return Tournament.from_json(str(row[0]), int(row[1])) if row else None

    async def unfinished(self) -> list[Tournament]:
        """Every open or running tournament (to pick up after a restart)."""
        rows = await self.db.fetchall(
            "SELECT state, version FROM tournaments WHERE status IN ('open', 'running') ORDER BY updated_at"
        )
        return [Tournament.from_json(str(s), int(v)) for s, v in rows]

    async def results(
        self, guild_id: int, since: float = 0.0, until: float | None = None
    ) -> list[tuple[int, int, int, int]]:
        """(member, tournaments played, wins, prizes) for finishes in a time range, most prizes first."""
        rows = await self.db.fetchall(
            "SELECT user_id, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), SUM(prize)"
            " FROM tournament_results WHERE guild_id = ? AND ended_at >= ? AND ended_at < ?"
            " GROUP BY user_id ORDER BY SUM(prize) DESC, user_id",
            (guild_id, since, until if until is not None else float("inf")),
        )
        return [(int(u), int(n), int(w), int(p)) for u, n, w, p in rows]

    # ------------------------------------------------------------ changing

    async def open(self, t: Tournament) -> Tournament:
        """Save a new tournament; refuse a second one in the channel."""
        t.settings.check()
        if await self.in_channel(t.guild_id, t.channel_id) is not None:
            raise TournamentError("tournament_exists")
        try:
            async with self.db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO tournaments (tournament_id, guild_id, channel_id, status, chips, refunds,"
                    " version, state, updated_at) VALUES (?, ?, ?, ?, 0, '{}', 1, ?, ?)",
                    (t.id, t.guild_id, t.channel_id, t.status, t.to_json(), self.clock()),
                )
        except IntegrityError:  # another process opened one in this channel a moment ago
            raise TournamentError("tournament_exists") from None
        t.version = 1
        return t

    async def change(self, tournament_id: str, change: Change) -> Tournament:
        """Lock, read, change and save one tournament in one transaction (settling it when it ends)."""
        async with self.db.transaction() as tx:
            await tx.lock_table(tournament_id)
            row = await tx.fetchone(
                "SELECT state, version, status FROM tournaments WHERE tournament_id = ?", (tournament_id,)
            )
            if row is None:
                raise TournamentError("tournament_gone")
            t = Tournament.from_json(str(row[0]), int(row[1]))
            before = str(row[2])
            await change(t, tx)
            if t.status == "finished" and before != "finished":
                await self._pay_prizes(tx, t)
            if t.status == "cancelled" and before != "cancelled":
                for account, chips in t.fees_by_account().items():
                    await self.ledger.credit(tx, t.guild_id, account, chips, "tournament_refund", t.id)
            await self._save(tx, t)
            return t

    async def _save(self, tx: Tx, t: Tournament) -> None:
        settled = t.status in ("finished", "cancelled")
        refunds = {} if settled else t.fees_by_account()
        saved = await tx.execute(
            "UPDATE tournaments SET status = ?, chips = ?, refunds = ?, version = version + 1, state = ?,"
            " updated_at = ? WHERE tournament_id = ? AND version = ?",
            (
                t.status,
                sum(refunds.values()),
                json.dumps({str(k): v for k, v in refunds.items()}),
                t.to_json(),
                self.clock(),
                t.id,
                t.version,
            ),
        )
        if not saved:
            raise TournamentError("tournament_moved")
        t.version += 1

    async def _pay_prizes(self, tx: Tx, t: Tournament) -> None:
        """Every prize, and each member's finish for the history, in the caller's transaction."""
        won = t.prizes()
        now = self.clock()
        for entrant, prize in won.items():
            account = t.entrants[entrant].paid_by
            await self.ledger.credit(tx, t.guild_id, account, prize, "tournament_prize", t.id)
        members = [e for e in t.entrants if e > 0]
        await self._rate(tx, t, now)
        await tx.executemany(
            "INSERT INTO tournament_results (tournament_id, guild_id, user_id, place, prize, entrants,"
            " ended_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(t.id, t.guild_id, e, t.place_of(e), won.get(e, 0), len(t.entrants), now) for e in members],
        )

    async def _rate(self, tx: Tx, t: Tournament, now: float) -> None:
        """The ratings move by the places, as a game's do by its standings (computers as their level)."""
        finishes = [Finish(str(e), len(t.entrants) - t.place_of(e), 0) for e in t.entrants]
        seats = {str(e): e if e > 0 else COMPUTER_MEMBERS["basic"] for e in t.entrants}
        await record_game(tx, t.guild_id, finishes, seats, now)

    # ------------------------------------------------------------ entries

    async def join(
        self, tournament_id: str, member: int, name: str, start_when_full: random.Random | None = None
    ) -> Tournament:
        """Take the member's fee and their entry together; refuse without the fee, twice, late or full.

        With ``start_when_full``, the entry that takes the last seat starts the tournament in the
        same transaction: the joiner is never left entered in a full tournament that did not start.
        """

        async def enter(t: Tournament, tx: Tx) -> None:
            t.join(member, name)
            try:
                await self.ledger.debit(tx, t.guild_id, member, t.settings.fee, "tournament_fee", t.id)
            except InsufficientChips as e:
                raise TournamentError("tournament_no_fee", fee=e.needed, balance=e.balance) from None
            if start_when_full is not None and t.full:
                await self._begin(t, tx, start_when_full)

        return await self.change(tournament_id, enter)

    async def leave(self, tournament_id: str, member: int) -> Tournament:
        """Withdraw before the start: the fee comes back."""

        async def withdraw(t: Tournament, tx: Tx) -> None:
            gone = t.leave(member)
            await self.ledger.credit(tx, t.guild_id, gone.paid_by, t.settings.fee, "tournament_refund", t.id)

        return await self.change(tournament_id, withdraw)

    async def cancel(self, tournament_id: str) -> Tournament:
        """Cancel before the start: every fee comes back (``change`` refunds them)."""

        async def cancel(t: Tournament, tx: Tx) -> None:
            t.cancel()

        return await self.change(tournament_id, cancel)

    async def start(self, tournament_id: str, rng: random.Random) -> Tournament:
        """Fill the empty seats with computers (when allowed; the house pays their fees) and seat everyone."""

        async def begin(t: Tournament, tx: Tx) -> None:
            await self._begin(t, tx, rng)

        return await self.change(tournament_id, begin)

    async def _begin(self, t: Tournament, tx: Tx, rng: random.Random) -> None:
        """The start, inside a change's transaction: computers in the empty seats, everyone seated."""
        if t.settings.computers:
            fee, empty = t.settings.fee, t.settings.seats - len(t.entrants)
            for number in range(1, empty + 1):
                t.join(-number, "", paid_by=HOUSE_ID)
                await self._house_fee(tx, t, spent=(number - 1) * fee, needed=empty * fee)
        order = list(t.entrants)
        rng.shuffle(order)
        t.start(order)

    async def _house_fee(self, tx: Tx, t: Tournament, spent: int, needed: int) -> None:
        """One computer player's fee from the house.

        Short, the refusal names the house's balance before this start (``spent`` of it already
        debited here) and all the computers' fees (``needed``).
        """
        try:
            await self.ledger.debit(tx, t.guild_id, HOUSE_ID, t.settings.fee, "tournament_fee", t.id)
        except InsufficientChips as e:  # the transaction rolls back: the house keeps every chip
            raise TournamentError("tournament_house_short", fee=needed, balance=e.balance + spent) from None

    async def update(self, tournament_id: str, step: Callable[[Tournament], object]) -> Tournament:
        """Apply a step that moves no server chips (a round's stacks, a rebalance, a stop)."""

        async def apply(t: Tournament, tx: Tx) -> None:
            step(t)

        return await self.change(tournament_id, apply)
