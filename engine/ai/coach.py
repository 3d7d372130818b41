"""The coach: what the strong player would do, why, and a look back at a finished round.

Pure, no I/O. Everything here starts from a ``PlayerView`` — what one player
could see at the moment — so a hint or a review never uses a card the player
could not see, even when it looks back at a finished round whose hands are all
known now.

- ``hint(view, rng, budget)``: the strong player's move now and one short reason
  (``Reason``: a code and its parameters; ``bot.coach_words`` words it).
- ``watch(view)``: for a player waiting for their turn, what to watch for.
- ``engine.ai.review.analyse``: the look back at a finished round, decision by
  decision, with the reasons from here.

Estimates are the strong player's own (``StrongStrategy.evaluate``): the average
chips the player ends the round with over sampled deals of the cards they can
not see, each move played out by the basic strategy. Flip and flop are fixed by
the deal (R5.4), so only the game pot and side stakes move these numbers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, Discard, Draw, Drop, LayOff, Spread, TonkOut
from engine.ai.strategies import BasicStrategy, Scored, StrongStrategy, playable
from engine.ai.worlds import hidden_cards
from engine.cards import DECK, Card, hand_value
from engine.spreads import find_spreads, takes
from engine.view import PlayerView

HINT_BUDGET = 0.5
"""Seconds of search for a hint."""
DROP_SAMPLES = 300
"""Sampled deals of the unseen cards behind a drop's chance of winning."""


@dataclass(frozen=True)
class Reason:
    """Why a move: a ``code`` (see ``REASONS``) and its parameters (cards, numbers, spreads)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


REASONS = frozenset(
    {
        "only",
        "tonk",
        "spread",
        "layoff",
        "discard_far",
        "discard_lone",
        "discard_high",
        "discard_searched",
        "discard_instead",
        "drop",
        "no_drop",
        "take_spread",
        "take_layoff",
        "take_low",
        "take_searched",
        "stock",
        "stock_searched",
        "watch",
    }
)
"""Every reason code a hint or a look back gives; the bot words each through its catalogs."""


@dataclass(frozen=True)
class Hint:
    """The strong player's move now, why, and the estimates behind it (best first; may be empty)."""

    action: Action
    reason: Reason
    scored: tuple[Scored, ...] = ()


# ---------------------------------------------------------------------- the strong move


def strong_move(view: PlayerView, rng: random.Random, budget: float) -> tuple[Action, tuple[Scored, ...]]:
    """What ``StrongStrategy`` plays from ``view``, with the estimates it searched (if it searched)."""
    strong = StrongStrategy(budget=budget)
    acts = strong.candidates(view)
    if len(acts) == 1:
        return acts[0], ()
    if not acts:
        return BasicStrategy().choose(view, rng), ()
    scored = tuple(strong.evaluate(view, rng, acts, budget))
    return scored[0].action, scored


def hint(view: PlayerView, rng: random.Random, budget: float = HINT_BUDGET) -> Hint:
    """The strong player's move for the player to act, and one short reason in their terms.

    ``view`` must be the view of the player to act (``watch`` is for the others).
    """
    if view.to_act != view.player:
        raise ValueError("a hint is for the player to act")
    options = playable(view)
    action, scored = strong_move(view, rng, budget)
    if len(options) == 1:
        return Hint(action, Reason("only"), scored)
    return Hint(action, explain(view, action, rng, scored), scored)


# ---------------------------------------------------------------------- reasons


def near(card: Card, other: Card) -> bool:
    """A pair, or a suit neighbour within two ranks: the cards that may make a spread together."""
    return card != other and (
        card.rank == other.rank or (card.suit == other.suit and abs(card.rank - other.rank) <= 2)
    )


def far_cards(hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` near no other card of it (they fit no spread in the making)."""
    return [c for c in hand if not any(near(c, o) for o in hand)]


def drop_chance(view: PlayerView, rng: random.Random, samples: int = DROP_SAMPLES) -> float:
    """The share of sampled deals of the unseen cards in which a drop now wins (R7.2: all others higher)."""
    known, pool = hidden_cards(view)
    others = [p for p in view.players if p != view.player and p not in view.dead]
    mine = view.hand_value
    wins = 0
    cards = list(pool)
    for _ in range(samples):
        rng.shuffle(cards)
        i = 0
        won = True
        for p in others:
            need = view.card_counts[p] - len(known[p])
            hand = known[p] + cards[i : i + max(need, 0)]
            i += max(need, 0)
            if hand_value(hand) <= mine:
                won = False
                break
        wins += won
    return wins / samples if samples else 0.0


def _spread_number(view: PlayerView, target: int) -> int:
    return target + 1


def _take_reason(view: PlayerView, rng: random.Random) -> Reason:
    top = view.top_discard
    assert top is not None
    made = [s for s in find_spreads([*view.hand, top]) if top in s]
    if made:
        best = max(made, key=len)
        return Reason("take_spread", {"card": top, "with_cards": tuple(c for c in best if c != top)})
    for s in view.spreads:
        if top in takes(s.kind, s.cards):
            return Reason("take_layoff", {"card": top, "target": _spread_number(view, s.index)})
    if top.value <= 3:
        return Reason("take_low", {"card": top, "value": top.value})
    return Reason("take_searched", {"card": top})


def explain(
    view: PlayerView,
    action: Action,
    rng: random.Random,
    scored: Sequence[Scored] = (),
    instead: Action | None = None,
) -> Reason:
    """One short reason for ``action`` from ``view``: what sets it apart from the next best move.

    A reason never restates the move (the hint says the move already); it names what the
    move does that the alternative does not: the points it takes off the hand while a
    discard still follows, the card a discard keeps back and what the play-outs measured
    between them. ``scored`` is the search's estimates, if any; ``instead`` the move it is
    compared with (a look back: the player's own), else the obvious alternative.
    """
    if isinstance(action, TonkOut):
        return Reason("tonk")
    if isinstance(action, (Spread, LayOff)):
        laid = action.cards if isinstance(action, Spread) else (action.card,)
        before = view.hand_value
        params: dict[str, Any] = {"before": before, "after": before - hand_value(laid)}
        if isinstance(action, LayOff):
            params["target"] = _spread_number(view, action.target)
        return Reason("spread" if isinstance(action, Spread) else "layoff", params)
    if isinstance(action, Drop):
        chance = round(100 * drop_chance(view, rng))
        return Reason("drop", {"value": view.hand_value, "chance": chance})
    if isinstance(action, Draw) and action.source == "discard":
        return _take_reason(view, rng)
    if isinstance(action, Draw):
        if any(isinstance(a, Drop) for a in view.legal) and view.hand_value <= 15:
            chance = round(100 * drop_chance(view, rng))
            if chance < 50:
                return Reason("no_drop", {"value": view.hand_value, "chance": chance})
        top = view.top_discard
        if top is not None and not _take_reason(view, rng).code.startswith(("take_spread", "take_layoff")):
            return Reason("stock", {"card": top})
        return Reason("stock_searched")
    if isinstance(action, Discard):
        other = instead.card if isinstance(instead, Discard) and instead.card != action.card else None
        return _discard_reason(view, action.card, scored, other)
    return Reason("only")


def _by_value(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (-c.value, -c.rank, c.suit))


def _discard_reason(view: PlayerView, card: Card, scored: Sequence[Scored], other: Card | None) -> Reason:
    """Why this discard and not ``other`` (default: the card the simple rule would throw)."""
    hand = list(view.hand)
    banned = view.taken if len(hand) > 1 else None
    choices = [c for c in hand if c != banned]
    far = [c for c in far_cards(hand) if c in choices]
    obvious = _by_value(far or choices)[0]
    if other is None and card == obvious:
        return _obvious_discard_reason(card, far, choices)
    compared = other if other is not None else obvious
    means = {x.action.card: x.mean for x in scored if isinstance(x.action, Discard)}
    mine, theirs = means.get(card), means.get(compared)
    if mine is not None and theirs is not None and mine - theirs >= 0.1:
        return Reason("discard_searched", {"other": compared, "difference": round(mine - theirs, 1)})
    return Reason("discard_instead", {"other": compared})


def _obvious_discard_reason(card: Card, far: Sequence[Card], choices: Sequence[Card]) -> Reason:
    """The simple rule's own discard: the highest card near no spread, else the highest card."""
    if far:
        rest = [c for c in _by_value(far) if c != card]
        if not rest:
            return Reason("discard_lone", {"value": card.value})
        nxt = rest[0]
        return Reason("discard_far", {"value": card.value, "other": nxt, "other_value": nxt.value})
    second = next((c for c in _by_value(choices) if c != card), None)
    if second is not None:
        return Reason("discard_high", {"value": card.value, "other": second, "other_value": second.value})
    return Reason("only")


def watch(view: PlayerView) -> Reason:
    """For a player waiting for their turn: the cards that would make a spread with their hand, its value.

    Only cards not already seen placed (on the discard pile or in a spread) are named.
    """
    seen = set(view.discard_pile)
    for s in view.spreads:
        seen.update(s.cards)
    hand = list(view.hand)
    wanted = [
        c for c in DECK if c not in seen and c not in hand and any(c in s for s in find_spreads([*hand, c]))
    ]
    return Reason("watch", {"wanted": tuple(wanted[:6]), "value": view.hand_value})


def hint_worker(view: PlayerView, seed: float, budget: float) -> Hint:
    """``hint`` with its generator made from ``seed``: a module-level function a process pool can run."""
    return hint(view, random.Random(seed), budget)


__all__ = [
    "HINT_BUDGET",
    "REASONS",
    "Hint",
    "Reason",
    "drop_chance",
    "explain",
    "far_cards",
    "hint",
    "hint_worker",
    "strong_move",
    "watch",
]
