"""The view says the rule decisions a screen needs, so the bot never works them out itself."""

from __future__ import annotations

import pytest

from engine import Card, Discard, Draw, IllegalAction, Leave, Spread
from tests.engine.helpers import cards, make_game

QUIET = {"ann": "2C 9D KS 5H 2S", "ben": "3C TD QS 7H 3S", "cat": "4C JD 8S 6H 2H"}


def test_just_drawn_is_the_card_drawn_this_turn_and_only_then() -> None:
    game, _ = make_game(QUIET, dealer="cat", stock="9C")
    assert game.view("ann").just_drawn is None  # before the draw
    game.apply(Draw("ann", "stock"))
    view = game.view("ann")
    assert view.just_drawn == Card.parse("9C") and view.hand[-1] == Card.parse("9C")
    assert game.view("ben").just_drawn is None  # the others never learn it
    game.apply(Discard("ann", Card.parse("KS")))
    assert game.view("ann").just_drawn is None  # the turn is over


def test_just_drawn_from_the_discard_pile() -> None:
    game, _ = make_game(QUIET, dealer="cat", stock="9C")
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", Card.parse("KS")))
    game.apply(Draw("ben", "discard"))
    assert game.view("ben").just_drawn == Card.parse("KS")


def test_just_drawn_is_gone_once_a_card_leaves_the_hand() -> None:
    hands = {"ann": "5C 6C 7C KS 2S", "ben": "3C TD QS 7H 3S", "cat": "4C JD 8S 6H 2H"}
    game, _ = make_game(hands, dealer="cat", stock="9D")
    game.apply(Draw("ann", "stock"))
    assert game.view("ann").just_drawn == Card.parse("9D")
    game.apply(Spread("ann", tuple(cards("5C 6C 7C"))))
    assert game.view("ann").just_drawn is None


def test_can_act_and_still_playing() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    ann, ben = game.view("ann"), game.view("ben")
    assert ann.can_act and not ben.can_act
    assert ann.still_playing and ben.still_playing
    game.apply(Leave("ben"))
    ben = game.view("ben")
    assert not ben.still_playing and not ben.can_act
    assert game.view("cat").still_playing


def test_no_one_is_playing_between_rounds() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    game.apply(Leave("ben"))
    game.apply(Leave("cat"))  # ann is the last live hand: the round ends
    view = game.view("ann")
    assert not view.in_round and not view.still_playing and not view.can_act


def test_the_view_names_a_spread_run_or_set() -> None:
    view = make_game(QUIET, dealer="cat")[0].view("ann")
    assert view.spread_kind(cards("5C 6C 7C")) == "run"
    assert view.spread_kind(cards("9C 9D 9S")) == "set"
    with pytest.raises(IllegalAction) as refused:
        view.spread_kind(cards("5C 6D 7C"))
    assert refused.value.code == "not_a_spread"


def test_just_drawn_is_the_last_stock_card_that_ended_the_round() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    r = game.round
    assert r is not None
    r.stock[:] = r.stock[-1:]  # one card left: drawing it ends the round (R6.3)
    last = r.stock[-1]
    game.apply(Draw("ann", "stock"))
    assert not game.in_round
    assert game.view("ann").just_drawn == last
    assert game.view("ben").just_drawn is None
