"""Tables: lobbies and games in channels, with their chips, saved after every change.

No Discord here. A ``TableService`` owns the open tables; every change to one
(a join, an action, a round's end) runs the engine, moves chips through the
ledger and saves the whole table **in one transaction**, so a chip is always
in exactly one place: a balance, a lobby seat, a stack or a pot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.fair_deal import FairDeal
from bot.history import COMPUTER_MEMBERS, record_game, record_round
from bot.ledger import HOUSE_ID, InsufficientChips, Ledger, LedgerError, check_stakes
from bot.ratings import Finish
from bot.refusals import Refusal
from bot.storage import Row, Store, StoreError, Tx, Unavailable
from engine import HOUSE_RULES, Card, Game, IllegalAction, Leave, Seat
from engine.actions import Action
from engine.events import Event, GameOver, RoundEnded, RoundStarted, SeatClosed

log = logging.getLogger("flipflop.tables")

TABLE_FORMAT = 1
"""The saved-table format; an unknown one is closed and refunded, never left stuck."""
MAX_SEATS = HOUSE_RULES.max_players
MIN_SEATS = HOUSE_RULES.min_players
LOBBY_IDLE_SECONDS = 10 * 60
TIMEOUTS_BEFORE_REMOVAL = 3
AWAY_ROUNDS_BEFORE_RELEASE = 3
"""Rounds a seat may be played by the computer for an away member before it is released (stack home)."""
Status = Literal["lobby", "playing", "closed"]


class TableError(Refusal):
    """Something a member tried that the table can not do; ``code`` + ``params``, words in ``bot.refusals``.

    The runtime's ``StaleControl`` and the saved-table race's ``TableMoved`` are kinds of it.
    """


class TableMoved(TableError):
    """Another process (or an earlier copy of this one) saved the table since it was loaded here.

    Nothing was applied; the table in memory is replaced by the saved one, so
    the member can look again and act on what is really there.
    """


class TableFormatError(Exception):
    """A saved table this version of the bot can not read."""


@dataclass
class Table:
    """One table in one channel: a lobby, then a game."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    stake: int
    buy_in: int
    turn_seconds: int = 60
    status: Status = "lobby"
    message_id: int | None = None
    seats: list[int] = field(default_factory=list)
    """Members in the order they sat down (R3.1)."""
    names: dict[int, str] = field(default_factory=dict)
    lobby_stacks: dict[int, int] = field(default_factory=dict)
    """Buy-ins held while the table is a lobby."""
    game: Game | None = None
    seq: int = 0
    """Bumped by every change: controls carry it, so an old control is refused."""
    turn_deadline: float | None = None
    timeouts: dict[int, int] = field(default_factory=dict)
    leave_after_round: list[int] = field(default_factory=list)
    stop_after_round: bool = False
    next_round_at: float | None = None
    last_activity: float = 0.0
    computers: dict[int, str] = field(default_factory=dict)
    """Computer seats (negative ids) and their level; their chips come from the house account."""
    version: int = 0
    """The saved row's version (0 before the first save); every save bumps it, only from this value.

    Kept in the row's ``version`` column, not in the saved JSON.
    """
    fair: FairDeal = field(default_factory=FairDeal)
    """The provably fair shuffle's state (issue 13, docs/FAIRNESS.md): holds secret seeds, never shown."""
    last_reveal: dict[str, Any] | None = None
    """``Reveal.public()`` of the last round that ended: its seed is public now (shown in the result)."""
    last_round_id: int | None = None
    """History's id of the last round recorded (``/flipflop round``, ``/flipflop verify``)."""
    finishes: dict[int, list[int]] = field(default_factory=dict)
    """Each player's [chips taken away, last round dealt into]: the game's standings for the ratings."""
    practice: bool = False
    """A practice table (issue 16): play-money chips, never in the ledger; no history, stats or ratings."""
    practice_rounds: list[dict[str, Any]] = field(default_factory=list)
    """A practice table's last finished rounds (``PRACTICE_ROUNDS_KEPT``), for "Analyse my play"."""
    away: dict[int, int] = field(default_factory=dict)
    """Members in away mode (the basic computer plays their seat with their chips): rounds ended away."""
    away_rounds: int = AWAY_ROUNDS_BEFORE_RELEASE
    """Rounds away after which a seat is released and its stack goes home (said on the table)."""
    invited: list[int] = field(default_factory=list)
    """A Play-again lobby: the previous game's players, named in it until they join."""
    thread_id: int | None = None
    """The public thread the game is played in (opened from the lobby message at Start), if any."""
    lobby_message_id: int | None = None
    """With a thread: the lobby message in the channel, which shows the final standings at the end."""

    @property
    def plays_in(self) -> int:
        """Where the table's messages go: its thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def is_away(self, user_id: int | str) -> bool:
        """A member whose seat the computer plays for now."""
        return int(user_id) in self.away

    @staticmethod
    def pid(user_id: int) -> str:
        """The engine's id for a member."""
        return str(user_id)

    def name(self, user_id: int | str) -> str:
        """A member's display name at this table."""
        return self.names.get(int(user_id), f"<@{user_id}>")

    def is_computer(self, user_id: int | str) -> bool:
        """A computer seat."""
        return int(user_id) in self.computers

    def is_seated(self, user_id: int) -> bool:
        """Still in this lobby or game."""
        if self.status == "lobby":
            return user_id in self.seats
        return self.game is not None and self.pid(user_id) in self.game.seated

    def chips(self) -> int:
        """The server's chips held at the table now: lobby buy-ins, or stacks of those seated plus pots.

        A practice table holds none: its chips are practice chips (issue 16).
        """
        if self.status == "closed" or self.practice:
            return 0
        if self.game is None:
            return sum(self.lobby_stacks.values())
        g = self.game
        return sum(g.stacks[p] for p in g.seated) + sum(g.pots.values())

    def to_json(self) -> dict[str, Any]:
        """Everything needed to carry on after a restart."""
        return {
            "format": TABLE_FORMAT,
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "stake": self.stake,
            "buy_in": self.buy_in,
            "turn_seconds": self.turn_seconds,
            "status": self.status,
            "message_id": self.message_id,
            "seats": list(self.seats),
            "names": {str(k): v for k, v in self.names.items()},
            "lobby_stacks": {str(k): v for k, v in self.lobby_stacks.items()},
            "game": self.game.snapshot() if self.game is not None else None,
            "seq": self.seq,
            "turn_deadline": self.turn_deadline,
            "timeouts": {str(k): v for k, v in self.timeouts.items()},
            "leave_after_round": list(self.leave_after_round),
            "stop_after_round": self.stop_after_round,
            "next_round_at": self.next_round_at,
            "last_activity": self.last_activity,
            "computers": {str(k): v for k, v in self.computers.items()},
            "fair": self.fair.to_json(),
            "last_reveal": self.last_reveal,
            "last_round_id": self.last_round_id,
            "finishes": {str(k): v for k, v in self.finishes.items()},
            "practice": self.practice,
            "practice_rounds": self.practice_rounds,
            "away": {str(k): v for k, v in self.away.items()},
            "away_rounds": self.away_rounds,
            "invited": list(self.invited),
            "thread_id": self.thread_id,
            "lobby_message_id": self.lobby_message_id,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """Rebuild a saved table; ``TableFormatError`` if it is from an unknown format."""
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            raise TableFormatError(
                f"saved table format {data.get('format') if isinstance(data, dict) else None!r}"
            )
        try:
            return cls(
                id=data["id"],
                guild_id=int(data["guild_id"]),
                channel_id=int(data["channel_id"]),
                host_id=int(data["host_id"]),
                stake=int(data["stake"]),
                buy_in=int(data["buy_in"]),
                turn_seconds=int(data["turn_seconds"]),
                status=data["status"],
                message_id=data["message_id"],
                seats=[int(s) for s in data["seats"]],
                names={int(k): v for k, v in data["names"].items()},
                lobby_stacks={int(k): int(v) for k, v in data["lobby_stacks"].items()},
                game=Game.restore(data["game"]) if data["game"] is not None else None,
                seq=int(data["seq"]),
                turn_deadline=data["turn_deadline"],
                timeouts={int(k): int(v) for k, v in data["timeouts"].items()},
                leave_after_round=[int(u) for u in data["leave_after_round"]],
                stop_after_round=bool(data["stop_after_round"]),
                next_round_at=data["next_round_at"],
                last_activity=float(data["last_activity"]),
                computers={int(k): str(v) for k, v in data.get("computers", {}).items()},
                fair=FairDeal.from_json(data["fair"]) if data.get("fair") else FairDeal(),
                last_reveal=data.get("last_reveal"),
                last_round_id=data.get("last_round_id"),
                finishes={int(k): [int(c), int(r)] for k, (c, r) in data.get("finishes", {}).items()},
                practice=bool(data.get("practice", False)),
                practice_rounds=list(data.get("practice_rounds", [])),
                away={int(k): int(v) for k, v in data.get("away", {}).items()},
                away_rounds=int(data.get("away_rounds", AWAY_ROUNDS_BEFORE_RELEASE)),
                invited=[int(u) for u in data.get("invited", [])],
                thread_id=int(data["thread_id"]) if data.get("thread_id") is not None else None,
                lobby_message_id=(
                    int(data["lobby_message_id"]) if data.get("lobby_message_id") is not None else None
                ),
            )
        except (KeyError, TypeError, ValueError, IllegalAction) as e:
            raise TableFormatError(f"saved table is damaged: {e}") from None


def account(user_id: int) -> int:
    """The ledger account behind a seat: computer seats (negative ids) play with the house's chips."""
    return HOUSE_ID if user_id < 0 else user_id


def cash_outs(events: Iterable[Event]) -> list[tuple[int, int]]:
    """(member, chips) going back to balances because of these events (R2.7, R8.3, R8.4)."""
    out: list[tuple[int, int]] = []
    for e in events:
        if isinstance(e, SeatClosed):
            out.append((int(e.player), e.stack))
        elif isinstance(e, GameOver):
            out.extend((int(p), s) for p, s in e.stacks.items())
    return out


class LockFirst:
    """A transaction that takes its table's cross-process lock before its first statement.

    The version-checked save needs no other lock: it holds the table's row
    until commit, and a second writer finds the version moved. Work before
    the save (chips moving, a round recorded) runs under ``tx.lock_table``, so
    two processes never move one table's chips at once; an action that moves
    none (most of them) is then one statement: the save.
    """

    def __init__(self, tx: Tx, table_id: str) -> None:
        self.tx, self.table_id, self.held = tx, table_id, False

    async def lock_table(self, table_id: str | None = None) -> None:
        """Take this table's lock (once)."""
        if not self.held:
            await self.tx.lock_table(self.table_id)
            self.held = True

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """``Tx.execute``, under the table's lock."""
        await self.lock_table()
        return await self.tx.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """``Tx.executemany``, under the table's lock."""
        await self.lock_table()
        await self.tx.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """``Tx.fetchone``, under the table's lock."""
        await self.lock_table()
        return await self.tx.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """``Tx.fetchall``, under the table's lock."""
        await self.lock_table()
        return await self.tx.fetchall(sql, params)


def members(table: Table, seats: Iterable[str]) -> dict[str, int]:
    """Seat ids to the members history records them under (a computer: its level's pseudo-member)."""
    return {
        seat: COMPUTER_MEMBERS[table.computers[int(seat)]] if table.is_computer(seat) else int(seat)
        for seat in seats
    }


def deal(table: Table) -> list[Event]:
    """Deal the table's next round from its committed seed (issue 13, docs/FAIRNESS.md).

    The deck, and for round 1 the first dealer (R3.1, seat order of joining),
    come from ``FairDeal.deal``: the bot picks neither. A table saved before
    fair deals existed has no commitment for this round: one is drawn now, so
    the deal is still checkable, only without a client seed collected after it.
    """
    game = table.game
    assert game is not None
    view = game.public_view()
    number = view.round_number + 1
    if table.fair.pending_round != number:
        log.warning("Table %s had no commitment for round %d; drawing one now", table.id, number)
        table.fair = FairDeal()
        table.fair.commit(number)
    dealt = table.fair.deal(number, seats=len(view.seated) if number == 1 else None)
    dealer = view.seated[dealt.first_dealer] if dealt.first_dealer is not None else None
    return game.start_round(deck=[Card.parse(code) for code in dealt.deck], dealer=dealer)


def note_finishes(table: Table, events: Iterable[Event]) -> None:
    """Keep each player's chips taken away and last round dealt into (the standings R8.3 ranks by)."""
    for e in events:
        if isinstance(e, RoundStarted):
            for p in e.players:
                table.finishes.setdefault(int(p), [0, 0])[1] = e.number
        elif isinstance(e, SeatClosed):
            table.finishes.setdefault(int(e.player), [0, 0])[0] = e.stack
        elif isinstance(e, GameOver):
            for p, stack in e.stacks.items():
                table.finishes.setdefault(int(p), [0, 0])[0] = stack


def note_away(table: Table, events: Iterable[Event]) -> None:
    """Count a round ended away for each away member dealt into it; forget those no longer seated."""
    assert table.game is not None
    for e in events:
        if isinstance(e, RoundEnded):
            for user_id in table.away:
                if table.pid(user_id) in table.game.seated:
                    table.away[user_id] += 1
    for user_id in list(table.away):
        if table.pid(user_id) not in table.game.seated:
            del table.away[user_id]


@dataclass(frozen=True)
class Unreadable:
    """A saved table this version can not load: closed with ``refunds`` paid back."""

    table_id: str
    guild_id: int
    channel_id: int
    chips: int
    refunds: dict[int, int]
    why: str


PRACTICE_ROUNDS_KEPT = 3
"""Finished rounds a practice table keeps for "Analyse my play" (they are stored nowhere else)."""


async def practice_ops(tx: Tx, t: Table, events: Any) -> None:
    """A practice table's part of a save: no chips move; a finished round is kept on the table itself."""
    if t.game is not None and isinstance(events, list) and any(isinstance(e, RoundEnded) for e in events):
        transcript = t.game.round_transcript()
        number = t.game.public_view().round_number
        t.practice_rounds = [*t.practice_rounds, {"number": number, "transcript": transcript}][
            -PRACTICE_ROUNDS_KEPT:
        ]


class TableService:
    """The open tables of every server, and the only code that changes them."""

    def __init__(
        self,
        db: Store,
        ledger: Ledger,
        clock: Callable[[], float] = time.time,
        round_pause: float = 8.0,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.owns = owns if owns is not None else (lambda _guild_id: True)
        """Whether this process runs a server's shard: it loads and resumes only those tables."""
        self.round_pause = round_pause
        """Seconds between a round's end and the next deal (saved with the round's end)."""
        self.db = db
        self.ledger = ledger
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    # ---------------------------------------------------------------- lookup

    def lock(self, table_id: str) -> asyncio.Lock:
        """One lock per table: a double click never acts twice; tables never block each other."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def idle(self) -> None:
        """Wait until no table has a change in flight (a graceful shutdown)."""
        for lock in list(self._locks.values()):
            async with lock:
                pass

    def get(self, table_id: str) -> Table | None:
        """An open table by id."""
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table in a channel or in its game's thread (one per channel)."""
        for t in self.tables.values():
            if channel_id in (t.channel_id, t.thread_id) and t.status != "closed":
                return t
        return None

    async def ended(self, table_id: str) -> Table | None:
        """A closed table as it was saved (for **Play again**); None if unknown, open or unreadable."""
        if table_id in self.tables:
            return None
        row = await self.db.fetchone(
            "SELECT state FROM tables WHERE table_id = ? AND status = 'closed'", (table_id,)
        )
        if row is None:
            return None
        try:
            return Table.from_json(json.loads(row[0]))
        except (TableFormatError, ValueError):
            return None

    # ---------------------------------------------------------------- storage

    async def _save(self, tx: Tx, table: Table) -> bool:
        """Save the table as version ``table.version + 1`` only if the row is still at ``table.version``.

        One statement is both the save and the version check (a new table's
        insert, or an update guarded by the version it was loaded at): False
        means another writer moved the row first and nothing was written.
        """
        saved = await tx.execute(
            "INSERT INTO tables (table_id, guild_id, channel_id, status, chips, refunds, version, state,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
            " status = excluded.status, chips = excluded.chips, refunds = excluded.refunds,"
            " version = excluded.version, state = excluded.state, updated_at = excluded.updated_at"
            " WHERE tables.version = ?",
            (
                table.id,
                table.guild_id,
                table.channel_id,
                table.status,
                table.chips(),
                json.dumps(
                    {str(u): a for u, a in self._refunds(table).items()}
                    if table.status != "closed" and not table.practice
                    else {}
                ),
                table.version + 1,
                json.dumps(table.to_json()),
                self.clock(),
                table.version,
            ),
        )
        if saved:
            table.version += 1
        return saved == 1

    async def _saved(self, tx: Tx, table_id: str) -> Table | None:
        """The table as it is saved now (None when it is closed, gone or unreadable)."""
        row = await tx.fetchone("SELECT status, version, state FROM tables WHERE table_id = ?", (table_id,))
        if row is None or row[0] == "closed":
            return None
        try:
            table = Table.from_json(json.loads(row[2]))
        except (TableFormatError, ValueError):
            return None
        table.version = int(row[1])
        return table

    async def _commit(
        self, table: Table, change: Callable[[Table], Any], ledger_ops: Any = None, bump: bool = True
    ) -> Any:
        """Apply ``change`` to the table, then its ledger work and the save in one transaction.

        If anything fails, the table in memory is put back as it was. ``bump``
        makes the controls shown so far stale (any change to the game does).
        """
        before, version = table.to_json(), table.version
        moved: list[Table | None] = []
        if table.practice:  # practice chips never reach the ledger, nor its rounds history and ratings
            ledger_ops = practice_ops
        try:
            result = change(table)
            if bump:
                table.seq += 1
            if table.status == "closed":
                self.tables.pop(table.id, None)
            try:
                async with self.db.transaction() as tx:
                    if ledger_ops is not None:
                        await ledger_ops(LockFirst(tx, table.id), table, result)
                    if not await self._save(tx, table):
                        moved.append(await self._saved(tx, table.id))
                        raise TableMoved("table_moved")
            except Unavailable:
                if moved or not await self._landed(table, version + 1):
                    raise
                table.version = version + 1  # the COMMIT was cut off after it reached the database
                log.warning(
                    "Table %s: the database failed after saving version %d; kept", table.id, version + 1
                )
        except BaseException:
            if moved:  # what is saved wins: this copy was behind
                fresh = moved[0]
                self.tables.pop(table.id, None)
                if fresh is not None:
                    self.tables[table.id] = fresh
                raise
            restored = Table.from_json(before)
            restored.version = version
            if restored.status != "closed":
                self.tables[table.id] = restored
            raise
        return result

    async def _landed(self, table: Table, version: int) -> bool:
        """After a fault, whether this exact table was saved as ``version`` after all (exactly once)."""
        try:
            row = await self.db.fetchone("SELECT version, state FROM tables WHERE table_id = ?", (table.id,))
        except StoreError:
            return False
        return (
            row is not None
            and int(row[0]) == version
            and json.loads(row[1]) == json.loads(json.dumps(table.to_json()))
        )

    async def load_open(self) -> tuple[list[Table], list[Unreadable]]:
        """Open tables saved in the database, and the ones this version can not read."""
        rows = await self.db.fetchall(
            "SELECT table_id, guild_id, channel_id, chips, refunds, version, state FROM tables"
            " WHERE status != 'closed'"
        )
        good: list[Table] = []
        bad: list[Unreadable] = []
        for table_id, guild_id, channel_id, chips, refunds, version, state in rows:
            if not self.owns(int(guild_id)):
                continue  # another process runs that server's shard, and this table
            try:
                table = Table.from_json(json.loads(state))
            except (TableFormatError, ValueError) as e:
                owed = {int(u): int(a) for u, a in json.loads(refunds).items()}
                bad.append(Unreadable(table_id, guild_id, channel_id, chips, owed, str(e)))
                continue
            table.version = int(version)
            self.tables[table.id] = table
            good.append(table)
        return good, bad

    # ---------------------------------------------------------------- lobby

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        stake: int,
        buy_in: int,
        turn_seconds: int,
        practice: bool = False,
        away_rounds: int = AWAY_ROUNDS_BEFORE_RELEASE,
    ) -> Table:
        """Open a lobby in a channel, seating the host (their buy-in moves to the table).

        A ``practice`` table's buy-ins are practice chips: no balance pays them.
        ``away_rounds`` is the server's setting when the lobby opens; the table keeps it.
        """
        check_stakes(stake, buy_in)
        if self.in_channel(channel_id) is not None:
            raise TableError("table_exists")
        table = Table(
            id=secrets.token_hex(4),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            stake=stake,
            buy_in=buy_in,
            turn_seconds=turn_seconds,
            last_activity=self.clock(),
            practice=practice,
            away_rounds=away_rounds,
        )
        table.fair.commit(1)  # published in the lobby, before the Start click that seeds round 1
        self.tables[table.id] = table
        try:
            await self.join(table, host_id, host_name)
        except BaseException:
            self.tables.pop(table.id, None)
            raise
        return table

    async def join(self, table: Table, user_id: int, name: str) -> None:
        """R2.2: take a seat; the buy-in moves from the balance to the table."""
        if table.status != "lobby":
            raise TableError("join_after_start")
        if user_id in table.seats:
            raise TableError("already_seated")
        if len(table.seats) >= MAX_SEATS:
            raise TableError("table_full", seats=MAX_SEATS)

        def change(t: Table) -> None:
            t.seats.append(user_id)
            t.names[user_id] = name
            t.lobby_stacks[user_id] = t.buy_in
            t.last_activity = self.clock()

        async def ledger_ops(tx: Tx, t: Table, _: object) -> None:
            await self.ledger.debit(tx, t.guild_id, user_id, t.buy_in, "buy_in", reference=t.id)

        await self._commit(table, change, ledger_ops)

    async def add_computer(self, table: Table, level: str, label: str) -> int:
        """Seat a computer player; its buy-in comes from the server's house account."""
        if table.status != "lobby":
            raise TableError("computer_join_after_start")
        if len(table.seats) >= MAX_SEATS:
            raise TableError("table_full", seats=MAX_SEATS)
        seat = min([0, *table.seats]) - 1
        number = len(table.computers) + 1

        def change(t: Table) -> int:
            t.seats.append(seat)
            t.names[seat] = f"🤖 {label} {number}"
            t.lobby_stacks[seat] = t.buy_in
            t.computers[seat] = level
            t.last_activity = self.clock()
            return seat

        async def ledger_ops(tx: Tx, t: Table, _: object) -> None:
            try:
                await self.ledger.debit(tx, t.guild_id, HOUSE_ID, t.buy_in, "buy_in", reference=t.id)
            except InsufficientChips as e:
                raise TableError("house_short", balance=e.balance, buy_in=t.buy_in) from None

        added: int = await self._commit(table, change, ledger_ops)
        return added

    async def remove_computer(self, table: Table) -> None:
        """Take the last computer player off the table; its buy-in goes back to the house."""
        if table.status != "lobby":
            raise TableError("computer_remove_after_start")
        if not table.computers:
            raise TableError("no_computer")
        seat = min(table.computers)

        def change(t: Table) -> None:
            t.seats.remove(seat)
            t.lobby_stacks.pop(seat)
            t.computers.pop(seat)
            t.last_activity = self.clock()

        async def ledger_ops(tx: Tx, t: Table, _: object) -> None:
            await self.ledger.credit(tx, t.guild_id, HOUSE_ID, t.buy_in, "refund", reference=t.id)

        await self._commit(table, change, ledger_ops)

    async def leave_lobby(self, table: Table, user_id: int) -> bool:
        """Leave a lobby; the buy-in comes back. Returns True if that closed the lobby."""
        if table.status != "lobby":
            raise TableError("leave_lobby_after_start")
        if user_id not in table.seats:
            raise TableError("not_seated")

        def change(t: Table) -> bool:
            t.seats.remove(user_id)
            t.lobby_stacks.pop(user_id)
            t.last_activity = self.clock()
            humans = [u for u in t.seats if u not in t.computers]
            if not humans:
                t.status = "closed"  # computers never play alone; their buy-ins go back too
            elif t.host_id == user_id:
                t.host_id = humans[0]
            return t.status == "closed"

        async def ledger_ops(tx: Tx, t: Table, _: object) -> None:
            await self.ledger.credit(tx, t.guild_id, account(user_id), t.buy_in, "refund", reference=t.id)
            if t.status == "closed":
                for _seat in t.computers:
                    await self.ledger.credit(tx, t.guild_id, HOUSE_ID, t.buy_in, "refund", reference=t.id)

        closed: bool = await self._commit(table, change, ledger_ops)
        return closed

    async def cancel(self, table: Table, actor_id: int | None = None) -> dict[int, int]:
        """Close a lobby (or a table that can not go on): every chip goes back. Returns the refunds.

        ``actor_id``: the manager who closed it, written on each refund's ledger entry.
        """
        refunds = self._refunds(table)

        def change(t: Table) -> dict[int, int]:
            t.status = "closed"
            return refunds

        async def ledger_ops(tx: Tx, t: Table, _: object) -> None:
            for user_id, amount in refunds.items():
                if amount:
                    await self.ledger.credit(
                        tx, t.guild_id, account(user_id), amount, "refund", reference=t.id, actor_id=actor_id
                    )

        await self._commit(table, change, ledger_ops)
        return refunds

    async def close_unreadable(self, bad: Unreadable) -> None:
        """Close a table that could not be loaded, paying back what it held (saved beside it)."""
        async with self.db.transaction() as tx:
            for user_id, amount in bad.refunds.items():
                if amount:
                    await self.ledger.credit(
                        tx, bad.guild_id, account(user_id), amount, "refund", reference=bad.table_id
                    )
            await tx.execute(
                "UPDATE tables SET status = 'closed', chips = 0, refunds = '{}', updated_at = ?"
                " WHERE table_id = ?",
                (self.clock(), bad.table_id),
            )

    @staticmethod
    def _refunds(table: Table) -> dict[int, int]:
        """Who gets what if the table closes now: lobby buy-ins, or the engine's settlement (R8.3)."""
        if table.game is None:
            return dict(table.lobby_stacks)
        return {int(p): amount for p, amount in table.game.settlement_if_closed().items()}

    # ---------------------------------------------------------------- game

    async def start(self, table: Table, user_id: int, may_manage: bool) -> list[Event]:
        """The host starts the game with 3 to 5 seated (R8.1): stakes are paid and the fair deck dealt."""
        if table.status != "lobby":
            raise TableError("already_started")
        if user_id != table.host_id and not may_manage:
            raise TableError("host_starts")
        if len(table.seats) < MIN_SEATS:
            raise TableError("too_few_players", low=MIN_SEATS, high=MAX_SEATS, seated=len(table.seats))

        def change(t: Table) -> list[Event]:
            seats = [Seat(t.pid(u), t.lobby_stacks[u], t.names[u]) for u in t.seats]
            t.game = Game(seats, t.stake)
            t.lobby_stacks = {}
            t.status = "playing"
            events = deal(t)
            self._after_events(t, events)
            return events

        events: list[Event] = await self._commit(table, change, self._cash_out_ops)
        return events

    async def apply(self, table: Table, action: Action, by_timer: bool = False) -> list[Event]:
        """Apply one player's action; the engine's refusal comes back as ``IllegalAction``."""
        if table.game is None:
            raise TableError("not_started")

        def change(t: Table) -> list[Event]:
            assert t.game is not None
            events = t.game.apply(action)
            if not by_timer:
                t.timeouts.pop(int(action.player), None)
            self._after_events(t, events)
            return events

        events: list[Event] = await self._commit(table, change, self._cash_out_ops)
        return events

    async def next_round(self, table: Table) -> list[Event]:
        """Between rounds: let go those who asked to leave, stop if asked, else deal (R7.6, R8.4)."""
        if table.game is None or table.game.in_round or table.game.over:
            raise TableError("round_in_play")

        def change(t: Table) -> list[Event]:
            assert t.game is not None
            events: list[Event] = []
            for user_id in list(t.leave_after_round):
                if t.pid(user_id) in t.game.seated and not t.game.over:
                    events += t.game.apply(Leave(t.pid(user_id)))
            t.leave_after_round = []
            for user_id, rounds in list(t.away.items()):
                if rounds >= t.away_rounds and t.pid(user_id) in t.game.seated and not t.game.over:
                    events += t.game.apply(Leave(t.pid(user_id)))  # released: the stack goes home
            humans = [p for p in t.game.seated if not t.is_computer(p) and not t.is_away(p)]
            if not t.game.over and (t.stop_after_round or not humans):
                events += t.game.end_game()  # R8.2; computers never play on alone
            if not t.game.over:
                events += deal(t)
            self._after_events(t, events)
            return events

        events: list[Event] = await self._commit(table, change, self._cash_out_ops)
        return events

    async def stop(self, table: Table) -> list[Event]:
        """R8.2: end the game between rounds; stacks and carried pots go home."""
        if table.game is None:
            raise TableError("stop_in_lobby")
        if table.game.in_round:
            raise TableError("round_being_played")

        def change(t: Table) -> list[Event]:
            assert t.game is not None
            events = t.game.end_game()
            self._after_events(t, events)
            return events

        events: list[Event] = await self._commit(table, change, self._cash_out_ops)
        return events

    async def set_flag(self, table: Table, change: Callable[[Table], Any]) -> Any:
        """Save a change that moves no chips and leaves the game as it is (a message id, …)."""
        return await self._commit(table, change, bump=False)

    def _after_events(self, t: Table, events: list[Event]) -> None:
        assert t.game is not None
        note_finishes(t, events)
        note_away(t, events)
        if not t.game.in_round and t.fair.in_play_round is not None:
            # the round is over (or the game ended with it): its seed may be shown now, never before
            t.last_reveal = t.fair.reveal(t.fair.in_play_round).public()
        now = self.clock()
        if t.game.over:
            t.status = "closed"
            t.turn_deadline = None
            t.next_round_at = None
        elif t.game.in_round:
            t.turn_deadline = now + t.turn_seconds
            t.next_round_at = None
        else:
            # the next deal is due: saved with the round's end, so a restart keeps it
            t.turn_deadline = None
            t.next_round_at = now + self.round_pause
        t.last_activity = now

    async def _cash_out_ops(self, tx: Tx, t: Table, events: list[Event]) -> None:
        """Stacks going home, and the transcript of a round that just ended, with the action's save."""
        for user_id, amount in cash_outs(events):
            if amount:
                await self.ledger.credit(tx, t.guild_id, account(user_id), amount, "cash_out", reference=t.id)
        if t.game is not None and any(isinstance(e, RoundEnded) for e in events):
            transcript = t.game.round_transcript()
            seats = [str(seat["id"]) for seat in transcript["seats"]]  # type: ignore[attr-defined]
            number = t.game.public_view().round_number
            reveal = t.last_reveal if t.last_reveal and t.last_reveal["round"] == number else None
            t.last_round_id = await record_round(
                tx, t.guild_id, t.id, number, self.clock(), transcript, members(t, seats), reveal=reveal
            )
        if t.game is not None and any(isinstance(e, GameOver) for e in events):
            finishes = [Finish(str(p), chips, last) for p, (chips, last) in t.finishes.items()]
            await record_game(
                tx, t.guild_id, finishes, members(t, [f.player for f in finishes]), self.clock()
            )


__all__ = [
    "InsufficientChips",
    "LedgerError",
    "Table",
    "TableError",
    "TableFormatError",
    "TableMoved",
    "TableService",
    "cash_outs",
]
