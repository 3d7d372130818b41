"""One or more tests for every rule id of docs/RULES.md (the id is in each test's name)."""

from __future__ import annotations

import random

import pytest

from engine import (
    Card,
    Discard,
    Draw,
    Drop,
    Game,
    IllegalAction,
    LayOff,
    Leave,
    MalformedInput,
    Seat,
    Spread,
    TonkOut,
)
from engine.cards import SISTER_SUIT, hand_value, shuffled
from engine.events import (
    CardShown,
    GameOver,
    NextDealer,
    PotCarried,
    PotPaid,
    RoundEnded,
    RoundStarted,
    SeatClosed,
    SideStakePaid,
)
from engine.pots import pay
from engine.spreads import find_spreads, spread_kind
from tests.engine.helpers import cards, deck_for, make_game, of, refusal

# A quiet deal: no spreads, no 49/50, values ann 28, ben 33, cat 31.
QUIET = {"ann": "2C 9D KS 5H 2S", "ben": "3C TD QS 7H 3S", "cat": "4C JD 8S 6H 2H"}


def c(code: str) -> Card:
    return Card.parse(code)


def test_R1_1_deck_is_52_distinct_cards() -> None:
    game = Game([Seat("a", 100), Seat("b", 100), Seat("c", 100)], 5)
    with pytest.raises(MalformedInput) as refused:
        game.start_round(deck=[c("AS")] * 52, dealer="a")
    assert refused.value.code == "bad_deck" and game.round is None


def test_R3_2_a_seeded_shuffle_deals_the_same_deck_as_it_always_has() -> None:
    # Saved seeds, tests and examples deal from ``random.Random(seed)``: a change to the shuffle
    # (one made for speed, say) must keep every deck and take exactly 52 draws.
    expected = (
        "QH 4H 5C 4D 6S AC TD 6C 2D JD QS 7H 5H AS 3S KS 2S 6D 8H TS 5S 2C 7S 3C 3H TC "
        "8C 6H JH 4S AD 9S 7C 3D 9D 8D TH KH JC 8S KC QC 9C AH 7D 5D 4C 9H JS KD QD 2H"
    )
    rng = random.Random(2026)
    assert " ".join(card.code for card in shuffled(rng)) == expected
    assert rng.random() == 0.9262331201304752  # 52 draws taken, no more


def test_R1_2_aces_are_low() -> None:
    assert spread_kind(cards("AH 2H 3H")) == "run"
    with refusal("aces_low"):
        spread_kind(cards("QH KH AH"))
    with refusal("aces_low"):
        spread_kind(cards("KH AH 2H"))


def test_R1_3_values() -> None:
    assert hand_value(cards("AS 2S TS JS QS")) == 1 + 2 + 10 + 10 + 10
    assert hand_value(cards("KS KH KD KC QS")) == 50


def test_R1_4_sister_suits() -> None:
    assert SISTER_SUIT == {"H": "D", "D": "H", "S": "C", "C": "S"}


def test_R1_5_notation() -> None:
    assert c("TH") == Card(10, "H")
    assert c("AS").label == "A♠"
    assert c("TH").label == "10♥"
    with pytest.raises(MalformedInput) as refused:
        Card.parse("1H")
    assert refused.value.code == "not_a_card" and not isinstance(refused.value, IllegalAction)


def test_R2_1_stake_must_be_positive() -> None:
    with refusal("bad_stake"):
        Game([Seat("a", 100), Seat("b", 100), Seat("c", 100)], 0)


def test_R2_2_chips_are_conserved_over_a_random_game() -> None:
    rng = random.Random(7)
    game = Game([Seat(p, 200) for p in "abcd"], 5)
    total = game.total_chips()
    while not game.over:
        if not game.in_round:
            game.start_round(rng)
        else:
            acts = [a for a in game.legal_actions() if not isinstance(a, Leave)]
            game.apply(rng.choice(acts))
        assert game.total_chips() == total


def test_R2_3_stakes_by_stack_size() -> None:
    game, events = make_game(
        {**QUIET, "dan": "5C QD 9S 8H 4S"},
        dealer="ann",
        stacks={"ann": 20, "ben": 15, "cat": 10, "dan": 5},
    )
    started = of(events, RoundStarted)[0]
    assert started.paid == {
        "ann": ("game", "flip", "flop"),
        "ben": ("game", "flip"),
        "cat": ("game",),
        "dan": ("game",),
    }
    assert game.stacks == {"ann": 5, "ben": 5, "cat": 5, "dan": 0}
    assert game.pots == {"game": 20, "flip": 10, "flop": 5}


def test_R2_3_no_stake_means_eliminated_before_the_deal() -> None:
    game = Game([Seat("a", 100), Seat("b", 100), Seat("c", 4)], 5)
    events = game.start_round(random.Random(1))
    assert of(events, SeatClosed)[0].player == "c"
    assert game.round is not None and game.round.players == ("a", "b")


def test_R2_4_a_player_who_did_not_pay_a_pot_can_not_win_it() -> None:
    # Upcard 6H (cat deals): flip hearts, flop diamonds. Ben holds AH and AD but paid only game.
    game, _ = make_game(
        {"ann": "2H 3D 9C 9S KC", "ben": "AH AD TC TS QC", "cat": "4H 5D JC JS 6H"},
        dealer="cat",
        stacks={"ben": 10},
    )
    events = game.apply(Drop("ann"))
    paid = {e.pot: e.shares for e in of(events, PotPaid)}
    assert paid["flip"] == {"ann": 10}
    assert paid["flop"] == {"ann": 10}


def test_R2_5_side_stake_is_at_most_the_stack() -> None:
    # Ann drops with 28 and is caught; she has 0 left after stakes, so pays nothing.
    game, _ = make_game(
        {"ann": "2C 9D KS 5H 2S", "ben": "AC AD 2D 3S 4S", "cat": "4C JD 8S 6H 2H"},
        dealer="cat",
        stacks={"ann": 5},
    )
    events = game.apply(Drop("ann"))
    side = of(events, SideStakePaid)
    assert side[0].player == "ann" and side[0].amount == 0
    assert of(events, RoundEnded)[0].reason == "caught"


def test_R2_6_odd_chips_go_from_the_dealers_left() -> None:
    # Cat deals; Ann drops with 34 and is caught by Ben and Cat, tied on 11.
    # Game pot 1 (carried) + 15 + Ann's side stake 5 = 21: Ben, first from the dealer's left, gets 11.
    players = {"ann": "9C 9D 9S 5H 2S", "ben": "AC 2D 3S 4S AD", "cat": "AS 2C 3C 4H AH"}
    game = Game([Seat(p, 200) for p in players], 5, pots={"game": 1})
    game.start_round(deck=deck_for(list(players), "cat", players), dealer="cat")
    events = game.apply(Drop("ann"))
    paid = of(events, PotPaid)[0]
    assert paid.pot == "game" and paid.shares == {"ben": 11, "cat": 10}


def test_R2_6_split_with_odd_chip_to_first_winner_left_of_dealer() -> None:
    game = Game([Seat(p, 200) for p in ("ann", "ben", "cat")], 5, pots={"game": 1})
    game.dealer = "ann"
    game.round = None
    events: list = []
    pay(game, "game", ["cat", "ben"], events)
    assert events[0].shares == {"ben": 1, "cat": 0}


def test_R2_7_below_one_stake_after_the_round_is_eliminated() -> None:
    game, _ = make_game(QUIET, dealer="cat", stacks={"ben": 5})
    events = game.apply(Drop("ann"))  # ann 28 < ben 33, cat 31: ann wins
    closed = of(events, SeatClosed)
    assert [(e.player, e.reason, e.stack) for e in closed] == [("ben", "eliminated", 0)]
    assert game.seated == ["ann", "cat"]


def test_R3_1_deal_passes_to_the_next_player_still_in_the_game() -> None:
    game, _ = make_game(QUIET, dealer="ann", stacks={"ben": 5})
    events = game.apply(Drop("ben"))  # ben is caught and eliminated
    assert of(events, NextDealer)[0].player == "cat"
    with refusal("not_your_deal"):
        game.start_round(random.Random(1), dealer="ben")


def test_R3_1_first_dealer_is_random_but_seeded() -> None:
    dealers = set()
    for seed in range(20):
        g = Game([Seat(p, 100) for p in "abc"], 5)
        g.start_round(random.Random(seed))
        dealers.add(g.dealer)
        again = Game([Seat(p, 100) for p in "abc"], 5)
        again.start_round(random.Random(seed))
        assert again == g
    assert dealers == {"a", "b", "c"}


def test_R3_2_deal_order_and_R3_3_upcard() -> None:
    game, events = make_game(QUIET, dealer="ben")
    r = game.round
    assert r is not None
    assert r.hands["ann"] == cards(QUIET["ann"])
    assert r.upcard == c("3S") and r.upcard in r.hands["ben"]
    assert of(events, RoundStarted)[0].upcard == c("3S")
    assert game.to_act == "cat"


def test_R3_4_stock_and_empty_discard_pile() -> None:
    game, _ = make_game(QUIET, dealer="cat", stock="KD")
    assert game.round is not None and game.round.discard == [] and len(game.round.stock) == 37
    game.apply(Draw("ann", "stock"))
    assert c("KD") in game.round.hands["ann"]


def test_R4_1_fifty_takes_the_game_pot_and_side_stakes() -> None:
    game, events = make_game(
        {"ann": "KC KD KH KS QC", "ben": "TC TD TH TS 9C", "cat": "2C 3D 4H 5S 6C"}, dealer="cat"
    )
    end = of(events, RoundEnded)[0]
    assert end.reason == "fifty" and end.game_winners == ("ann",)
    assert sorted(e.player for e in of(events, SideStakePaid)) == ["ben", "cat"]
    assert of(events, PotPaid)[0].shares == {"ann": 25}


def test_R4_2_forty_nines_split_the_game_pot() -> None:
    game, events = make_game(
        {"ann": "KC KD KH KS 9C", "ben": "TC TD TH TS 9D", "cat": "2C 3D 4H 5S 6C"}, dealer="cat"
    )
    assert of(events, RoundEnded)[0].reason == "forty_nine"
    assert of(events, PotPaid)[0].shares == {"ann": 8, "ben": 7}


def test_R4_3_no_turns_after_an_opening_49_50() -> None:
    game, _ = make_game(
        {"ann": "KC KD KH KS 9C", "ben": "TC TD TH TS 8D", "cat": "2C 3D 4H 5S 6C"}, dealer="cat"
    )
    assert not game.in_round and game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(Draw("ann", "stock"))


def test_R5_1_flip_and_flop_suits() -> None:
    game, _ = make_game(QUIET, dealer="cat")  # upcard 2H
    assert game.round is not None
    assert (game.round.flip_suit, game.round.flop_suit) == ("H", "D")


def test_R5_2_upcard_wins_the_flip_when_no_one_shows_lower() -> None:
    game, _ = make_game(
        {"ann": "2C 9D KS 5H 2S", "ben": "3C TD QS 7H 3S", "cat": "4C JD 8S 6H AH"}, dealer="cat"
    )
    events = game.apply(Drop("ann"))
    paid = {e.pot: e.shares for e in of(events, PotPaid)}
    assert paid["flip"] == {"cat": 15}


def test_R5_3_showing_in_turn_order() -> None:
    # upcard 6H: ann shows 5H (beats 6H) and 9D; ben shows 7H? no (higher); TD? no (higher than 9D).
    game, events = make_game(QUIET | {"cat": "4C JD 8S 2H 6H"}, dealer="cat")
    shown = [(e.player, e.pot, e.card.code) for e in of(events, CardShown)]
    assert shown == [("ann", "flip", "5H"), ("ann", "flop", "9D")]
    game.apply(Draw("ann", "stock"))
    events = game.apply(Discard("ann", c("KS")))
    assert of(events, CardShown) == []  # ben's 7H and TD are higher


def test_R5_4_players_yet_to_show_do_so_at_the_end() -> None:
    game, _ = make_game(QUIET | {"cat": "4C JD 8S 2H 6H"}, dealer="cat")
    events = game.apply(Drop("ann"))
    shown = [(e.player, e.pot, e.card.code) for e in of(events, CardShown)]
    assert shown == [("cat", "flip", "2H")]
    paid = {e.pot: e.shares for e in of(events, PotPaid)}
    assert paid["flip"] == {"cat": 15} and paid["flop"] == {"ann": 15}


def test_R5_5_flip_and_flop_paid_when_the_dealers_first_turn_ends() -> None:
    game, _ = make_game(QUIET, dealer="cat", stock="KD QD JH")
    for p, card in (("ann", "KD"), ("ben", "QD")):
        game.apply(Draw(p, "stock"))
        assert of(game.apply(Discard(p, c(card))), PotPaid) == []
    game.apply(Draw("cat", "stock"))
    paid = of(game.apply(Discard("cat", c("JH"))), PotPaid)
    assert [e.pot for e in paid] == ["flip", "flop"]


def test_R5_6_flop_carries_over_when_no_one_holds_its_suit() -> None:
    game, _ = make_game(
        {"ann": "2C 9C KS 5H 2S", "ben": "3C TC QS 7H 3S", "cat": "4C JC 8S 6H 2H"}, dealer="cat"
    )
    events = game.apply(Drop("ann"))
    assert of(events, PotCarried) == [PotCarried("flop", 15)]
    assert game.pots["flop"] == 15


def test_R5_6_flip_carries_when_the_dealer_may_not_win_it() -> None:
    game, _ = make_game(
        {"ann": "2C 9C KS 5D 2S", "ben": "3C TC QS 7D 3S", "cat": "4C JC 8S 6D 2H"},
        dealer="cat",
        stacks={"cat": 10},
    )
    events = game.apply(Drop("ann"))
    assert PotCarried("flip", 10) in events


def test_R6_1_drop_only_before_drawing() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    game.apply(Draw("ann", "stock"))
    with refusal("drop_after_draw"):
        game.apply(Drop("ann"))


def test_R6_2_draw_from_discard() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    with refusal("discard_pile_empty"):
        game.apply(Draw("ann", "discard"))
    game.apply(Draw("ann", "stock"))
    with refusal("already_drawn"):
        game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", c("KS")))
    events = game.apply(Draw("ben", "discard"))
    assert events[0].card == c("KS")


def test_R6_3_last_stock_card_ends_the_round() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    assert game.round is not None
    game.round.stock = game.round.stock[-1:]
    events = game.apply(Draw("ann", "stock"))
    assert of(events, RoundEnded)[0].reason == "stock"


def test_R6_4_spreads_offered_and_checked() -> None:
    found = {tuple(x.code for x in s) for s in find_spreads(cards("4H 5H 6H 7H 9C 9D 9S"))}
    assert found == {
        ("4H", "5H", "6H"),
        ("5H", "6H", "7H"),
        ("4H", "5H", "6H", "7H"),
        ("9C", "9D", "9S"),
    }
    with refusal("not_consecutive"):
        spread_kind(cards("4H 5H 7H"))
    with refusal("not_a_spread"):
        spread_kind(cards("4H 5H 6C"))


def test_R6_5_lay_off_on_any_spread() -> None:
    game, _ = make_game(
        {"ann": "4H 5H 6H KC KS", "ben": "3H 7H 8C 8D QD", "cat": "2C 9D 9S 2S JC"},
        dealer="cat",
        stock="QS 8S",
    )
    game.apply(Draw("ann", "stock"))
    game.apply(Spread("ann", tuple(cards("4H 5H 6H"))))
    assert LayOff("ann", c("KC"), 0) not in game.legal_actions()
    with refusal("does_not_fit"):
        game.apply(LayOff("ann", c("KC"), 0))
    with refusal("no_such_spread"):
        game.apply(LayOff("ann", c("KC"), 3))
    game.apply(Discard("ann", c("QS")))
    game.apply(Draw("ben", "stock"))
    assert LayOff("ben", c("3H"), 0) in game.legal_actions()
    assert LayOff("ben", c("7H"), 0) in game.legal_actions()
    game.apply(LayOff("ben", c("3H"), 0))
    game.apply(LayOff("ben", c("7H"), 0))
    assert game.round is not None and [x.code for x in game.round.spreads[0].cards] == [
        "3H",
        "4H",
        "5H",
        "6H",
        "7H",
    ]


def test_R6_5_fourth_card_on_a_set() -> None:
    game, _ = make_game(
        {"ann": "9C 9D 9S 2H 3S", "ben": "9H 7H 8C 8D QD", "cat": "2C TD TS 2S JC"},
        dealer="cat",
    )
    game.apply(Draw("ann", "stock"))
    game.apply(Spread("ann", tuple(cards("9C 9D 9S"))))
    game.apply(Discard("ann", c("3S")))
    game.apply(Draw("ben", "stock"))
    assert LayOff("ben", c("9H"), 0) in game.legal_actions()


def test_R6_6_can_not_discard_the_card_taken_from_the_discard_pile() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", c("KS")))
    game.apply(Draw("ben", "discard"))
    assert Discard("ben", c("KS")) not in game.legal_actions()
    with refusal("discard_taken"):
        game.apply(Discard("ben", c("KS")))


def test_R6_7_and_R7_1_going_out_by_discarding_the_last_card() -> None:
    game, _ = make_game(
        {"ann": "4H 5H 6H 7H KS", "ben": "3C TD QS 8C 3S", "cat": "4C JD 8S 6C 2H"},
        dealer="cat",
        stock="9C 2D 3D 8H",
    )
    game.apply(Draw("ann", "stock"))
    game.apply(Spread("ann", tuple(cards("4H 5H 6H 7H"))))
    game.apply(Discard("ann", c("9C")))
    game.apply(Draw("ben", "stock"))
    game.apply(Discard("ben", c("QS")))
    game.apply(Draw("cat", "stock"))
    game.apply(Discard("cat", c("JD")))
    game.apply(Draw("ann", "stock"))
    game.apply(LayOff("ann", c("8H"), 0))
    events = game.apply(Discard("ann", c("KS")))
    end = of(events, RoundEnded)[0]
    assert end.reason == "out" and end.game_winners == ("ann",)


def test_R6_7_going_out_by_a_lay_off() -> None:
    game, _ = make_game(
        {"ann": "4H 5H 6H 7H 8H", "ben": "3C TD QS 8C 3S", "cat": "4C JD 8S 6C 2H"},
        dealer="cat",
        stock="QC 2D 3D 9H",
    )
    game.apply(Draw("ann", "stock"))
    game.apply(Spread("ann", tuple(cards("4H 5H 6H"))))
    game.apply(Discard("ann", c("QC")))
    game.apply(Draw("ben", "stock"))
    game.apply(Discard("ben", c("QS")))
    game.apply(Draw("cat", "stock"))
    game.apply(Discard("cat", c("JD")))
    game.apply(Draw("ann", "stock"))
    game.apply(LayOff("ann", c("7H"), 0))
    game.apply(LayOff("ann", c("8H"), 0))
    events = game.apply(LayOff("ann", c("9H"), 0))
    end = of(events, RoundEnded)[0]
    assert end.reason == "out" and end.player == "ann"


def test_R7_2_drop_wins_when_every_other_hand_is_higher() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    events = game.apply(Drop("ann"))
    assert of(events, RoundEnded)[0].reason == "drop"
    assert of(events, PotPaid)[0].shares == {"ann": 15}


def test_R7_2_drop_caught_by_a_lower_hand() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    game.apply(Draw("ann", "stock"))
    game.apply(Discard("ann", c("KS")))
    events = game.apply(Drop("ben"))  # ben 33 vs ann 18+?, cat 31
    end = of(events, RoundEnded)[0]
    assert end.reason == "caught"
    assert of(events, SideStakePaid)[0].player == "ben"
    low = min(v for p, v in end.values.items() if p != "ben")
    assert set(end.game_winners) == {p for p, v in end.values.items() if p != "ben" and v == low}


def test_R7_3_stock_runs_out_lowest_wins_ties_split() -> None:
    game, _ = make_game(
        {"ann": "2C 9D KS 5H 2S", "ben": "3C TD QS 7H AS", "cat": "4C JD 8S 6H 2H"}, dealer="cat"
    )
    assert game.round is not None
    game.round.stock = game.round.stock[-1:]
    events = game.apply(Draw("ann", "stock"))
    end = of(events, RoundEnded)[0]
    assert end.reason == "stock"
    assert end.values["ann"] == 28 + game.round.hands["ann"][-1].value


def test_R7_4_tonk_out_as_one_move_and_as_two_spreads() -> None:
    hands = {"ann": "4H 5H 6H 9C 9D", "ben": "2S 3S KD QC JC", "cat": "7D 8S TC 2D QS"}
    game, _ = make_game(hands, dealer="cat", stock="9S")
    game.apply(Draw("ann", "stock"))
    assert game.can_tonk_out()
    tonk = [a for a in game.legal_actions() if isinstance(a, TonkOut)]
    assert len(tonk) == 1
    events = game.apply(tonk[0])
    assert of(events, RoundEnded)[0].reason == "tonk"
    assert {e.player for e in of(events, SideStakePaid)} == {"ben", "cat"}
    assert game.stacks["ann"] == 225


def test_R7_4_no_tonk_after_a_lay_off_or_with_fewer_cards() -> None:
    hands = {"ann": "4H 5H 6H 9C 9D", "ben": "2S 3S KD QC JC", "cat": "7D 8S TC 2D QS"}
    game, _ = make_game(hands, dealer="cat", stock="AC")
    game.apply(Draw("ann", "stock"))
    assert not game.can_tonk_out()
    with pytest.raises(IllegalAction):
        game.apply(TonkOut("ann", tuple(cards("4H 5H 6H")), tuple(cards("9C 9D AC"))))


def test_R7_5_opening_fifty_ends_the_round() -> None:
    game, _ = make_game(
        {"ann": "KC KD KH KS QC", "ben": "TC TD TH TS 9C", "cat": "2C 3D 4H 5S 6C"}, dealer="cat"
    )
    assert game.round is not None and game.round.end == "fifty"


def test_R7_6_after_the_round_new_stakes_next_deal() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    events = game.apply(Drop("ann"))
    assert of(events, NextDealer)[0].player == "ann"
    events = game.start_round(random.Random(3))
    assert of(events, RoundStarted)[0].dealer == "ann"


def test_R8_1_three_to_five_players() -> None:
    with refusal("player_count"):
        Game([Seat("a", 100), Seat("b", 100)], 5)
    with refusal("player_count"):
        Game([Seat(str(i), 100) for i in range(6)], 5)


def test_R8_2_game_ends_when_one_player_has_chips() -> None:
    game, _ = make_game(QUIET, dealer="cat", stacks={"ben": 5, "cat": 5})
    events = game.apply(Drop("ann"))
    assert game.over and of(events, GameOver)
    assert sum(game.stacks.values()) == 210


def test_R8_2_host_stops_between_rounds_only() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    with refusal("stop_between_rounds"):
        game.end_game()
    game.apply(Drop("ann"))
    events = game.end_game()
    assert game.over and of(events, GameOver)[0].stacks == game.stacks


def test_R8_3_carried_pots_split_at_game_end() -> None:
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5, pots={"flop": 7})
    game.dealer = "ann"
    events = game.end_game()
    assert of(events, PotPaid)[0].shares == {"ben": 3, "cat": 2, "ann": 2}


def test_a_game_that_is_one_round_of_something_larger_may_end_keeping_its_pots() -> None:
    """A tournament's table: its pots go on to the tournament (R8.3 is the tournament's end)."""
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5, pots={"flop": 7})
    game.dealer = "ann"
    events = game.end_game(share_pots=False)
    assert game.over and not of(events, PotPaid) and game.pots["flop"] == 7
    assert of(events, GameOver)[0].stacks == {"ann": 100, "ben": 100, "cat": 100}


def test_R8_4_leaving_mid_round_forfeits_it() -> None:
    game, _ = make_game(QUIET | {"cat": "4C JD 8S 6H AH"}, dealer="cat")
    events = game.apply(Leave("ben"))
    assert game.to_act == "ann"
    with refusal("not_in_round"):
        game.apply(Draw("ben", "stock"))
    events = game.apply(Drop("ann"))
    closed = of(events, SeatClosed)
    assert [(e.player, e.reason) for e in closed] == [("ben", "left")]
    assert "ben" not in game.seated


def test_R8_4_last_player_left_in_the_round_wins_the_game_pot() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    game.apply(Leave("ben"))
    events = game.apply(Leave("ann"))
    end = of(events, RoundEnded)[0]
    assert end.reason == "out" and end.game_winners == ("cat",)


def test_R8_4_leaving_between_rounds_returns_the_stack() -> None:
    game, _ = make_game({**QUIET, "dan": "5C QD 9S 8H 4S"}, dealer="cat")
    game.apply(Drop("dan"))
    events = game.apply(Leave("ben"))
    assert [(e.player, e.reason) for e in of(events, SeatClosed)] == [("ben", "left")]
    assert not game.over


def test_R8_4_everyone_leaving_ends_the_game() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    game.apply(Drop("ann"))
    game.apply(Leave("ann"))
    events = game.apply(Leave("ben"))
    assert game.over and of(events, GameOver)[0].stacks.keys() == {"cat"}


def test_R8_3_settlement_if_a_table_closes_mid_round() -> None:
    game, _ = make_game(QUIET, dealer="cat")  # stakes paid: pots 15/15/15, stacks 185
    game.pots["flop"] += 1  # an odd chip: it goes to the first seat left of the dealer (R2.6)
    game.stacks["cat"] -= 1
    before = game.snapshot()
    out = game.settlement_if_closed()
    assert out == {"ann": 185 + 16, "ben": 185 + 15, "cat": 184 + 15}
    assert sum(out.values()) == game.total_chips()
    assert game.snapshot() == before


def test_house_rules_are_one_object_the_game_reads() -> None:
    """R2.1, R3.2, R8.1: the defaults are the rules as written; a game can be given others."""
    from engine import HOUSE_RULES, HouseRules

    assert (HOUSE_RULES.hand_size, HOUSE_RULES.min_players, HOUSE_RULES.max_players) == (5, 3, 5)
    assert HOUSE_RULES.default_buy_in == 200 and HOUSE_RULES.tonk_size == 6
    seats = [Seat(p, 100) for p in ("a", "b", "c", "d", "e", "f")]
    with pytest.raises(IllegalAction) as refused:
        Game(seats, 5)
    assert refused.value.code == "player_count" and refused.value.params == {"low": 3, "high": 5}
    six = Game(seats, 5, rules=HouseRules(max_players=6))
    six.start_round(random.Random(1))
    assert set(six.public_view().card_counts.values()) == {5} and six.public_view().stock_size == 52 - 30


def test_public_view_names_the_round_winners_once_it_is_over() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    assert game.public_view().winners == {}
    game.apply(Drop("ann"))  # ann 28 is the lowest hand (R7.2)
    assert game.public_view().winners["game"] == ("ann",)


def test_R6_4_the_quick_spread_check_agrees_with_every_three_cards() -> None:
    """``may_hold_spread`` (bit arithmetic) is exactly "some three cards form a run or set"."""
    from itertools import combinations

    from engine.cards import DECK
    from engine.spreads import may_hold_spread

    def brute(hand: list[Card]) -> bool:
        for three in combinations(hand, 3):
            try:
                spread_kind(three)
            except IllegalAction:
                continue
            return True
        return False

    rng = random.Random(6)
    hands = [rng.sample(DECK, rng.randrange(3, 8)) for _ in range(3000)]
    hands += [cards("QH KH AH 2C 3D"), cards("JS QS KS"), cards("AC 2C 3C"), cards("5D 5H 5S")]
    assert sum(brute(h) for h in hands) > 100
    for hand in hands:
        assert may_hold_spread(hand) == brute(hand), hand
