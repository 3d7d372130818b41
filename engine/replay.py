"""Replay a game transcript (``docs/TRANSCRIPT.md``) and print its result.

    python -m engine.replay TRANSCRIPT.json

Exit status 0 when every action is legal, 1 at the first rule-breaking action,
2 when the input is not a valid transcript. Never a traceback. Every message
comes from ``engine.catalog``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, Leave
from engine.cards import Card
from engine.catalog import render
from engine.codec import InvalidTranscript, card_from_json, int_from_json, parse_action
from engine.errors import IllegalAction
from engine.events import POTS, Pot
from engine.game import Game, Seat

__all__ = ["InvalidTranscript", "parse_action", "parse_deck", "replay"]


def parse_deck(value: object, where: str) -> list[Card]:
    """A deck: all 52 cards, each once, top first (R1.1, R3.2)."""
    if not isinstance(value, list):
        raise InvalidTranscript("transcript_deck_list", where=where)
    cards = [card_from_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise InvalidTranscript("transcript_deck_twice", where=where, card=c.code)
        seen.add(c)
    if len(cards) != 52:
        raise InvalidTranscript("transcript_deck_size", where=where, count=len(cards))
    return cards


def _round_result(game: Game) -> dict[str, Any]:
    r = game.round
    assert r is not None
    return {
        "dealer": r.dealer,
        "upcard": r.upcard.code,
        "end": r.end,
        "winners": {pot: list(r.winners[pot]) for pot in POTS},
        "stacks": dict(game.stacks),
        "pots": dict(game.pots),
    }


def replay(data: object) -> tuple[dict[str, Any], int]:
    """Replay a parsed transcript; return the result object and the exit status."""
    result: dict[str, Any] = {
        "rounds": [],
        "stacks": {},
        "pots": {"game": 0, "flip": 0, "flop": 0},
        "seated": [],
        "over": False,
        "error": None,
    }
    game: Game | None = None

    def finish() -> None:
        if game is not None:
            result["stacks"] = dict(game.stacks)
            result["pots"] = dict(game.pots)
            result["seated"] = list(game.seated)
            result["over"] = game.over

    try:
        if not isinstance(data, dict):
            raise InvalidTranscript("transcript_object")
        for key in ("stake", "seats", "rounds"):
            if key not in data:
                raise InvalidTranscript("transcript_missing", key=repr(key))
        stake = int_from_json(data["stake"], "stake", 1)
        seats_in = data["seats"]
        if not isinstance(seats_in, list):
            raise InvalidTranscript("transcript_seats")
        seats: list[Seat] = []
        for i, s in enumerate(seats_in):
            if not isinstance(s, dict) or not isinstance(s.get("id"), str) or "stack" not in s:
                raise InvalidTranscript("transcript_seat", index=i)
            seats.append(Seat(s["id"], int_from_json(s["stack"], f"seats[{i}].stack")))
        pots_in = data.get("pots", {}) or {}
        if not isinstance(pots_in, dict) or not set(pots_in) <= set(POTS):
            raise InvalidTranscript("transcript_pots")
        pots: dict[Pot, int] = {p: int_from_json(pots_in.get(p, 0), f"pots.{p}") for p in POTS}
        try:
            game = Game(seats, stake, pots)
        except IllegalAction as e:
            raise InvalidTranscript("transcript_game", reason=str(e)) from None
        ids = [s.id for s in seats]
        rounds_in = data["rounds"]
        if not isinstance(rounds_in, list):
            raise InvalidTranscript("transcript_rounds")
        parsed: list[tuple[str | None, list[Card], list[Action]]] = []
        for ri, rd in enumerate(rounds_in):
            where = f"rounds[{ri}]"
            if not isinstance(rd, dict) or "deck" not in rd or "actions" not in rd:
                raise InvalidTranscript("transcript_round", where=where)
            dealer = rd.get("dealer")
            if dealer is None and ri == 0:
                raise InvalidTranscript("transcript_first_dealer")
            if dealer is not None and dealer not in ids:
                raise InvalidTranscript("transcript_dealer", where=where, value=repr(dealer))
            deck = parse_deck(rd["deck"], f"{where}.deck")
            if not isinstance(rd["actions"], list):
                raise InvalidTranscript("transcript_actions", where=where)
            actions = [parse_action(a, ids, f"{where}.actions[{ai}]") for ai, a in enumerate(rd["actions"])]
            parsed.append((dealer, deck, actions))
        for ri, (dealer, deck, actions) in enumerate(parsed):
            if game.over:
                raise InvalidTranscript("transcript_after_game", index=ri)
            if game.in_round:
                raise InvalidTranscript("transcript_after_unfinished", index=ri)
            if ri > 0 and dealer is not None and dealer != game.next_dealer():
                expected = game.next_dealer()
                raise InvalidTranscript("transcript_wrong_dealer", index=ri, dealer=dealer, expected=expected)
            for leaver in rounds_in[ri].get("left_before") or []:
                if leaver in game.seated:  # an extension of ours: leaving between rounds (R8.4)
                    game.apply(Leave(leaver))
            if game.over:
                break
            game.start_round(deck=deck, dealer=dealer)
            if game.round is None or game.over and not game.rounds_played:
                break
            for ai, action in enumerate(actions):
                if not game.in_round:
                    raise InvalidTranscript("transcript_after_round", index=ri, action=ai)
                try:
                    game.apply(action)
                except IllegalAction as e:
                    result["rounds"].append(_round_result(game))
                    result["error"] = {"round": ri, "action": ai, "message": str(e)}
                    finish()
                    return result, 1
            result["rounds"].append(_round_result(game))
    except InvalidTranscript as e:
        finish()
        result["error"] = {"round": None, "action": None, "message": str(e)}
        return result, 2
    finish()
    return result, 0


USAGE = "usage: python -m engine.replay TRANSCRIPT.json"


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: read the file, print the result as JSON, return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):  # asked for, not a file of that name
        print(__doc__ or USAGE)  # the docstring says it all (gone only under python -OO)
        return 0
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        result, status = replay(None)
        result["error"]["message"] = render("replay_unreadable", {"path": args[0], "reason": e.strerror or e})
    except (ValueError, UnicodeDecodeError) as e:
        result, status = replay(None)
        result["error"]["message"] = render("replay_not_json", {"path": args[0], "reason": e})
    else:
        try:
            result, status = replay(data)
        except Exception as e:  # noqa: BLE001 - the promise is: never a traceback
            result, status = replay(None)
            result["error"]["message"] = render("replay_failed", {"reason": repr(e)})
    print(json.dumps(result, indent=2))
    if status == 2:
        print(f"error: {result['error']['message']}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
