"""A hint's reason names what sets the move apart from the next best one and never restates the move.

Checked over many positions of played rounds: every move the rules allow there is
explained, rendered in English, and read the way a player reads it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.i18n import texts
from bot.i18n.languages import LANGUAGES
from bot.presentation.coach_render import hint_text, reason_text, review_line
from bot.presentation.render import card, cards
from engine import Card, Discard, Drop, Game, LayOff, Seat, Spread, TonkOut
from engine.actions import Action
from engine.ai.coach import Reason, explain, hint
from engine.ai.review import Review
from engine.ai.strategies import BasicStrategy, RandomStrategy, Scored, playable
from engine.cards import hand_value
from engine.view import PlayerView

C = Card.parse
T = texts("en")


def positions(games: int, seed: int) -> Iterator[PlayerView]:
    """The view of the player to act at every decision of ``games`` rounds (random and basic players)."""
    rng = random.Random(seed)
    players = [RandomStrategy(), BasicStrategy()]
    for g in range(games):
        game = Game([Seat(p, 200) for p in "123"], 5)
        game.start_round(rng=rng)
        while game.in_round and game.to_act is not None:
            view = game.view(game.to_act)
            yield view
            game.apply(players[g % 2].choose(view, rng))


def shown(action: Action) -> list[str]:
    """How the move itself reads: its cards as cards."""
    if isinstance(action, Discard):
        return [card(action.card)]
    if isinstance(action, LayOff):
        return [card(action.card)]
    if isinstance(action, Spread):
        return [cards(action.cards), *map(card, action.cards)]
    if isinstance(action, TonkOut):
        return [card(c) for c in (*action.first, *action.second)]
    return []


def check(view: PlayerView, action: Action, reason: Reason, instead: Action | None = None) -> None:
    text = reason_text(T, reason)
    assert text and "{" not in text, (action, reason)
    for piece in shown(action):
        assert piece not in text, (action, text)  # the reason never restates the move
    if isinstance(action, (Spread, LayOff)):
        assert f"from {view.hand_value} to " in text and "still discard" in text
    if isinstance(action, Discard) and reason.code != "only":
        if reason.code == "discard_lone":
            assert "every other card" in text
        else:
            other = reason.params["other"]
            assert card(other) in text and other != action.card, text
        if isinstance(instead, Discard):
            assert card(instead.card) in text, text  # a look back names the player's own card


def test_no_reason_repeats_its_move_and_each_names_the_difference() -> None:
    rng = random.Random(5)
    seen: set[str] = set()
    count = 0
    for view in positions(30, seed=11):
        acts = playable(view)
        for action in acts:
            reason = explain(view, action, rng)
            check(view, action, reason)
            seen.add(reason.code)
            count += 1
        discards = [a for a in acts if isinstance(a, Discard)]
        if len(discards) >= 2:  # a look back: the strong move against the player's own
            best, mine = discards[0], discards[-1]
            scored = (Scored(best, 3.0, 10), Scored(mine, 1.5, 10))
            reason = explain(view, best, rng, scored, mine)
            assert reason.code == "discard_searched" and reason.params["difference"] == 1.5
            check(view, best, reason, mine)
            seen.add(reason.code)
    assert count > 500
    assert {"spread", "discard_far", "discard_high", "discard_searched", "discard_instead"} <= seen


def test_the_reported_hints_now_say_why() -> None:
    """Discarding 5♠ while a lone 9♠ is held; laying down three kings."""
    view_hand = (C("5S"), C("QD"), C("QS"), C("9S"), C("2H"), C("3H"))
    game = Game([Seat(p, 200) for p in "123"], 5)
    game.start_round(rng=random.Random(3))
    view = game.view(game.to_act or "1")

    drawn = replace(view, hand=view_hand, hand_value=hand_value(view_hand), phase="drawn", taken=None)
    reason = explain(drawn, Discard(drawn.player, C("5S")), random.Random(1))
    text = reason_text(T, reason)
    assert "`9♤`" in text and "`5♤`" not in text and "keeps" not in text
    kings = (C("KC"), C("KD"), C("KS"))
    held = (*kings, C("4H"), C("7C"), C("2D"))
    laid = replace(view, hand=held, hand_value=hand_value(held), phase="drawn", taken=None)
    spread = reason_text(T, explain(laid, Spread(laid.player, kings), random.Random(1)))
    assert spread == "your hand goes from 43 to 13 points, and you still discard this turn"


def test_real_hints_over_positions_read_without_the_move_twice() -> None:
    rng = random.Random(9)
    for i, view in enumerate(positions(4, seed=2)):
        if i % 3:
            continue
        found = hint(view, rng, budget=0.01)
        check(view, found.action, found.reason)
        text = hint_text(T, found)
        assert text.startswith("💡 **Hint:** ") and text.count(" — ") >= 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_discard_reason_fills_in_every_language(language: str) -> None:
    t = texts(language)
    other = C("9S")
    for code, params in {
        "discard_far": {"value": 10, "other": other, "other_value": 9},
        "discard_lone": {"value": 10},
        "discard_high": {"value": 10, "other": other, "other_value": 9},
        "discard_searched": {"other": other, "difference": 1.5},
        "discard_instead": {"other": other},
        "spread": {"before": 43, "after": 13},
        "layoff": {"before": 43, "after": 33, "target": 2},
        "tonk": {},
    }.items():
        text = reason_text(t, Reason(code, params))
        assert text and "{" not in text
        if "other" in params:
            assert card(other) in text
        if code == "discard_searched":
            assert t.decimal(1.5) in text


def test_a_look_back_line_contrasts_with_the_players_own_discard() -> None:
    mine, better = Discard("1", C("5S")), Discard("1", C("9S"))
    why = Reason("discard_searched", {"other": C("5S"), "difference": 2.0})
    line = review_line(T, Review(3, (C("5S"), C("9S")), mine, better, 1.0, 3.0, 40, why))
    assert "you chose to discard `5♤`" in line and "better than discarding `5♤`" in line
    assert not isinstance(mine, Drop)
