"""The one codec of actions: the transcript's JSON form and a control's short text form.

Every place that writes an action down or reads one back goes through here:
the game log and ``python -m engine.replay`` (the JSON form of
``docs/TRANSCRIPT.md``, ``[player, verb, ...args]``), and the bot's hand
controls (an ``op`` and a short ``value`` that fit in a component's id or a
select option). The control form is read by turning it into the JSON form,
so both are checked by the same reader. Reading never decides legality: the
game does that when the action is applied.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, SeatId, Spread, TonkOut
from engine.cards import Card, codes
from engine.errors import MalformedInput

VERBS = ("drop", "draw", "spread", "layoff", "discard", "leave")


class InvalidTranscript(MalformedInput):
    """The input is not a transcript, or an action is not well formed (exit status 2 in a replay)."""


def card_from_json(value: object, where: str) -> Card:
    """A card written in R1.5 notation (``"TH"``)."""
    if not isinstance(value, str):
        raise InvalidTranscript("transcript_card", where=where, value=repr(value))
    try:
        return Card.parse(value)
    except MalformedInput:
        raise InvalidTranscript("transcript_not_card", where=where, value=repr(value)) from None


def int_from_json(value: object, where: str, low: int = 0) -> int:
    """A whole number of at least ``low`` (``True`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidTranscript("transcript_number", where=where, low=low, value=repr(value))
    return value


def action_to_json(action: Action) -> list[object]:
    """The transcript form of an action (``docs/TRANSCRIPT.md``); a tonk out is its two spreads' form."""
    p = action.player
    if isinstance(action, Drop):
        return [p, "drop"]
    if isinstance(action, Draw):
        return [p, "draw", action.source]
    if isinstance(action, Spread):
        return [p, "spread", codes(action.cards)]
    if isinstance(action, LayOff):
        return [p, "layoff", action.card.code, action.target]
    if isinstance(action, Discard):
        return [p, "discard", action.card.code]
    if isinstance(action, TonkOut):
        return [p, "tonk", codes(action.first), codes(action.second)]
    return [p, "leave"]


def parse_action(value: object, players: Sequence[SeatId], where: str, tonk: bool = False) -> Action:
    """One ``[player, verb, ...args]`` entry; ``tonk`` also reads ``action_to_json``'s tonk out form.

    A transcript writes a tonk out as its two spreads, so it is read only when asked.
    """
    if not isinstance(value, list) or len(value) < 2:
        raise InvalidTranscript("transcript_action", where=where, value=repr(value))
    p, verb, args = value[0], value[1], value[2:]
    if not isinstance(p, str) or p not in players:
        raise InvalidTranscript("transcript_player", where=where, value=repr(p))
    if verb not in VERBS and not (tonk and verb == "tonk"):
        raise InvalidTranscript("transcript_verb", where=where, value=repr(verb), verbs=", ".join(VERBS))

    def need(n: int) -> None:
        if len(args) != n:
            raise InvalidTranscript(
                "transcript_arguments", where=where, verb=repr(verb), expected=n, count=len(args)
            )

    if verb == "drop":
        need(0)
        return Drop(p)
    if verb == "leave":
        need(0)
        return Leave(p)
    if verb == "draw":
        need(1)
        if args[0] not in ("stock", "discard"):
            raise InvalidTranscript("transcript_source", where=where, value=repr(args[0]))
        return Draw(p, args[0])
    if verb == "spread":
        need(1)
        if not isinstance(args[0], list):
            raise InvalidTranscript("transcript_spread", where=where)
        return Spread(p, tuple(card_from_json(c, where) for c in args[0]))
    if verb == "layoff":
        need(2)
        card = card_from_json(args[0], where)
        return LayOff(p, card, int_from_json(args[1], f"{where}: the spread number"))
    if verb == "tonk":
        need(2)
        first, second = (_cards(group, where) for group in args)
        return TonkOut(p, first, second)
    need(1)
    return Discard(p, card_from_json(args[0], where))


def _cards(value: object, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidTranscript("transcript_spread", where=where)
    return tuple(card_from_json(c, where) for c in value)


# ---------------------------------------------------------------------- a control's short form

CONTROL = "control"
"""The ``where`` of a control's errors (a player never reads them: the bot answers its own words)."""


def cards_text(cards: Sequence[Card]) -> str:
    """Cards in a control's value: ``AS.2S.3S``."""
    return ".".join(codes(cards))


def control_of(action: Action) -> tuple[str, str | None]:
    """The ``(op, value)`` a hand control carries for ``action``; ``parse_control`` reads it back."""
    if isinstance(action, Draw):
        return ("stock" if action.source == "stock" else "take"), None
    if isinstance(action, Discard):
        return "discard", action.card.code
    if isinstance(action, Spread):
        return "spread", cards_text(action.cards)
    if isinstance(action, LayOff):
        return "layoff", f"{action.card.code}@{action.target}"
    if isinstance(action, TonkOut):
        return "tonk", f"{cards_text(action.first)}|{cards_text(action.second)}"
    return ("drop" if isinstance(action, Drop) else "leave"), None


def parse_control(player: SeatId, op: str, value: str | None) -> Action:
    """Read a hand control's ``(op, value)`` (``control_of``); raise ``InvalidTranscript`` if malformed.

    The control form is rewritten as the JSON form and read by ``parse_action``.
    """
    text = value or ""
    words: list[object]
    if op in ("stock", "take"):
        words = ["draw", "stock" if op == "stock" else "discard"]
    elif op in ("drop", "leave"):
        words = [op]
    elif op == "discard" and text:
        words = [op, text]
    elif op == "spread" and text:
        words = [op, _split(text)]
    elif op == "layoff" and "@" in text:
        card, target = text.split("@", 1)
        if not target.isdigit():
            raise InvalidTranscript("transcript_number", where=CONTROL, low=0, value=repr(target))
        words = [op, card, int(target)]
    elif op == "tonk" and "|" in text:
        first, second = text.split("|", 1)
        words = [op, _split(first), _split(second)]
    else:
        raise InvalidTranscript("transcript_action", where=CONTROL, value=repr((op, value)))
    return parse_action([player, *words], (player,), CONTROL, tonk=True)


def _split(text: str) -> list[str]:
    return [c for c in text.split(".") if c]


