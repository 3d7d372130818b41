"""Replay a game transcript (``../shared/TRANSCRIPT.md``) and print its result.

    python -m engine.replay TRANSCRIPT.json

Exit status 0 when every action is legal, 1 at the first rule-breaking action,
2 when the input is not a valid transcript. Never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, Spread
from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import POTS, Pot
from engine.game import Game, Seat

VERBS = ("drop", "draw", "spread", "layoff", "discard", "leave")


class InvalidTranscript(Exception):
    """The input is not a transcript (exit status 2)."""


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise InvalidTranscript(f'{where}: a card is written like "TH", not {value!r}.')
    try:
        return Card.parse(value)
    except IllegalAction:
        raise InvalidTranscript(
            f"{where}: {value!r} is not a card (rank A23456789TJQK, suit CDHS)."
        ) from None


def _int(value: object, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidTranscript(f"{where} must be a whole number of at least {low}, not {value!r}.")
    return value


def parse_deck(value: object, where: str) -> list[Card]:
    """A deck: all 52 cards, each once, top first (R1.1, R3.2)."""
    if not isinstance(value, list):
        raise InvalidTranscript(f"{where}: the deck must be a list of 52 cards.")
    cards = [_card(v, f"{where}[{i}]") for i, v in enumerate(value)]
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise InvalidTranscript(f"{where}: {c.code} appears twice; a deck is 52 distinct cards.")
        seen.add(c)
    if len(cards) != 52:
        raise InvalidTranscript(f"{where}: a deck is 52 distinct cards, this one has {len(cards)}.")
    return cards


def parse_action(value: object, players: Sequence[str], where: str) -> Action:
    """One ``[player, verb, ...args]`` entry."""
    if not isinstance(value, list) or len(value) < 2:
        raise InvalidTranscript(f"{where}: an action is [player, verb, ...], not {value!r}.")
    p, verb, args = value[0], value[1], value[2:]
    if not isinstance(p, str) or p not in players:
        raise InvalidTranscript(f"{where}: {p!r} is not one of the seats.")
    if verb not in VERBS:
        raise InvalidTranscript(f"{where}: unknown verb {verb!r} (use {', '.join(VERBS)}).")

    def need(n: int) -> None:
        if len(args) != n:
            raise InvalidTranscript(f"{where}: {verb!r} takes {n} argument(s), not {len(args)}.")

    if verb == "drop":
        need(0)
        return Drop(p)
    if verb == "leave":
        need(0)
        return Leave(p)
    if verb == "draw":
        need(1)
        if args[0] not in ("stock", "discard"):
            raise InvalidTranscript(f'{where}: draw from "stock" or "discard", not {args[0]!r}.')
        return Draw(p, args[0])
    if verb == "spread":
        need(1)
        if not isinstance(args[0], list):
            raise InvalidTranscript(f"{where}: a spread is a list of cards.")
        return Spread(p, tuple(_card(c, where) for c in args[0]))
    if verb == "layoff":
        need(2)
        return LayOff(p, _card(args[0], where), _int(args[1], f"{where}: the spread number"))
    need(1)
    return Discard(p, _card(args[0], where))


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
            raise InvalidTranscript("A transcript is a JSON object with stake, seats and rounds.")
        for key in ("stake", "seats", "rounds"):
            if key not in data:
                raise InvalidTranscript(f"The transcript has no {key!r}.")
        stake = _int(data["stake"], "stake", 1)
        seats_in = data["seats"]
        if not isinstance(seats_in, list):
            raise InvalidTranscript('seats must be a list of {"id", "stack"} objects.')
        seats: list[Seat] = []
        for i, s in enumerate(seats_in):
            if not isinstance(s, dict) or not isinstance(s.get("id"), str) or "stack" not in s:
                raise InvalidTranscript(f"seats[{i}] must be an object with a string id and a stack.")
            seats.append(Seat(s["id"], _int(s["stack"], f"seats[{i}].stack")))
        pots_in = data.get("pots", {}) or {}
        if not isinstance(pots_in, dict) or not set(pots_in) <= set(POTS):
            raise InvalidTranscript("pots must be an object with game, flip and flop.")
        pots: dict[Pot, int] = {p: _int(pots_in.get(p, 0), f"pots.{p}") for p in POTS}
        try:
            game = Game(seats, stake, pots)
        except IllegalAction as e:
            raise InvalidTranscript(str(e)) from None
        ids = [s.id for s in seats]
        rounds_in = data["rounds"]
        if not isinstance(rounds_in, list):
            raise InvalidTranscript("rounds must be a list.")
        parsed: list[tuple[str | None, list[Card], list[Action]]] = []
        for ri, rd in enumerate(rounds_in):
            where = f"rounds[{ri}]"
            if not isinstance(rd, dict) or "deck" not in rd or "actions" not in rd:
                raise InvalidTranscript(f"{where} must be an object with a deck and actions.")
            dealer = rd.get("dealer")
            if dealer is None and ri == 0:
                raise InvalidTranscript("The first round must name its dealer.")
            if dealer is not None and dealer not in ids:
                raise InvalidTranscript(f"{where}.dealer: {dealer!r} is not one of the seats.")
            deck = parse_deck(rd["deck"], f"{where}.deck")
            if not isinstance(rd["actions"], list):
                raise InvalidTranscript(f"{where}.actions must be a list.")
            actions = [parse_action(a, ids, f"{where}.actions[{ai}]") for ai, a in enumerate(rd["actions"])]
            parsed.append((dealer, deck, actions))
        for ri, (dealer, deck, actions) in enumerate(parsed):
            if game.over:
                raise InvalidTranscript(f"rounds[{ri}] comes after the game is over.")
            if game.in_round:
                raise InvalidTranscript(f"rounds[{ri}] comes after an unfinished round.")
            if ri > 0 and dealer is not None and dealer != game.next_dealer():
                expected = game.next_dealer()
                raise InvalidTranscript(
                    f"rounds[{ri}].dealer: {dealer} does not deal this round; {expected} does (R3.1)."
                )
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
                    raise InvalidTranscript(f"rounds[{ri}].actions[{ai}] comes after the round has ended.")
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


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: read the file, print the result as JSON, return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m engine.replay TRANSCRIPT.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        result, status = replay(None)
        result["error"]["message"] = f"Can not read {args[0]}: {e.strerror or e}."
    except (ValueError, UnicodeDecodeError) as e:
        result, status = replay(None)
        result["error"]["message"] = f"{args[0]} is not valid JSON: {e}."
    else:
        try:
            result, status = replay(data)
        except Exception as e:  # noqa: BLE001 - the promise is: never a traceback
            result, status = replay(None)
            result["error"]["message"] = f"Could not replay this transcript: {e!r}."
    print(json.dumps(result, indent=2))
    if status == 2:
        print(f"error: {result['error']['message']}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
