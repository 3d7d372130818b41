"""Random-simulation property tests in the spirit of OpenSpiel's ``basic_tests``.

After every random step: chips add up (R2.2), all 52 cards are somewhere
exactly once (R1.1), every listed action is accepted, random illegal actions
are refused and change nothing, save/restore continues identically, no view
leaks a hidden card, and rounds and games end.
"""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import DECK, Card, Discard, Draw, Drop, Game, IllegalAction, LayOff, Leave, Seat, Spread
from engine.actions import Action, TonkOut
from engine.catalog import MESSAGES
from engine.spreads import normalise

MAX_ROUND_ACTIONS = 600


def all_cards_once(game: Game) -> None:
    r = game.round
    assert r is not None
    held = [c for h in r.hands.values() for c in h]
    laid = [c for s in r.spreads for c in s.cards]
    every = held + laid + r.stock + r.discard
    assert len(every) == 52 and set(every) == set(DECK)


def cards_in(obj: object) -> set[Card]:
    found: set[Card] = set()
    if isinstance(obj, Card):
        found.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            found |= cards_in(v)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            found |= cards_in(getattr(obj, f.name))
    return found


def no_view_leaks(game: Game) -> None:
    r = game.round
    assert r is not None
    # seen by everyone: the upcard, flip and flop cards shown, the card just taken from the discard pile
    public = {r.upcard, r.taken} | {c for _, _, c in r.showings}
    for p in r.players:
        view = game.view(p)
        assert list(view.hand) == r.hands[p]
        seen = cards_in(dataclasses.replace(view, hand=(), legal=()))
        for q in r.players:
            if q != p:
                hidden = set(r.hands[q]) - public
                assert not seen & hidden, f"{p} sees {q}'s hidden cards"
        assert not seen & set(r.stock), f"{p} sees the stock"


def random_action(rng: random.Random, game: Game) -> Action:
    r = game.round
    assert r is not None
    p = rng.choice(game.order)
    card = rng.choice(DECK)
    kind = rng.randrange(7)
    if kind == 0:
        return Drop(p)
    if kind == 1:
        return Draw(p, rng.choice(["stock", "discard"]))
    if kind == 2:
        return Discard(p, card)
    if kind == 3:
        return LayOff(p, card, rng.randrange(-1, len(r.spreads) + 2))
    if kind == 4:
        pool = r.hands.get(p) or list(DECK)
        chosen = rng.sample(pool, min(len(pool), rng.randrange(1, 5)))
        return Spread(p, normalise(chosen))
    if kind == 5:
        pool = list(r.hands.get(p) or DECK)
        rng.shuffle(pool)
        pool += rng.sample(DECK, 6)
        return TonkOut(p, normalise(pool[:3]), normalise(pool[3:6]))
    return Leave(p)


def is_legal(game: Game, action: Action) -> bool:
    return action in game.legal_actions(action.player)


def clone(game: Game) -> Game:
    return Game.restore(json.loads(json.dumps(game.snapshot())))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 5),
    stakes=st.lists(st.integers(0, 12), min_size=5, max_size=5),
    stake=st.integers(1, 10),
    leave_rate=st.sampled_from([0.0, 0.01, 0.05]),
)
def test_random_play_keeps_every_invariant(
    seed: int, n: int, stakes: list[int], stake: int, leave_rate: float
) -> None:
    rng = random.Random(seed)
    # stacks in stakes, with odd chips, so short stacks and all-in players come up
    seats = [Seat(f"p{i}", stakes[i] * stake + rng.randrange(stake)) for i in range(n)]
    game = Game(seats, stake)
    total = game.total_chips()
    rounds = 0
    while not game.over and (rounds < 6 or game.in_round):
        if not game.in_round:
            game.start_round(rng)
            rounds += 1
            assert game.total_chips() == total
            continue
        actions_this_round = 0
        while game.in_round:
            assert game.round is not None and game.round.end is None  # ``in_round`` is kept, not derived
            actions_this_round += 1
            assert actions_this_round < MAX_ROUND_ACTIONS, "round did not end"
            all_cards_once(game)
            no_view_leaks(game)
            legal = game.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            # (c) every listed action is accepted
            for action in legal:
                clone(game).apply(action)
            # (d) random illegal actions are refused and change nothing
            before = game.snapshot()
            for _ in range(4):
                bad = random_action(rng, game)
                if is_legal(game, bad):
                    continue
                try:
                    game.apply(bad)
                except IllegalAction as e:
                    assert str(e) and e.code in MESSAGES
                else:
                    raise AssertionError(f"{bad} was accepted but not listed")
                assert game.snapshot() == before
            # choose: mostly play, sometimes someone leaves
            if rng.random() < leave_rate:
                action: Action = Leave(rng.choice(game.round.live()))  # type: ignore[union-attr]
            else:
                action = rng.choice([a for a in legal if not isinstance(a, Leave)])
            # (e) a restored copy continues identically
            twin = clone(game)
            assert twin == game
            events = game.apply(action)
            assert twin.apply(action) == events
            assert twin == game
            assert twin.in_round == game.in_round == (game.round is not None and game.round.end is None)
            assert game.total_chips() == total
    if not game.over:
        game.end_game()
    assert game.over and game.total_chips() == total
    if game.rounds_played:
        assert sum(game.pots.values()) == 0, "R8.3: no chip is left in a pot when the game ends"


def test_random_games_end() -> None:
    """(g) with short buy-ins, every game ends by itself (R8.2)."""
    for seed in range(60):
        rng = random.Random(seed)
        n = 3 + seed % 3
        game = Game([Seat(str(i), rng.randrange(1, 8) * 5) for i in range(n)], 5)
        total = game.total_chips()
        rounds = 0
        while not game.over:
            rounds += 1
            assert rounds < 2000
            game.start_round(rng)
            steps = 0
            while game.in_round:
                steps += 1
                assert steps < MAX_ROUND_ACTIONS
                game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)]))
        assert game.total_chips() == total
        assert len(game.seated) <= 1
        assert sum(game.pots.values()) == 0, "R8.3: no chip is left in a pot when the game ends"
