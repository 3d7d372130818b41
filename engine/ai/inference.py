"""What a computer player may infer about hidden hands from what the others did.

The strong player remembers the discard pile, the stock size, its own hand and
the others' card counts as it left them after its discard. At its next turn the
difference tells, for each opponent who played since, whether they took the
discard (and which card) or drew from the stock (passing over the card on top),
what they discarded, and whether they laid anything down (``Tracker``, ``Clues``).
Used when sampling worlds (``engine.ai.worlds``):

- a card an opponent took from the discard pile, and that has not been seen on
  the table since, is still in their hand (a fact);
- everything else weighs a hand, never rules it out (a likelihood, per
  opponent, from their ``Evidence``: ``engine.ai.likelihood``): a hand is less likely if the basic policy
  holding it would have taken a card they passed over (it made a spread), would
  not have discarded their last discard (R6.6 and
  ``engine.ai.strategies.drawn_move``: the highest card not near a spread), would
  have dropped instead of drawing, would have shown a card for flip or flop
  at their first turn (R5.3), or would have thrown a card still held instead of
  an earlier discard (``Clues.thrown``). People and the strong player do
  not play the basic policy, so each clue only scales a hand's weight.

``bench/inference_bench.py`` measures the result: the log-likelihood the
sampler gives the true hidden cards, against uniform dealing and the rejection
rules used before. Only public information and the player's own past views are
used: the same view a person at the table sees, remembered.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import DECK, Card
from engine.spreads import find_spreads, may_hold_spread
from engine.view import PlayerView

BIT = {c: 1 << i for i, c in enumerate(DECK)}
NEAR = {
    c: sum(
        BIT[o]
        for o in DECK
        if o != c and (o.rank == c.rank or (o.suit == c.suit and abs(o.rank - c.rank) <= 2))
    )
    for c in DECK
}
"""For each card, the cards that make it "near": a pair, or a suit neighbour within two ranks."""
UNSEEN = Card(0, "?")
"""Stands for a card taken from the pile that the player never saw (or may not have been taken)."""
KEY = {c: (c.value, c.rank, c.suit) for c in DECK}
"""The basic policy's order for discarding: value, then rank, then suit."""


def would_discard(hand: Sequence[Card], card: Card, banned: Card | None = None) -> bool:
    """Whether the basic policy, holding ``hand`` and ``card``, discards ``card``.

    ``banned`` is the card taken from the discard pile that turn (R6.6), which
    could not be discarded. A hand holding a spread would have laid it down
    first; lay-offs are not checked (the table has changed since).
    """
    return not misfits(hand, card, banned)


def misfits(hand: Sequence[Card], card: Card, banned: Card | None = None) -> list[Card]:
    """Cards of ``hand`` that make it one the basic policy would not have discarded ``card`` from.

    Empty exactly when it would have. Otherwise: the cards it would have discarded
    instead, the cards of a spread it would have laid down, and, when ``card`` was
    near another card (so every card had to be lower), the cards it was near.
    """
    held = BIT[card]
    for c in hand:
        held |= BIT[c]
    top = KEY[card]
    if not NEAR[card] & held:  # ``card`` was far: no far card above it
        wrong = [c for c in hand if c != banned and not NEAR[c] & held and KEY[c] > top]
    else:  # no far card at all, and none above it
        wrong = [c for c in hand if c != banned and (not NEAR[c] & held or KEY[c] > top)]
        if wrong:
            wrong += [c for c in hand if NEAR[card] & BIT[c] and c not in wrong]
    if not wrong and may_hold_spread([*hand, card]):
        wrong = [c for s in find_spreads([*hand, card]) for c in s if c != card]
    return wrong


@dataclass
class Clues:
    """What the player has inferred about the others' hidden hands."""

    known: dict[str, set[Card]] = field(default_factory=dict)
    """Cards known to be in each opponent's hand (taken from the discard pile, not seen since)."""
    discards: dict[str, tuple[Card, Card | None]] = field(default_factory=dict)
    """Each opponent's last discard, and the card they took from the pile that turn (if any)."""
    passed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    """The discards each opponent passed over this round (drew from the stock instead), oldest first."""
    thrown: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    """The cards each opponent was seen to discard this round, one a turn, oldest first."""
    stayed: dict[str, tuple[Card, Card | None]] = field(default_factory=dict)
    """Opponents whose last turn was only a draw and a discard, having not dropped: (discard, card
    taken from the pile or None for the stock). Their hand then was this hand, plus the discard,
    less the card drawn."""


@dataclass
class _Left:
    """The table as the player left it after their discard."""

    pile: tuple[Card, ...]
    stock: int
    hand: tuple[Card, ...]
    known: dict[str, set[Card]]
    passed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    thrown: dict[str, tuple[Card, ...]] = field(default_factory=dict)


def _play_turns(
    pile0: Sequence[Card], k: int, chosen: Sequence[int]
) -> tuple[list[Card | int], list[Card | int | None], list[Card | int | None]] | None:
    """The pile after ``k`` turns in which the turns ``chosen`` took its top card (turn j discards "j").

    Returns the pile, what each turn took and what each turn that drew from the stock
    left on top of the pile (passed over), or None if a turn would take from an empty pile.
    """
    stack: list[Card | int] = list(pile0)
    taken: list[Card | int | None] = []
    passed: list[Card | int | None] = []
    for j in range(k):
        if j in chosen:
            if not stack:
                return None
            taken.append(stack.pop())
            passed.append(None)
        else:
            taken.append(None)
            passed.append(stack[-1] if stack else None)
        stack.append(j)
    return stack, taken, passed


def _match_pile(
    stack: Sequence[Card | int], pile: Sequence[Card], before: set[Card]
) -> dict[int, Card] | None:
    """Which card each turn discarded, if ``stack`` can be ``pile``; else None."""
    discarded: dict[int, Card] = {}
    for pos, item in enumerate(stack):
        if isinstance(item, int):
            if pile[pos] in before:  # a card taken from the pile is not discarded again (R6.6)
                return None
            discarded[item] = pile[pos]
        elif item != pile[pos]:
            return None
    return discarded


def replay_turns(
    pile0: Sequence[Card], stock0: int, actors: Sequence[str], pile: Sequence[Card], stock: int
) -> dict[str, tuple[Card | None, Card | None]] | None:
    """Who took what from the discard pile and discarded what, from one pile to a later one.

    ``actors`` played one turn each, in order: draw (stock or discard), then
    discard. Returns, for each, (card taken — ``UNSEEN`` when it was never seen
    or is not certain — or None, card discarded or None when it was taken again
    before we saw it), or None when no such sequence leads
    from (``pile0``, ``stock0``) to (``pile``, ``stock``).
    """
    seen = replay_seen(pile0, stock0, actors, pile, stock)
    return None if seen is None else {p: (took, gave) for p, (took, gave, _) in seen.items()}


def replay_seen(
    pile0: Sequence[Card], stock0: int, actors: Sequence[str], pile: Sequence[Card], stock: int
) -> dict[str, tuple[Card | None, Card | None, Card | None]] | None:
    """``replay_turns`` and, third, the card each actor passed over.

    That is the card on top of the pile when they drew from the stock (None when they
    took the discard, the pile was empty, or it is not certain).
    """
    k = len(actors)
    takes = k - (stock0 - stock)
    if not 0 <= takes <= k or len(pile) != len(pile0) + k - takes:
        return None
    before = set(pile0)
    found: list[dict[str, tuple[Card | None, Card | None, Card | None]]] = []
    for chosen in itertools.combinations(range(k), takes):
        played = _play_turns(pile0, k, chosen)
        if played is None:
            continue
        stack, taken, tops = played
        discarded = _match_pile(stack, pile, before)
        if discarded is None:
            continue
        out: dict[str, tuple[Card | None, Card | None, Card | None]] = {}
        for j, p in enumerate(actors):
            t = taken[j]
            took = discarded.get(t, UNSEEN) if isinstance(t, int) else t
            top = tops[j]
            over = discarded.get(top) if isinstance(top, int) else top
            out[p] = (took, discarded.get(j), over)
        found.append(out)
    if not found:
        return None
    # Several histories may lead to the same pile: keep only what they all agree on.
    merged: dict[str, tuple[Card | None, Card | None, Card | None]] = {}
    for p in actors:
        took, gave, over = found[0][p]
        if any(f[p][0] != took for f in found):
            took = UNSEEN
        if any(f[p][1] != gave for f in found):
            gave = None
        if any(f[p][2] != over for f in found):
            over = None
        merged[p] = (took, gave, over)
    return merged


def _actors(view: PlayerView, since_first: bool) -> list[str]:
    """The live opponents who played since the player's last turn (or since the round began)."""
    players = view.players
    n = len(players)
    me = players.index(view.player)
    if since_first:
        first = (players.index(view.dealer) + 1) % n if view.dealer in players else 0
        seq = [players[(first + i) % n] for i in range((me - first) % n)]
    else:
        seq = [players[(me + i) % n] for i in range(1, n)]
    return [p for p in seq if p not in view.dead]


def _read(
    steps: dict[str, tuple[Card | None, Card | None, Card | None]],
    known: dict[str, set[Card]],
    passed: dict[str, tuple[Card, ...]],
    counts: dict[str, int],
    view: PlayerView,
    thrown: dict[str, tuple[Card, ...]],
) -> Clues:
    """The clues in each opponent's turn (``replay_seen``); ``known``, ``passed``, ``thrown`` are updated."""
    clues = Clues()
    for p, (took, gave, over) in steps.items():
        if over is not None:
            passed[p] = (*passed.get(p, ()), over)
        if gave is not None:
            thrown[p] = (*thrown.get(p, ()), gave)
        if gave is None:
            known.pop(p, None)  # they discarded a card we never saw: maybe one we knew of
        if took is UNSEEN:
            continue  # the hand held a card we can not name, which it could not discard
        if took is not None:
            known.setdefault(p, set()).add(took)
        if gave is not None:
            clues.discards[p] = (gave, took)
            if counts.get(p) == view.card_counts.get(p):  # nothing laid down that turn
                clues.stayed[p] = (gave, took)
    return clues


class Tracker:
    """Remembers, per player and round, the table as the player left it; infers ``Clues``."""

    def __init__(self) -> None:
        self._left: dict[tuple[object, ...], _Left] = {}
        self._clues: dict[tuple[object, ...], tuple[int, Clues]] = {}

    @staticmethod
    def _key(view: PlayerView) -> tuple[object, ...]:
        return (view.player, view.players, view.dealer, view.upcard, view.round_number)

    def clues(self, view: PlayerView) -> Clues:
        """What may be inferred now; at the start of a turn it is worked out and kept for the turn."""
        key = self._key(view)
        if view.phase != "start":
            kept = self._clues.get(key)
            if kept is not None and view.stock_size in (kept[0], kept[0] - 1):
                return kept[1]
            return self._fallback(view)
        pile = view.discard_pile
        left = self._left.get(key)
        steps = None
        known: dict[str, set[Card]] = {}
        passed: dict[str, tuple[Card, ...]] = {}
        thrown: dict[str, tuple[Card, ...]] = {}
        counts: dict[str, int] = {}
        if left is not None and left.hand == view.hand:
            steps = replay_seen(left.pile, left.stock, _actors(view, False), pile, view.stock_size)
            known = {p: set(cs) for p, cs in left.known.items()}
            passed = dict(left.passed)
            thrown = dict(left.thrown)
            counts = left.counts
        if steps is None:
            known, passed, thrown = {}, {}, {}
            stock0 = 52 - 5 * len(view.players)
            counts = dict.fromkeys(view.players, 5)
            steps = replay_seen((), stock0, _actors(view, True), pile, view.stock_size)
        if steps is None:
            return self._fallback(view)
        clues = _read(steps, known, passed, counts, view, thrown)
        visible = set(pile)
        for s in view.spreads:
            visible.update(s.cards)
        clues.known = {
            p: {c for c in cs if c not in visible} for p, cs in known.items() if p not in view.dead
        }
        clues.passed = {p: cs for p, cs in passed.items() if p not in view.dead}
        clues.thrown = {p: cs for p, cs in thrown.items() if p not in view.dead}
        if len(self._clues) > 4096:
            self._clues.clear()
        self._clues[key] = (view.stock_size, clues)
        return clues

    def left(self, view: PlayerView, card: Card) -> None:
        """The player (``view`` in the drawn phase) discards ``card``: remember the table."""
        key = self._key(view)
        hand = list(view.hand)
        hand.remove(card)
        kept = self._clues.get(key)
        known = {p: set(cs) for p, cs in kept[1].known.items()} if kept is not None else {}
        passed = dict(kept[1].passed) if kept is not None else {}
        thrown = dict(kept[1].thrown) if kept is not None else {}
        if len(self._left) > 4096:
            self._left.clear()
        self._left[key] = _Left(
            (*view.discard_pile, card),
            view.stock_size,
            tuple(hand),
            known,
            passed,
            dict(view.card_counts),
            thrown,
        )

    @staticmethod
    def _fallback(view: PlayerView) -> Clues:
        """Without memory: the previous live player discarded the card on top (or the one just taken)."""
        clues = Clues()
        players = view.players
        n = len(players)
        me = players.index(view.player)
        prev = next(
            (players[(me - i) % n] for i in range(1, n) if players[(me - i) % n] not in view.dead), None
        )
        if prev is None:
            return clues
        card = view.taken if view.phase == "drawn" else view.top_discard
        if card is not None and (view.phase == "start" or view.taken is not None):
            clues.discards[prev] = (card, None)
        return clues
