"""Sampled worlds: the hidden cards dealt in a way consistent with one player's view.

A computer player's search (determinized Monte Carlo) plays many such worlds
out. ``hidden_cards`` reads what the view says about the cards it can not see;
``sample_world`` deals the rest uniformly; ``sample_hidden`` also follows what
the player inferred from the others' play (``engine.ai.inference.Clues``) as
hard rules; ``sample_weighted``, used by the strong player, weighs each
opponent's hand by the likelihood of everything they did
(``engine.ai.likelihood``), by rejection; ``sample_importance`` deals as
``sample_hidden`` and returns the likelihood as the world's weight instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.ai.inference import Clues, misfits
from engine.ai.likelihood import Evidence, likelihood
from engine.cards import DECK, Card
from engine.game import Game
from engine.view import PlayerView


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
    known, pool = hidden_cards(view)
    return sample_world(view, known, pool, rng)


def hidden_cards(view: PlayerView) -> tuple[dict[str, list[Card]], list[Card]]:
    """What ``view`` says about the cards it can not see: each hand's known cards, and the rest.

    The same for every world sampled from one view, so a search finds it once.
    """
    unseen = _unseen(view)
    known: dict[str, list[Card]] = {p: [] for p in view.players}
    placed: set[Card] = set()

    def place(p: str | None, c: Card | None) -> None:
        if c is not None and p in known and p != view.player and c not in placed:
            known[p].append(c)
            placed.add(c)

    if view.upcard_held:  # the dealer still holds the upcard everyone saw
        place(view.dealer, view.upcard)
    for p, _pot, c in view.showings:
        if c in unseen:
            place(p, c)
    if view.taken in unseen:  # what the player to act just took from the pile
        place(view.to_act, view.taken)
    pool = [c for c in unseen if c not in placed]
    for p in view.players:  # more known cards than the hand holds: the rest go back to the pool
        if p != view.player and len(known[p]) > view.card_counts[p]:
            pool.extend(known[p][view.card_counts[p] :])
            known[p] = known[p][: view.card_counts[p]]
    return known, pool


def sample_world(
    view: PlayerView, known: dict[str, list[Card]], pool: Sequence[Card], rng: random.Random
) -> Game:
    """Deal ``pool`` at random to fill each hidden hand around its known cards; the rest is the stock."""
    rand = rng.random
    shuffled = sorted(pool, key=lambda _: rand())  # a uniform shuffle, cheaper than rng.shuffle
    hands: dict[str, list[Card]] = {}
    for p in view.players:
        if p == view.player:
            hands[p] = list(view.hand)
            continue
        mine = list(known[p])
        need = view.card_counts[p] - len(mine)
        if need > 0:
            mine.extend(shuffled[-need:])
            del shuffled[-need:]
        hands[p] = mine
    return Game.sampled_world(view, hands, shuffled[: view.stock_size])


def _pin_known(
    view: PlayerView, known: dict[str, list[Card]], pool: Sequence[Card], clues: Clues
) -> tuple[dict[str, list[Card]], list[Card]]:
    """Each hidden hand's known cards plus the cards the clues place there; the pool left over."""
    counts = view.card_counts
    fixed: dict[str, list[Card]] = {p: list(cs) for p, cs in known.items()}
    free = set(pool)
    for p, cs in clues.known.items():
        if p == view.player or p not in fixed:
            continue
        for c in cs:
            if c in free and len(fixed[p]) < counts[p]:
                fixed[p].append(c)
                free.discard(c)
    return fixed, [c for c in pool if c in free]


def _pick_consistent(
    mine: list[Card],
    rest: list[Card],
    need: int,
    card: Card,
    banned: Card | None,
    rng: random.Random,
    tries: int,
) -> list[Card]:
    """``need`` cards from ``rest`` with which the basic policy would have discarded ``card``.

    Up to ``tries`` times, a card it would have discarded instead is swapped for another one,
    drawn uniformly from the cards of ``rest`` not picked (by redrawing a picked one: the pick
    is a few cards of many, so this is cheaper than listing the spare cards every time).
    """
    pick = rng.sample(rest, need)
    size = len(rest)
    if size <= need:
        return pick
    rand = rng.random
    for _ in range(tries):  # replace a card that would have been discarded instead, until none is
        wrong = [c for c in misfits([*mine, *pick], card, banned) if c in pick]
        if not wrong:
            break
        out = wrong[int(rand() * len(wrong))]
        new = rest[int(rand() * size)]
        while new in pick:
            new = rest[int(rand() * size)]
        pick[pick.index(out)] = new
    return pick


def _deal_the_rest(
    view: PlayerView,
    fixed: dict[str, list[Card]],
    counts: dict[str, int],
    hands: dict[str, list[Card]],
    rest: list[Card],
    rand: Callable[[], float],
) -> tuple[dict[str, list[Card]], list[Card]]:
    """Shuffle what is left, fill the hands not chosen yet (their known cards kept) and make the stock."""
    shuffled = sorted(rest, key=lambda _: rand())
    for p in view.players:
        if p in hands:
            continue
        mine = list(fixed.get(p, ()))
        need = counts[p] - len(mine)
        if need > 0:
            mine.extend(shuffled[-need:])
            del shuffled[-need:]
        hands[p] = mine
    return hands, shuffled[: view.stock_size]


def sample_hidden(
    view: PlayerView,
    known: dict[str, list[Card]],
    pool: Sequence[Card],
    clues: Clues,
    rng: random.Random,
    tries: int = 48,
) -> tuple[dict[str, list[Card]], list[Card]]:
    """Each hidden hand and the stock (top card last), consistent with ``known`` and ``clues``.

    An opponent with a known last discard gets a random hand from the unseen cards
    in which, up to ``tries`` times, a card the basic policy would have discarded
    instead is swapped for another unseen card; the others are dealt at random, and
    the rest is the stock.
    """
    me = view.player
    counts = view.card_counts
    fixed, rest = _pin_known(view, known, pool, clues)
    hands: dict[str, list[Card]] = {me: list(view.hand)}
    for p, (card, banned) in clues.discards.items():
        if p == me or p not in fixed or p in hands:
            continue
        mine = fixed[p]
        need = counts[p] - len(mine)
        if need <= 0 or need > len(rest):
            continue
        pick = _pick_consistent(mine, rest, need, card, banned, rng, tries)
        hands[p] = mine + pick
        chosen = set(pick)
        rest = [c for c in rest if c not in chosen]
    return _deal_the_rest(view, fixed, counts, hands, rest, rng.random)


def sample_weighted(
    view: PlayerView,
    known: dict[str, list[Card]],
    pool: Sequence[Card],
    clues: Clues,
    evidence: dict[str, Evidence],
    rng: random.Random,
    tries: int = 48,
    redeals: int = 4,
) -> tuple[dict[str, list[Card]], list[Card]]:
    """Each hidden hand and the stock (top card last), weighted by what each opponent did.

    As ``sample_hidden`` (the known cards placed, a hand repaired towards the basic policy's
    last discard), and then each opponent's hand is kept with probability its ``likelihood``
    given the rest of their ``evidence`` (passed over, drew rather than dropped, flip and flop
    shows; each at most 1): rejection sampling, so kept hands follow the posterior. A hand
    refused is dealt again, up to ``redeals`` times; then the likeliest one dealt is kept.
    """
    me = view.player
    counts = view.card_counts
    fixed, rest = _pin_known(view, known, pool, clues)
    hands: dict[str, list[Card]] = {me: list(view.hand)}
    rand = rng.random
    for p, ev in evidence.items():
        clue = clues.discards.get(p)
        if p == me or p not in fixed or (clue is None and not ev):
            continue
        mine = fixed[p]
        need = counts[p] - len(mine)
        if need <= 0 or need > len(rest):
            continue
        best: list[Card] = []
        best_w = -1.0
        for _ in range(redeals + 1):
            if clue is not None:
                pick = _pick_consistent(mine, rest, need, clue[0], clue[1], rng, tries)
            else:
                pick = rng.sample(rest, need)
            w = likelihood([*mine, *pick], ev, discard=False)  # the repair has seen to the discard
            if w > best_w:
                best, best_w = pick, w
            if rand() < w:
                break
        hands[p] = mine + best
        chosen = set(best)
        rest = [c for c in rest if c not in chosen]
    return _deal_the_rest(view, fixed, counts, hands, rest, rand)


def sample_importance(
    view: PlayerView,
    known: dict[str, list[Card]],
    pool: Sequence[Card],
    clues: Clues,
    evidence: dict[str, Evidence],
    rng: random.Random,
    tries: int = 48,
) -> tuple[dict[str, list[Card]], list[Card], float]:
    """Each hidden hand, the stock (top card last) and the world's weight: importance sampling.

    The hands are dealt as ``sample_hidden`` deals them (the known cards placed, a hand repaired
    towards its owner's last discard) and the world is weighed by the product of each
    opponent's ``likelihood`` of the rest of their ``evidence``, instead of rejecting unlikely
    hands (``sample_weighted``): no hand is dealt twice, but a few heavy worlds count for many.
    Measured by ``bench/inference_bench.py`` (``importance``); the strong player does not use it,
    the rejection sampler gave the true hands as much probability or more.
    """
    hands, stock = sample_weighted(view, known, pool, clues, evidence, rng, tries, redeals=0)
    weight = 1.0
    for p, ev in evidence.items():
        if p != view.player and ev and p in hands:
            weight *= likelihood(hands[p], ev, discard=False)
    return hands, stock, weight
