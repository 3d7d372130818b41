"""The game of Flip Flop: one object that answers what is legal and applies actions.

Shaped like python-chess's board and OpenSpiel's state: ``legal_actions()``,
``apply()``, ``view()``, and a JSON snapshot. Rule ids refer to
``../shared/RULES.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.actions import (
    Action,
    Discard,
    Draw,
    Drop,
    LayOff,
    Leave,
    Spread,
    TonkOut,
    action_to_json,
)
from engine.cards import CODES, DECK, SISTER_SUIT, Card, hand_value, labels
from engine.errors import IllegalAction
from engine.events import (
    POTS,
    CardShown,
    Discarded,
    Drew,
    Dropped,
    EndReason,
    Event,
    GameOver,
    LaidOff,
    NextDealer,
    PlayerLeft,
    Pot,
    PotCarried,
    PotPaid,
    RoundEnded,
    RoundStarted,
    SeatClosed,
    SideStakePaid,
    SpreadLaid,
    TurnStarted,
)
from engine.spreads import SpreadKind, find_spreads, fits, normalise, spread_kind, two_spread_splits

HAND_SIZE = 5
FLIP_FLOP: tuple[Pot, Pot] = ("flip", "flop")
MIN_PLAYERS = 3
MAX_PLAYERS = 5
Phase = Literal["start", "drawn"]


@dataclass(frozen=True, slots=True)
class Seat:
    """A player sitting down: their id, their stack at the table, a name for messages."""

    id: str
    stack: int
    name: str | None = None


class TableSpread:
    """A spread on the table (R6.4): who laid it, run or set, its cards in rank order."""

    __slots__ = ("cards", "kind", "owner")

    def __init__(self, owner: str, kind: SpreadKind, cards: list[Card]) -> None:
        self.owner = owner
        self.kind: SpreadKind = kind
        self.cards = cards

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableSpread) and (self.owner, self.kind, self.cards) == (
            other.owner,
            other.kind,
            other.cards,
        )

    def __repr__(self) -> str:
        return f"TableSpread({self.owner!r}, {self.kind!r}, {labels(self.cards)!r})"


class Round:
    """Everything about the round being played. Owned and changed only by ``Game``."""

    def __init__(self, number: int, dealer: str, players: tuple[str, ...]) -> None:
        self.number = number
        self.dealer = dealer
        self.players = players
        self.hands: dict[str, list[Card]] = {p: [] for p in players}
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
        self.showings: list[tuple[str, Pot, Card]] = []
        """Every flip and flop card shown so far: (player, pot, card)."""
        self.flipflop_paid = False
        self.end: EndReason | None = None
        self.winners: dict[Pot, list[str]] = {"game": [], "flip": [], "flop": []}

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


def candidates(r: Round, p: str) -> tuple[Card | None, Card | None]:
    """R2.4, R5.2-R5.4: the flip and flop cards ``p`` would show, fixed by the deal.

    The lowest dealt card of each suit, for a pot the player paid into; a flip
    card must beat the upcard, which is shown first (only the dealer holds it).
    """
    paid = r.paid[p]
    flip_suit, flop_suit = r.upcard.suit, SISTER_SUIT[r.upcard.suit]
    flip: Card | None = None
    flop: Card | None = None
    for c in r.dealt[p]:
        if c.suit == flip_suit:
            if flip is None or c.rank < flip.rank:
                flip = c
        elif c.suit == flop_suit and (flop is None or c.rank < flop.rank):
            flop = c
    if "flip" not in paid or (flip is not None and flip.rank > r.upcard.rank):
        flip = None
    if "flop" not in paid:
        flop = None
    return flip, flop


class Game:
    """A table's game of Flip Flop, from its first deal to its end (R8)."""

    def __init__(
        self,
        seats: Sequence[Seat],
        stake: int,
        pots: dict[Pot, int] | None = None,
    ) -> None:
        ids = [s.id for s in seats]
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise IllegalAction(f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players (R8.1).")
        if len(set(ids)) != len(ids):
            raise IllegalAction("Each player can sit only once.")
        if not isinstance(stake, int) or stake < 1:
            raise IllegalAction("The stake must be a whole number of chips, at least 1 (R2.1).")
        for s in seats:
            if not isinstance(s.stack, int) or s.stack < 0:
                raise IllegalAction(f"{s.name or s.id}'s stack must be a whole number of chips.")
        self.stake = stake
        self.order: tuple[str, ...] = tuple(ids)
        """Every player who ever sat, clockwise (R3.1)."""
        self._seat = {p: i for i, p in enumerate(ids)}
        self.names: dict[str, str] = {s.id: s.name or s.id for s in seats}
        self.stacks: dict[str, int] = {s.id: s.stack for s in seats}
        self.seated: list[str] = list(ids)
        self.pots: dict[Pot, int] = {"game": 0, "flip": 0, "flop": 0}
        for pot, amount in (pots or {}).items():
            if pot not in self.pots or not isinstance(amount, int) or amount < 0:
                raise IllegalAction(f"Bad pot {pot!r}: {amount!r}.")
            self.pots[pot] = amount
        self.dealer: str | None = None
        self.round: Round | None = None
        self.rounds_played = 0
        self.over = False
        self.log: list[dict[str, object]] = []
        """The transcript of every round (``TRANSCRIPT.md``): dealer, deck, actions.

        Players who left between rounds are listed under the extra key ``left_before``.
        """
        self._left_between_rounds: list[str] = []

    @classmethod
    def _assemble(
        cls,
        *,
        stake: int,
        order: Sequence[str],
        names: dict[str, str],
        stacks: dict[str, int],
        seated: Sequence[str],
        pots: dict[Pot, int],
        dealer: str | None,
        rounds_played: int,
        over: bool = False,
        log: list[dict[str, object]] | None = None,
        left_between_rounds: Sequence[str] = (),
        round: Round | None = None,
    ) -> Game:
        """A game built from its parts, with no checks: for restoring a snapshot and for sampling."""
        game = cls.__new__(cls)
        game.stake = stake
        game.order = tuple(order)
        game._seat = {p: i for i, p in enumerate(game.order)}
        game.names = dict(names)
        game.stacks = dict(stacks)
        game.seated = list(seated)
        game.pots = {"game": 0, "flip": 0, "flop": 0}
        game.pots.update(pots)
        game.dealer = dealer
        game.rounds_played = rounds_played
        game.over = over
        game.log = log if log is not None else []
        game._left_between_rounds = list(left_between_rounds)
        game.round = round
        return game

    # ------------------------------------------------------------------ queries

    def name(self, player: str) -> str:
        """The display name messages use for ``player``."""
        return self.names.get(player, player)

    @property
    def in_round(self) -> bool:
        """A round is being played (dealt and not yet ended)."""
        return self.round is not None and self.round.end is None

    @property
    def to_act(self) -> str | None:
        """Whose turn it is, or None between rounds."""
        r = self.round
        return r.to_act if r is not None and r.end is None else None

    def total_chips(self) -> int:
        """Stacks (of everyone who ever sat) plus pots: constant for the whole game (R2.2)."""
        return sum(self.stacks.values()) + sum(self.pots.values())

    def next_dealer(self) -> str:
        """R3.1: the first dealer is chosen at random; then the next player still in the game."""
        if self.dealer is None:
            raise IllegalAction("The first dealer has not been chosen yet.")
        n = len(self.order)
        i = self.order.index(self.dealer)
        for step in range(1, n + 1):
            p = self.order[(i + step) % n]
            if p in self.seated:
                return p
        raise IllegalAction("No one is left to deal.")

    def settlement_if_closed(self) -> dict[str, int]:
        """What each seated player would take home if the table closed now, even mid-round.

        Their stacks, plus every chip in the pots split among them as at the end
        of a game (R8.3, odd chips by R2.6). Used to refund a table that can not
        go on; the game itself is not changed.
        """
        out = {p: self.stacks[p] for p in self.seated}
        if out:
            ordered = self._seat_order_from_dealer(self.seated)
            for pot in POTS:
                share, odd = divmod(self.pots[pot], len(ordered))
                for i, p in enumerate(ordered):
                    out[p] += share + (1 if i < odd else 0)
        return out

    def can_tonk_out(self) -> bool:
        """R7.4: the player to act can lay their whole hand down as two spreads of three now."""
        r = self.round
        if r is None or r.end is not None or r.phase != "drawn":
            return False
        if r.drawn_size != 6 or r.spreads_this_turn or r.layoffs_this_turn:
            return False
        return bool(two_spread_splits(r.hands[r.to_act]))

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Exactly what ``player`` (default: the player to act) may do now.

        For the player to act that is every drop, draw, new spread, lay-off,
        discard and tonk out the rules allow, and ``Leave``; for anyone else
        seated it is only ``Leave`` (R8.4).
        """
        if self.over:
            return []
        r = self.round
        if r is None or r.end is not None:
            if player is not None and player in self.seated:
                return [Leave(player)]
            return []
        p = r.to_act
        if player is not None and player != p:
            if player in r.players and player not in r.dead:
                return [Leave(player)]
            return []
        acts: list[Action]
        if r.phase == "start":
            acts = [Drop(p), Draw(p, "stock")]
            if r.discard:
                acts.append(Draw(p, "discard"))
        else:
            hand = r.hands[p]
            acts = [Spread(p, s) for s in find_spreads(hand)]
            for i, sp in enumerate(r.spreads):
                cards = sp.cards
                kind = sp.kind
                for c in hand:
                    if fits(kind, cards, c):
                        acts.append(LayOff(p, c, i))
            taken = r.taken
            if taken is None or len(hand) == 1:
                acts.extend([Discard(p, c) for c in hand])
            else:
                acts.extend([Discard(p, c) for c in hand if c != taken])
            if len(hand) == 6 and r.drawn_size == 6 and not r.spreads_this_turn and not r.layoffs_this_turn:
                acts.extend(TonkOut(p, a, b) for a, b in two_spread_splits(hand))
        acts.append(Leave(p))
        return acts

    # ------------------------------------------------------------------ rounds

    def start_round(
        self,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
        dealer: str | None = None,
    ) -> list[Event]:
        """Pay stakes, deal, turn the upcard, settle an opening 49/50 (R2.3, R3, R4).

        Give either ``rng`` (a seeded ``random.Random``) or ``deck`` (top card
        first). ``dealer`` may name the dealer; after the first round it must be
        the one R3.1 makes dealer.
        """
        if self.over:
            raise IllegalAction("The game is over.")
        if self.in_round:
            raise IllegalAction("A round is already being played.")
        if deck is None:
            if rng is None:
                raise IllegalAction("A round needs a shuffled deck or a random generator.")
            rand = rng.random
            cards = sorted(DECK, key=lambda _: rand())  # a uniform shuffle, cheaper than rng.shuffle
        else:
            cards = list(deck)
            if len(cards) != 52 or len(set(cards)) != 52 or not set(cards) <= set(DECK):
                raise IllegalAction("A deck must be the 52 cards, each once (R1.1).")
        if self.dealer is None:
            if dealer is None:
                if rng is None:
                    raise IllegalAction("The first dealer is chosen at random: give a generator.")
                dealer = self.seated[rng.randrange(len(self.seated))]
            elif dealer not in self.seated:
                raise IllegalAction(f"{self.name(dealer)} is not seated, so can not deal.")
        else:
            expected = self.next_dealer()
            if dealer is not None and dealer != expected:
                raise IllegalAction(
                    f"{self.name(dealer)} can not deal this round: it is {self.name(expected)}'s deal (R3.1)."
                )
            dealer = expected
        events: list[Event] = []
        # Where this round began, so that it can be replayed on its own (``round_transcript``).
        start: dict[str, object] = {
            "seats": [{"id": p, "stack": self.stacks[p]} for p in self.seated],
            "pots": dict(self.pots),
        }
        # R2.3: a player with less than one stake is out before the deal.
        for p in list(self.seated):
            if self.stacks[p] < self.stake:
                self._close_seat(p, "eliminated", events)
        if len(self.seated) < 2:
            self._game_over(events)
            return events
        if dealer not in self.seated:
            self.dealer = dealer
            dealer = self.next_dealer()
        self.dealer = dealer
        self.rounds_played += 1
        players = tuple(self.seated)
        r = Round(self.rounds_played, dealer, players)
        self.round = r
        entry: dict[str, object] = {
            "dealer": dealer,
            "deck": list(map(CODES.__getitem__, cards)),
            "actions": [],
            "start": start,
        }
        if self._left_between_rounds:
            entry["left_before"] = self._left_between_rounds
            self._left_between_rounds = []
        self.log.append(entry)
        s = self.stake
        for p in players:
            k = self.stacks[p] // s
            paid: tuple[Pot, ...] = POTS if k >= 4 else ("game", "flip") if k == 3 else ("game",)
            for pot in paid:
                self.pots[pot] += s
            self.stacks[p] -= s * len(paid)
            r.paid[p] = paid
        n = len(players)
        d = players.index(dealer)
        dealt = HAND_SIZE * n
        for k in range(n):  # card i goes to seat (dealer + 1 + i) mod n (R3.2)
            r.hands[players[(d + 1 + k) % n]] = cards[k:dealt:n]
        r.dealt = {p: tuple(h) for p, h in r.hands.items()}
        r.upcard = cards[HAND_SIZE * n - 1]
        r.stock = cards[HAND_SIZE * n :][::-1]
        r.candidates = {p: candidates(r, p) for p in players}
        r.best["flip"] = (r.upcard, dealer)
        r.showings.append((dealer, "flip", r.upcard))
        r.turn = (d + 1) % n
        events.append(
            RoundStarted(
                number=r.number,
                dealer=dealer,
                players=players,
                paid=dict(r.paid),
                upcard=r.upcard,
                flip_suit=r.flip_suit,
                flop_suit=r.flop_suit,
                pots=dict(self.pots),
            )
        )
        # R4: the opening 49 / 50.
        values = {p: hand_value(r.hands[p]) for p in players}
        fifty = [p for p in players if values[p] == 50]
        forty_nine = [p for p in players if values[p] == 49]
        if fifty:
            side = [(p, "R4.1") for p in players if p not in fifty]
            self._end_round(events, "fifty", None, fifty, side_to_pot=side)
        elif forty_nine:
            self._end_round(events, "forty_nine", None, forty_nine)
        else:
            self._begin_turn(events)
        return events

    def end_game(self) -> list[Event]:
        """R8.2: the players choose to stop; only between rounds."""
        if self.over:
            raise IllegalAction("The game is already over.")
        if self.in_round:
            raise IllegalAction("The game can only be stopped between rounds.")
        events: list[Event] = []
        self._game_over(events)
        return events

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> list[Event]:
        """Check and apply one action; return the events it caused, in order.

        Raises ``IllegalAction`` (and changes nothing) if the rules forbid it.
        """
        if self.over:
            raise IllegalAction("The game is over.")
        if isinstance(action, Leave):
            return self._leave(action.player)
        r = self.round
        if r is None or r.end is not None:
            raise IllegalAction("No round is being played: wait for the next deal.")
        p = action.player
        if p != r.players[r.turn]:
            if p not in self.names:
                raise IllegalAction(f"{p} is not at this table.")
            if p not in r.players or p in r.dead:
                raise IllegalAction(f"{self.name(p)} is not playing this round.")
            raise IllegalAction(f"It's {self.name(r.to_act)}'s turn.")
        events: list[Event]
        if isinstance(action, Draw):
            events = self._draw(r, p, action.source)
        elif isinstance(action, Discard):
            events = self._discard(r, p, action.card)
        elif isinstance(action, Spread):
            events = self._spread(r, p, [action.cards])
        elif isinstance(action, LayOff):
            events = self._lay_off(r, p, action.card, action.target)
        elif isinstance(action, Drop):
            events = self._drop(r, p)
        elif isinstance(action, TonkOut):
            if not (r.phase == "drawn" and r.drawn_size == 6 and len(r.hands[p]) == 6):
                raise IllegalAction("A tonk out lays down all six cards held after the draw (R7.4).")
            if r.spreads_this_turn or r.layoffs_this_turn:
                raise IllegalAction("A tonk out can not follow a spread or lay-off (R7.4).")
            if len(action.first) != 3 or len(action.second) != 3:
                raise IllegalAction("A tonk out is exactly two spreads of three cards (R7.4).")
            events = self._spread(r, p, [action.first, action.second])
        else:  # pragma: no cover - the Action union is closed
            raise IllegalAction(f"Unknown action {action!r}.")
        return events

    def _log(self, action: Action) -> None:
        actions = self.log[-1]["actions"]
        assert isinstance(actions, list)
        if isinstance(action, TonkOut):
            actions.append(action_to_json(Spread(action.player, action.first)))
            actions.append(action_to_json(Spread(action.player, action.second)))
        else:
            actions.append(action_to_json(action))

    def _need_drawn(self, r: Round, what: str) -> None:
        if r.phase != "drawn":
            raise IllegalAction(f"Draw a card first: you can only {what} after drawing (R6).")

    def _need_held(self, r: Round, p: str, cards: Sequence[Card]) -> None:
        hand = r.hands[p]
        for c in cards:
            if c not in hand:
                raise IllegalAction(f"You don't hold {c.label}.")

    def _draw(self, r: Round, p: str, source: str) -> list[Event]:
        if r.phase != "start":
            raise IllegalAction("You have already drawn this turn.")
        events: list[Event] = []
        if source == "stock":
            card = r.stock.pop()
            r.hands[p].append(card)
            self._log(Draw(p, "stock"))
            events.append(Drew(p, "stock", None, len(r.stock)))
            if not r.stock:
                self._stock_out(r, p, events)
                return events
        elif source == "discard":
            if not r.discard:
                raise IllegalAction("The discard pile is empty: draw from the stock (R6.2).")
            card = r.discard.pop()
            r.hands[p].append(card)
            r.taken = card
            self._log(Draw(p, "discard"))
            events.append(Drew(p, "discard", card, len(r.stock)))
        else:
            raise IllegalAction(f"Draw from the stock or the discard pile, not {source!r}.")
        r.phase = "drawn"
        r.drawn_size = len(r.hands[p])
        return events

    def _discard(self, r: Round, p: str, card: Card) -> list[Event]:
        self._need_drawn(r, "discard")
        self._need_held(r, p, [card])
        hand = r.hands[p]
        if card == r.taken and len(hand) > 1:
            raise IllegalAction(
                f"You can't discard {card.label}: you just took it from the discard pile (R6.6)."
            )
        hand.remove(card)
        r.discard.append(card)
        self._log(Discard(p, card))
        events: list[Event] = [Discarded(p, card)]
        if not hand:
            self._end_round(events, "out", p, [p])
        else:
            self._end_turn(events)
        return events

    def _spread(self, r: Round, p: str, groups: Sequence[Sequence[Card]]) -> list[Event]:
        self._need_drawn(r, "lay down a spread")
        seen: set[Card] = set()
        checked: list[tuple[SpreadKind, tuple[Card, ...]]] = []
        for cards in groups:
            self._need_held(r, p, cards)
            kind = spread_kind(cards)
            if seen.intersection(cards):
                raise IllegalAction("The two spreads of a tonk out can not share a card.")
            seen.update(cards)
            checked.append((kind, normalise(cards)))
        hand = r.hands[p]
        events: list[Event] = []
        for kind, cards in checked:
            for c in cards:
                hand.remove(c)
            r.spreads.append(TableSpread(p, kind, list(cards)))
            r.spreads_this_turn += 1
            self._log(Spread(p, cards))
            events.append(SpreadLaid(p, cards, len(r.spreads) - 1, kind))
        if not hand:
            tonk = r.drawn_size == 6 and r.spreads_this_turn == 2 and not r.layoffs_this_turn
            if tonk:
                side = [(q, "R7.4") for q in r.players if q != p]
                self._end_round(events, "tonk", p, [p], side_to_player=side)
            else:
                self._end_round(events, "out", p, [p])
        return events

    def _lay_off(self, r: Round, p: str, card: Card, target: int) -> list[Event]:
        self._need_drawn(r, "lay off")
        self._need_held(r, p, [card])
        if not isinstance(target, int) or not 0 <= target < len(r.spreads):
            raise IllegalAction(f"There is no spread number {target}.")
        sp = r.spreads[target]
        if not fits(sp.kind, sp.cards, card):
            raise IllegalAction(f"{card.label} does not fit on {labels(sp.cards)} (R6.5).")
        r.hands[p].remove(card)
        if sp.kind == "run" and card.rank < sp.cards[0].rank:
            sp.cards.insert(0, card)
        else:
            sp.cards.append(card)
        r.layoffs_this_turn += 1
        self._log(LayOff(p, card, target))
        events: list[Event] = [LaidOff(p, card, target)]
        if not r.hands[p]:
            self._end_round(events, "out", p, [p])
        return events

    def _drop(self, r: Round, p: str) -> list[Event]:
        if r.phase != "start":
            raise IllegalAction("You can only drop at the start of your turn, before drawing (R6.1).")
        self._log(Drop(p))
        mine = hand_value(r.hands[p])
        events: list[Event] = [Dropped(p, mine)]
        others = {q: hand_value(r.hands[q]) for q in r.live() if q != p}
        low = min(others.values())
        if mine < low:
            self._end_round(events, "drop", p, [p])
        else:
            winners = [q for q, v in others.items() if v == low]
            self._end_round(events, "caught", p, winners, side_to_pot=[(p, "R7.2")])
        return events

    def _stock_out(self, r: Round, p: str, events: list[Event]) -> None:
        """R6.3, R7.3: the last stock card was drawn; the lowest hand wins."""
        values = {q: hand_value(r.hands[q]) for q in r.live()}
        low = min(values.values())
        self._end_round(events, "stock", p, [q for q, v in values.items() if v == low])

    def _leave(self, p: str) -> list[Event]:
        if p not in self.seated:
            raise IllegalAction(f"{self.name(p)} is not seated at this table.")
        r = self.round
        events: list[Event] = []
        if r is None or r.end is not None:
            events.append(PlayerLeft(p, during_round=False))
            self._left_between_rounds.append(p)
            self._close_seat(p, "left", events)
            if len(self.seated) < 2:
                self._game_over(events)
            return events
        if p in r.dead:
            raise IllegalAction(f"{self.name(p)} has already left this round.")
        self._log(Leave(p))
        was_turn = r.to_act == p
        r.dead.add(p)
        events.append(PlayerLeft(p, during_round=True))
        live = r.live()
        if len(live) == 1:
            self._end_round(events, "out", live[0], live)  # R8.4
        elif was_turn:
            self._end_turn(events)
        return events

    # ------------------------------------------------------------------ turn flow

    def _begin_turn(self, events: list[Event]) -> None:
        r = self.round
        assert r is not None
        p = r.to_act
        events.append(TurnStarted(p))
        self._show(p, events)

    def _end_turn(self, events: list[Event]) -> None:
        r = self.round
        assert r is not None
        r.had_turn.add(r.to_act)
        r.phase = "start"
        r.taken = None
        r.drawn_size = r.spreads_this_turn = r.layoffs_this_turn = 0
        n = len(r.players)
        nxt = r.turn
        for _ in range(n):
            nxt = (nxt + 1) % n
            if r.players[nxt] not in r.dead:
                break
        if not r.flipflop_paid and r.players[nxt] in r.had_turn:
            self._pay_flip_flop(events)  # R5.5: the first cycle is over
        r.turn = nxt
        self._begin_turn(events)

    def _show(self, p: str, events: list[Event]) -> None:
        """R5.3: at the start of a first turn, show a card that beats the best shown."""
        r = self.round
        assert r is not None
        if p in r.shown or r.flipflop_paid:
            return
        r.shown.add(p)
        if p in r.dead:
            return
        for pot, card in zip(FLIP_FLOP, r.candidates[p], strict=True):
            best = r.best[pot]
            if card is not None and (best is None or card.rank < best[0].rank):
                r.best[pot] = (card, p)
                r.showings.append((p, pot, card))
                events.append(CardShown(p, pot, card))

    def _pay_flip_flop(self, events: list[Event]) -> None:
        """R5.4-R5.6: everyone yet to show does so; the lowest eligible card wins each pot."""
        r = self.round
        assert r is not None
        n = len(r.players)
        d = r.players.index(r.dealer)
        for i in range(1, n + 1):
            self._show(r.players[(d + i) % n], events)
        r.flipflop_paid = True
        for i, pot in enumerate(FLIP_FLOP):
            best: tuple[Card, str] | None = None
            for p in r.players:
                c = r.candidates[p][i]
                if c is not None and p not in r.dead and (best is None or c.rank < best[0].rank):
                    best = (c, p)
            if best is None:
                if self.pots[pot]:
                    events.append(PotCarried(pot, self.pots[pot]))
                continue
            shown = r.best[pot]
            if shown is None or shown[1] != best[1]:
                r.showings.append((best[1], pot, best[0]))
                events.append(CardShown(best[1], pot, best[0]))
            self._pay(pot, [best[1]], events)

    def _side_stake(self, p: str) -> int:
        """R2.5: min(S, stack) leaves the player's stack."""
        amount = min(self.stake, self.stacks[p])
        self.stacks[p] -= amount
        return amount

    def _seat_order_from_dealer(self, players: Sequence[str]) -> list[str]:
        """R2.6: ``players`` in seat order starting at the dealer's left."""
        if len(players) == 1:
            return list(players)
        seat = self._seat
        n = len(seat)
        d = seat[self.dealer] if self.dealer is not None else n - 1
        return sorted(players, key=lambda q: (seat[q] - d - 1) % n)

    def _pay(self, pot: Pot, winners: Sequence[str], events: list[Event], record: bool = True) -> None:
        """R2.6: split the pot equally; odd chips one each from the dealer's left."""
        total = self.pots[pot]
        ordered = self._seat_order_from_dealer(winners)
        share, odd = divmod(total, len(ordered))
        shares = {q: share + (1 if i < odd else 0) for i, q in enumerate(ordered)}
        for q, amount in shares.items():
            self.stacks[q] += amount
        self.pots[pot] = 0
        if record and self.round is not None:
            self.round.winners[pot] = list(ordered)
        events.append(PotPaid(pot, total, shares))

    def _end_round(
        self,
        events: list[Event],
        reason: EndReason,
        ender: str | None,
        winners: Sequence[str],
        side_to_pot: Sequence[tuple[str, str]] = (),
        side_to_player: Sequence[tuple[str, str]] = (),
    ) -> None:
        """R7, R7.6: show hands, take side stakes, pay the pots, close seats, pass the deal."""
        r = self.round
        assert r is not None
        r.end = reason
        hands = {p: tuple(r.hands[p]) for p in r.players}
        values = {p: hand_value(h) for p, h in hands.items()}
        events.append(RoundEnded(reason, ender, hands, values, tuple(winners)))
        for payer, rule in side_to_pot:
            amount = self._side_stake(payer)
            self.pots["game"] += amount
            events.append(SideStakePaid(payer, amount, "game", None, rule))
        for payer, rule in side_to_player:
            amount = self._side_stake(payer)
            assert ender is not None
            self.stacks[ender] += amount
            events.append(SideStakePaid(payer, amount, None, ender, rule))
        self._pay("game", winners, events)
        if not r.flipflop_paid:
            self._pay_flip_flop(events)
        staying = [p for p in r.players if p not in r.dead and self.stacks[p] >= self.stake]
        if len(staying) < 2 and any(self.pots.values()):
            # R8.3: the game ends now; carried pots go to those still seated before seats close.
            receivers = staying or r.live()
            for pot in POTS:
                if self.pots[pot]:
                    self._pay(pot, receivers, events, record=False)
        for p in r.players:
            if p in r.dead:
                self._close_seat(p, "left", events)
            elif self.stacks[p] < self.stake:
                self._close_seat(p, "eliminated", events)  # R2.7
        if len(self.seated) < 2:
            self._game_over(events)
        else:
            events.append(NextDealer(self.next_dealer()))

    def _close_seat(self, p: str, reason: Literal["eliminated", "left"], events: list[Event]) -> None:
        self.seated.remove(p)
        events.append(SeatClosed(p, self.stacks[p], reason))

    def _game_over(self, events: list[Event]) -> None:
        """R8.3: pots still holding chips are split among those seated; stacks go home."""
        if self.seated:
            for pot in POTS:
                if self.pots[pot]:
                    self._pay(pot, self.seated, events, record=False)
        self.over = True
        standings = tuple(sorted(self.order, key=lambda q: (-self.stacks[q], self.order.index(q))))
        events.append(GameOver({p: self.stacks[p] for p in self.seated}, standings))

    # ------------------------------------------------------------------ views and saving

    def view(self, player: str) -> PlayerView:
        """What ``player`` may see: never another player's hidden card."""
        return make_view(self, player)

    def round_transcript(self) -> dict[str, object]:
        """The current (or last) round alone, as a complete transcript (``TRANSCRIPT.md``).

        It carries the seats, stacks and pots the round began with, so
        ``python -m engine.replay`` replays it to that round's result with no other
        round beside it. Raises ``IllegalAction`` before the first deal.
        """
        if not self.log:
            raise IllegalAction("No round has been dealt yet.")
        entry: dict[str, Any] = self.log[-1]
        start: dict[str, Any] = entry["start"]
        return {
            "stake": self.stake,
            "seats": [dict(seat) for seat in start["seats"]],
            "pots": dict(start["pots"]),
            "rounds": [{"dealer": entry["dealer"], "deck": entry["deck"][:], "actions": entry["actions"][:]}],
        }

    def public_view(self) -> PublicView:
        """What every member of the channel may see: stacks, pots, the table, card counts."""
        return make_public_view(self)

    def snapshot(self) -> dict[str, Any]:
        """The whole game as JSON-ready data; ``Game.restore`` turns it back."""
        return snapshot_game(self)

    @classmethod
    def restore(cls, data: object) -> Game:
        """Rebuild a game from ``snapshot()`` data; raises ``IllegalAction`` if it is not one."""
        return restore_game(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]


from engine.snapshot import restore_game, snapshot_game  # noqa: E402
from engine.view import PlayerView, PublicView, make_public_view, make_view  # noqa: E402
