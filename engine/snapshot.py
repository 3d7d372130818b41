"""Save and restore a whole game, mid-round included, as JSON-ready data.

The pydantic models are the boundary: whatever comes back from storage is
checked before ``Game.restore`` rebuilds a game from it. ``FORMAT_VERSION``
changes when the shape does; an unknown version is refused with
``IllegalAction`` (``snapshot_version``).

Version 2 keeps only what the current (or next) round needs: the log holds
the current round's entry alone, so a snapshot's size does not grow with the
rounds played. Finished rounds' transcripts are the runtime's to store
(``Game.round_transcript``). A version-1 snapshot is converted on loading by
keeping its last log entry.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import Pot
from engine.state import GameState, RoundRecord

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SpreadData(_Model):
    """A spread on the table."""

    owner: str
    kind: Literal["run", "set"]
    cards: list[str]


class RoundData(_Model):
    """A round in play or just ended."""

    number: int
    dealer: str
    players: list[str]
    hands: dict[str, list[str]]
    dealt: dict[str, list[str]]
    upcard: str
    stock: list[str]
    discard: list[str]
    spreads: list[SpreadData]
    paid: dict[str, list[Pot]]
    dead: list[str]
    turn: int
    phase: Literal["start", "drawn"]
    taken: str | None
    drawn_size: int
    spreads_this_turn: int
    layoffs_this_turn: int
    had_turn: list[str]
    shown: list[str]
    best: dict[Pot, tuple[str, str] | None]
    showings: list[tuple[str, Pot, str]]
    flipflop_paid: bool
    end: Literal["out", "tonk", "drop", "caught", "stock", "fifty", "forty_nine"] | None
    winners: dict[Pot, list[str]]


class GameData(_Model):
    """A whole game."""

    version: int
    stake: int
    order: list[str]
    names: dict[str, str]
    stacks: dict[str, int]
    seated: list[str]
    pots: dict[Pot, int]
    dealer: str | None
    rounds_played: int
    over: bool
    log: list[dict[str, Any]]
    """The current round's log entry (at most one; version 1 held every round)."""
    left_between_rounds: list[str] = []
    round: RoundData | None


def _cards(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def snapshot_table(t: GameState) -> dict[str, Any]:
    """The game as plain JSON data (version ``FORMAT_VERSION``)."""
    r = t.round
    rd: dict[str, Any] | None = None
    if r is not None:
        rd = {
            "number": r.number,
            "dealer": r.dealer,
            "players": list(r.players),
            "hands": {p: _cards(h) for p, h in r.hands.items()},
            "dealt": {p: _cards(h) for p, h in r.dealt.items()},
            "upcard": r.upcard.code,
            "stock": _cards(r.stock),
            "discard": _cards(r.discard),
            "spreads": [{"owner": s.owner, "kind": s.kind, "cards": _cards(s.cards)} for s in r.spreads],
            "paid": {p: list(v) for p, v in r.paid.items()},
            "dead": sorted(r.dead),
            "turn": r.turn,
            "phase": r.phase,
            "taken": r.taken.code if r.taken else None,
            "drawn_size": r.drawn_size,
            "spreads_this_turn": r.spreads_this_turn,
            "layoffs_this_turn": r.layoffs_this_turn,
            "had_turn": sorted(r.had_turn),
            "shown": sorted(r.shown),
            "best": {pot: [b[0].code, b[1]] if b else None for pot, b in r.best.items()},
            "showings": [[p, pot, c.code] for p, pot, c in r.showings],
            "flipflop_paid": r.flipflop_paid,
            "end": r.end,
            "winners": {pot: list(w) for pot, w in r.winners.items()},
        }
    return {
        "version": FORMAT_VERSION,
        "stake": t.stake,
        "order": list(t.order),
        "names": dict(t.names),
        "stacks": dict(t.stacks),
        "seated": list(t.seated),
        "pots": dict(t.pots),
        "dealer": t.dealer,
        "rounds_played": t.rounds_played,
        "over": t.over,
        "log": [t.history[-1].to_json()] if t.history else [],
        "left_between_rounds": list(t.left_between_rounds),
        "round": rd,
    }


def read_snapshot(data: object) -> GameData:
    """Check ``snapshot_table`` data (either readable version); raise ``IllegalAction`` if it is not one."""
    if isinstance(data, dict):
        version = data.get("version")
        if version not in READABLE_VERSIONS:
            raise IllegalAction("snapshot_version", found=repr(version), expected=FORMAT_VERSION)
        if version == 1 and isinstance(data.get("log"), list):
            data = {**data, "log": data["log"][-1:]}  # version 1 kept every round's entry
    try:
        return GameData.model_validate(data)
    except ValidationError as e:
        raise IllegalAction("snapshot_unreadable", reason=e.errors()[0]["msg"]) from None


def read_record(entry: dict[str, Any]) -> RoundRecord:
    """A saved log entry back as a ``RoundRecord`` (its actions stay in their saved JSON form)."""
    try:
        deck = [Card.parse(c) for c in entry["deck"]]
        start = entry.get("start") or {}
        record = RoundRecord(
            dealer=str(entry["dealer"]),
            deck=deck,
            start_stacks={str(s["id"]): int(s["stack"]) for s in start.get("seats", [])},
            start_pots={pot: int(n) for pot, n in (start.get("pots") or {}).items()},
            left_before=list(entry.get("left_before") or []),
            saved=[list(a) for a in entry["actions"]],
        )
    except (KeyError, TypeError, ValueError) as e:
        raise IllegalAction("snapshot_unreadable", reason=f"bad log entry ({e})") from None
    return record
