"""How the strong player's search spends its time and picks its move (``engine.ai.search``)."""

from __future__ import annotations

import random

from engine import Game, Seat
from engine.ai.inference import Tracker
from engine.ai.search import Limits, Results, keep_basic, paired, search
from engine.ai.strategies import BasicStrategy, PeekStrategy, StrongStrategy
from engine.cards import Card


def results(*rows: list[float]) -> Results:
    return Results([list(r) for r in rows], list(range(len(rows))))


def test_the_basic_move_stays_unless_another_beats_it_by_more_than_the_noise() -> None:
    basic = [0.0, 10.0, -10.0, 5.0, -5.0, 0.0]
    close = [b + d for b, d in zip(basic, [1.0, 0.0, 2.0, 0.0, 1.0, 0.0], strict=True)]  # +0.67 ± 0.33
    clear = [b + 3.0 for b in basic]  # +3 in every world: no noise at all
    mean, error = paired(close, basic)
    assert 0 < mean < 3 * error
    assert keep_basic(results(basic, close), 0, keep_z=3.0) == 0
    assert keep_basic(results(basic, close), 0, keep_z=1.0) == 1  # +0.67 is two standard errors
    assert keep_basic(results(basic, close), 0, keep_z=0.0) == 1  # no keeping: the best estimate
    assert keep_basic(results(basic, clear), 0, keep_z=10.0) == 1
    assert keep_basic(results(basic, close), None, keep_z=3.0) == 1  # no basic move among the candidates
    cut_early = Results([basic[:2], close], [1])
    assert keep_basic(cut_early, 0, keep_z=3.0) == 1  # cut as clearly worse: not kept
    assert keep_basic(Results([[1.0], [2.0]], [0, 1]), 0, keep_z=1.0) == 0  # one world says nothing


def test_a_search_never_passes_its_budget_by_more_than_one_play_out() -> None:
    now = [0.0]
    played: list[int] = []

    def play(hands: dict[str, list[Card]], stock: list[Card], i: int) -> float:
        now[0] += 0.013 if i == 2 else 0.004  # a slow action
        played.append(i)
        return float(i)

    limits = Limits(budget=1.0, aim=0.8)
    found = search(4, lambda rng: ({}, []), play, random.Random(1), lambda: now[0], 0.0, limits)
    worlds = {len(r) for r in found.results}
    assert worlds == {len(found.results[0])} and worlds != {0}  # every action in every world kept
    assert now[0] <= 0.8 + 0.025  # the last world started fit the time planned
    now[0], played[:] = 0.0, []
    late = search(4, lambda rng: ({}, []), play, random.Random(1), lambda: now[0], 0.0, Limits(1.0, aim=3.0))
    assert now[0] <= 1.0 + 0.013  # past the budget mid-world: stopped after that play-out
    assert len(played) > 4 * len(late.results[0])  # and the unfinished world was dropped


def test_a_strong_player_that_can_not_tell_moves_apart_plays_the_basic_move() -> None:
    """One world per action gives no measure of noise: the basic move is kept every time."""
    rng = random.Random(8)
    basic = BasicStrategy()
    strong = StrongStrategy(budget=1.0, max_samples=1, tracker=Tracker())
    checked = 0
    for _ in range(4):
        game = Game([Seat(f"p{i}", 200) for i in range(4)], 5)
        game.start_round(rng)
        while game.in_round:
            view = game.view(game.to_act)  # type: ignore[arg-type]
            move = basic.choose(view, rng)
            if len(strong.candidates(view)) > 1:
                assert strong.choose(view, rng) == move
                checked += 1
            game.apply(move)
    assert checked > 20


def test_peek_keeps_no_basic_move() -> None:
    """Peek's one world is the true one, without noise: it plays its best estimate."""
    peek = PeekStrategy(lambda view: ({}, []))
    assert peek.keep_z == 0 and peek.max_samples == 1
    assert StrongStrategy().keep_z == 1.0
