"""The state records: a seat, a spread on the table, a round, the round's log, the game state.

Plain records with no rule in them, so every chapter module (deal, pots,
showing, turns, game end, legality, views, snapshots) can read them without
importing ``Game`` — which keeps the package free of import circles. Only
``Game`` and the chapters it calls change them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from engine.actions import Action, Discard, Draw, Drop, Leave, SeatId, Spread, TonkOut
from engine.cards import CODES, DECK, SISTER_SUIT, Card, labels
from engine.codec import action_to_json
from engine.errors import IllegalAction
from engine.events import EndReason, Pot
from engine.settings import HOUSE_RULES, HouseRules
from engine.spreads import SpreadKind, takes

Phase = Literal["start", "drawn"]
"""R6: ``start`` before the draw (drop or draw), ``drawn`` after it (spread, lay off, discard)."""
FLIP_FLOP: tuple[Pot, Pot] = ("flip", "flop")


@dataclass(frozen=True, slots=True)
class Seat:
    """A player sitting down: their id, their stack at the table, a name for messages."""

    id: SeatId
    stack: int
    name: str | None = None


class TableSpread:
    """A spread on the table (R6.4): who laid it, run or set, its cards in rank order."""

    __slots__ = ("_takes", "cards", "kind", "owner")

    def __init__(self, owner: str, kind: SpreadKind, cards: list[Card]) -> None:
        self.owner = owner
        self.kind: SpreadKind = kind
        self.cards = cards
        self._takes: tuple[Card, ...] | None = None

    def takes(self) -> tuple[Card, ...]:
        """R6.5: the cards that may be laid off on it now (``engine.spreads.takes``), kept until it grows."""
        if self._takes is None:
            self._takes = takes(self.kind, self.cards)
        return self._takes

    def add(self, card: Card) -> None:
        """R6.5: a card laid off: below a run's first card, else at the end."""
        if self.kind == "run" and card.rank < self.cards[0].rank:
            self.cards.insert(0, card)
        else:
            self.cards.append(card)
        self._takes = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableSpread) and (self.owner, self.kind, self.cards) == (
            other.owner,
            other.kind,
            other.cards,
        )

    def __repr__(self) -> str:
        return f"TableSpread({self.owner!r}, {self.kind!r}, {labels(self.cards)!r})"


class Round:
    """Everything about the round being played. Built and changed only by ``Game``."""

    __slots__ = (
        "best",
        "candidates",
        "dead",
        "dealer",
        "dealt",
        "discard",
        "drawn_size",
        "end",
        "flipflop_paid",
        "had_turn",
        "hands",
        "layoffs_this_turn",
        "leaders",
        "number",
        "paid",
        "phase",
        "players",
        "showings",
        "shown",
        "spreads",
        "spreads_this_turn",
        "stock",
        "taken",
        "turn",
        "upcard",
        "winners",
    )

    def __init__(
        self,
        number: int,
        dealer: str,
        players: tuple[str, ...],
        hands: dict[str, list[Card]] | None = None,
    ) -> None:
        self.number = number
        self.dealer = dealer
        self.players = players
        self.hands: dict[str, list[Card]] = hands if hands is not None else {p: [] for p in players}
        """Each player's cards, in seat order."""
        self.dealt: dict[str, tuple[Card, ...]] = {}
        self.upcard: Card = DECK[0]
        self.stock: list[Card] = []
        """Face down; the top card is the last item."""
        self.discard: list[Card] = []
        """Face up; the top card is the last item."""
        self.spreads: list[TableSpread] = []
        self.paid: dict[str, tuple[Pot, ...]] = {}
        self.dead: set[str] = set()
        """R8.4: players who left during this round."""
        self.turn = 0
        self.phase: Phase = "start"
        self.taken: Card | None = None
        """The card taken from the discard pile this turn (R6.6)."""
        self.drawn_size = 0
        self.spreads_this_turn = 0
        self.layoffs_this_turn = 0
        self.had_turn: set[str] = set()
        self.shown: set[str] = set()
        self.best: dict[Pot, tuple[Card, str] | None] = {"flip": None, "flop": None}
        self.candidates: dict[str, tuple[Card | None, Card | None]] = {}
        """R5.4: the flip and flop card each player would show, fixed by the deal."""
        self.leaders: list[tuple[Card, str] | None] | None = None
        """R5.4: who will win flip and flop (lowest candidate), found at the deal."""
        self.showings: list[tuple[str, Pot, Card]] = []
        """Every flip and flop card shown so far: (player, pot, card)."""
        self.flipflop_paid = False
        self.end: EndReason | None = None
        self.winners: dict[Pot, Sequence[str]] = {"game": (), "flip": (), "flop": ()}

    @property
    def to_act(self) -> str:
        """The player whose turn it is."""
        return self.players[self.turn]

    @property
    def flip_suit(self) -> str:
        """R5.1: the upcard's suit."""
        return self.upcard.suit

    @property
    def flop_suit(self) -> str:
        """R5.1: the flip suit's sister."""
        return SISTER_SUIT[self.upcard.suit]

    def live(self) -> list[str]:
        """Players still in the round, in seat order."""
        return [p for p in self.players if p not in self.dead]


class RoundRecord:
    """One round of the game log (``docs/TRANSCRIPT.md``), kept as objects until saved.

    ``saved`` holds actions already in JSON form (a round restored from a
    snapshot); ``actions`` the ones applied since. ``start_stacks`` and
    ``start_pots`` are where the round began, so that it replays on its own.
    """

    __slots__ = ("actions", "dealer", "deck", "left_before", "saved", "start_pots", "start_stacks")

    def __init__(
        self,
        dealer: str,
        deck: Sequence[Card],
        start_stacks: dict[str, int],
        start_pots: dict[Pot, int],
        left_before: Sequence[str] = (),
        saved: Sequence[list[object]] = (),
    ) -> None:
        self.dealer = dealer
        self.deck = deck
        self.start_stacks = start_stacks
        self.start_pots = start_pots
        self.left_before = left_before
        self.saved = saved
        self.actions: list[Action] = []

    def actions_json(self) -> list[list[object]]:
        """The round's actions in transcript form; a tonk out is written as its two spreads."""
        out = list(self.saved)
        for a in self.actions:
            if isinstance(a, TonkOut):
                out.append(action_to_json(Spread(a.player, a.first)))
                out.append(action_to_json(Spread(a.player, a.second)))
            else:
                out.append(action_to_json(a))
        return out

    def start_json(self) -> dict[str, object]:
        """The seats (in seat order, with the stacks they began the round with) and the pots."""
        return {
            "seats": [{"id": p, "stack": s} for p, s in self.start_stacks.items()],
            "pots": dict(self.start_pots),
        }

    def to_json(self) -> dict[str, object]:
        """The transcript's round object, plus ``start`` and (if any) ``left_before``."""
        entry: dict[str, object] = {
            "dealer": self.dealer,
            "deck": list(map(CODES.__getitem__, self.deck)),
            "actions": self.actions_json(),
            "start": self.start_json(),
        }
        if self.left_before:
            entry["left_before"] = list(self.left_before)
        return entry


class PlayerMoves:
    """One player's fixed actions, made once per game and listed again and again.

    ``legal_actions`` hands out these shared objects instead of making new
    ones at every step (actions are values: equal, hashable, never changed).
    """

    __slots__ = (
        "before_draw",
        "before_draw_no_discard",
        "discards",
        "draw_discard",
        "draw_stock",
        "drop",
        "leave",
    )

    def __init__(self, player: str) -> None:
        self.drop = Drop(player)
        self.draw_stock = Draw(player, "stock")
        self.draw_discard = Draw(player, "discard")
        self.leave = Leave(player)
        self.discards = {c: Discard(player, c) for c in DECK}
        self.before_draw: tuple[Action, ...] = (self.drop, self.draw_stock, self.draw_discard, self.leave)
        """R6: every action of a turn's start (drop, either draw, leave), in ``legal_actions``'s order."""
        self.before_draw_no_discard: tuple[Action, ...] = (self.drop, self.draw_stock, self.leave)
        """The same with an empty discard pile (R6.2)."""


@lru_cache(maxsize=4096)
def moves_of(player: str) -> PlayerMoves:
    """``player``'s prebuilt actions, shared by every game they play (and every sampled world)."""
    return PlayerMoves(player)


class GameState:
    """The game's records between and during rounds; ``Game`` adds the rules on top.

    Chapter modules take a ``GameState`` so that none of them needs ``Game``.
    """

    rules: HouseRules = HOUSE_RULES
    stake: int
    order: tuple[str, ...]
    """Every player who ever sat, clockwise (R3.1)."""
    seat_index: dict[str, int]
    names: dict[str, str]
    stacks: dict[str, int]
    seated: list[str]
    pots: dict[Pot, int]
    dealer: str | None
    round: Round | None
    rounds_played: int
    over: bool
    history: list[RoundRecord]
    """The rounds played since this object was made or restored (the last one is current)."""
    left_between_rounds: list[str]

    in_round: bool
    """A round is being played (dealt and not yet ended): ``round`` is set and its ``end`` is not.

    Kept as a plain attribute, set where a round is dealt, ends or is restored,
    because callers read it before every action and a property costs a call.
    """

    def name(self, player: str) -> str:
        """The display name messages use for ``player``."""
        return self.names.get(player, player)

    @property
    def to_act(self) -> str | None:
        """Whose turn it is, or None between rounds."""
        r = self.round
        return r.players[r.turn] if r is not None and r.end is None else None

    def total_chips(self) -> int:
        """Stacks (of everyone who ever sat) plus pots: constant for the whole game (R2.2)."""
        return sum(self.stacks.values()) + sum(self.pots.values())

    def next_dealer(self) -> str:
        """R3.1: the first dealer is chosen at random; then the next player still in the game."""
        if self.dealer is None:
            raise IllegalAction("no_dealer_yet")
        n = len(self.order)
        i = self.seat_index[self.dealer]
        seated = self.seated
        for step in range(1, n + 1):
            p = self.order[(i + step) % n]
            if p in seated:
                return p
        raise IllegalAction("no_one_to_deal")
