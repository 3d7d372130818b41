"""A game's round log as table data: what the table shows, saved with the table, worded when shown.

The log holds the *facts* a player read on the table (the engine's events and the
table-life notices that are told in the round's log, with the little they are
worded from), never sentences: the presentation layer words them in the reader's
language each time the table is drawn. It is saved with the table in the same
transaction as the change it tells (``OpenTables.commit``), so a restart, a crash
or another process shows the same log, line for line.

Three parts: the round in play's told changes (``lines``), the last move (what
the table says happened last), and the finished round's log until the next
round's deal has been shown (its record in the channel is drawn from it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.table import notices
from bot.table.notices import ComputersOnly, Notice, Resumed, TableClosed, TimedOut
from engine import Card
from engine import events as ev
from engine.events import Event

TOLD: tuple[type, ...] = (
    ev.RoundStarted,
    ev.CardShown,
    ev.Dropped,
    ev.PlayerLeft,
    ev.RoundEnded,
    ev.SideStakePaid,
    ev.PotPaid,
    ev.PotCarried,
    ev.SeatClosed,
    ev.NextDealer,
)
"""Events told in the round's log (the game's end is its final standings, told as news)."""
MOVES: tuple[type, ...] = (ev.Drew, ev.Discarded, ev.SpreadLaid, ev.LaidOff, ev.Dropped, ev.PlayerLeft)
"""The events that are a player's move: the table's "last move" line tells the latest."""
READS_STACKS: tuple[type, ...] = (ev.RoundStarted, ev.GameOver)
"""Events whose wording reads the stacks (a short stack all in at 0; standings): kept with them."""
READS_ENDS: tuple[type, ...] = (ev.NextDealer, ev.PotCarried)
"""Events worded otherwise when the game ends with them (no "next deal"; no pot carried to a next round)."""
NOT_LOGGED: tuple[type, ...] = (TableClosed, ComputersOnly, Resumed)
"""Notices that are not lines of the log: a closing is news, a game of computers only is said with
its final standings, and a restart changes nothing a player reads."""

_TYPES: dict[str, type] = {
    cls.__name__: cls
    for module in (ev, notices)
    for cls in vars(module).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
}


KIND = "~"
"""The key that names a fact's type in its JSON object (no field of a fact is called so)."""
CARD = "#"
"""A card is its code behind this mark ("#TH"); any other text that starts with it is marked twice."""


def encode(value: Any) -> Any:
    """Compact JSON for an event, a notice or a value in one; ``decode`` gives back an equal object.

    Facts' sequences are tuples and their maps have text keys, so a JSON array reads back as a
    tuple and an object as a dict; a fact is an object naming its type.
    """
    if isinstance(value, Card):  # a NamedTuple: before tuples
        return CARD + value.code
    if isinstance(value, str):
        return CARD + value if value.startswith(CARD) else value
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) and k != KIND for k in value):
            raise TypeError(f"not a loggable map: {value!r}")
        return {k: encode(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value).__name__
        if _TYPES.get(kind) is not type(value):
            raise TypeError(f"not a loggable fact: {kind}")
        return {KIND: kind, **{f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if value is None or isinstance(value, bool | int | float):
        return value
    raise TypeError(f"not loggable: {value!r}")


def decode(data: Any) -> Any:
    """The object ``encode`` made ``data`` of (``KeyError``/``TypeError``/``ValueError`` if it is damaged)."""
    if isinstance(data, str):
        if not data.startswith(CARD):
            return data
        rest = data[len(CARD) :]
        return rest if rest.startswith(CARD) else Card.parse(rest)
    if isinstance(data, list):
        return tuple(decode(v) for v in data)
    if isinstance(data, dict):
        fields = {k: decode(v) for k, v in data.items() if k != KIND}
        return _TYPES[data[KIND]](**fields) if KIND in data else fields
    return data


Fair = tuple[str | None, dict[str, Any] | None, int | None]
"""What a change's fair-deal lines are worded from: the commitment dealt under, the revealed seeds and
the round's id in history (``None`` where there is none)."""


@dataclass(frozen=True)
class Entry:
    """One change as the log tells it: its notices, then its events, and what they are worded from.

    ``stacks`` and ``ends`` are the table just after the change (a short stack is all in at 0;
    no "next deal" nor a pot carried into it is told when the game ends with it); ``spreads``
    and ``round`` are kept with a round's end, for its picture.
    """

    notices: tuple[Notice, ...] = ()
    events: tuple[Event, ...] = ()
    stacks: dict[str, int] = field(default_factory=dict)
    ends: bool = False
    round: int = 0
    spreads: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    commitment: str = ""
    """With a deal: the commitment it was dealt under (its line in the log says it)."""
    reveal: dict[str, Any] | None = None
    """With a round's end: its revealed seeds (``Reveal.public()``), said in its result."""
    round_id: int | None = None
    """With a round's end: history's id of the round (``/flipflop verify round:<id>``)."""
    away: tuple[str, ...] = ()
    """Seats whose move the computer made in this change, their members away (named with 💤)."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (what is empty is left out: a table is saved at every move).

        Encoded once (an entry never changes, and the round's log is saved whole at every move);
        the dict is shared, so it is read, never changed.
        """
        return self._encoded

    @cached_property
    def _encoded(self) -> dict[str, Any]:
        data = {
            "notices": encode(self.notices),
            "events": encode(self.events),
            "stacks": dict(self.stacks),
            "ends": self.ends,
            "round": self.round,
            "spreads": encode(self.spreads),
            "commitment": self.commitment,
            "reveal": self.reveal,
            "round_id": self.round_id,
            "away": list(self.away),
        }
        return {k: v for k, v in data.items() if v}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        """Back from ``to_json``."""
        return cls(
            notices=decode(data.get("notices", [])),
            events=decode(data.get("events", [])),
            stacks={str(k): int(v) for k, v in data.get("stacks", {}).items()},
            ends=bool(data.get("ends", False)),
            round=int(data.get("round", 0)),
            spreads=decode(data.get("spreads", [])),
            commitment=str(data.get("commitment", "")),
            reveal=data.get("reveal"),
            round_id=int(data["round_id"]) if data.get("round_id") is not None else None,
            away=tuple(str(p) for p in data.get("away", ())),
        )

    @property
    def ended(self) -> ev.RoundEnded | None:
        """The round's end this change told, if it did."""
        return next((e for e in self.events if isinstance(e, ev.RoundEnded)), None)


def without_removed_leaving(events: Iterable[Event], told: Iterable[Notice]) -> list[Event]:
    """The events but the leaving of a player removed for timeouts: the removal already says they are out."""
    removed = {str(n.player) for n in told if isinstance(n, TimedOut) and n.removed}
    return [e for e in events if not (isinstance(e, ev.PlayerLeft) and e.player in removed)]


def told_entry(told: tuple[Notice, ...], events: list[Event] | tuple[Event, ...]) -> Entry | None:
    """What of a change its round's log tells (None: nothing), before what it is worded from is added.

    Not the leaving of a player removed for timeouts (``without_removed_leaving``).
    """
    kept = tuple(without_removed_leaving((e for e in events if isinstance(e, TOLD)), told))
    notices = tuple(n for n in told if not isinstance(n, NOT_LOGGED))
    return Entry(notices, kept) if kept or notices else None


@dataclass
class RoundLog:
    """The round in play's log, its last move, and the finished round's log (until its record is made)."""

    lines: list[Entry] = field(default_factory=list)
    last: tuple[Event, ...] = ()
    """The latest change's moves (draws, discards, spreads, drops, leaving): the "last move" line."""
    finished: list[Entry] = field(default_factory=list)

    def add(
        self,
        told: tuple[Notice, ...],
        events: list[Event] | tuple[Event, ...],
        *,
        stacks: dict[str, int],
        ends: bool,
        round_number: int,
        spreads: tuple[tuple[str, tuple[Card, ...]], ...],
        fair: Fair = (None, None, None),
        away: frozenset[str] = frozenset(),
    ) -> None:
        """Keep what one change tells; a new deal starts a new log (the old one becomes ``finished``).

        ``away``: the seats away now; one that moved in this change was played by the computer.
        """
        if any(isinstance(e, ev.RoundStarted) for e in events):
            self.finished, self.lines, self.last = self.lines, [], ()
        moves = tuple(e for e in events if isinstance(e, MOVES))
        if moves:
            self.last = moves
        entry = told_entry(told, events)
        if entry is None:
            return
        ended = entry.ended is not None
        dealt = any(isinstance(e, ev.RoundStarted) for e in entry.events)
        movers = {str(getattr(e, "player", "")) for e in events if isinstance(e, MOVES)}
        commitment, reveal, round_id = fair
        self.lines.append(
            dataclasses.replace(
                entry,
                commitment=(commitment or "") if dealt else "",
                reveal=reveal if ended else None,
                round_id=round_id if ended else None,
                stacks=dict(stacks) if any(isinstance(e, READS_STACKS) for e in entry.events) else {},
                ends=ends and any(isinstance(e, READS_ENDS) for e in entry.events),
                round=round_number if ended else 0,
                spreads=spreads if ended else (),
                away=tuple(sorted(away & movers)),
            )
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, saved with the table."""
        return {
            "lines": [e.to_json() for e in self.lines],
            "last": encode(self.last),
            "finished": [e.to_json() for e in self.finished],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> RoundLog:
        """Back from ``to_json`` (a table saved before logs were kept starts with an empty one)."""
        if not data:
            return cls()
        return cls(
            lines=[Entry.from_json(e) for e in data["lines"]],
            last=decode(data["last"]),
            finished=[Entry.from_json(e) for e in data["finished"]],
        )
