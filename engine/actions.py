"""What a player can do (R6, R7.4, R8.4), as small immutable values.

``Game.legal_actions()`` lists them and ``Game.apply()`` takes them; they are
hashable, so ``action in game.legal_actions()`` works. Treat them as
immutable: they are not frozen only because frozen dataclasses are about
twice as slow to make, and listing legal actions makes many.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.cards import Card

SeatId: TypeAlias = str
"""A player's id at a table, the one type for it in every record, action, event and view.

The engine never reads it: the bot chooses the ids (its members' ids as decimal
text, a computer seat's own id) and maps them back itself.
"""
DrawSource = Literal["stock", "discard"]


@dataclass(slots=True, unsafe_hash=True)
class Drop:
    """R6.1/R7.2: show the hand and claim the lowest value, instead of drawing."""

    player: SeatId


@dataclass(slots=True, unsafe_hash=True)
class Draw:
    """R6.2: take the top card of the stock or of the discard pile."""

    player: SeatId
    source: DrawSource


@dataclass(slots=True, unsafe_hash=True)
class Spread:
    """R6.4: lay down a new run or set from the hand (cards in canonical order)."""

    player: SeatId
    cards: tuple[Card, ...]


@dataclass(slots=True, unsafe_hash=True)
class LayOff:
    """R6.5: add one card to spread number ``target`` (numbered in the order laid down)."""

    player: SeatId
    card: Card
    target: int


@dataclass(slots=True, unsafe_hash=True)
class Discard:
    """R6.6: end the turn by putting one card face up on the discard pile."""

    player: SeatId
    card: Card


@dataclass(slots=True, unsafe_hash=True)
class TonkOut:
    """R7.4 as one move: lay the whole six-card hand down as these two spreads."""

    player: SeatId
    first: tuple[Card, ...]
    second: tuple[Card, ...]


@dataclass(slots=True, unsafe_hash=True)
class Leave:
    """R8.4: leave the game; during a round the player forfeits it."""

    player: SeatId


Action = Drop | Draw | Spread | LayOff | Discard | TonkOut | Leave
