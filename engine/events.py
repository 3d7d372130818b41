"""What an applied action caused, in order: the bot posts these in the channel.

Events carry ids (never display names) and everything a message needs. None
of them reveals a card a player has not shown: a card drawn from the stock is
not in ``Drew``. Treat them as immutable: they are not frozen only because
frozen dataclasses are about three times slower to make, and every round
makes a dozen or more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.cards import Card

Pot = Literal["game", "flip", "flop"]
POTS: tuple[Pot, ...] = ("game", "flip", "flop")
EndReason = Literal["out", "tonk", "drop", "caught", "stock", "fifty", "forty_nine"]


@dataclass(slots=True)
class RoundStarted:
    """R2.3, R3.2, R3.3: stakes paid, cards dealt, the upcard turned."""

    number: int
    dealer: str
    players: tuple[str, ...]
    paid: dict[str, tuple[Pot, ...]]
    """Which pots each player paid a stake into (and so may win, R2.4)."""
    upcard: Card
    flip_suit: str
    flop_suit: str
    pots: dict[Pot, int]


@dataclass(slots=True)
class TurnStarted:
    """It is this player's turn (R6)."""

    player: str


@dataclass(slots=True)
class CardShown:
    """R5.3: a player shows their lowest card of the flip or flop suit."""

    player: str
    pot: Pot
    card: Card


@dataclass(slots=True)
class Drew:
    """R6.2. ``card`` is set only for the discard pile: a stock card stays hidden."""

    player: str
    source: Literal["stock", "discard"]
    card: Card | None
    stock_left: int


@dataclass(slots=True)
class SpreadLaid:
    """R6.4: a new spread, numbered ``index``."""

    player: str
    cards: tuple[Card, ...]
    index: int
    kind: Literal["run", "set"]


@dataclass(slots=True)
class LaidOff:
    """R6.5: a card added to spread ``index``."""

    player: str
    card: Card
    index: int


@dataclass(slots=True)
class Discarded:
    """R6.6."""

    player: str
    card: Card


@dataclass(slots=True)
class Dropped:
    """R7.2: the player dropped, claiming the lowest hand."""

    player: str
    value: int


@dataclass(slots=True)
class PlayerLeft:
    """R8.4: a player left; during a round their hand is dead for the rest of it."""

    player: str
    during_round: bool


@dataclass(slots=True)
class RoundEnded:
    """R7: how the round ended, with every hand shown and its value."""

    reason: EndReason
    player: str | None
    """Who went out, tonked, dropped, or drew the last stock card."""
    hands: dict[str, tuple[Card, ...]]
    values: dict[str, int]
    game_winners: tuple[str, ...]


@dataclass(slots=True)
class SideStakePaid:
    """R2.5: a side stake, into a pot (``to_pot``) or to a player (``to_player``)."""

    player: str
    amount: int
    to_pot: Pot | None
    to_player: str | None
    rule: str


@dataclass(slots=True)
class PotPaid:
    """R2.6: a pot paid out. ``shares`` maps each winner to their chips."""

    pot: Pot
    total: int
    shares: dict[str, int]


@dataclass(slots=True)
class PotCarried:
    """R5.6: no one could win this pot; it carries into the next round."""

    pot: Pot
    amount: int


@dataclass(slots=True)
class SeatClosed:
    """A player is out of the game and ``stack`` goes back to their balance (R2.7, R8.4)."""

    player: str
    stack: int
    reason: Literal["eliminated", "left"]


@dataclass(slots=True)
class NextDealer:
    """R3.1: who deals the next round."""

    player: str


@dataclass(slots=True)
class GameOver:
    """R8.2, R8.3: the game has ended; ``stacks`` go back to their owners."""

    stacks: dict[str, int]
    standings: tuple[str, ...] = field(default=())
    """Everyone who ever sat, most chips first."""


Event = (
    RoundStarted
    | TurnStarted
    | CardShown
    | Drew
    | SpreadLaid
    | LaidOff
    | Discarded
    | Dropped
    | PlayerLeft
    | RoundEnded
    | SideStakePaid
    | PotPaid
    | PotCarried
    | SeatClosed
    | NextDealer
    | GameOver
)
