"""A table as data: a lobby, then a game, in one channel; saved whole as JSON after every change.

No Discord and no words here: members are ids with the names they sat down
under, computer seats are a level and a number (``ComputerSeat``), and the
presentation layer says them in each reader's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.fair_deal import FairDeal
from bot.ledger import HOUSE_ID
from bot.presentation.refusals import Refusal
from bot.table.log import RoundLog
from bot.table.placement import Placement
from engine import HOUSE_RULES, Game, IllegalAction
from engine.events import Event, GameOver, SeatClosed

TABLE_FORMAT = 2
"""The saved-table format; an unknown one is closed and refunded, never left stuck.

Format 2 saves a computer seat as its level and number; format 1 (still read) saved
only its level and kept its English name ("🤖 Basic 1") among the members' names.
"""
READABLE_FORMATS = (1, 2)
MAX_SEATS = HOUSE_RULES.max_players
MIN_SEATS = HOUSE_RULES.min_players
LEVELS = ("basic", "strong", "random")
"""The computer levels; a practice table seats all (what each does: ``bot.presentation.computer_names``)."""
PRACTICE_ONLY_LEVELS = ("random",)
"""Levels seated at practice tables only (``Table.computer_levels``): a computer that plays any legal move
loses about 6.8 chips a round to sound play, so where the house pays real chips it seats only levels that
play properly, and no member can farm it. A table saved with one seated keeps it (loading is unchanged)."""
LOBBY_IDLE_SECONDS = 10 * 60
TIMEOUTS_BEFORE_REMOVAL = 3
AWAY_ROUNDS_BEFORE_RELEASE = 3
"""Rounds a seat may be played by the computer for an away member before it is released (stack home)."""
PRACTICE_ROUNDS_KEPT = 3
"""Finished rounds a practice table keeps for "Analyse my play" (they are stored nowhere else)."""
Status = Literal["lobby", "playing", "closed"]


class TableError(Refusal):
    """What a member tried that the table can not do; ``code`` + ``params`` (``bot.presentation.refusals``).

    The runtime's ``StaleControl`` and the saved-table race's ``TableMoved`` are kinds of it.
    """


class TableMoved(TableError):
    """Another process (or an earlier copy of this one) saved the table since it was loaded here.

    Nothing was applied; the table in memory is replaced by the saved one, so
    the member can look again and act on what is really there.
    """


class TableFormatError(Exception):
    """A saved table this version of the bot can not read."""


@dataclass(frozen=True)
class ComputerSeat:
    """A computer player at a table: its strategy's level and its number among the table's computers."""

    level: str
    number: int


@dataclass(frozen=True)
class Unreadable:
    """A saved table this version can not load: closed with ``refunds`` paid back."""

    table_id: str
    guild_id: int
    channel_id: int
    chips: int
    refunds: dict[int, int]
    why: str


@dataclass
class Lobby:
    """A table before its game: the buy-ins it holds, and who a Play-again lobby invites.

    The lobby's transitions (join, seat a computer, leave, start) own it; ``start`` hands the
    stacks to the game (the invitation stays, unread, until the table closes).
    """

    stacks: dict[int, int] = field(default_factory=dict)
    """Buy-ins held while the table is a lobby."""
    invited: list[int] = field(default_factory=list)
    """A Play-again lobby: the previous game's players, named in it until they join."""


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
    seats: list[int] = field(default_factory=list)
    """Members in the order they sat down (R3.1)."""
    names: dict[int, str] = field(default_factory=dict)
    """Members' display names as they sat down (computers have none: they are ``computers``)."""
    lobby: Lobby = field(default_factory=Lobby)
    """Before the game: the buy-ins held and who is invited (``Lobby``)."""
    game: Game | None = None
    seq: int = 0
    """Bumped by every change: controls carry it, so an old control is refused."""
    turn_deadline: float | None = None
    timeouts: dict[int, int] = field(default_factory=dict)
    leave_after_round: list[int] = field(default_factory=list)
    stop_after_round: bool = False
    next_round_at: float | None = None
    last_activity: float = 0.0
    opened_at: float | None = None
    """When the lobby was opened (None: a table saved before this was kept)."""
    computers: dict[int, ComputerSeat] = field(default_factory=dict)
    """Computer seats (negative ids); their chips come from the house account."""
    version: int = 0
    """The saved row's version (0 before the first save); every save bumps it, only from this value.

    Kept in the row's ``version`` column, not in the saved JSON.
    """
    fair: FairDeal = field(default_factory=FairDeal)
    """The provably fair shuffle's state (docs/FAIRNESS.md): holds secret seeds, never shown."""
    last_reveal: dict[str, Any] | None = None
    """``Reveal.public()`` of the last round that ended: its seed is public now (shown in the result)."""
    last_round_id: int | None = None
    """History's id of the last round recorded (``/flipflop round``, ``/flipflop verify``)."""
    finishes: dict[int, list[int]] = field(default_factory=dict)
    """Each player's [chips taken away, last round dealt into]: the game's standings for the ratings."""
    practice: bool = False
    """A practice table: play-money chips, never in the ledger; no history, stats or ratings."""
    practice_rounds: list[dict[str, Any]] = field(default_factory=list)
    """A practice table's last finished rounds (``PRACTICE_ROUNDS_KEPT``), for "Analyse my play"."""
    away: dict[int, int] = field(default_factory=dict)
    """Members in away mode (the basic computer plays their seat with their chips): rounds ended away."""
    away_rounds: int = AWAY_ROUNDS_BEFORE_RELEASE
    """Rounds away after which a seat is released and its stack goes home (said on the table)."""
    away_moves: dict[str, list[int]] = field(default_factory=dict)
    """The round in play's (or last) seats that were away for some of it, each with the indices of its
    transcript actions the computer made for them: stored beside the round (``record_round``), so a
    look back reviews only the member's own moves and the round's story marks the seat with 💤."""
    placement: Placement = field(default_factory=Placement)
    """Where its messages are in Discord (``bot.table.placement``): the runtime's, set by reported facts."""
    log: RoundLog = field(default_factory=RoundLog)
    """What the table shows of the game: the round's log, the last move, the finished round's log."""
    tournament: str | None = None
    """A tournament's table for one round (``bot.tournament.ref.TableRef``): tournament chips, no ledger."""

    @property
    def plays_in(self) -> int:
        """Where the table's messages go: its thread, else its channel."""
        return self.placement.plays_in(self.channel_id)

    @property
    def lobby_stacks(self) -> dict[int, int]:
        """Buy-ins held while the table is a lobby (``lobby.stacks``)."""
        return self.lobby.stacks

    @property
    def invited(self) -> list[int]:
        """A Play-again lobby's invited players (``lobby.invited``)."""
        return self.lobby.invited

    @property
    def message_id(self) -> int | None:
        """The table's message (read-only: ``placement`` changes by transitions)."""
        return self.placement.message_id

    @property
    def thread_id(self) -> int | None:
        """The game's thread, if any (read-only: ``placement``)."""
        return self.placement.thread_id

    @property
    def lobby_message_id(self) -> int | None:
        """With a thread, the lobby message left in the channel (read-only: ``placement``)."""
        return self.placement.lobby_message_id

    def snapshot(self) -> Table:
        """A copy of the table as it is now, made through its saved form: what an outcome carries.

        Made under the table's lock, so whoever reads it after the lock is released sees the
        change it tells, not a later one. It shares only values nothing changes in place (a
        practice round's record, the last round's reveal).
        """
        copy = Table.from_json(self.to_json())
        copy.version = self.version
        return copy

    def is_away(self, user_id: int | str) -> bool:
        """A member whose seat the computer plays for now."""
        return int(user_id) in self.away

    @property
    def releases_away_seats(self) -> bool:
        """Whether an away seat is let go after ``away_rounds`` rounds away (its stack home).

        A tournament's table plays one round and hands its away seats on to the tournament's next
        table, which keeps them away until their members are back: it never releases one.
        """
        return self.tournament is None

    def away_round(self, user_id: int | str) -> int:
        """Which of the rounds away before release (``away_rounds``) an away member is in: "away 1/3".

        The round in play is one of them (its end is counted, ``transitions._note_away``), so the
        round the member went away in is their first; between rounds, the rounds ended away.
        """
        ended = self.away[int(user_id)]
        return ended + 1 if self.game is not None and self.game.in_round else ended

    def leaves_after_round(self, user_id: int | str) -> bool:
        """A member who asked to leave when this round ends (R8.4)."""
        return int(user_id) in self.leave_after_round

    @staticmethod
    def pid(user_id: int) -> str:
        """The engine's id for a member."""
        return str(user_id)

    @property
    def computer_levels(self) -> tuple[str, ...]:
        """The computer levels a host may seat here (the lobby's menu offers these).

        All of ``LEVELS`` at a practice table; where chips are real (the house pays the buy-ins),
        only those that play properly (``PRACTICE_ONLY_LEVELS`` left out).
        """
        return LEVELS if self.practice else tuple(lv for lv in LEVELS if lv not in PRACTICE_ONLY_LEVELS)

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

        A practice table holds none: its chips are practice chips.
        """
        if self.status == "closed" or self.practice or self.tournament:
            return 0
        if self.game is None:
            return sum(self.lobby_stacks.values())
        g = self.game
        return sum(g.stacks[p] for p in g.seated) + sum(g.pots.values())

    def refunds(self) -> dict[int, int]:
        """Who gets what if the table closes now: lobby buy-ins, or the engine's settlement (R8.3)."""
        if self.game is None:
            return dict(self.lobby_stacks)
        return {int(p): amount for p, amount in self.game.settlement_if_closed().items()}

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
            "message_id": self.placement.message_id,
            "seats": list(self.seats),
            "names": {str(k): v for k, v in self.names.items()},
            "lobby_stacks": {str(k): v for k, v in self.lobby.stacks.items()},
            "game": self.game.snapshot() if self.game is not None else None,
            "seq": self.seq,
            "turn_deadline": self.turn_deadline,
            "timeouts": {str(k): v for k, v in self.timeouts.items()},
            "leave_after_round": list(self.leave_after_round),
            "stop_after_round": self.stop_after_round,
            "next_round_at": self.next_round_at,
            "last_activity": self.last_activity,
            "opened_at": self.opened_at,
            "computers": {str(k): {"level": c.level, "number": c.number} for k, c in self.computers.items()},
            "fair": self.fair.to_json(),
            "last_reveal": self.last_reveal,
            "last_round_id": self.last_round_id,
            "finishes": {str(k): v for k, v in self.finishes.items()},
            "practice": self.practice,
            "practice_rounds": self.practice_rounds,
            "away": {str(k): v for k, v in self.away.items()},
            "away_rounds": self.away_rounds,
            "away_moves": {seat: list(moves) for seat, moves in self.away_moves.items()},
            "invited": list(self.lobby.invited),
            "thread_id": self.placement.thread_id,
            "lobby_message_id": self.placement.lobby_message_id,
            "log": self.log.to_json(),
            "tournament": self.tournament,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """Rebuild a saved table (today's format or format 1); ``TableFormatError`` if it is unknown."""
        if not isinstance(data, dict) or data.get("format") not in READABLE_FORMATS:
            raise TableFormatError(
                f"saved table format {data.get('format') if isinstance(data, dict) else None!r}"
            )
        try:
            names = {int(k): v for k, v in data["names"].items()}
            computers = _computers(data.get("computers", {}), names)
            return cls(
                id=data["id"],
                guild_id=int(data["guild_id"]),
                channel_id=int(data["channel_id"]),
                host_id=int(data["host_id"]),
                stake=int(data["stake"]),
                buy_in=int(data["buy_in"]),
                turn_seconds=int(data["turn_seconds"]),
                status=data["status"],
                seats=[int(s) for s in data["seats"]],
                names={k: v for k, v in names.items() if k not in computers},
                lobby=Lobby(
                    {int(k): int(v) for k, v in data["lobby_stacks"].items()},
                    [int(u) for u in data.get("invited", [])],
                ),
                game=Game.restore(data["game"]) if data["game"] is not None else None,
                seq=int(data["seq"]),
                turn_deadline=data["turn_deadline"],
                timeouts={int(k): int(v) for k, v in data["timeouts"].items()},
                leave_after_round=[int(u) for u in data["leave_after_round"]],
                stop_after_round=bool(data["stop_after_round"]),
                next_round_at=data["next_round_at"],
                last_activity=float(data["last_activity"]),
                opened_at=_float_or_none(data.get("opened_at")),
                computers=computers,
                fair=FairDeal.from_json(data["fair"]) if data.get("fair") else FairDeal(),
                last_reveal=data.get("last_reveal"),
                last_round_id=data.get("last_round_id"),
                finishes={int(k): [int(c), int(r)] for k, (c, r) in data.get("finishes", {}).items()},
                practice=bool(data.get("practice", False)),
                practice_rounds=list(data.get("practice_rounds", [])),
                away={int(k): int(v) for k, v in data.get("away", {}).items()},
                away_rounds=int(data.get("away_rounds", AWAY_ROUNDS_BEFORE_RELEASE)),
                away_moves={str(k): [int(i) for i in v] for k, v in data.get("away_moves", {}).items()},
                placement=Placement(
                    _id_or_none(data["message_id"]),
                    _id_or_none(data.get("thread_id")),
                    _id_or_none(data.get("lobby_message_id")),
                ),
                log=RoundLog.from_json(data.get("log")),
                tournament=data.get("tournament"),
            )
        except (KeyError, TypeError, ValueError, IllegalAction) as e:
            raise TableFormatError(f"saved table is damaged: {e}") from None


def _float_or_none(value: Any) -> float | None:
    return float(value) if value is not None else None


def _id_or_none(value: Any) -> int | None:
    return int(value) if value is not None else None


_NUMBER_AT_END = re.compile(r"(\d+)\s*$")


def _computers(saved: dict[str, Any], names: dict[int, str]) -> dict[int, ComputerSeat]:
    """Computer seats as saved: ``{"level", "number"}`` now; format 1 saved the level alone.

    Format 1's number is the one in the seat's saved name ("🤖 Basic 2"), or its
    place among the computers (seats -1, -2, … in the order they sat) if that name
    has none.
    """
    out: dict[int, ComputerSeat] = {}
    for place, (key, value) in enumerate(sorted(saved.items(), key=lambda kv: -int(kv[0])), start=1):
        seat = int(key)
        if isinstance(value, dict):
            out[seat] = ComputerSeat(str(value["level"]), int(value["number"]))
            continue
        found = _NUMBER_AT_END.search(names.get(seat, ""))
        out[seat] = ComputerSeat(str(value), int(found.group(1)) if found else place)
    return out


def account(user_id: int) -> int:
    """The ledger account behind a seat: computer seats (negative ids) play with the house's chips."""
    return HOUSE_ID if user_id < 0 else user_id


def cash_outs(events: list[Event] | tuple[Event, ...]) -> list[tuple[int, int]]:
    """(member, chips) going back to balances because of these events (R2.7, R8.3, R8.4)."""
    out: list[tuple[int, int]] = []
    for e in events:
        if isinstance(e, SeatClosed):
            out.append((int(e.player), e.stack))
        elif isinstance(e, GameOver):
            out.extend((int(p), s) for p, s in e.stacks.items())
    return out
