"""The strong player's search: fast play-outs, what it infers from the table, how it chooses."""

from __future__ import annotations

import itertools
import random

from engine import Game, Leave, Seat
from engine.actions import Action, Discard, Draw, Drop
from engine.ai.inference import UNSEEN, Tracker, replay_turns, would_discard
from engine.ai.strategies import (
    BasicStrategy,
    StrongStrategy,
    playable,
)
from engine.ai.worlds import hidden_cards, sample_hidden
from engine.cards import Card
from tests.engine.helpers import cards, make_game


def test_replaying_the_pile_names_takes_and_discards() -> None:
    pile0 = cards("9S 4D")
    # b took 4D and threw QC; c drew from the stock and threw 2H.
    assert replay_turns(pile0, 30, ["b", "c"], cards("9S QC 2H"), 29) == {
        "b": (Card.parse("4D"), Card.parse("QC")),
        "c": (None, Card.parse("2H")),
    }
    # b drew and threw a card c took at once: neither card was ever seen.
    assert replay_turns(pile0, 30, ["b", "c"], cards("9S 4D 2H"), 29) == {
        "b": (None, None),
        "c": (UNSEEN, Card.parse("2H")),
    }
    # both drew from the stock
    assert replay_turns(pile0, 30, ["b", "c"], cards("9S 4D QC 2H"), 28) == {
        "b": (None, Card.parse("QC")),
        "c": (None, Card.parse("2H")),
    }
    assert replay_turns(pile0, 30, ["b", "c"], cards("9S 2H"), 28) is None  # no history leads there


def test_the_basic_discard_rule_read_backwards() -> None:
    hand = cards("KS KH 2D 7C")
    assert would_discard(hand, Card.parse("9H"))  # 9H far and above every other far card
    assert not would_discard(hand, Card.parse("3S"))  # 7C was far and higher
    assert would_discard(hand, Card.parse("3S"), banned=Card.parse("7C"))  # 7C just taken: kept


def test_what_the_strong_player_infers_is_true_against_basic_players() -> None:
    """Cards it believes held are held; every hand it reads a discard from would have made it."""
    rng = random.Random(1)
    basic = BasicStrategy()
    tracker = Tracker()
    known = discards = 0
    for g_i in range(60):
        game = Game([Seat(f"p{i}", 200) for i in range(3 + g_i % 3)], 5)
        game.start_round(rng)
        while game.in_round:
            p = game.to_act
            assert p is not None
            view = game.view(p)
            r = game.round
            assert r is not None
            if p == "p0" and view.phase == "start":
                clues = tracker.clues(view)
                for q, held in clues.known.items():
                    assert held <= set(r.hands[q])
                    known += len(held)
                for q, (card, banned) in clues.discards.items():
                    assert would_discard(r.hands[q], card, banned)
                    discards += 1
            action = basic.choose(view, rng)
            if p == "p0" and isinstance(action, Discard):
                tracker.left(view, action.card)
            game.apply(action)
    assert known > 10 and discards > 300


def test_sampled_hands_follow_the_clues() -> None:
    game, _ = make_game(
        {"ann": "KS KH 3S 9D 9C", "ben": "2S 3H AC 5D 6C", "cat": "QD QC 4H 7H 8C"}, dealer="cat", stock="2C"
    )
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", Card.parse("3S")))
    view = game.view("ben")
    clues = Tracker().clues(view)
    assert clues.discards == {"ann": (Card.parse("3S"), None)}
    known, pool = hidden_cards(view)
    rng = random.Random(5)
    held = 0
    for _ in range(200):
        hands, stock = sample_hidden(view, known, pool, clues, rng)
        assert sorted(hands["ben"]) == sorted(view.hand) and len(stock) == view.stock_size
        held += would_discard(hands["ann"], Card.parse("3S"))
    assert held > 190  # uniform hands would be consistent far less often


def test_two_basic_players_can_not_trade_low_cards_forever() -> None:
    """Reported loop: two players left, their high cards paired, each taking back the other's low card.

    Each used to take a low discard because their highest card was far higher, then throw
    another low card (the high ones are paired). A low card is now taken only for a card worth
    at least 6 more, so every take lowers the hand and the round ends (R6.3 at the latest).
    """
    game, _ = make_game(
        {"ann": "KS KH QH QS 3S", "ben": "9S 9H JD JC 2D", "cat": "4H 5C 7D 8C TD"}, dealer="cat", stock="AC"
    )
    basic = BasicStrategy()
    steps = 0
    while game.in_round and steps < 200:
        p = game.to_act
        assert p is not None
        game.apply(Leave("cat") if p == "cat" else basic.choose(game.view(p), random.Random(1)))
        steps += 1
    assert not game.in_round


def test_basic_rounds_always_end_even_with_two_left() -> None:
    rng = random.Random(9)
    basic = BasicStrategy()
    for g_i in range(150):
        n = 3 + g_i % 3
        game = Game([Seat(f"p{i}", 200) for i in range(n)], 5)
        game.start_round(rng)
        leavers = set(rng.sample([f"p{i}" for i in range(n)], n - 2))
        steps = 0
        while game.in_round:
            p = game.to_act
            assert p is not None
            game.apply(Leave(p) if p in leavers else basic.choose(game.view(p), rng))
            steps += 1
            assert steps < 400


def test_evaluate_scores_every_action_and_choose_plays_the_best() -> None:
    ticks = itertools.count()
    game, _ = make_game(
        {"ann": "AS 2H 3D 9D 9C", "ben": "2S 3H AC 5D 6C", "cat": "QD QC 4H 7H 8C"}, dealer="cat"
    )
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", Card.parse("9D")))
    view = game.view("ben")
    strong = StrongStrategy(budget=400, clock=lambda: float(next(ticks)), tracker=Tracker())
    scored = strong.evaluate(view, random.Random(3))
    assert {s.action for s in scored} == set(playable(view))
    assert all(s.samples >= 1 for s in scored)
    assert scored[0].action == strong.choose(view, random.Random(3))
    assert isinstance(scored[0].action, Drop)  # 2+3+A+5+6 = 17 against hands that are rarely that low


def test_the_strong_player_chooses_the_same_under_a_seed() -> None:
    game, _ = make_game(
        {"ann": "KS KH 3S 9D 9C", "ben": "2S 3H AC 5D 6C", "cat": "QD QC 4H 7H 8C"}, dealer="cat"
    )
    view = game.view("ann")

    def pick(seed: int) -> Action:
        ticks = itertools.count()
        strong = StrongStrategy(budget=60, clock=lambda: float(next(ticks)), tracker=Tracker())
        return strong.choose(view, random.Random(seed))

    assert pick(4) == pick(4)
