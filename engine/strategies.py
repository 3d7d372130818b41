"""Computer players: random, basic and strong (issue: computer players).

A strategy is given a ``PlayerView`` — never the game — and returns one of
the view's legal actions. The view holds copies of what the player may see
and no reference to the game, so a strategy *can not* look at another hand
or the stock order. All randomness comes from the ``random.Random`` passed
in, so a tournament replays exactly under a seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.cards import DECK, Card, hand_value
from engine.game import Game, Round, TableSpread, candidates
from engine.spreads import find_spreads, fits
from engine.view import PlayerView


class Strategy(Protocol):
    """Chooses one legal action from what a player can see."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal`` (never ``Leave``)."""


def playable(view: PlayerView) -> list[Action]:
    """The legal actions a computer player considers: all but leaving the game."""
    return [a for a in view.legal if not isinstance(a, Leave)]


class RandomStrategy:
    """A uniformly random legal action: the baseline."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Any legal action, each as likely."""
        acts = playable(view)
        return acts[rng.randrange(len(acts))]


def _near(card: Card, others: Sequence[Card]) -> bool:
    """A card that could soon join a spread: a pair, or a suit neighbour within two ranks."""
    for o in others:
        if o is card:
            continue
        if o.rank == card.rank:
            return True
        if o.suit == card.suit and abs(o.rank - card.rank) <= 2:
            return True
    return False


def drop_threshold(view: PlayerView) -> int:
    """How low a hand must be to drop now: lower with more players and as others lay down cards."""
    others = [p for p in view.players if p != view.player and p not in view.dead]
    fewest = min((view.card_counts[p] for p in others), default=5)
    base = 11 - 2 * max(0, len(others) - 2)
    return base - 2 * max(0, 5 - fewest)


class BasicStrategy:
    """Sound heuristics: tonk when possible, spread and lay off, keep cards near spreads.

    Takes the discard only when it makes or extends a spread or clearly lowers the
    hand; discards the highest card that is not close to a spread; drops when the
    hand is low enough for the number of players and what they have shown.
    """

    name = "basic"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The heuristic choice for the player to act."""
        acts = playable(view)
        hand = list(view.hand)
        if view.phase == "start":
            drop = next((a for a in acts if isinstance(a, Drop)), None)
            if drop is not None and view.hand_value <= drop_threshold(view):
                return drop
            top = view.top_discard
            take = next((a for a in acts if isinstance(a, Draw) and a.source == "discard"), None)
            if take is not None and top is not None and self._wants(view, hand, top):
                return take
            return next(a for a in acts if isinstance(a, Draw) and a.source == "stock")
        return self.drawn_move(view.player, hand, acts)

    @staticmethod
    def drawn_move(player: str, hand: list[Card], acts: Sequence[Action]) -> Action:
        """After the draw: tonk out, else spread, else lay off, else discard the highest far card."""
        tonks = [a for a in acts if isinstance(a, TonkOut)]
        if tonks:
            return tonks[0]
        spreads = [a for a in acts if isinstance(a, Spread)]
        if spreads:
            return max(spreads, key=lambda a: (hand_value(a.cards), len(a.cards)))
        layoffs = [a for a in acts if isinstance(a, LayOff)]
        if layoffs:
            return max(layoffs, key=lambda a: a.card.value)
        discards = [a for a in acts if isinstance(a, Discard)]
        far = [a for a in discards if not _near(a.card, hand)]
        pool = far or discards
        return max(pool, key=lambda a: (a.card.value, a.card.rank, a.card.suit))

    @staticmethod
    def _wants(view: PlayerView, hand: list[Card], top: Card) -> bool:
        with_top = [*hand, top]
        if any(top in s for s in find_spreads(with_top)):
            return True
        if any(fits(s.kind, s.cards, top) for s in view.spreads):
            return True
        highest = max(c.value for c in hand)
        return top.value <= 3 and highest - top.value >= 6  # clearly lowers the hand


# ---------------------------------------------------------------------- strong


def rollout_move(game: Game, rng: random.Random) -> Action:
    """The basic strategy's move, read straight off a *sampled* game for speed.

    Only used inside ``StrongStrategy``'s own determinized worlds, never on the
    real game: the real hidden cards are not in those worlds.
    """
    r = game.round
    assert r is not None
    p = r.to_act
    hand = r.hands[p]
    if r.phase == "start":
        others = [q for q in r.players if q != p and q not in r.dead]
        fewest = min((len(r.hands[q]) for q in others), default=5)
        threshold = 11 - 2 * max(0, len(others) - 2) - 2 * max(0, 5 - fewest)
        if hand_value(hand) <= threshold:
            return Drop(p)
        if r.discard:
            top = r.discard[-1]
            with_top = [*hand, top]
            if any(top in s for s in find_spreads(with_top)) or any(
                fits(s.kind, s.cards, top) for s in r.spreads
            ):
                return Draw(p, "discard")
            if top.value <= 3 and max(c.value for c in hand) - top.value >= 6:
                return Draw(p, "discard")
        return Draw(p, "stock")
    return BasicStrategy.drawn_move(p, hand, game.legal_actions())


def _unseen(view: PlayerView) -> list[Card]:
    """Cards this player has not seen placed: in other hands or the stock."""
    seen: set[Card] = set(view.hand) | set(view.discard_pile)
    for s in view.spreads:
        seen.update(s.cards)
    return [c for c in DECK if c not in seen]


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A full game consistent with everything ``view`` shows: unseen cards dealt at random.

    Cards known to be in a hand stay there: the upcard while the dealer holds
    it, flip and flop cards shown, and a card just taken from the discard pile.
    Flip and flop are already settled by the deal (R5.4), so the sample marks
    them paid and only the game pot is played for.
    """
    unseen = _unseen(view)
    known: dict[str, list[Card]] = {p: [] for p in view.players}
    placed: set[Card] = set()
    if view.upcard is not None and view.upcard_held and view.dealer in known and view.dealer != view.player:
        known[view.dealer].append(view.upcard)
        placed.add(view.upcard)
    for p, _pot, c in view.showings:
        if p != view.player and c in unseen and c not in placed and p in known:
            known[p].append(c)
            placed.add(c)
    if (
        view.taken is not None
        and view.to_act != view.player
        and view.to_act in known
        and view.taken in unseen
    ):
        if view.taken not in placed:
            known[view.to_act].append(view.taken)
            placed.add(view.taken)
    pool = [c for c in unseen if c not in placed]
    for p in view.players:  # more known cards than the hand holds: the rest go back to the pool
        if p != view.player and len(known[p]) > view.card_counts[p]:
            pool.extend(known[p][view.card_counts[p] :])
            known[p] = known[p][: view.card_counts[p]]
    rng.shuffle(pool)
    hands: dict[str, list[Card]] = {}
    for p in view.players:
        if p == view.player:
            hands[p] = list(view.hand)
            continue
        mine = list(known[p])
        while len(mine) < view.card_counts[p]:
            mine.append(pool.pop())
        hands[p] = mine
    stock = pool[: view.stock_size]
    game = Game._assemble(
        stake=view.stake,
        order=view.players,
        names=view.names,
        stacks={p: view.stacks.get(p, 0) for p in view.players},
        seated=view.players,
        pots=view.pots,
        dealer=view.dealer,
        rounds_played=view.round_number,
        log=[{"actions": []}],
    )
    r = Round(view.round_number, view.dealer or view.players[0], tuple(view.players))
    r.hands = hands
    r.dealt = {p: tuple(h) for p, h in hands.items()}
    r.upcard = view.upcard if view.upcard is not None else DECK[0]
    r.stock = stock
    r.discard = list(view.discard_pile)
    r.spreads = [TableSpread(s.owner, s.kind, list(s.cards)) for s in view.spreads]
    r.paid = dict(view.paid)
    r.dead = set(view.dead)
    r.turn = view.players.index(view.to_act) if view.to_act in view.players else 0
    r.phase = "drawn" if view.phase == "drawn" else "start"
    r.taken = view.taken
    r.drawn_size = len(hands[view.to_act]) if view.phase == "drawn" and view.to_act else 0
    r.had_turn = set(view.players)
    r.shown = set(view.players)
    r.candidates = {p: candidates(r, p) for p in view.players}
    r.flipflop_paid = True
    game.round = r
    return game


class StrongStrategy:
    """Determinized Monte Carlo: sample the hidden cards, play each move out, keep the best.

    For each candidate action, many worlds consistent with the view are sampled;
    the action is applied and the round is played to its end by the basic
    strategy for everyone. The action with the best average chip result wins.
    Stops sampling when ``budget`` seconds are used (default 0.2).
    """

    name = "strong"

    def __init__(
        self, budget: float = 0.2, clock: Callable[[], float] = time.perf_counter, max_samples: int = 400
    ) -> None:
        self.budget = budget
        self.clock = clock
        self.max_samples = max_samples
        self.rollout = BasicStrategy()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate with the best average result over sampled worlds."""
        acts = playable(view)
        if view.phase == "drawn":
            # Tonk outs, spreads and lay-offs only ever lower the hand: play them as basic
            # does, and search where judgement matters, which card to discard.
            if any(isinstance(a, (TonkOut, Spread, LayOff)) for a in acts):
                return self.rollout.choose(view, rng)
            acts = [a for a in acts if isinstance(a, Discard)]
        if len(acts) == 1:
            return acts[0]
        start = self.clock()
        totals = {i: 0.0 for i in range(len(acts))}
        counts = {i: 0 for i in range(len(acts))}
        samples = 0
        while samples < self.max_samples and (samples < len(acts) or self.clock() - start < self.budget):
            world_seed = rng.random()
            for i, action in enumerate(acts):
                totals[i] += self._play_out(view, action, random.Random(world_seed))
                counts[i] += 1
            samples += 1
            if self.clock() - start >= self.budget and samples >= 2:
                break
        best = max(range(len(acts)), key=lambda i: (totals[i] / max(counts[i], 1), -i))
        return acts[best]

    def _play_out(self, view: PlayerView, action: Action, rng: random.Random) -> float:
        game = determinize(view, rng)
        me = view.player
        before = game.stacks[me]
        game.apply(action)
        steps = 0
        while game.in_round and steps < 300:
            game.apply(rollout_move(game, rng))
            steps += 1
        return float(game.stacks[me] - before)


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "random": RandomStrategy,
    "basic": BasicStrategy,
    "strong": StrongStrategy,
}
"""The levels a table offers, by name."""


def decide(game: Game, player: str, strategy: Strategy, rng: random.Random) -> Action:
    """Ask ``strategy`` for ``player``'s move, giving it only the player's view."""
    return strategy.choose(game.view(player), rng)


__all__ = [
    "STRATEGIES",
    "BasicStrategy",
    "RandomStrategy",
    "Strategy",
    "StrongStrategy",
    "decide",
    "determinize",
]
