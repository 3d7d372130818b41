"""``python -m engine.replay``: its exit statuses and its messages for bad input (TRANSCRIPT.md)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import replay

ROOT = Path(__file__).resolve().parents[2]
CASE = json.loads((ROOT / "tests/engine/cases/go-out-by-spread.json").read_text())
GOOD: dict[str, Any] = CASE["transcript"]


def run_cli(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    f = tmp_path / "t.json"
    f.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "engine.replay", str(f)], capture_output=True, text=True, cwd=ROOT, check=False
    )


def changed(**edits: Any) -> dict[str, Any]:
    t = copy.deepcopy(GOOD)
    for path, value in edits.items():
        target: Any = t
        keys = path.split("__")
        for k in keys[:-1]:
            target = target[int(k)] if k.isdigit() else target[k]
        last = keys[-1]
        if last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value
    return t


def test_valid_transcript_exits_0(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, json.dumps(GOOD))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["rounds"][0]["end"] == "out"


@pytest.mark.parametrize(
    ("transcript", "words"),
    [
        (changed(rounds__0__deck=GOOD["rounds"][0]["deck"][:51]), "has 51"),
        (changed(rounds__0__deck__1="AH"), "appears twice"),
        (changed(rounds__0__deck__1="ZZ"), "not a card"),
        (changed(rounds__0__actions__0=["zed", "draw", "stock"]), "not one of the seats"),
        (changed(rounds__0__actions__0=["ann", "jump"]), "unknown verb"),
        (changed(rounds__0__actions__0=["ann", "draw", "sky"]), "stock"),
        (changed(rounds__0__dealer="zed"), "not one of the seats"),
        (changed(stake=0), "stake"),
        (changed(seats="ann"), "seats"),
        ({"stake": 5}, "no 'seats'"),
        ([], "JSON object"),
    ],
)
def test_invalid_transcripts_exit_2_with_a_message(transcript: object, words: str) -> None:
    result, status = replay(transcript)
    assert status == 2
    assert result["error"]["round"] is None and result["error"]["action"] is None
    assert words in result["error"]["message"]


def test_missing_first_dealer_is_status_2() -> None:
    t = copy.deepcopy(GOOD)
    del t["rounds"][0]["dealer"]
    assert replay(t)[1] == 2


def test_wrong_dealer_in_a_later_round_is_status_2() -> None:
    t = copy.deepcopy(GOOD)
    t["rounds"].append({"dealer": "ben", "deck": GOOD["rounds"][0]["deck"], "actions": []})
    result, status = replay(t)
    assert status == 2 and "R3.1" in result["error"]["message"]


def test_later_round_dealer_may_be_left_out() -> None:
    t = copy.deepcopy(GOOD)
    t["rounds"].append({"deck": GOOD["rounds"][0]["deck"], "actions": []})
    result, status = replay(t)
    assert status == 0 and result["rounds"][1]["dealer"] == "ann"


def test_action_after_round_end_is_status_2() -> None:
    t = copy.deepcopy(GOOD)
    t["rounds"][0]["actions"].append(["ben", "draw", "stock"])
    assert replay(t)[1] == 2


def test_round_after_unfinished_round_is_status_2() -> None:
    t = copy.deepcopy(GOOD)
    t["rounds"][0]["actions"] = t["rounds"][0]["actions"][:2]
    t["rounds"].append({"deck": GOOD["rounds"][0]["deck"], "actions": []})
    assert replay(t)[1] == 2


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (["ben", "draw", "stock"], "Ann's turn|ann's turn"),
        (["ann", "discard", "9D"], "Draw a card first"),
        (["ann", "drop"], None),
    ],
)
def test_rule_breaking_action_is_status_1(action: list[object], words: str | None) -> None:
    t = copy.deepcopy(GOOD)
    t["rounds"][0]["actions"] = [action]
    result, status = replay(t)
    if words is None:
        assert status == 0  # dropping first is legal
        return
    assert status == 1
    assert result["error"]["round"] == 0 and result["error"]["action"] == 0
    assert result["rounds"][0]["pots"] == {"game": 15, "flip": 15, "flop": 15}


def test_bad_json_and_missing_file_exit_2_without_traceback(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "{not json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "not valid JSON" in proc.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert missing.returncode == 2 and "Can not read" in missing.stderr


def test_help_says_how_to_run_it_and_reads_no_file(capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` is asked for, not a file of that name ("Can not read --help", status 2, before)."""
    from engine.replay import main

    for asked in ("--help", "-h"):
        assert main([asked]) == 0
        out = capsys.readouterr()
        assert "python -m engine.replay TRANSCRIPT.json" in out.out and "Exit status" in out.out
        assert out.err == ""
    assert main([]) == 2 and "usage:" in capsys.readouterr().err


def test_game_log_replays_to_the_same_result() -> None:
    """The engine's own log is a transcript: replaying it gives the same stacks."""
    import random

    from engine import Game, Leave, Seat

    rng = random.Random(5)
    game = Game([Seat(p, 100) for p in ("ann", "ben", "cat", "dan")], 5)
    for i in range(8):
        if game.over:
            break
        if i == 2:
            game.apply(Leave("dan"))  # between rounds: logged as left_before
        game.start_round(rng)
        while game.in_round:
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)]))
    transcript = {"stake": 5, "seats": [{"id": p, "stack": 100} for p in game.order], "rounds": game.log}
    result, status = replay(transcript)
    assert status == 0
    assert any("left_before" in r for r in game.log)
    assert result["stacks"] == game.stacks and result["pots"] == game.pots
    assert result["seated"] == game.seated


def test_each_round_transcript_replays_on_its_own() -> None:
    """``round_transcript`` is a whole transcript of one round: it replays to that round's stacks."""
    import random

    from engine import Game, Leave, Seat

    rng = random.Random(11)
    game = Game([Seat(p, 60) for p in ("ann", "ben", "cat", "dan")], 5)
    rounds = 0
    while not game.over and rounds < 12:
        if rounds == 3 and "dan" in game.seated:
            game.apply(Leave("dan"))
        game.start_round(rng)
        if not game.in_round:
            break
        rounds += 1
        while game.in_round:
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)]))
        result, status = replay(game.round_transcript())
        assert status == 0, result
        assert result["stacks"] == {p: game.stacks[p] for p in result["stacks"]}
        assert result["pots"] == game.pots
    assert rounds >= 3


def test_one_codec_writes_and_reads_every_action_both_ways() -> None:
    from engine import Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
    from engine.codec import action_to_json, control_of, parse_action, parse_control
    from tests.engine.helpers import cards

    actions = [
        Drop("ann"),
        Draw("ann", "stock"),
        Draw("ann", "discard"),
        Discard("ann", cards("TH")[0]),
        Spread("ann", tuple(cards("AS 2S 3S"))),
        LayOff("ann", cards("4S")[0], 2),
        TonkOut("ann", tuple(cards("AS 2S 3S")), tuple(cards("9C 9D 9H"))),
        Leave("ann"),
    ]
    for action in actions:
        assert parse_action(action_to_json(action), ["ann"], "here", tonk=True) == action
        assert parse_control("ann", *control_of(action)) == action
    assert control_of(actions[5]) == ("layoff", "4S@2")
    assert control_of(actions[4]) == ("spread", "AS.2S.3S")


def test_a_malformed_control_is_refused_with_a_code() -> None:
    from engine.codec import InvalidTranscript, parse_control

    bad_controls = [("layoff", "4S@x"), ("layoff", "4S"), ("discard", None), ("spread", "AS.ZZ"), ("fly", "")]
    for op, value in bad_controls:
        with pytest.raises(InvalidTranscript) as bad:
            parse_control("ann", op, value)
        assert bad.value.code.startswith("transcript_")


def test_a_transcript_has_no_tonk_verb() -> None:
    from engine.codec import InvalidTranscript, parse_action

    with pytest.raises(InvalidTranscript) as bad:
        parse_action(["ann", "tonk", ["AS", "2S", "3S"], ["9C", "9D", "9H"]], ["ann"], "here")
    assert bad.value.code == "transcript_verb"
