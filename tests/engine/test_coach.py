"""The coach: hints with reasons from the view; look backs see only what the player saw."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import DECK, Card, Discard, Draw, Drop, Game, Seat, TonkOut
from engine.ai.coach import drop_chance, explain, hint, watch
from engine.ai.review import MIN_DIFFERENCE, NotAPlayer, analyse
from engine.ai.strategies import RandomStrategy, Scored, StrongStrategy
from engine.view import PlayerView

C = Card.parse


def dealt(hands: dict[str, str], stock: str = "", dealer: str = "3") -> Game:
    """Seats 1, 2, 3 (dealer 3, so seat 1 plays first) holding exactly these hands; ``stock`` on top."""
    players = ["1", "2", "3"]
    cards = {p: [C(c) for c in hands[p].split()] for p in players}
    top = [C(c) for c in stock.split()]
    deck: list[Card] = []
    for i in range(5):
        deck.extend(cards[p][i] for p in players)
    used = set(deck) | set(top)
    deck += top + [c for c in _deck() if c not in used]
    game = Game([Seat(p, 200) for p in players], 5)
    game.start_round(deck=deck, dealer=dealer)
    return game


def _deck() -> list[Card]:
    return list(DECK)


HANDS = {"1": "4H 5H 6H 9C 9D", "2": "KS QS JD 8C 2D", "3": "KH QH JC 7S 3C"}


def test_a_tonk_out_is_the_hint_with_its_two_spreads() -> None:
    game = dealt(HANDS, stock="9S")
    game.apply(Draw("1", "stock"))
    found = hint(game.view("1"), random.Random(1), budget=0.01)
    assert isinstance(found.action, TonkOut) and found.reason.code == "tonk"
    assert {*found.action.first, *found.action.second} == {C(c) for c in "4H 5H 6H 9C 9D 9S".split()}
    assert found.reason.params == {}  # the move names its spreads; the reason says what it wins


def test_reasons_come_from_the_action_and_the_view() -> None:
    game = dealt({"1": "2C 3C 9D KS 7H", "2": "KD QS JD 8C 2D", "3": "KH QH JC 7S 4C"}, stock="8H")
    game.apply(Draw("1", "stock"))
    view = game.view("1")
    rng = random.Random(2)
    far = explain(view, Discard("1", C("KS")), rng)  # K♠ is near nothing held; 9♦ the next such card
    assert far.code == "discard_far" and far.params["other"] == C("9D") and far.params["other_value"] == 9
    instead = explain(view, Discard("1", C("2C")), rng)  # not the obvious card: compared with K♠
    assert instead.code == "discard_instead" and instead.params["other"] == C("KS")
    start = dealt({"1": "AC AD 2H 3S 9D", "2": "KD QS JD 8C 2D", "3": "KH QH JC 7S 4C"})
    low = start.view("1")
    reason = explain(low, Drop("1"), rng)
    assert reason.code == "drop" and reason.params["value"] == 16 and 0 <= reason.params["chance"] <= 100


def test_taking_the_discard_is_explained_by_the_spread_it_makes() -> None:
    game = dealt({"1": "4H 5H 9D KS QC", "2": "KD QS JD 8C 2D", "3": "KH QH JC 7S 6H"})
    game.apply(Draw("1", "stock"))
    drawn = game.view("1")
    discard = next(a for a in drawn.legal if isinstance(a, Discard) and a.card not in (C("4H"), C("5H")))
    game.apply(discard)
    game.apply(Draw("2", "stock"))
    game.apply(next(a for a in game.view("2").legal if isinstance(a, Discard)))
    game.apply(Draw("3", "stock"))
    game.apply(Discard("3", C("6H")))
    view = game.view("1")
    reason = explain(view, Draw("1", "discard"), random.Random(3))
    assert reason.code == "take_spread" and set(reason.params["with_cards"]) == {C("4H"), C("5H")}


def test_drop_chance_is_near_certain_with_an_ace_against_full_hands() -> None:
    game = dealt({"1": "AC AD AH AS 2C", "2": "KD QS JD 8C 9D", "3": "KH QH JC 7S 6H"})
    assert drop_chance(game.view("1"), random.Random(4)) > 0.95


def test_watch_names_cards_that_would_make_a_spread_and_never_a_seen_one() -> None:
    game = dealt(HANDS, stock="JS")
    view = game.view("2")  # waiting: seat 1 plays first; seat 2 holds K♠ Q♠
    assert watch(view).params["wanted"] == (C("JS"),) and watch(view).params["value"] == 40
    game.apply(Draw("1", "stock"))
    game.apply(Discard("1", C("JS")))  # now seen on the discard pile: take it, not watch for it
    assert watch(game.view("2")).params["wanted"] == ()


def test_the_hint_is_for_the_player_to_act_only() -> None:
    game = dealt(HANDS)
    with pytest.raises(ValueError):
        hint(game.view("2"), random.Random(1), budget=0.01)


def played_round(seed: int, seat_strategy: Any) -> dict[str, Any]:
    """One round with ``seat_strategy`` in seat 1 and the basic player elsewhere; its transcript."""
    from engine.ai.strategies import BasicStrategy

    rng = random.Random(seed)
    game = Game([Seat(p, 200) for p in "123"], 5)
    game.start_round(rng=rng)
    while game.in_round:
        p = game.to_act
        assert p is not None
        strategy = seat_strategy if p == "1" else BasicStrategy()
        game.apply(strategy.choose(game.view(p), rng))
    return game.round_transcript()


def test_a_random_players_look_back_finds_costly_decisions() -> None:
    found = [analyse(played_round(seed, RandomStrategy()), "1", budget=0.01, total=5.0) for seed in range(4)]
    assert sum(a.decisions for a in found) > 0
    reviews = [r for a in found for r in a.reviews]
    assert reviews and all(r.difference >= MIN_DIFFERENCE for r in reviews)
    assert all(r.chosen != r.better for r in reviews)
    assert not any(a.stopped_early for a in found)


def test_the_look_back_sees_only_the_players_own_view_of_a_round_in_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every search starts from seat 1's view at that moment: its hand, no other hand, the round in play."""
    seen: list[PlayerView] = []
    original = StrongStrategy.evaluate

    def spy(self: StrongStrategy, view: PlayerView, *args: Any, **kwargs: Any) -> list[Scored]:
        seen.append(view)
        return original(self, view, *args, **kwargs)

    monkeypatch.setattr(StrongStrategy, "evaluate", spy)
    transcript = played_round(7, RandomStrategy())
    analyse(transcript, "1", budget=0.005, total=5.0)
    assert seen
    for view in seen:
        assert view.player == "1" and view.to_act == "1" and view.in_round
        assert view.revealed == {} and view.winners == {}  # no hand but its own, nothing of the result


def test_a_look_back_stops_early_and_says_so() -> None:
    analysis = analyse(played_round(3, RandomStrategy()), "1", budget=0.01, total=0.0)
    assert analysis.stopped_early and analysis.checked == 0 and analysis.decisions > 0


def test_a_tonk_out_in_a_transcript_is_one_decision() -> None:
    game = dealt(HANDS, stock="9S")
    game.apply(Draw("1", "stock"))
    game.apply(next(a for a in game.view("1").legal if isinstance(a, TonkOut)))
    analysis = analyse(game.round_transcript(), "1", budget=0.01, total=5.0)
    assert analysis.decisions == 2 and analysis.reviews == ()  # draw or drop, then the tonk out


def test_only_a_player_of_the_round_is_looked_back_at() -> None:
    with pytest.raises(NotAPlayer):
        analyse(played_round(1, RandomStrategy()), "9", budget=0.01)
