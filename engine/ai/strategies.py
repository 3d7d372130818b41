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
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.ai import likelihood
from engine.ai.inference import BIT, NEAR, Tracker
from engine.ai.rollout import Dealt, SharedPosition, deal, play_dealt
from engine.ai.search import Limits, Results, Scored, World, keep_basic, ranked, search
from engine.ai.worlds import determinize, hidden_cards, sample_hidden, sample_weighted
from engine.cards import Card, hand_value
from engine.game import Game
from engine.spreads import find_spreads, takes
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


def threshold_for(other_counts: Sequence[int]) -> int:
    """Lower with more players, and lower as others lay down cards (their card counts)."""
    fewest = min(other_counts, default=5)
    return 11 - 2 * max(0, len(other_counts) - 2) - 2 * max(0, 5 - fewest)


def wants_discard(hand: Sequence[Card], top: Card, targets: Iterable[tuple[Card, ...]]) -> bool:
    """Take the discard only when it makes or extends a spread or clearly lowers the hand.

    ``targets`` are, for each spread on the table, the cards it takes (R6.5).
    "Clearly lowers" means a low card (3 or less) taken for a card worth at least
    6 more, the one ``throw`` would then discard. (Comparing with the hand's highest
    card instead let two players trade low cards back and forth forever when their
    high cards were paired: each take must now lower the hand, so the round ends.)
    """
    if any(top in s for s in find_spreads([*hand, top])):
        return True
    if any(top in wanted for wanted in targets):
        return True
    return top.value <= 3 and throw([*hand, top], top).value - top.value >= 6


def throw(hand: Sequence[Card], banned: Card | None = None) -> Card:
    """The card the basic policy discards from ``hand``: the highest not near a spread, else the highest.

    ``banned`` is the card taken from the discard pile this turn (R6.6); it stays
    unless it is the only card.
    """
    held = sum(map(BIT.__getitem__, hand))
    allowed = [c for c in hand if c != banned] or list(hand)
    far = [c for c in allowed if not NEAR[c] & held]
    return max(far or allowed, key=lambda c: (c.value, c.rank, c.suit))


def start_move(
    player: str,
    hand: Sequence[Card],
    top: Card | None,
    targets: Iterable[tuple[Card, ...]],
    other_counts: Sequence[int],
) -> Action:
    """Before the draw: drop with a low enough hand, else take a useful discard, else draw from the stock."""
    if hand_value(hand) <= threshold_for(other_counts):
        return Drop(player)
    if top is not None and wants_discard(hand, top, targets):
        return Draw(player, "discard")
    return Draw(player, "stock")


def drawn_move(player: str, hand: Sequence[Card], acts: Sequence[Action]) -> Action:
    """After the draw: tonk out, else spread, else lay off, else discard the highest far card."""
    spreads: list[Spread] = []
    layoffs: list[LayOff] = []
    discards: list[Discard] = []
    for a in acts:
        if isinstance(a, Discard):
            discards.append(a)
        elif isinstance(a, TonkOut):
            return a
        elif isinstance(a, Spread):
            spreads.append(a)
        elif isinstance(a, LayOff):
            layoffs.append(a)
    if spreads:
        return max(spreads, key=lambda a: (hand_value(a.cards), len(a.cards)))
    if layoffs:
        return max(layoffs, key=lambda a: a.card.value)
    held = sum(map(BIT.__getitem__, hand))
    far = [a for a in discards if not NEAR[a.card] & held]
    pool = far or discards
    return max(pool, key=lambda a: (a.card.value, a.card.rank, a.card.suit))


class BasicStrategy:
    """Sound heuristics: tonk when possible, spread and lay off, keep cards near spreads.

    Takes the discard only when it makes or extends a spread or clearly lowers the
    hand; discards the highest card that is not close to a spread; drops when the
    hand is low enough for the number of players and what they have shown. The
    strong player's rollouts call the same ``start_move`` and ``drawn_move``.
    """

    name = "basic"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The heuristic choice for the player to act."""
        if view.phase == "start":
            others = [view.card_counts[p] for p in view.players if p != view.player and p not in view.dead]
            targets = [takes(s.kind, s.cards) for s in view.spreads]
            return start_move(view.player, view.hand, view.top_discard, targets, others)
        return drawn_move(view.player, view.hand, playable(view))


# ---------------------------------------------------------------------- strong


def rollout_move(game: Game) -> Action:
    """The basic strategy's move in a *sampled* world, without building a view each step.

    Only used inside ``StrongStrategy``'s own determinized worlds, never on the
    real game: the real hidden cards are not in those worlds.
    """
    r = game.round
    assert r is not None
    p = r.players[r.turn]
    hand = r.hands[p]
    if r.phase == "start":
        others = [len(r.hands[q]) for q in r.players if q != p and q not in r.dead]
        top = r.discard[-1] if r.discard else None
        return start_move(p, hand, top, [s.takes() for s in r.spreads], others)
    return drawn_move(p, hand, game.legal_actions())


SHARED_TRACKER = Tracker()
"""The memory strong players share in this process (``engine.ai.inference.Tracker``)."""


class StrongStrategy:
    """Determinized Monte Carlo: sample the hidden cards, play each move out, keep the best.

    Many worlds consistent with the view are sampled: the hidden hands follow
    what the others were seen to take and discard (``engine.ai.inference``,
    ``engine.ai.worlds.sample_hidden``); with ``weigh`` (the default), each hand is also weighed by
    how likely it makes everything its owner was seen to do (``sample_weighted``). In each
    world every candidate action (drop or draw; then spread, lay off or which
    card to discard) is applied and the round is played to its end by the basic
    strategy for everyone (``engine.ai.rollout.play_out``); the action with the best
    average chip result wins. Actions clearly worse than the best stop being
    sampled early (successive halving), so the rest get more worlds; once one
    action is left the decision is made (an easy one costs little). The basic
    policy's own move is played unless another action beats it by more than
    ``keep_z`` standard errors (``engine.ai.search.keep_basic``): the search departs
    from sound play on evidence, not on noise. Plans to use ``aim`` of the ``budget``
    seconds (default 0.18; ``start_aim``, all of it, for whether to drop) and never passes
    it by more than one play-out (``engine.ai.search``), so decisions stay fast on a busy machine.
    """

    name = "strong"

    def __init__(
        self,
        budget: float = 0.18,
        clock: Callable[[], float] = time.perf_counter,
        max_samples: int = 2000,
        first_cut: int = 32,
        cut_z: float = 3.0,
        tracker: Tracker | None = None,
        search_spreads: bool = True,
        weigh: bool = True,
        keep_z: float = 1.0,
        aim: float = 0.75,
        start_aim: float = 1.0,
    ) -> None:
        self.budget = budget
        self.clock = clock
        self.max_samples = max_samples
        self.first_cut = first_cut
        """Worlds sampled before the first cut of clearly worse actions (then at 2x, 4x, …)."""
        self.cut_z = cut_z
        self.search_spreads = search_spreads
        self.weigh = weigh
        """Weigh sampled hands by likelihoods of all each opponent did (``sample_weighted``). On by
        default: it gives the true hands more probability (``bench/inference_bench.py``) and, with
        the basic move kept within the noise (``keep_z``), narrowed peek − strong on the tuning
        seeds (see the README's figures); ``False``: the hard rules only."""
        self.keep_z = keep_z
        """The basic move is played unless another beats it by more than ``keep_z`` standard errors of the
        play-outs (``engine.ai.search.keep_basic``); 0: the best estimate, however close."""
        self.aim = aim
        """The share of ``budget`` a move's search plans to use (``engine.ai.search.Limits.aim``)."""
        self.start_aim = start_aim
        """``aim`` at the start of a turn: whether to drop decides the most chips a turn can (R7.2),
        and it is asked once a turn, so it may plan to use the whole budget."""
        self.rollout = BasicStrategy()
        self._dealt: tuple[SharedPosition, dict[str, list[Card]], Dealt] | None = None
        self.tracker = SHARED_TRACKER if tracker is None else tracker
        """What this player remembers between turns; by default one per process, shared, since
        the bot makes a new strategy object for every move (keyed by player and round)."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate with the best average result over sampled worlds."""
        acts = self.candidates(view)
        if len(acts) == 1:
            action = acts[0]
        elif not acts:
            action = self.rollout.choose(view, rng)
        else:
            basic = self.rollout.choose(view, rng)
            found = self._search(view, rng, acts, settle=True)
            action = acts[keep_basic(found, acts.index(basic) if basic in acts else None, self.keep_z)]
        if isinstance(action, Discard):
            self.tracker.left(view, action.card)
        return action

    def candidates(self, view: PlayerView) -> list[Action]:
        """The actions worth a search; empty when the basic move is played without one.

        A tonk out wins the most a round can pay (R7.4) and is played at once. Otherwise
        every drop and draw, spread, lay-off and discard is searched: holding a spread
        back keeps a tonk out possible and shows nothing, laying down gives others
        lay-off targets.
        """
        acts = playable(view)
        if view.phase == "drawn":
            if self.search_spreads:
                tonk = next((a for a in acts if isinstance(a, TonkOut)), None)
                if tonk is not None:
                    return [tonk]
            elif any(isinstance(a, (TonkOut, Spread, LayOff)) for a in acts):
                return []
            else:
                acts = [a for a in acts if isinstance(a, Discard)]
        return acts

    def evaluate(
        self,
        view: PlayerView,
        rng: random.Random,
        actions: Sequence[Action] | None = None,
        budget: float | None = None,
        settle: bool = False,
    ) -> list[Scored]:
        """Each action's average chip result over sampled worlds, best first.

        ``actions`` defaults to every playable action; ``budget`` (seconds) to the
        strategy's own. Used by ``choose`` and by the coach (hints, analysis).
        Actions cut early (``_cut``) have fewer ``samples`` and come after those
        sampled to the end, each group by its mean. With ``settle`` (a computer
        player's own move) the search ends as soon as one action is left: the
        choice can not change, and an easy decision costs little; the coach,
        whose estimates are shown, keeps sampling the best action to the budget.
        """
        acts = list(actions) if actions is not None else playable(view)
        return ranked(acts, self._search(view, rng, acts, budget, settle))

    def _search(
        self,
        view: PlayerView,
        rng: random.Random,
        acts: Sequence[Action],
        budget: float | None = None,
        settle: bool = False,
    ) -> Results:
        """Every action of ``acts`` played out in the same sampled worlds (``engine.ai.search.search``)."""
        start = self.clock()
        limits = Limits(
            self.budget if budget is None else budget,
            self.max_samples,
            self.first_cut,
            self.cut_z,
            (self.start_aim if view.phase == "start" else self.aim) if settle else 1.0,
        )
        sample = self._sampler(view)
        table = SharedPosition(view)

        def play(hands: dict[str, list[Card]], stock: list[Card], i: int) -> float:
            return self._play_out(table, hands, stock, acts[i])

        return search(len(acts), sample, play, rng, self.clock, start, limits, settle)

    def _sampler(self, view: PlayerView) -> Callable[[random.Random], World]:
        """Deals the hidden cards of one world from what the view and the memory say (see ``weigh``)."""
        known, pool = hidden_cards(view)
        clues = self.tracker.clues(view)
        if not self.weigh:
            return lambda rng: sample_hidden(view, known, pool, clues, rng)
        evidence = likelihood.evidence(view, clues)
        return lambda rng: sample_weighted(view, known, pool, clues, evidence, rng)

    def _play_out(
        self, table: SharedPosition, hands: dict[str, list[Card]], stock: list[Card], action: Action
    ) -> float:
        """Apply ``action`` in a sampled world and let the basic strategy finish the round (``play_out``).

        The world is turned into bits once (``deal``) for all the actions played in it: the last one
        is kept, with the table and the hands it was dealt from (held, so never mistaken for another).
        """
        dealt = self._dealt
        if dealt is None or dealt[0] is not table or dealt[1] is not hands:
            dealt = self._dealt = (table, hands, deal(table, hands, stock))
        return play_dealt(table, dealt[2], action)


class PeekStrategy(StrongStrategy):
    """For benchmarks only: the strong player's search given the true hidden cards (a ceiling).

    ``reveal`` is handed the view and returns the hidden hands and the stock (top card last) as
    they really are; a bench reads them from its own ``Game``. Every world is then the true one, and
    the play-out (the basic policy) is certain, so one world per action is the whole search. Never
    offered at a table (not in ``STRATEGIES``): a player at a table only has its view.
    """

    name = "peek"

    def __init__(self, reveal: Callable[[PlayerView], World], budget: float = 0.18) -> None:
        super().__init__(budget=budget, max_samples=1, keep_z=0.0)
        self.reveal = reveal

    def _sampler(self, view: PlayerView) -> Callable[[random.Random], World]:
        hands, stock = self.reveal(view)
        return lambda rng: ({p: list(h) for p, h in hands.items()}, list(stock))


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
    "PeekStrategy",
    "RandomStrategy",
    "Scored",
    "Strategy",
    "StrongStrategy",
    "decide",
    "determinize",
    "drawn_move",
    "rollout_move",
    "start_move",
    "World",
]
