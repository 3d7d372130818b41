"""Likelihoods of hidden hands: how likely each makes what its owner was seen to do.

``evidence`` gathers, per opponent, what the strong player's memory
(``engine.ai.inference.Clues``) and the view say they did; ``likelihood`` weighs
a hand by it, one factor per clue, each below 1 when the basic policy holding
that hand would have played otherwise (never 0: people and the strong player do
not play the basic policy). ``engine.ai.worlds.sample_weighted`` keeps sampled
hands with these weights.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.inference import BIT, KEY, NEAR, Clues, misfits
from engine.cards import DECK, VALUES, Card
from engine.view import PlayerView

PASS_MISS = 0.3
"""How much less likely a hand is when the card its owner passed over would have made a spread with it."""
DISCARD_MISS = 0.02
"""How much less likely a hand is from which the basic policy would not have discarded the last discard."""
DROP_MISS = 0.1
"""How much less likely a hand is that was low enough to drop with, when its owner drew instead."""
SHOW_MISS = 0.05
"""How much less likely each card is that its owner would have shown for flip or flop, and did not,
had it been dealt to them (``Evidence.dealt``)."""
THROW_MISS = 0.3
"""How much less likely each far card is that is higher than an earlier discard of its owner's, had it
been held then (``Evidence.thrown``): the basic policy would have discarded it instead."""
KEEP = 0.8
"""The chance a dealt card is still held after one more turn (a draw and a discard of one of six)."""


def _pairs(card: Card) -> tuple[int, ...]:
    """The two-card sets (as bits) that make a spread of three with ``card``: a set, or a run around it."""
    out = []
    same = [o for o in DECK if o.rank == card.rank and o != card]
    for a, b in itertools.combinations(same, 2):
        out.append(BIT[a] | BIT[b])
    row = {o.rank: o for o in DECK if o.suit == card.suit}
    r = card.rank
    for lo, hi in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)):
        if lo in row and hi in row:
            out.append(BIT[row[lo]] | BIT[row[hi]])
    return tuple(out)


PAIRS = {c: _pairs(c) for c in DECK}
"""For each card, every pair of cards that makes a spread with it (bits)."""


@dataclass(frozen=True)
class Evidence:
    """What one opponent's play says about their hidden hand: read as likelihoods, not as rules."""

    passed: tuple[Card, ...] = ()
    """Discards they passed over this round: cards that would have made a spread are less likely."""
    discard: tuple[Card, Card | None] | None = None
    """Their last discard and the card they took that turn: a hand the basic policy would have
    discarded it from is more likely (``misfits``)."""
    stayed: tuple[Card, Card | None] | None = None
    """``Clues.stayed``: they drew instead of dropping, so their hand then was likely above ``threshold``."""
    threshold: int = 0
    """The hand value the basic policy drops at, for them (``engine.ai.strategies.threshold_for``)."""
    bounds: tuple[tuple[str, int], ...] = ()
    """(suit, rank): at their first turn they showed no card of ``suit`` below ``rank`` for flip or flop
    (R5.3), so they were dealt none; such a card now was drawn since, which is less likely."""
    shown: frozenset[Card] = frozenset()
    """Cards they showed for flip or flop."""
    dealt: float = 1.0
    """The chance that a card they hold now was dealt to them (it falls with each turn they draw and
    discard): how much a card they would have shown had it been dealt counts against a hand."""
    thrown: tuple[tuple[Card, float], ...] = ()
    """Their discards before the last one, each with the chance a card they hold now was held then:
    a far card higher than one of them is less likely (the basic policy would have thrown it)."""

    def __bool__(self) -> bool:
        return bool(self.passed or self.discard or self.stayed or self.bounds or self.thrown)


def show_bounds(view: PlayerView) -> dict[str, tuple[tuple[str, int], ...]]:
    """R5.3 read backwards: for each player past their first turn, the suits and ranks they were not dealt.

    A player showed, at the start of their first turn, their lowest flip-suit card if it beat the
    best shown so far (the upcard first), and likewise for the flop suit; a player who can not win
    a pot (R2.4) shows nothing for it. So a player who showed nothing for a pot was dealt no card of
    its suit below the best shown before them, and one who showed a card none below it.
    """
    if view.upcard is None or view.flip_suit is None or view.flop_suit is None or view.dealer is None:
        return {}
    players = view.players
    n = len(players)
    d = players.index(view.dealer) if view.dealer in players else n - 1
    order = [players[(d + 1 + i) % n] for i in range(n)]
    if view.flipflop_paid:
        done = len(order)
    else:
        turn = order.index(view.to_act) if view.to_act in order else 0
        done = turn + (1 if view.phase == "drawn" else 0)
    suits = {"flip": view.flip_suit, "flop": view.flop_suit}
    best: dict[str, int] = {"flip": view.upcard.rank, "flop": 14}
    shown: dict[str, dict[str, int]] = {}
    for p, pot, c in view.showings:
        if not (p == view.dealer and pot == "flip" and c == view.upcard):
            shown.setdefault(p, {})[pot] = min(c.rank, shown.get(p, {}).get(pot, 14))
    out: dict[str, tuple[tuple[str, int], ...]] = {}
    for p in order[:done]:
        bounds: list[tuple[str, int]] = []
        for pot in ("flip", "flop"):
            if pot not in view.paid.get(p, ()):
                continue
            mine = shown.get(p, {}).get(pot)
            if mine is not None:
                bounds.append((suits[pot], mine))
                best[pot] = min(best[pot], mine)
            else:
                bounds.append((suits[pot], best[pot]))
        out[p] = tuple(bounds)
    return out


def evidence(view: PlayerView, clues: Clues) -> dict[str, Evidence]:
    """Each live opponent's ``Evidence`` from ``clues`` and the view's flip and flop showings."""
    bounds = show_bounds(view)
    shown: dict[str, set[Card]] = {}
    for p, _pot, c in view.showings:
        shown.setdefault(p, set()).add(c)
    live = [p for p in view.players if p not in view.dead]
    players = view.players
    n = len(players)
    d = players.index(view.dealer) if view.dealer in players else n - 1
    turns = max(0, 52 - 5 * n - view.stock_size)  # turns played so far, at least (one stock draw each)
    out: dict[str, Evidence] = {}
    for p in live:
        if p == view.player:
            continue
        mine = -(-(turns - (players.index(p) - d - 1) % n) // n)  # their turns among them
        others = [view.card_counts[q] for q in live if q != p]
        fewest = min(others, default=5)
        threshold = 11 - 2 * max(0, len(others) - 2) - 2 * max(0, 5 - fewest)
        out[p] = Evidence(
            passed=clues.passed.get(p, ()),
            discard=clues.discards.get(p),
            stayed=clues.stayed.get(p),
            threshold=threshold,
            bounds=bounds.get(p, ()),
            shown=frozenset(shown.get(p, ())),
            dealt=KEEP ** max(0, mine),
            thrown=_earlier(clues, p),
        )
    return out


def _earlier(clues: Clues, p: str) -> tuple[tuple[Card, float], ...]:
    """``p``'s discards before their last one (``Clues.thrown``), each with ``KEEP`` to the turns since."""
    seen = clues.thrown.get(p, ())
    last = clues.discards.get(p)
    if seen and last is not None and seen[-1] == last[0]:
        seen = seen[:-1]
    k = len(seen)
    return tuple((c, KEEP ** (k - j)) for j, c in enumerate(seen))


def likelihood(hand: Sequence[Card], ev: Evidence, discard: bool = True) -> float:
    """How likely (up to a constant) an opponent holding ``hand`` now played as ``ev`` says they did.

    ``discard=False`` leaves the last discard out: a sampler that already dealt the hand to fit it
    (``engine.ai.worlds.sample_weighted``) would count it twice, and skipping it is cheaper than
    a copy of ``ev`` without it.

    A product of one factor per clue, each 1 when the hand fits it and below 1 when the basic
    policy holding it would have played otherwise: taken the card passed over (it made a spread),
    discarded another card, dropped, shown a card for flip or flop. Never 0: people (and the strong
    player) do not always play the basic policy, and the hand may have changed since.
    """
    held = 0
    total = 0
    for c in hand:
        held |= BIT[c]
        total += VALUES[c.rank]
    w = 1.0
    for x in ev.passed:
        for m in PAIRS[x]:
            if held & m == m:
                w *= PASS_MISS
                break
    if discard and ev.discard is not None:
        card, banned = ev.discard
        if misfits(hand, card, banned):
            w *= DISCARD_MISS
    if ev.stayed is not None:
        gave, took = ev.stayed
        before = total + VALUES[gave.rank]  # then: this hand and the discard, less the card drawn
        if took is not None:
            if before - VALUES[took.rank] <= ev.threshold:
                w *= DROP_MISS
        else:  # any card held now, or the discard itself, may be the one drawn
            low = sum(1 for c in hand if before - VALUES[c.rank] <= ev.threshold)
            low += total <= ev.threshold
            w *= 1.0 - (1.0 - DROP_MISS) * low / (len(hand) + 1)
    if ev.thrown:
        w *= _thrown(hand, held, ev.thrown)
    if ev.bounds:
        drawn = 1.0 - (1.0 - SHOW_MISS) * ev.dealt  # such a card was drawn since, not dealt
        for suit, bound in ev.bounds:
            for c in hand:
                if c.suit == suit and c.rank < bound and c not in ev.shown:
                    w *= drawn
    return w


def _thrown(hand: Sequence[Card], held: int, thrown: Sequence[tuple[Card, float]]) -> float:
    """``THROW_MISS`` for each far card of ``hand`` above an earlier discard, as likely as held then."""
    w = 1.0
    for x, kept in thrown:
        top = KEY[x]
        for c in hand:
            if KEY[c] > top and not NEAR[c] & held:
                w *= 1.0 - (1.0 - THROW_MISS) * kept
    return w


def normalised(weights: Sequence[float]) -> list[float]:
    """``weights`` scaled to add up to 1 (all equal when they are all 0)."""
    total = math.fsum(weights)
    if total <= 0:
        return [1.0 / len(weights)] * len(weights) if weights else []
    return [w / total for w in weights]
