"""What a player can do (R6, R7.4, R8.4), as small immutable values.

``Game.legal_actions()`` lists them and ``Game.apply()`` takes them; they are
hashable, so ``action in game.legal_actions()`` works. Treat them as
immutable: they are not frozen only because frozen dataclasses are about
twice as slow to make, and listing legal actions makes many.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.cards import Card, codes

DrawSource = Literal["stock", "discard"]


@dataclass(slots=True, unsafe_hash=True)
class Drop:
    """R6.1/R7.2: show the hand and claim the lowest value, instead of drawing."""

    player: str


@dataclass(slots=True, unsafe_hash=True)
class Draw:
    """R6.2: take the top card of the stock or of the discard pile."""

    player: str
    source: DrawSource


@dataclass(slots=True, unsafe_hash=True)
class Spread:
    """R6.4: lay down a new run or set from the hand (cards in canonical order)."""

    player: str
    cards: tuple[Card, ...]


@dataclass(slots=True, unsafe_hash=True)
class LayOff:
    """R6.5: add one card to spread number ``target`` (numbered in the order laid down)."""

    player: str
    card: Card
    target: int


@dataclass(slots=True, unsafe_hash=True)
class Discard:
    """R6.6: end the turn by putting one card face up on the discard pile."""

    player: str
    card: Card


@dataclass(slots=True, unsafe_hash=True)
class TonkOut:
    """R7.4 as one move: lay the whole six-card hand down as these two spreads."""

    player: str
    first: tuple[Card, ...]
    second: tuple[Card, ...]


@dataclass(slots=True, unsafe_hash=True)
class Leave:
    """R8.4: leave the game; during a round the player forfeits it."""

    player: str


Action = Drop | Draw | Spread | LayOff | Discard | TonkOut | Leave


def action_to_json(action: Action) -> list[object]:
    """The transcript form of an action (``docs/TRANSCRIPT.md``); a tonk out is its two spreads' form."""
    p = action.player
    if isinstance(action, Drop):
        return [p, "drop"]
    if isinstance(action, Draw):
        return [p, "draw", action.source]
    if isinstance(action, Spread):
        return [p, "spread", codes(action.cards)]
    if isinstance(action, LayOff):
        return [p, "layoff", action.card.code, action.target]
    if isinstance(action, Discard):
        return [p, "discard", action.card.code]
    if isinstance(action, TonkOut):
        return [p, "tonk", codes(action.first), codes(action.second)]
    return [p, "leave"]
