"""Snapshots stay small and flat in rounds played; older versions load; bad data is refused cleanly."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from engine import Game, IllegalAction, Leave, Seat
from engine.snapshot import FORMAT_VERSION


def play_rounds(game: Game, rng: random.Random, rounds: int) -> None:
    for _ in range(rounds):
        game.start_round(rng)
        while game.in_round:
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)]))


def size(game: Game) -> int:
    return len(json.dumps(game.snapshot()))


def test_snapshot_size_does_not_grow_with_rounds_played() -> None:
    rng = random.Random(7)
    game = Game([Seat(p, 1_000_000) for p in ("ann", "ben", "cat", "dan")], 1)
    play_rounds(game, rng, 1)
    first = size(game)
    play_rounds(game, rng, 199)
    assert game.rounds_played == 200 and not game.over
    assert size(game) <= first + 400  # a few digits more in stacks and numbers, never a round's log
    assert size(game) <= 8 * 1024
    assert len(game.snapshot()["log"]) == 1


def test_restored_game_goes_on_identically_and_round_transcript_survives() -> None:
    rng = random.Random(8)
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5)
    play_rounds(game, rng, 2)
    game.start_round(rng)
    game.apply(game.legal_actions()[1])  # draw from the stock
    copy = Game.restore(json.loads(json.dumps(game.snapshot())))
    assert copy == game and copy.round_transcript() == game.round_transcript()
    action = next(a for a in game.legal_actions() if not isinstance(a, Leave))
    assert copy.apply(action) == game.apply(action)
    assert copy.snapshot() == game.snapshot()


def test_in_round_survives_restore_between_rounds_and_mid_round() -> None:
    # ``in_round`` is kept as an attribute, so every way a game is rebuilt must set it.
    rng = random.Random(9)
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5)
    assert not game.in_round and not Game.restore(game.snapshot()).in_round
    play_rounds(game, rng, 1)
    assert not game.in_round and not Game.restore(game.snapshot()).in_round
    game.start_round(rng)
    assert game.in_round and Game.restore(game.snapshot()).in_round
    assert pickle.loads(pickle.dumps(game)).in_round


def test_a_version_1_snapshot_with_every_round_still_loads() -> None:
    rng = random.Random(9)
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5)
    play_rounds(game, rng, 3)
    old = game.snapshot()
    old["version"] = 1
    old["log"] = [old["log"][0]] * 3  # version 1 kept every round's entry
    restored = Game.restore(old)
    assert restored.snapshot() == game.snapshot()
    assert restored.snapshot()["version"] == FORMAT_VERSION == 2


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"version": 99}, "snapshot_version"),
        ("not a game", "snapshot_unreadable"),
        ({"version": 2, "stake": 5}, "snapshot_unreadable"),
    ],
)
def test_unreadable_snapshots_are_refused_with_a_code(data: object, code: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        Game.restore(data)
    assert refused.value.code == code and str(refused.value)


def test_a_bad_card_in_a_snapshot_is_refused_cleanly() -> None:
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5)
    game.start_round(random.Random(1))
    data = game.snapshot()
    data["round"]["stock"][0] = "ZZ"
    with pytest.raises(IllegalAction) as refused:
        Game.restore(data)
    assert refused.value.code == "snapshot_unreadable" and "ZZ" in str(refused.value)


def test_views_and_cards_survive_pickle() -> None:
    """The runtime sends a PlayerView to a process pool for a strong search."""
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat")], 5)
    game.start_round(random.Random(2))
    for view in (game.view(game.to_act or "ann"), game.public_view()):
        assert pickle.loads(pickle.dumps(view)) == view


def test_a_restored_games_round_transcript_replays_to_its_stacks() -> None:
    """What the crash test can check from a saved table: its last round replays to every stack."""
    from engine.replay import replay

    rng = random.Random(12)
    for _ in range(20):
        game = Game([Seat(p, 20) for p in ("ann", "ben", "cat", "dan")], 5)
        while not game.over:
            if rng.random() < 0.05 and len(game.seated) > 2:
                game.apply(Leave(rng.choice(game.seated)))
                continue
            game.start_round(rng)
            while game.in_round:
                game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)]))
            if game.rounds_played:
                saved = Game.restore(json.loads(json.dumps(game.snapshot())))
                result, status = replay(saved.round_transcript())
                assert status == 0, result["error"]
                assert result["stacks"] == game.stacks and result["pots"] == game.pots
