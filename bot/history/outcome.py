"""What a finished round came to, derived from its transcript alone (pure: no I/O).

Why derive instead of record: a stat kept beside the game can drift from
it; a stat computed from the transcript in the transaction that stores the
transcript can not. ``engine.replay.replay`` is the judge of the round (its
result is what ``python -m engine.replay`` prints); the same transcript is
then walked through ``engine.Game`` once more to read the events that say
who dropped and how many chips each pot paid whom (R2.6, R7).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from bot.history.members import HistoryError
from engine.actions import Leave
from engine.cards import Card
from engine.codec import parse_action
from engine.events import POTS, Dropped, Event, PotPaid, RoundStarted, TurnStarted
from engine.game import Game, Seat
from engine.replay import parse_deck, replay
from engine.settings import HOUSE_RULES

SEAT_FIELDS = frozenset({"player", "dealer", "to_player"})
"""Event fields that name one seat."""
SEATS_FIELDS = frozenset({"players", "game_winners", "standings"})
"""Event fields that list seats."""
BY_SEAT_FIELDS = frozenset({"paid", "hands", "values", "shares", "stacks"})
"""Event fields keyed by seat."""


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's round (R2, R7): chips won or lost, pots won, and how."""

    seat: str
    net: int
    """Stack after the round minus stack before (stakes, side stakes and winnings, R2)."""
    won: dict[str, int | None]
    """Chips each pot paid this seat as its winner (``None``: not a winner of that pot)."""
    way: str | None
    """The round's end reason when this seat won the game pot, else None."""
    dropped: bool
    caught: bool
    """Dropped and did not have the lowest hand (R7.2)."""

    @property
    def best_pot(self) -> int | None:
        """The biggest single pot this seat won this round."""
        amounts = [a for a in self.won.values() if a is not None]
        return max(amounts) if amounts else None


@dataclass(frozen=True)
class RoundOutcome:
    """A finished round: its replay result, how it ended, every dealt-in seat, and its events."""

    result: dict[str, Any]
    end: str
    seats: tuple[SeatOutcome, ...]
    events: tuple[Event, ...]
    origins: tuple[int | None, ...] = ()
    """Each event's transcript action (its index), None for those before the first (the deal)."""


EMPTY_SEAT = "~empty"
"""Seat ids of the stand-ins ``replayable`` adds (a Discord member's seat id is a number)."""


def replayable(transcript: Mapping[str, Any]) -> dict[str, Any]:
    """The transcript, with stand-in seats when the round was dealt to fewer than three players.

    Why: a game goes on with two players once others are out (R8.1 only asks
    three to start), but ``engine.replay`` starts a new game from a transcript
    and so refuses fewer than three seats. Each stand-in has an empty stack,
    so R2.3 closes it before the deal and the round replays exactly as it was
    played (the deal goes round the seated players, the dealer is named). It
    is what ``record_round`` stores, so the stored transcript always replays.
    """
    out = dict(transcript)
    seats = transcript.get("seats")
    if isinstance(seats, list) and 0 < len(seats) < HOUSE_RULES.min_players:
        missing = HOUSE_RULES.min_players - len(seats)
        fill = [{"id": f"{EMPTY_SEAT}{i}", "stack": 0} for i in range(1, missing + 1)]
        out["seats"] = [*seats, *fill]
    return out


def round_outcome(transcript: object) -> RoundOutcome:
    """Replay a one-round transcript (``Game.round_transcript()``) and read its outcome.

    Raises ``HistoryError``: ``bad_transcript`` (not one complete round's
    transcript), ``illegal_transcript`` (an action the rules refuse),
    ``round_not_over`` (the round is still in play).
    """
    result, status = replay(transcript)
    if status == 2:
        raise HistoryError("bad_transcript", f"not a transcript: {result['error']['message']}")
    if status == 1:
        raise HistoryError("illegal_transcript", f"the rules refuse an action: {result['error']['message']}")
    assert isinstance(transcript, Mapping)
    if len(transcript["rounds"]) != 1 or len(result["rounds"]) != 1:
        raise HistoryError("bad_transcript", "a recorded round's transcript holds exactly one dealt round")
    end = result["rounds"][0]["end"]
    if end is None:
        raise HistoryError("round_not_over", "the round is still in play; only finished rounds are recorded")
    events, origins = _events(transcript)
    start = {s["id"]: s["stack"] for s in transcript["seats"]}
    winners: dict[str, list[str]] = result["rounds"][0]["winners"]
    won: dict[str, dict[str, int | None]] = {}
    dealt: tuple[str, ...] = ()
    dropper: str | None = None
    for event in events:
        if isinstance(event, RoundStarted):
            dealt = event.players
        elif isinstance(event, Dropped):
            dropper = event.player
        elif isinstance(event, PotPaid) and event.pot not in won and winners[event.pot]:
            won[event.pot] = dict(event.shares)  # the first payment of a pot is to its winners (R2.6)
    stacks: dict[str, int] = result["stacks"]
    seats = tuple(
        SeatOutcome(
            seat=seat,
            net=stacks[seat] - start[seat],
            won={pot: won[pot].get(seat) if pot in won else None for pot in POTS},
            way=end if seat in winners["game"] else None,
            dropped=seat == dropper,
            caught=seat == dropper and end == "caught",
        )
        for seat in dealt
    )
    return RoundOutcome(result, end, seats, tuple(events), tuple(origins))


def _events(transcript: Mapping[str, Any]) -> tuple[list[Event], list[int | None]]:
    """Every event of the round, by applying the (already validated) transcript to a ``Game``.

    With each event, the index of the action it came from (None: before the first action).
    """
    seats = [Seat(s["id"], s["stack"]) for s in transcript["seats"]]
    pots = transcript.get("pots") or {}
    game = Game(seats, transcript["stake"], {pot: pots.get(pot, 0) for pot in POTS})
    entry = transcript["rounds"][0]
    ids = [seat.id for seat in seats]
    for leaver in entry.get("left_before") or []:  # players gone between rounds, as the replayer does
        if leaver in game.seated:
            game.apply(Leave(leaver))
    events = game.start_round(deck=parse_deck(entry["deck"], "deck"), dealer=entry["dealer"])
    origins: list[int | None] = [None] * len(events)
    for i, action in enumerate(entry["actions"]):
        caused = game.apply(parse_action(action, ids, f"actions[{i}]"))
        events += caused
        origins += [i] * len(caused)
    return events, origins


def from_the_deal(events: Iterable[Event]) -> list[Event]:
    """A stored round's events from its deal on.

    A replayed transcript closes first the seats of players no longer at the table (out of chips,
    or gone, in an earlier round): that is not this round's story.
    """
    out: list[Event] = []
    for event in events:
        if out or isinstance(event, RoundStarted):
            out.append(event)
    return out


def story(events: tuple[Event, ...], members: Mapping[str, int | str]) -> list[tuple[str, dict[str, Any]]]:
    """The round turn by turn as data: ``(code, params)`` per event, seats as named, cards as codes.

    The code is the event's name in snake case (``round_started``, ``drew``,
    ``card_shown``, ``dropped``, ``round_ended`` with every hand, ``pot_paid`` …);
    the params are the event's fields. ``turn_started`` is left out: every
    other line already names its player. A renderer words them. A seat is named by
    ``members``: a member id, or a computer seat's ``basic#2`` (``computer_seat``).
    """
    lines = []
    for event in from_the_deal(events):
        if isinstance(event, TurnStarted):
            continue
        params = {f.name: _param(f.name, getattr(event, f.name), members) for f in fields(event)}
        lines.append((_snake(type(event).__name__), params))
    return lines


def _param(name: str, value: Any, members: Mapping[str, int | str]) -> Any:
    if name in SEAT_FIELDS and value is not None:
        return members.get(value, value)
    if name in SEATS_FIELDS:
        return [members.get(seat, seat) for seat in value if not seat.startswith(EMPTY_SEAT)]
    if name in BY_SEAT_FIELDS:
        return {members.get(s, s): _plain(v) for s, v in value.items() if not s.startswith(EMPTY_SEAT)}
    return _plain(value)


def _plain(value: Any) -> Any:
    """Cards as their codes (R1.5), tuples as lists: JSON-ready."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
