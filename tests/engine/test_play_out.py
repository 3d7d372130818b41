"""The search's fast play-out is a second statement of R6-R7: it must give the rules' own result.

Random positions of random and basic rounds, with small stacks so that players run short
and the game ends with the round (R2.7, R8.3: the pots carried over are then shared): every
playable action, in a sampled world, is played out both by ``engine.ai.rollout.play_out`` and
through ``Game`` with the basic policy (``rollout_move``), and the chip results must agree.
``FLIPFLOP_PLAY_OUT_GAMES`` sets how many rounds are played (more for a longer check).
"""

from __future__ import annotations

import os
import random

from engine import Game, Seat
from engine.actions import Action
from engine.ai.inference import Clues
from engine.ai.rollout import SharedPosition, play_out
from engine.ai.strategies import BasicStrategy, RandomStrategy, playable, rollout_move
from engine.ai.worlds import hidden_cards, sample_hidden

GAMES = int(os.environ.get("FLIPFLOP_PLAY_OUT_GAMES", "120"))


def game_play_out(world: Game, me: str, action: Action) -> float:
    """The reference: apply ``action`` in a sampled ``Game`` and let ``rollout_move`` finish the round."""
    before = world.stacks[me]
    world.apply(action)
    while world.in_round:
        world.apply(rollout_move(world))
    return float(world.stacks[me] - before)


def test_fast_play_outs_give_the_rules_own_result() -> None:
    rng = random.Random(7)
    checked = nonzero = short = 0
    for g_i in range(GAMES):
        n = 3 + g_i % 3
        low = g_i % 2 == 0  # stacks of a few stakes: players run short, the game ends with the round
        stacks = [
            rng.randrange(1, 4) * 5 + rng.randrange(0, 5) if low else rng.randrange(1, 60) * 5
            for _ in range(n)
        ]
        game = Game([Seat(f"p{i}", s) for i, s in enumerate(stacks)], 5)
        game.start_round(rng)
        policy = BasicStrategy() if g_i % 4 < 2 else RandomStrategy()
        while game.in_round:
            view = game.view(game.to_act)  # type: ignore[arg-type]
            known, pool = hidden_cards(view)
            table = SharedPosition(view)
            for action in playable(view):
                hands, stock = sample_hidden(view, known, pool, Clues(), rng)
                world = Game.sampled_world(view, hands, stock)
                expected = game_play_out(world, view.player, action)
                got = play_out(table, hands, stock, action)
                assert got == expected, (g_i, view, action, got, expected)
                checked += 1
                nonzero += expected != 0
                short += world.over
            game.apply(policy.choose(view, rng))
    if GAMES >= 120:
        assert checked > 5000 and nonzero > 1000 and short > 100, (checked, nonzero, short)
