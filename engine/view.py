"""Views (OpenSpiel's observations): what the channel may see, and what one player may see.

``PublicView`` is everything any member of the channel may know: renderers and
the bot read only views, never the game's internals. ``PlayerView`` adds one
player's own hand and legal actions. Computer players get a ``PlayerView`` and
nothing else, so views hold copies, never the game's own lists, and no hidden
card of anyone but the viewer (every hand is public once the round is over).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, SeatId
from engine.cards import Card, hand_value
from engine.events import Pot
from engine.legal import can_tonk_out, legal_actions
from engine.spreads import SpreadKind, spread_kind
from engine.state import GameState, Round


@dataclass(frozen=True, slots=True)
class SpreadView:
    """A spread on the table, face up for all."""

    index: int
    owner: SeatId
    kind: SpreadKind
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything any member of the channel may know about the table now."""

    stake: int
    seated: tuple[SeatId, ...]
    stacks: dict[SeatId, int]
    pots: dict[Pot, int]
    names: dict[SeatId, str]
    round_number: int
    in_round: bool
    over: bool
    """The game has ended (R8)."""
    dealer: SeatId | None
    players: tuple[SeatId, ...]
    """This round's players, in seat order."""
    card_counts: dict[SeatId, int]
    dead: frozenset[SeatId]
    paid: dict[SeatId, tuple[Pot, ...]]
    upcard: Card | None
    upcard_held: bool
    """The upcard is still in the dealer's hand (everyone saw it dealt)."""
    flip_suit: str | None
    flop_suit: str | None
    showings: tuple[tuple[SeatId, Pot, Card], ...]
    flipflop_paid: bool
    spreads: tuple[SpreadView, ...]
    discard_pile: tuple[Card, ...]
    """Face up; the top card is the last."""
    stock_size: int
    to_act: SeatId | None
    phase: str | None
    taken: Card | None
    """The card the player to act took from the discard pile this turn (everyone saw it)."""
    end: str | None
    """How the last round ended (``out``, ``tonk``, ``drop``, ``stock``, …), once it has."""
    revealed: dict[SeatId, tuple[Card, ...]]
    """Every hand of the round once it is over (R7); empty while it is played."""
    winners: dict[Pot, tuple[SeatId, ...]]
    """Who won each pot of the round once it is over (R2.6, R5.4, R7); empty while it is played."""

    @property
    def top_discard(self) -> Card | None:
        """The card a player may take from the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None


@dataclass(frozen=True, slots=True)
class PlayerView(PublicView):
    """Everything one player may know about the table now: the public view and their own hand."""

    player: SeatId
    hand: tuple[Card, ...]
    hand_value: int
    legal: tuple[Action, ...]
    """The player's legal actions now (only ``Leave`` when it is not their turn)."""
    can_tonk_out: bool
    just_drawn: Card | None
    """R6.2: the card this player drew this turn, while it is still their turn and nothing has left
    their hand since (the last card of ``hand``), or the last stock card that just ended the round
    (R6.3); else None."""

    @property
    def still_playing(self) -> bool:
        """The player holds a live hand in the round being played: dealt in, and not left (R8.4)."""
        return self.in_round and self.player in self.players and self.player not in self.dead

    @property
    def can_act(self) -> bool:
        """It is this player's turn: their legal actions are more than ``Leave`` (R6)."""
        return self.in_round and self.to_act == self.player

    @staticmethod
    def spread_kind(cards: Sequence[Card]) -> SpreadKind:
        """R6.4: run or set, for a spread on the table or one of the player's ``Spread`` actions.

        Raises ``IllegalAction`` if ``cards`` are neither.
        """
        return spread_kind(cards)


def _public_fields(game: GameState) -> dict[str, object]:
    r = game.round
    fields: dict[str, object] = {
        "stake": game.stake,
        "seated": tuple(game.seated),
        "stacks": dict(game.stacks),
        "pots": dict(game.pots),
        "names": dict(game.names),
        "round_number": game.rounds_played,
        "in_round": game.in_round,
        "over": game.over,
        "to_act": game.to_act,
    }
    fields.update(_no_round_fields(game.dealer) if r is None else _round_fields(r, game.in_round))
    return fields


def _no_round_fields(dealer: str | None) -> dict[str, object]:
    """A view's round fields before the first deal (fresh containers: a view never shares one)."""
    return {
        "dealer": dealer,
        "players": (),
        "card_counts": {},
        "dead": frozenset(),
        "paid": {},
        "upcard": None,
        "upcard_held": False,
        "flip_suit": None,
        "flop_suit": None,
        "showings": (),
        "flipflop_paid": False,
        "spreads": (),
        "discard_pile": (),
        "stock_size": 0,
        "phase": None,
        "taken": None,
        "end": None,
        "revealed": {},
        "winners": {},
    }


def _round_fields(r: Round, in_round: bool) -> dict[str, object]:
    """The public fields of the round being played, or of the last one once it is over."""
    fields: dict[str, object] = {
        "dealer": r.dealer,
        "players": r.players,
        "card_counts": {p: len(h) for p, h in r.hands.items()},
        "dead": frozenset(r.dead),
        "paid": dict(r.paid),
        "upcard": r.upcard,
        "upcard_held": r.upcard in r.hands[r.dealer],
        "flip_suit": r.flip_suit,
        "flop_suit": r.flop_suit,
        "showings": tuple(r.showings),
        "flipflop_paid": r.flipflop_paid,
        "spreads": tuple(SpreadView(i, s.owner, s.kind, tuple(s.cards)) for i, s in enumerate(r.spreads)),
        "discard_pile": tuple(r.discard),
        "stock_size": len(r.stock),
    }
    if in_round:
        fields.update(phase=r.phase, taken=r.taken, end=None, revealed={}, winners={})
    else:
        fields.update(
            phase=None,
            taken=None,
            end=r.end,
            revealed={p: tuple(h) for p, h in r.hands.items()},
            winners={pot: tuple(w) for pot, w in r.winners.items() if w},
        )
    return fields


def make_public_view(game: GameState) -> PublicView:
    """Build the view every member of the channel may see."""
    return PublicView(**_public_fields(game))  # type: ignore[arg-type]


def make_view(game: GameState, player: SeatId) -> PlayerView:
    """Build ``player``'s view of ``game``."""
    r = game.round
    hand: tuple[Card, ...] = ()
    drawn: Card | None = None
    if r is not None and player in r.hands:
        hand = tuple(r.hands[player])
        if r.players[r.turn] == player and (
            (r.end is None and r.phase == "drawn" and len(hand) == r.drawn_size) or r.end == "stock"
        ):
            drawn = hand[-1]  # a draw appends, and nothing has left the hand since (or it ended the round)
    return PlayerView(
        **_public_fields(game),  # type: ignore[arg-type]
        player=player,
        hand=hand,
        hand_value=hand_value(hand),
        legal=tuple(legal_actions(game, player)),
        can_tonk_out=game.to_act == player and can_tonk_out(game),
        just_drawn=drawn,
    )
