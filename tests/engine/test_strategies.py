"""Computer players: they only ever see a view, always play legally, and replay under a seed."""

from __future__ import annotations

import gc
import inspect
import random

import pytest

from engine import DECK, Game, Leave, Seat
from engine.ai.strategies import (
    STRATEGIES,
    BasicStrategy,
    RandomStrategy,
    StrongStrategy,
    decide,
    determinize,
)
from engine.game import Round
from engine.view import PlayerView


def reachable(root: object, limit: int = 20000) -> list[object]:
    seen: dict[int, object] = {}
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def test_a_view_holds_no_reference_to_the_game() -> None:
    """Strategies get a PlayerView; from it no Game, Round or hidden hand can be reached."""
    game = Game([Seat(p, 100) for p in "abcd"], 5)
    game.start_round(random.Random(1))
    view = game.view(game.to_act)  # type: ignore[arg-type]
    objects = reachable(view)
    assert not any(isinstance(o, (Game, Round)) for o in objects)
    r = game.round
    assert r is not None
    for other in r.players:
        if other != view.player:
            assert not any(o is r.hands[other] for o in objects)


def test_strategies_are_given_only_a_view() -> None:
    for make in STRATEGIES.values():
        params = list(inspect.signature(make().choose).parameters.values())
        assert [p.name for p in params] == ["view", "rng"]
        assert params[0].annotation in (PlayerView, "PlayerView")


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_every_level_always_returns_a_legal_action(level: str) -> None:
    strategy = StrongStrategy(budget=0.002, max_samples=3) if level == "strong" else STRATEGIES[level]()
    rng = random.Random(11)
    games = 12 if level == "strong" else 60
    for g_i in range(games):
        n = 3 + g_i % 3
        game = Game([Seat(f"p{i}", rng.randrange(1, 30) * 5) for i in range(n)], 5)
        for _ in range(4):
            if game.over:
                break
            game.start_round(rng)
            while game.in_round:
                p = game.to_act
                assert p is not None
                action = decide(game, p, strategy, rng)
                assert action in game.legal_actions() and not isinstance(action, Leave)
                game.apply(action)


def test_strategies_replay_identically_under_a_seed() -> None:
    def play(seed: int) -> list[object]:
        rng = random.Random(seed)
        game = Game([Seat(f"p{i}", 200) for i in range(4)], 5)
        game.start_round(rng)
        strategies = [
            BasicStrategy(),
            RandomStrategy(),
            StrongStrategy(budget=1.0, max_samples=4),
            BasicStrategy(),
        ]
        out = []
        while game.in_round:
            p = game.to_act
            assert p is not None
            action = strategies[int(p[1])].choose(game.view(p), rng)
            out.append(action)
            game.apply(action)
        return out

    assert play(5) == play(5)


def test_determinized_worlds_keep_what_the_player_knows() -> None:
    """Every state of many games: the sampled world has 52 cards, the same counts and stock size."""
    rng = random.Random(2)
    for g_i in range(400):
        game = Game([Seat(f"p{i}", 200) for i in range(3 + g_i % 3)], 5)
        game.start_round(rng)
        policy = RandomStrategy() if g_i % 2 else BasicStrategy()
        while game.in_round:
            view = game.view(game.to_act)  # type: ignore[arg-type]
            check_world(view, rng)
            game.apply(policy.choose(view, rng))


def check_world(view: PlayerView, rng: random.Random) -> None:
    world = determinize(view, rng)
    r = world.round
    assert r is not None
    cards = (
        [c for h in r.hands.values() for c in h]
        + r.stock
        + r.discard
        + [c for s in r.spreads for c in s.cards]
    )
    assert sorted(cards) == sorted(DECK)
    assert r.hands[view.player] == list(view.hand)
    assert {p: len(h) for p, h in r.hands.items()} == view.card_counts
    assert len(r.stock) == view.stock_size
    if view.upcard_held and view.dealer != view.player:
        assert view.upcard in r.hands[view.dealer]  # type: ignore[index]


def test_basic_takes_a_tonk_out_when_it_can() -> None:
    from tests.engine.helpers import make_game

    game, _ = make_game(
        {"ann": "4H 5H 6H 9C 9D", "ben": "2S 3S KD QC JC", "cat": "7D 8S TC 2D QS"}, dealer="cat", stock="9S"
    )
    game.apply(BasicStrategy().choose(game.view("ann"), random.Random(1)))
    action = BasicStrategy().choose(game.view("ann"), random.Random(1))
    assert type(action).__name__ == "TonkOut"


def test_public_view_shows_no_hidden_card_until_the_round_ends() -> None:
    """The public view carries card counts during play, and every hand once the round is over."""
    import random

    from engine import Game, Leave, Seat

    rng = random.Random(3)
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5)
    game.start_round(rng)
    public = game.public_view()
    assert public.revealed == {} and public.end is None
    assert sum(public.card_counts.values()) + public.stock_size + len(public.discard_pile) == 52
    assert not hasattr(public, "hand") and not hasattr(public, "legal")
    while game.in_round:
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)]))
    public = game.public_view()
    assert public.end is not None
    assert public.revealed and all(len(h) == public.card_counts[p] for p, h in public.revealed.items())


def test_rollouts_play_the_basic_strategys_own_moves() -> None:
    """The strong player's rollout move is the basic strategy's choice from the same position."""
    from engine.ai.strategies import rollout_move

    rng = random.Random(4)
    basic = BasicStrategy()
    checked = 0
    for _ in range(60):
        game = Game([Seat(f"p{i}", 200) for i in range(4)], 5)
        game.start_round(rng)
        while game.in_round:
            view = game.view(game.to_act)  # type: ignore[arg-type]
            world = determinize(view, rng)
            expected = basic.choose(view, rng)
            assert rollout_move(world) == expected
            checked += 1
            game.apply(expected)
    assert checked > 100
