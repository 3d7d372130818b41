"""What one viewer of a live table may see, as plain data for the page's renderer (web/replay/js/table.js).

``viewer_state`` is the only function that reads a table for the live page. It builds
everything from the engine's ``PublicView`` (what the channel may see: card counts, the
upcard, the discard pile, spreads, pots) and adds one hand only: the viewer's own, from
``game.view(their seat)``, when they are seated in the game. A spectator, or a player
looking at someone else's seat, gets that seat's card *count*; every hand is public only
once the round is over (the engine's ``revealed``), as in the channel.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.cards import SUIT_TEXT
from bot.i18n import Texts
from bot.presentation.render import look
from bot.presentation.table_picture import away_label
from bot.presentation.table_render import hand_finished, last_move_line, log_lines, seat_name, table_round
from bot.table.model import Table
from bot.table.transitions import game_ends
from engine.cards import Card, sort_key
from engine.codec import control_of
from engine.view import PlayerView, PublicView

_MARKS = re.compile(r"\*\*|`")
_MENTION = re.compile(r"</([^:>]+):\d+>")
_MEMBER = re.compile(r"<@!?(\d+)>")
_PAGE_SUITS = str.maketrans(dict(zip(SUIT_TEXT.values(), "♠♥♦♣", strict=True)))
"""Discord's outlined suit signs (never painted as emoji there) as the page's cards print them."""
MOVES_SHOWN = 8
"""The last lines of the table's round log shown beside the table."""
POTS = ("game", "flip", "flop")


def _seat(table: Table, view: PublicView, pid: str, mine: PlayerView | None, t: Texts) -> dict[str, Any]:
    shown = [c.code for p, _pot, c in view.showings if p == pid]
    revealed = view.revealed.get(pid)
    value = sum(c.value for c in revealed) if revealed is not None else None
    if mine is not None and mine.player == pid and revealed is None:
        value = mine.hand_value
    return {
        "id": pid,
        "name": seat_name(table, t, pid),
        "stack": view.stacks.get(pid, 0),
        "hand": _hand_of(view, pid, mine),
        "value": value,
        "dealer": view.dealer == pid,
        "toAct": view.in_round and view.to_act == pid,
        "out": pid not in view.players,
        "dead": pid in view.dead,
        "paid": list(view.paid.get(pid, ())),
        "shown": shown,
        "won": [pot for pot in POTS if pid in view.winners.get(pot, ())],  # type: ignore[call-overload]
        "computer": table.is_computer(pid),
        "away": table.is_away(pid),
        "awayLabel": away_label(table, pid, t),  # as the Discord table's picture marks the seat
    }


def _seats_shown(order: Sequence[str], view: PublicView) -> list[str]:
    """The seats the page shows, in seat order: the seated, and this round's players who left it.

    Their stacks, hands and spreads stay on the table until the next deal, as in the channel.
    """
    return [p for p in dict.fromkeys([*order, *view.seated]) if p in view.seated or p in view.players]


def plain(line: str, names: dict[int, str] | None = None) -> str:
    """A channel line as the page prints it.

    No Markdown marks, a command mention as ``/its name``, a member's mention as their name at
    the table (``names``; a member it does not know as ``👤 1234``), and the suits as the page's
    cards show them (``10♥``, not Discord's ``10♡``).
    """
    known = names or {}
    line = _MEMBER.sub(lambda m: known.get(int(m[1])) or f"👤 {m[1][-4:]}", _MENTION.sub(r"/\1", line))
    return _MARKS.sub("", line).translate(_PAGE_SUITS)


def shown_hand(cards: Sequence[Card]) -> list[str]:
    """A hand's cards in the order the Discord hand shows them (by suit, then rank), as codes."""
    return [c.code for c in sorted(cards, key=sort_key)]


def _hand_of(view: PublicView, pid: str, mine: PlayerView | None) -> list[str] | int:
    """A seat's hand as this viewer may see it: their own cards, a revealed hand, else a count."""
    if mine is not None and mine.player == pid:
        return shown_hand(mine.hand)
    revealed = view.revealed.get(pid)
    if revealed is not None:
        return shown_hand(revealed)
    return view.card_counts.get(pid, 0)


def seat_of(table: Table, viewer: int | None) -> str | None:
    """The viewer's seat in the game, if they are a member playing in it (never a computer's seat)."""
    if viewer is None or table.game is None or table.is_computer(viewer):
        return None
    pid = table.pid(viewer)
    return pid if pid in table.game.order else None


def viewer_state(table: Table, viewer: int | None, t: Texts, now: float) -> dict[str, Any]:
    """The live page's state of ``table`` for ``viewer`` (a member's id; None: a spectator).

    Plain JSON data: ``table`` (the renderer's ``TableState``), ``info`` (the table's
    status, turn deadline, last moves) and, for a player seated in the game, ``you``
    (their seat, the table's ``seq``, and their legal moves in the control codec's
    ``(op, value)`` form, ``engine.codec.control_of``).

    Lines are drawn with the cards as text (``10♥``): the page prints text, and a server's
    card emojis (``<:ff_10H_c_…:id>``) are Discord's markup, which no browser draws.
    """
    t = t.with_faces(look(t).as_text())
    info: dict[str, Any] = {
        "id": table.id,
        "status": table.status,
        "seq": table.seq,
        "practice": table.practice,
        "tournament": table.tournament is not None,  # its end (turn line, hand) says where the stacks went
        "stake": table.stake,
        "now": now,
        "deadline": table.turn_deadline,
        "nextRound": None if game_ends(table, ()) else table.next_round_at,  # no next round to count to
        "moves": [plain(line, table.names) for line in log_lines(table, table.log.lines, t)[-MOVES_SHOWN:]],
        "lobby": [seat_name(table, t, u) for u in table.seats] if table.status == "lobby" else [],
        "last": plain(last_move_line(table, t), table.names) if table.game is not None else "",
    }
    game = table.game
    if game is None:
        return {"info": info, "table": None, "you": None}
    view = game.public_view()
    pid = seat_of(table, viewer)
    mine = game.view(pid) if pid is not None else None
    seats = [_seat(table, view, p, mine, t) for p in _seats_shown(game.order, view)]
    state = {
        "round": table_round(table, view.round_number),  # a tournament table's: the tournament's round
        "stake": view.stake,
        "pots": {pot: view.pots.get(pot, 0) for pot in POTS},  # type: ignore[call-overload]
        "upcard": view.upcard.code if view.upcard is not None else None,
        "flipSuit": view.flip_suit,
        "flopSuit": view.flop_suit,
        "stock": view.stock_size,
        "discard": [c.code for c in view.discard_pile],
        "spreads": [
            {"owner": s.owner, "kind": s.kind, "cards": [c.code for c in s.cards]} for s in view.spreads
        ],
        "seats": seats,
        "caption": info["last"] or (info["moves"][-1] if info["moves"] else ""),
        "end": view.end,
    }
    info["toAct"] = seat_name(table, t, view.to_act) if view.in_round and view.to_act else None
    info["over"] = view.over
    return {"info": info, "table": state, "you": _you(table, mine) if mine is not None else None}


def _you(table: Table, mine: PlayerView) -> dict[str, Any]:
    finished = hand_finished(table, mine)  # as the Discord hand then: its cards, nothing to click
    legal = [] if finished else [list(control_of(a)) for a in mine.legal if control_of(a)[0] != "leave"]
    return {
        "seat": mine.player,
        "seq": table.seq,
        "hand": shown_hand(mine.hand),
        "value": mine.hand_value,
        "canAct": mine.can_act and not finished,
        "finished": finished,
        "phase": mine.phase,
        "drawn": mine.just_drawn.code if mine.just_drawn is not None else None,
        "legal": legal,
        "away": table.is_away(mine.player),
        "gone": table.game is not None and mine.player not in table.game.seated,  # left, or out of chips
    }
