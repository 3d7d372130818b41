"""The look back: a finished round replayed to each of one player's decisions.

At each decision the strong player searches from that player's view at that
moment (``Game.view``): their own hand and what was public, never a card they
could not see, even though every hand is known once the round is over. Where it
would have chosen clearly better, the decision is reported with the estimated
chip difference and a reason from ``engine.ai.coach``. Bounded in time: it stops
early, and says so, past its total budget. Pure, no I/O.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Leave, Spread, TonkOut
from engine.ai.coach import Reason, explain
from engine.ai.strategies import BasicStrategy, StrongStrategy, playable
from engine.cards import Card
from engine.codec import parse_action
from engine.game import Game
from engine.replay import parse_deck
from engine.spreads import normalise
from engine.state import Seat
from engine.view import PlayerView

REVIEW_BUDGET = 0.25
"""Seconds of search for each decision of a look back."""
REVIEW_TOTAL = 10.0
"""Seconds a whole look back may take; it stops early (and says so) past this."""
MIN_DIFFERENCE = 1.0
"""Chips: a decision is reported when the strong move is estimated at least this much better."""


@dataclass(frozen=True)
class Review:
    """One decision where the strong player would have chosen differently."""

    turn: int
    """The player's turn in the round (from 1)."""
    hand: tuple[Card, ...]
    """The player's hand at the decision (all they knew of their own cards)."""
    chosen: Action
    better: Action
    chosen_mean: float
    better_mean: float
    samples: int
    reason: Reason

    @property
    def difference(self) -> float:
        """Estimated chips the strong move was worth more (over the round)."""
        return self.better_mean - self.chosen_mean


@dataclass(frozen=True)
class Analysis:
    """A look back at one player's decisions in one finished round."""

    seat: str
    decisions: int
    """The player's decisions with a choice (more than one legal move)."""
    checked: int
    """Decisions searched before the time ran out (``decisions`` when it did not)."""
    reviews: tuple[Review, ...]
    """The decisions the strong player would have made differently, by more than ``MIN_DIFFERENCE``."""
    stopped_early: bool
    seconds: float
    per_decision: tuple[float, ...] = ()
    """Seconds each checked decision took (for the benchmark)."""
    skipped: int = 0
    """The player's moves the computer made for them while they were away: not reviewed."""
    own: int = 0
    """The player's own moves (not a leave): 0 with ``skipped`` when the computer made them all."""


class NotAPlayer(ValueError):
    """The seat asked about had no decision in this round."""


def _load(transcript: Mapping[str, Any]) -> tuple[Game, list[Action]]:
    """A stored one-round transcript (``Game.round_transcript``) dealt, and its actions (not yet applied)."""
    seats = [Seat(str(s["id"]), int(s["stack"])) for s in transcript["seats"]]
    game = Game(seats, int(transcript["stake"]), dict(transcript.get("pots") or {}))
    rd = transcript["rounds"][0]
    for leaver in rd.get("left_before") or []:
        if leaver in game.seated:
            game.apply(Leave(leaver))
    ids = [s.id for s in seats]
    actions = [parse_action(a, ids, f"actions[{i}]") for i, a in enumerate(rd["actions"])]
    game.start_round(deck=parse_deck(rd["deck"], "deck"), dealer=rd.get("dealer"))
    return game, actions


def _as_tonk(game: Game, actions: Sequence[Action], i: int) -> TonkOut | None:
    """A tonk out is stored as its two spreads: the pair starting at ``i``, if it is one."""
    a = actions[i]
    if not isinstance(a, Spread) or i + 1 >= len(actions):
        return None
    b = actions[i + 1]
    if not isinstance(b, Spread) or b.player != a.player:
        return None
    tonk = TonkOut(a.player, normalise(a.cards), normalise(b.cards))
    return tonk if tonk in game.legal_actions(a.player) else None


def seats_of(transcript: Mapping[str, Any]) -> list[str]:
    """The seats of a stored round's transcript."""
    return [str(s["id"]) for s in transcript["seats"]]


def analyse(
    transcript: Mapping[str, Any],
    seat: str,
    *,
    seed: int = 0,
    budget: float = REVIEW_BUDGET,
    total: float = REVIEW_TOTAL,
    min_difference: float = MIN_DIFFERENCE,
    clock: Callable[[], float] = time.perf_counter,
    by_computer: Collection[int] = (),
) -> Analysis:
    """Review ``seat``'s decisions in a finished round against the strong player's.

    The transcript is replayed action by action; at each of ``seat``'s decisions
    with a choice, the strong player searches from ``seat``'s view at that moment
    (never a card ``seat`` could not see then) with ``budget`` seconds. Stops
    when ``total`` seconds are used, saying so (``stopped_early``). Raises
    ``NotAPlayer`` when ``seat`` made no move in the round. ``by_computer``: the
    indices of the actions the computer made for ``seat`` while its player was
    away: they are replayed, never reviewed, and counted (``skipped``).
    """
    start = clock()
    game, actions = _load(transcript)
    mine = [i for i, a in enumerate(actions) if a.player == seat and not isinstance(a, Leave)]
    if not mine:
        raise NotAPlayer(seat)
    computers = set(by_computer)
    skipped = sum(1 for i in mine if i in computers)
    rng = random.Random(seed)
    reviews: list[Review] = []
    times: list[float] = []
    decisions = checked = turn = 0
    stopped = False
    i = 0
    while i < len(actions):
        action: Action = actions[i]
        step = 1
        r = game.round
        if action.player == seat and not isinstance(action, Leave) and game.to_act == seat and r is not None:
            view = game.view(seat)
            if view.phase == "start":
                turn += 1
            tonk = _as_tonk(game, actions, i)
            if tonk is not None:
                action, step = tonk, 2
            if i not in computers and len(playable(view)) > 1:  # the computer's moves are replayed only
                decisions += 1
                if clock() - start < total:
                    began = clock()
                    review = _review(view, action, rng, budget, min_difference, max(turn, 1))
                    times.append(clock() - began)
                    checked += 1
                    if review is not None:
                        reviews.append(review)
                else:
                    stopped = True
        for a in actions[i : i + step]:
            game.apply(a)
        i += step
    seconds = clock() - start
    own = len(mine) - skipped
    return Analysis(seat, decisions, checked, tuple(reviews), stopped, seconds, tuple(times), skipped, own)


def _review(
    view: PlayerView, chosen: Action, rng: random.Random, budget: float, min_difference: float, turn: int
) -> Review | None:
    """The strong player's verdict on one decision: a ``Review`` if it would have chosen clearly better."""
    strong = StrongStrategy(budget=budget)
    acts = strong.candidates(view)
    if not acts:  # spreads or lay-offs on offer: the strong player plays the basic move without a search
        acts = [BasicStrategy().choose(view, rng)]
    if chosen not in acts:
        acts = [*acts, chosen]
    if len(acts) == 1:
        return None
    scored = strong.evaluate(view, rng, acts, budget)
    best = scored[0]
    mine = next(s for s in scored if s.action == chosen)
    if best.action == chosen or best.mean - mine.mean < min_difference:
        return None
    return Review(
        turn=turn,
        hand=tuple(view.hand),
        chosen=chosen,
        better=best.action,
        chosen_mean=mine.mean,
        better_mean=best.mean,
        samples=min(best.samples, mine.samples),
        reason=explain(view, best.action, rng, scored, chosen),
    )


def analyse_worker(
    transcript: Mapping[str, Any],
    seat: str,
    seed: int,
    budget: float,
    total: float,
    by_computer: tuple[int, ...] = (),
) -> Analysis:
    """``analyse`` with positional arguments: a module-level function a process pool can run."""
    return analyse(transcript, seat, seed=seed, budget=budget, total=total, by_computer=by_computer)


__all__ = [
    "MIN_DIFFERENCE",
    "REVIEW_BUDGET",
    "REVIEW_TOTAL",
    "Analysis",
    "NotAPlayer",
    "Review",
    "analyse",
    "analyse_worker",
    "seats_of",
]
