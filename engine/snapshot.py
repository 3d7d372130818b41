"""Save and restore a whole game, mid-round included, as JSON-ready data.

The pydantic models are the boundary: whatever comes back from storage is
checked before a ``Game`` is rebuilt from it. ``FORMAT_VERSION`` changes when
the shape does; an unknown version is refused with ``IllegalAction``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import Pot

if TYPE_CHECKING:
    from engine.game import Game

FORMAT_VERSION = 1


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
    left_between_rounds: list[str] = []
    round: RoundData | None


def _cards(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def snapshot_game(game: Game) -> dict[str, Any]:
    """The game as plain JSON data (version ``FORMAT_VERSION``)."""
    r = game.round
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
        "stake": game.stake,
        "order": list(game.order),
        "names": dict(game.names),
        "stacks": dict(game.stacks),
        "seated": list(game.seated),
        "pots": dict(game.pots),
        "dealer": game.dealer,
        "rounds_played": game.rounds_played,
        "over": game.over,
        "log": [dict(entry) for entry in game.log],
        "left_between_rounds": list(game._left_between_rounds),
        "round": rd,
    }


def restore_game(data: object) -> Game:
    """Rebuild a ``Game`` from ``snapshot_game`` data."""
    from engine.game import Game, Round, TableSpread, candidates

    if isinstance(data, dict) and data.get("version") != FORMAT_VERSION:
        raise IllegalAction(
            f"This saved game has format version {data.get('version')!r}; "
            f"this engine reads version {FORMAT_VERSION}."
        )
    try:
        g = GameData.model_validate(data)
    except ValidationError as e:
        raise IllegalAction(f"This is not a saved game: {e.errors()[0]['msg']}.") from None
    card = Card.parse
    game = Game._assemble(
        stake=g.stake,
        order=g.order,
        names={p: g.names.get(p) or p for p in g.order},
        stacks=g.stacks,
        seated=g.seated,
        pots=g.pots,
        dealer=g.dealer,
        rounds_played=g.rounds_played,
        over=g.over,
        log=[dict(e) for e in g.log],
        left_between_rounds=g.left_between_rounds,
    )
    if g.round is not None:
        d = g.round
        r = Round(d.number, d.dealer, tuple(d.players))
        r.hands = {p: [card(c) for c in h] for p, h in d.hands.items()}
        r.dealt = {p: tuple(card(c) for c in h) for p, h in d.dealt.items()}
        r.upcard = card(d.upcard)
        r.stock = [card(c) for c in d.stock]
        r.discard = [card(c) for c in d.discard]
        r.spreads = [TableSpread(s.owner, s.kind, [card(c) for c in s.cards]) for s in d.spreads]
        r.paid = {p: tuple(v) for p, v in d.paid.items()}
        r.dead = set(d.dead)
        r.turn = d.turn
        r.phase = d.phase
        r.taken = card(d.taken) if d.taken else None
        r.drawn_size = d.drawn_size
        r.spreads_this_turn = d.spreads_this_turn
        r.layoffs_this_turn = d.layoffs_this_turn
        r.had_turn = set(d.had_turn)
        r.shown = set(d.shown)
        r.best = {"flip": None, "flop": None}
        for pot, b in d.best.items():
            r.best[pot] = (card(b[0]), b[1]) if b else None
        r.candidates = {p: candidates(r, p) for p in r.players}
        r.showings = [(p, pot, card(c)) for p, pot, c in d.showings]
        r.flipflop_paid = d.flipflop_paid
        r.end = d.end
        r.winners = {"game": [], "flip": [], "flop": []}
        r.winners.update({pot: list(w) for pot, w in d.winners.items()})
        game.round = r
    return game
