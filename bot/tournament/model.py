"""A sit-and-go tournament as data: its settings, entrants, tables, levels, busts and finish.

No Discord, no words and no chips of the server here: entry fees are server
chips (``bot.tournament.store`` moves them through the ledger), while the
stacks played with are tournament chips that exist only in this object. The
rules a tournament states up front, and keeps:

- Every entrant starts with ``STARTING_STACK`` tournament chips. The stake
  starts at ``FIRST_STAKE`` and rises every ``level_rounds`` rounds along
  ``STAKE_STEPS`` (then stays at the last step).
- Rounds are dealt at every table together: the next one waits for the last
  table to finish, so seats move (chips with them) only between rounds.
- A player whose stack no longer covers the stake is out (busted, or blinded
  out as the stake rises); what is left of their stack joins their table's
  carried pots. Players out in the same round share a place when their
  stacks were equal, else the bigger stack finishes higher.
- When fewer than three players are left — Flip Flop needs three — the
  tournament is over: the players still in are placed by their stacks.
- When it can not go on (``stop``: no member is still in, or the host or an
  admin stops it)
  the players still in are placed by their stacks the same way, and the
  prizes are paid by those places.
- Computer entrants (when allowed) fill the empty seats at the start; the
  house pays their fees and takes their prizes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from bot.ledger import MAX_AMOUNT
from bot.presentation.refusals import Refusal
from bot.tournament.payouts import PAYOUTS, prizes
from bot.tournament.seating import MIN_AT_TABLE, Move, Tables, rebalance, seat

MIN_SEATS, MAX_SEATS = 6, 25
"""Seats a tournament may offer (two full tables at least, five at most)."""
MIN_LEVEL_ROUNDS, MAX_LEVEL_ROUNDS = 1, 20
FIRST_STAKE = 10
STARTING_STACK = 100 * FIRST_STAKE
STAKE_STEPS = (1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 300, 500)
"""The stake at each level, in first stakes: 10, 20, 30, 50, 80 … 5,000."""
FORMAT = 1
Status = Literal["open", "running", "finished", "cancelled"]
StartMode = Literal["full", "time"]


class TournamentError(Refusal):
    """What a member tried that the tournament can not do: ``code`` + ``params``."""


@dataclass(frozen=True)
class TournamentSettings:
    """What the host chose when opening it."""

    fee: int
    seats: int
    start: StartMode = "full"
    start_at: float | None = None
    """When ``start`` is ``time``: the moment it starts (with whoever joined, computers filling in)."""
    level_rounds: int = 5
    computers: bool = True
    payout: str = "50_30_20"

    def check(self) -> None:
        """Raise ``TournamentError`` unless the settings make a tournament."""
        if not 1 <= self.fee <= MAX_AMOUNT:
            raise TournamentError("tournament_fee_out_of_range", low=1, high=MAX_AMOUNT)
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise TournamentError("tournament_seats_out_of_range", low=MIN_SEATS, high=MAX_SEATS)
        if not MIN_LEVEL_ROUNDS <= self.level_rounds <= MAX_LEVEL_ROUNDS:
            raise TournamentError(
                "tournament_levels_out_of_range", low=MIN_LEVEL_ROUNDS, high=MAX_LEVEL_ROUNDS
            )
        if self.payout not in PAYOUTS:
            raise TournamentError("tournament_payout_invalid")
        if (self.start == "time") != (self.start_at is not None):
            raise TournamentError("tournament_start_invalid")


@dataclass
class Entrant:
    """One entrant: a member (positive id) or a computer (negative id, paid for by the house)."""

    id: int
    paid_by: int
    """The account the fee came from (the member, or the house for a computer)."""
    stack: int = STARTING_STACK
    away: bool = False
    out_round: int | None = None
    """The round they went out in (None while still in)."""


def check_place(threads: bool) -> None:
    """A tournament plays each table in a thread of its own: refused where the bot can not open them.

    ``threads``: a text channel where the bot may create public threads and send messages in them.
    """
    if not threads:
        raise TournamentError("tournament_needs_threads")


@dataclass
class Tournament:
    """One sit-and-go in one channel: open for entries, running, then finished or cancelled."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    settings: TournamentSettings
    status: Status = "open"
    entrants: dict[int, Entrant] = field(default_factory=dict)
    """In the order they joined."""
    names: dict[int, str] = field(default_factory=dict)
    """Members' display names as they joined (a ``names`` map, as the privacy tools expect)."""
    tables: Tables = field(default_factory=dict)
    pots: dict[int, dict[str, int]] = field(default_factory=dict)
    """Tournament chips carried in each table's pots (game, flip, flop) between rounds."""
    played: dict[int, int] = field(default_factory=dict)
    """Each table's rounds played in the current tournament round (1 once its round ended)."""
    round: int = 0
    """Tournament rounds played (every table dealt once each)."""
    finish: list[list[int]] = field(default_factory=list)
    """The out, a group per place shared, the last place first."""
    last_moves: list[Move] = field(default_factory=list)
    message_id: int | None = None
    threads: dict[int, int] = field(default_factory=dict)
    """Table number → its thread (the cog layer fills it)."""
    stopped: bool = False
    """Ended by the stop rule rather than played down to one."""
    version: int = 0

    # ------------------------------------------------------------ reading

    @property
    def level(self) -> int:
        """The stake level, from 1."""
        return min(self.round // self.settings.level_rounds, len(STAKE_STEPS) - 1) + 1

    @property
    def stake(self) -> int:
        """The stake at this level, in tournament chips."""
        return FIRST_STAKE * STAKE_STEPS[self.level - 1]

    @property
    def rounds_to_next_level(self) -> int:
        """Rounds left before the stake rises (0 at the last level)."""
        if self.level == len(STAKE_STEPS):
            return 0
        return self.settings.level_rounds - self.round % self.settings.level_rounds

    def alive(self) -> list[int]:
        """The entrants still in, in entry order."""
        return [e.id for e in self.entrants.values() if e.out_round is None]

    def table_of(self, entrant: int) -> int | None:
        """The table the entrant sits at (None when out, or before the start)."""
        return next((n for n, seats in self.tables.items() if entrant in seats), None)

    @property
    def pool(self) -> int:
        """The entry fees, all of them (every entrant paid one)."""
        return self.settings.fee * len(self.entrants)

    def fees_by_account(self) -> dict[int, int]:
        """Who paid the fees it holds: what a cancellation gives back."""
        paid: dict[int, int] = {}
        for e in self.entrants.values():
            paid[e.paid_by] = paid.get(e.paid_by, 0) + self.settings.fee
        return paid

    def chips(self) -> int:
        """Tournament chips in play: stacks and carried pots (always entrants × the starting stack)."""
        return sum(e.stack for e in self.entrants.values()) + sum(self.pot(n) for n in self.pots)

    def pot(self, table: int) -> int:
        """The chips carried in a table's pots."""
        return sum(self.pots.get(table, {}).values())

    def standings(self) -> list[list[int]]:
        """Places, best first, as groups sharing a place: the players still in by stack, then the out."""
        by_stack: dict[int, list[int]] = {}
        for entrant in self.alive():
            by_stack.setdefault(self.entrants[entrant].stack, []).append(entrant)
        ahead = [by_stack[s] for s in sorted(by_stack, reverse=True)]
        return ahead + list(reversed(self.finish))

    def place_of(self, entrant: int) -> int:
        """The entrant's place now (players sharing a place have the best of it)."""
        place = 1
        for group in self.standings():
            if entrant in group:
                return place
            place += len(group)
        raise KeyError(entrant)

    def prizes(self) -> dict[int, int]:
        """Each entrant's prize by the standings now (the pool split by the payout table)."""
        return prizes(self.pool, self.settings.payout, self.standings())

    # ------------------------------------------------------------ entries

    def check_clicked_at(self, guild_id: int | None, channel_id: int | None, message_id: int | None) -> None:
        """A button on this tournament's own message: its server, channel and (once saved) message.

        A custom id names its tournament; a button passed on or forged on another message of
        the bot's, here or in another server, must change nothing (no entry, no fee, no cancel).
        """
        here = guild_id == self.guild_id and channel_id == self.channel_id
        if not here or (self.message_id is not None and message_id not in (None, self.message_id)):
            raise TournamentError("tournament_other_place")

    def _check_not_over(self) -> None:
        """A finished or cancelled tournament takes no click: it says so (not "it has started")."""
        if self.status in ("finished", "cancelled"):
            raise TournamentError("tournament_gone")

    def join(self, entrant: int, name: str, paid_by: int | None = None) -> Entrant:
        """Take an entry (the fee is the store's business); refuse twice, full or after the start."""
        self._check_not_over()
        if self.status != "open":
            raise TournamentError("tournament_join_after_start")
        if entrant in self.entrants:
            raise TournamentError("tournament_already_entered")
        if len(self.entrants) >= self.settings.seats:
            raise TournamentError("tournament_full", seats=self.settings.seats)
        new = Entrant(entrant, entrant if paid_by is None else paid_by)
        self.entrants[entrant] = new
        if name:
            self.names[entrant] = name
        return new

    def leave(self, entrant: int) -> Entrant:
        """Withdraw an entry before the start (the fee goes back)."""
        self._check_not_over()
        if self.status != "open":
            raise TournamentError("tournament_leave_after_start")
        if entrant not in self.entrants:
            raise TournamentError("tournament_not_entered")
        self.names.pop(entrant, None)
        return self.entrants.pop(entrant)

    @property
    def full(self) -> bool:
        """Every seat taken."""
        return len(self.entrants) >= self.settings.seats

    def start(self, order: Sequence[int]) -> Tables:
        """Seat everyone (``order``: the entrants shuffled) and start round 1."""
        if self.status != "open":
            raise TournamentError("tournament_already_started")
        if len(self.entrants) < MIN_SEATS:
            raise TournamentError("tournament_too_few", low=MIN_SEATS, entered=len(self.entrants))
        if sorted(order) != sorted(self.entrants):
            raise ValueError("the seating order must name every entrant once")
        self.status = "running"
        self.tables = seat(order)
        self.pots = {n: {} for n in self.tables}
        self.played = {n: 0 for n in self.tables}
        return self.tables

    def check_manager(self, member: int, manages_server: bool) -> None:
        """Starting, cancelling and stopping are for the host or a member with Manage Server."""
        if member != self.host_id and not manages_server:
            raise TournamentError("tournament_host_only")

    def check_stopper(self, member: int, manages_server: bool) -> None:
        """**Stop** places everyone by their stacks: the host may not pick that moment.

        Once any table's round is in, only a member with Manage Server may stop it: else a host who
        leads could stop it and take the pool, the house's fees for computer players with it, and a
        host who does not play (a friend, or an alt: opening takes no chips) could do it for one who does.
        Then any other member is told so too, not sent to the host, who may no longer.
        """
        if not manages_server and (self.round > 0 or any(self.played.values())):
            raise TournamentError("tournament_stop_started")
        self.check_manager(member, manages_server)

    def cancel(self) -> None:
        """Called off before the start (the store gives the fees back)."""
        if self.status != "open":
            raise TournamentError("tournament_cancel_after_start")
        self.status = "cancelled"

    # ------------------------------------------------------------ rounds

    def table_round_ended(self, table: int, stacks: dict[int, int], pots: dict[str, int]) -> bool:
        """A table's round ended with these stacks and carried pot; True when every table's has.

        The table's chips must be the same before and after (tournament chips are conserved).
        """
        if self.status != "running" or table not in self.tables:
            raise TournamentError("tournament_no_such_table")
        if sorted(stacks) != sorted(self.tables[table]):
            raise ValueError(f"table {table}'s stacks must name exactly its players")
        before = sum(self.entrants[e].stack for e in stacks) + self.pot(table)
        after = sum(stacks.values()) + sum(pots.values())
        if after != before or min([*pots.values(), *stacks.values()]) < 0:
            raise ValueError(f"table {table}'s round changed the chips from {before}")
        for entrant, stack in stacks.items():
            self.entrants[entrant].stack = stack
        self.pots[table] = {k: v for k, v in pots.items() if v}
        self.played[table] = 1
        return all(self.played.values())

    def advance(self) -> tuple[list[int], list[Move]]:
        """Every table's round is over: count it, put out who can not pay the stake, rebalance.

        Returns the players out this round and the seats that moved. Finishes
        the tournament when fewer than three are left.
        """
        if not all(self.played.values()):
            raise ValueError("a table is still playing its round")
        self.round += 1
        out = [e for e in self.alive() if self.entrants[e].stack < self.stake]
        self._put_out(out)
        self.tables, self.last_moves = self._rebalanced()
        self.played = {n: 0 for n in self.tables}
        if len(self.alive()) < MIN_AT_TABLE:
            self._share_all_pots()
            self.status = "finished"
        return out, self.last_moves

    def _put_out(self, out: list[int]) -> None:
        """Out this round: leftovers join their table's pots; equal stacks share a place."""
        groups: dict[int, list[int]] = {}
        for entrant in out:
            e = self.entrants[entrant]
            groups.setdefault(e.stack, []).append(entrant)
            table = self.table_of(entrant)
            if table is not None:
                carried = self.pots.setdefault(table, {})
                carried["game"] = carried.get("game", 0) + e.stack
            e.stack = 0
            e.out_round = self.round
        self.finish.extend(groups[s] for s in sorted(groups))

    def _rebalanced(self) -> tuple[Tables, list[Move]]:
        """The tables after a rebalance; a broken table's carried pots go to its players still in."""
        tables, moves = rebalance(self.tables, self.alive())
        for broken in [n for n in self.tables if n not in tables]:
            self._share_pot(broken, [e for e in self.tables[broken] if self.entrants[e].out_round is None])
        for n in tables:
            self.pots.setdefault(n, {})
        return tables, moves

    def _share_pot(self, table: int, players: list[int]) -> None:
        """A broken table's carried chips, split evenly among who sat there (remainder by seat order).

        When nobody there is still in (or no table is left), they go to the best stack still in.
        """
        chips = sum(self.pots.pop(table, {}).values())
        takers = players or sorted(self.alive(), key=lambda e: -self.entrants[e].stack)[:1]
        if not takers:
            self.pots[table] = {"game": chips}  # nobody left to take them: the tournament is over
            return
        each, left = divmod(chips, len(takers))
        for i, entrant in enumerate(takers):
            self.entrants[entrant].stack += each + (1 if i < left else 0)

    def stop(self) -> None:
        """It can not go on: the players still in are placed by their stacks (the stated rule)."""
        if self.status != "running":
            raise TournamentError("tournament_not_running")
        self._share_all_pots()
        self.status = "finished"
        self.stopped = True

    def _share_all_pots(self) -> None:
        """R8.3 at the tournament's end: every table's carried pots go to its players still in.

        Before anyone is placed by their stack (``_share_pot``; a table with none still in: the
        best stack still in).
        """
        for table in list(self.pots):
            still_in = [e for e in self.tables.get(table, []) if self.entrants[e].out_round is None]
            self._share_pot(table, still_in)

    def can_go_on(self) -> bool:
        """False when no member is still in (computers alone do not play it out for the house).

        A member who is away stays in: the computer plays their seat, and the rising stake
        blinds them out if they do not come back.
        """
        return any(e > 0 for e in self.alive())

    # ------------------------------------------------------------ saving

    def to_json(self) -> str:
        """The tournament as saved (its version lives in the row)."""
        data = asdict(self)
        data["format"] = FORMAT
        data.pop("version")
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, version: int = 0) -> Tournament:
        """A saved tournament read back."""
        data: dict[str, Any] = json.loads(text)
        if data.pop("format", None) != FORMAT:
            raise ValueError("unknown tournament format")

        def ints(d: dict[str, Any]) -> dict[int, Any]:
            return {int(k): v for k, v in d.items()}

        data["settings"] = TournamentSettings(**data["settings"])
        data["entrants"] = {int(k): Entrant(**v) for k, v in data["entrants"].items()}
        for name in ("names", "tables", "pots", "played", "threads"):
            data[name] = ints(data[name])
        data["last_moves"] = [Move(**m) for m in data["last_moves"]]
        return cls(**data, version=version)
