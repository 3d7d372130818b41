"""Inference from what players did (issue 37): likelihoods of hidden hands, and worlds dealt by them."""

from __future__ import annotations

import math
import random

import pytest

from engine.actions import Discard, Draw
from engine.ai.inference import UNSEEN, Clues, Tracker, replay_seen
from engine.ai.likelihood import (
    DISCARD_MISS,
    DROP_MISS,
    KEEP,
    PASS_MISS,
    THROW_MISS,
    Evidence,
    evidence,
    likelihood,
    normalised,
    show_bounds,
)
from engine.ai.rollout import SharedPosition, play_out
from engine.ai.strategies import STRATEGIES, BasicStrategy, PeekStrategy, StrongStrategy, World, playable
from engine.ai.worlds import hidden_cards, sample_hidden, sample_importance, sample_weighted
from engine.cards import Card
from engine.game import Game, Seat
from engine.view import PlayerView
from tests.engine.helpers import cards, make_game
from tests.engine.test_play_out import game_play_out

C = Card.parse
MAKES_7H = [cards(p) for p in ("7S 7D", "7S 7C", "7D 7C", "5H 6H", "6H 8H", "8H 9H")]
"""The pairs of cards that make a spread with the seven of hearts."""


def ben_after_a_cycle(cat_takes: bool = False) -> tuple[Game, PlayerView, Tracker]:
    """Ben throws 7H; Cat passes it over (draws from the stock) or takes it, and throws QD; Ann draws
    from the stock (passing QD over) and throws KS. Ben remembers what he saw (``Tracker``)."""
    game, _ = make_game(
        {"ann": "KS KH 3S 9D 9C", "ben": "2S 3H AC 7H 6C", "cat": "QD QC 4H 5D 8C"},
        dealer="cat",
        stock="JD TD 4S 2D",
    )
    tracker = Tracker()
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", C("JD")))
    game.apply(Draw("ben", "stock"))
    tracker.left(game.view("ben"), C("7H"))
    game.apply(Discard("ben", C("7H")))
    game.apply(Draw("cat", "discard" if cat_takes else "stock"))
    game.apply(Discard("cat", C("QD")))
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", C("KS")))
    return game, game.view("ben"), tracker


def test_the_memory_names_what_each_opponent_passed_over_took_and_threw() -> None:
    _, view, tracker = ben_after_a_cycle()
    clues = tracker.clues(view)
    assert clues.passed == {"cat": (C("7H"),), "ann": (C("QD"),)}
    assert clues.known == {}
    assert clues.discards == {"cat": (C("QD"), None), "ann": (C("KS"), None)}
    assert clues.stayed == clues.discards  # nobody laid anything down
    _, view, tracker = ben_after_a_cycle(cat_takes=True)
    clues = tracker.clues(view)
    assert clues.passed == {"ann": (C("QD"),)}
    assert clues.known == {"cat": {C("7H")}}
    # the pile read backwards: ann drew from the stock passing over 9S, ben took what she threw
    # (never seen) and threw QC
    assert replay_seen(cards("9S"), 30, ["ann", "ben"], cards("9S QC"), 29) == {
        "ann": (None, None, C("9S")),
        "ben": (UNSEEN, C("QC"), None),
    }


def test_a_card_an_opponent_passed_over_makes_their_hand_less_likely() -> None:
    ev = Evidence(passed=(C("7H"),))
    assert likelihood(cards("7S 7D KC 2D JH"), ev) == pytest.approx(PASS_MISS)
    assert likelihood(cards("6H 8H KC 2D JH"), ev) == pytest.approx(PASS_MISS)
    assert likelihood(cards("7S 9H KC 2D JH"), ev) == 1.0


def test_a_hand_the_basic_policy_would_not_have_discarded_from_is_less_likely() -> None:
    ev = Evidence(discard=(C("3S"), None))
    assert likelihood(cards("KS KH 2D 7C"), ev) == pytest.approx(DISCARD_MISS)  # 7C far and higher
    assert likelihood(cards("KS KH 2D 7C"), ev, discard=False) == 1.0  # a sampler that dealt to fit it
    assert likelihood(cards("KS KH 2D AC"), ev) == 1.0


def test_cards_that_would_have_taken_the_passed_over_card_are_dealt_less_often() -> None:
    game, view, tracker = ben_after_a_cycle()
    clues = tracker.clues(view)
    known, pool = hidden_cards(view)
    rng = random.Random(3)
    ev = evidence(view, clues)
    worlds = 3000

    def share(deal: object) -> float:
        hits = 0
        for _ in range(worlds):
            hands, _stock = deal(rng)  # type: ignore[operator]
            held = set(hands["cat"])
            hits += any(set(p) <= held for p in MAKES_7H)
        return hits / worlds

    weighted = share(lambda r: sample_weighted(view, known, pool, clues, ev, r))
    uniform = share(lambda r: sample_hidden(view, known, pool, Clues(), r))
    rules = share(lambda r: sample_hidden(view, known, pool, clues, r))  # the same clues read as rules
    assert uniform > 0.03 and rules > 0.03
    assert weighted < 0.6 * rules


def test_a_taken_discard_is_in_the_takers_hand_in_every_world() -> None:
    _, view, tracker = ben_after_a_cycle(cat_takes=True)
    clues = tracker.clues(view)
    known, pool = hidden_cards(view)
    rng = random.Random(4)
    ev = evidence(view, clues)
    for _ in range(300):
        hands, stock = sample_weighted(view, known, pool, clues, ev, rng)
        assert C("7H") in hands["cat"]
        assert len(hands["cat"]) == view.card_counts["cat"] and len(stock) == view.stock_size
        dealt = [c for h in hands.values() for c in h] + stock
        assert len(dealt) == len(set(dealt))  # every card once
        assert sorted(hands["ben"]) == sorted(view.hand)


def test_weights_stay_normalised() -> None:
    """Every likelihood is a probability (0 < w <= 1: a hand is kept with it), and weights add up to 1."""
    _, view, tracker = ben_after_a_cycle(cat_takes=True)
    clues = tracker.clues(view)
    known, pool = hidden_cards(view)
    ev = evidence(view, clues)
    rng = random.Random(5)
    for p in ("ann", "cat"):
        assert ev[p]
        hands = [[*known[p], *rng.sample(pool, view.card_counts[p] - len(known[p]))] for _ in range(200)]
        raw = [likelihood(h, ev[p]) for h in hands]
        assert all(0 < w <= 1 for w in raw)
        assert len(set(raw)) > 1  # the evidence tells hands apart
        weights = normalised(raw)
        assert math.isclose(math.fsum(weights), 1.0)
        assert sorted(range(200), key=raw.__getitem__) == sorted(range(200), key=weights.__getitem__)
    assert normalised([0.0, 0.0]) == [0.5, 0.5]
    assert normalised([1.0, 3.0]) == [0.25, 0.75]


def test_importance_weights_are_likelihoods_and_count_against_a_passed_over_spread() -> None:
    """Worlds dealt by the rules, weighed: the weight is at most 1, and hands that would have taken
    the passed-over 7H carry less of the total weight than their share of the worlds."""
    _, view, tracker = ben_after_a_cycle()
    clues = tracker.clues(view)
    known, pool = hidden_cards(view)
    ev = evidence(view, clues)
    rng = random.Random(6)
    mass = hit_mass = 0.0
    hits = 0
    for _ in range(2000):
        hands, stock, w = sample_importance(view, known, pool, clues, ev, rng)
        assert 0 < w <= 1 and len(stock) == view.stock_size
        held = set(hands["cat"])
        hit = any(set(p) <= held for p in MAKES_7H)
        mass += w
        hit_mass += w * hit
        hits += hit
    assert hits > 40
    assert hit_mass / mass < 0.6 * hits / 2000


def test_what_was_shown_for_flip_and_flop_bounds_the_deal() -> None:
    """R5.3 read backwards: Ann showed 3S for the flop, Ben AC and 2S, Cat (the dealer) nothing."""  # noqa: D401
    _, view, _ = ben_after_a_cycle()
    bounds = show_bounds(view)
    assert bounds["ann"] == (("C", 8), ("S", 3))  # no club under the upcard 8C, no spade under 3S
    assert bounds["ben"] == (("C", 1), ("S", 2))
    assert bounds["cat"] == (("C", 1), ("S", 2))  # nothing under AC or 2S: no ace of spades
    ev = evidence(view, Clues())["ann"]
    assert likelihood(cards("2S KC 4D"), ev) < likelihood(cards("4S KC 4D"), ev)


def test_a_hand_low_enough_to_drop_is_less_likely_for_a_player_who_drew() -> None:
    ev = Evidence(stayed=(C("KD"), C("AS")), threshold=9)  # took AS, threw KD
    assert likelihood(cards("AS 2C 3D 2H"), ev) == 1.0  # before: 2C 3D 2H KD = 17, above 9
    assert likelihood(cards("AS 2C 3D"), ev) == 1.0
    low = Evidence(stayed=(C("2D"), C("AS")), threshold=9)
    assert likelihood(cards("AS 2C 3D"), low) == pytest.approx(DROP_MISS)  # before: 2C 3D 2D = 7


def test_a_far_card_higher_than_an_earlier_discard_is_less_likely() -> None:
    ev = Evidence(thrown=((C("9D"), KEEP),))  # they threw 9D a turn before their last discard
    miss = 1.0 - (1.0 - THROW_MISS) * KEEP
    assert likelihood(cards("KC 2D 5S 8H"), ev) == pytest.approx(miss)  # KC would have gone first
    assert likelihood(cards("KC QH 2D 5S 8H"), ev) == pytest.approx(miss * miss)
    assert likelihood(cards("KC KH 2D 5S 8H"), ev) == 1.0  # the kings are a pair: near, kept
    assert likelihood(cards("8C 2D 5S 4H"), ev) == 1.0  # all lower than 9D
    older = Evidence(thrown=((C("9D"), KEEP**3),))  # the longer ago, the likelier KC came since
    assert miss < likelihood(cards("KC 2D 5S 8H"), older) < 1.0


def test_the_memory_keeps_each_opponents_discards_and_weighs_the_earlier_ones() -> None:
    game, view, tracker = ben_after_a_cycle()
    clues = tracker.clues(view)
    assert clues.thrown == {"cat": (C("QD"),), "ann": (C("KS"),)}
    assert evidence(view, clues)["ann"].thrown == ()  # KS is the last discard: the repair's business
    game.apply(Draw("ben", "stock"))
    view = game.view("ben")
    tracker.left(view, C("6C"))
    game.apply(Discard("ben", C("6C")))
    game.apply(Draw("cat", "stock"))
    game.apply(Discard("cat", C("QC")))
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", C("KH")))
    view = game.view("ben")
    clues = tracker.clues(view)
    assert clues.thrown == {"cat": (C("QD"), C("QC")), "ann": (C("KS"), C("KH"))}
    ev = evidence(view, clues)
    assert ev["cat"].thrown == ((C("QD"), KEEP),)
    assert ev["ann"].thrown == ((C("KS"), KEEP),)


def test_fast_play_outs_of_weighted_worlds_give_the_games_own_result() -> None:
    """The worlds the strong player now plays: ``play_out`` still agrees with ``Game`` to the chip."""
    rng = random.Random(11)
    basic = BasicStrategy()
    checked = 0
    for g_i in range(12):
        n = 3 + g_i % 3
        game = Game([Seat(f"p{i}", 200) for i in range(n)], 5)
        game.start_round(rng)
        tracker = Tracker()
        while game.in_round:
            view = game.view(game.to_act)  # type: ignore[arg-type]
            if view.player == "p0":
                clues = tracker.clues(view)
                known, pool = hidden_cards(view)
                ev = evidence(view, clues)
                table = SharedPosition(view)
                for action in playable(view):
                    hands, stock = sample_weighted(view, known, pool, clues, ev, rng)
                    expected = game_play_out(Game.sampled_world(view, hands, stock), view.player, action)
                    assert play_out(table, hands, stock, action) == expected
                    checked += 1
            action = basic.choose(view, rng)
            if view.player == "p0" and isinstance(action, Discard):
                tracker.left(view, action.card)
            game.apply(action)
    assert checked > 150


def test_peek_plays_the_true_world_and_is_offered_at_no_table() -> None:
    game, view, _ = ben_after_a_cycle()
    r = game.round
    assert r is not None
    seen: list[World] = []

    def reveal(v: PlayerView) -> World:
        world = {p: list(h) for p, h in r.hands.items()}, list(r.stock)
        seen.append(world)
        return world

    peek = PeekStrategy(reveal)
    scored = peek.evaluate(view, random.Random(1))
    assert seen and all(s.samples == 1 for s in scored)  # the true world is certain: one play-out each
    best = scored[0]
    for s in scored:  # each estimate is the true result of that action, the basic policy playing on
        world = Game.sampled_world(view, *seen[0])
        assert s.mean == game_play_out(world, "ben", s.action)
    assert peek.choose(view, random.Random(1)) == best.action
    assert "peek" not in STRATEGIES


def test_a_strong_player_that_weighs_hands_plays_only_legal_moves() -> None:
    rng = random.Random(8)
    strong = StrongStrategy(budget=0.01, weigh=True, tracker=Tracker())
    basic = BasicStrategy()
    for g_i in range(3):
        game = Game([Seat(f"p{i}", 200) for i in range(3 + g_i)], 5)
        game.start_round(rng)
        while game.in_round:
            view = game.view(game.to_act)  # type: ignore[arg-type]
            action = (strong if view.player == "p0" else basic).choose(view, rng)
            assert action in view.legal
            game.apply(action)
