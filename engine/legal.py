"""Legality, stated once: what may be done now, and why anything else is refused.

``legal_actions`` lists every action the rules allow; ``check`` refuses any
other with a coded ``IllegalAction``. Both are written with the same small
predicates below, so the list and the check can not drift apart: an action is
accepted exactly when it is listed (the property tests try both ways).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.cards import Card, labels
from engine.errors import IllegalAction
from engine.spreads import find_spreads, spread_kind, two_spread_splits
from engine.state import GameState, PlayerMoves, Round, moves_of


def before_draw(r: Round) -> bool:
    """R6: a turn starts with a drop or a draw; spreads, lay-offs and the discard come after."""
    return r.phase == "start"


def can_take_discard(r: Round) -> bool:
    """R6.2: the discard pile has a card to take."""
    return bool(r.discard)


def forbidden_discard(r: Round, hand: Sequence[Card]) -> Card | None:
    """R6.6: the card just taken from the discard pile may not be discarded, unless it is the last one."""
    return r.taken if len(hand) > 1 else None


def holds_tonk_hand(t: GameState, r: Round, hand: Sequence[Card]) -> bool:
    """R7.4: the player holds all six cards they had after the draw."""
    size = t.rules.tonk_size
    return r.drawn_size == size and len(hand) == size


def played_this_turn(r: Round) -> bool:
    """R7.4: a spread or lay-off this turn rules a tonk out out."""
    return bool(r.spreads_this_turn or r.layoffs_this_turn)


def valid_target(r: Round, target: object) -> bool:
    """R6.5: a lay-off names a spread on the table by its number."""
    return isinstance(target, int) and not isinstance(target, bool) and 0 <= target < len(r.spreads)


def can_tonk_out(t: GameState) -> bool:
    """R7.4: the player to act can lay their whole hand down as two spreads of three now."""
    r = t.round
    if r is None or r.end is not None or before_draw(r):
        return False
    hand = r.hands[r.players[r.turn]]
    if not holds_tonk_hand(t, r, hand) or played_this_turn(r):
        return False
    return bool(two_spread_splits(hand))


def legal_actions(t: GameState, player: str | None = None) -> list[Action]:
    """Exactly what ``player`` (default: the player to act) may do now.

    For the player to act that is every drop, draw, new spread, lay-off,
    discard and tonk out the rules allow, and ``Leave``; for anyone else
    seated it is only ``Leave`` (R8.4).
    """
    if t.over:
        return []
    r = t.round
    if r is None or r.end is not None:
        return [Leave(player)] if player is not None and player in t.seated else []
    p = r.players[r.turn]
    if player is not None and player != p:
        return [Leave(player)] if player in r.players and player not in r.dead else []
    moves = moves_of(p)
    if before_draw(r):
        return list(moves.before_draw if can_take_discard(r) else moves.before_draw_no_discard)
    return _after_draw_actions(t, r, p, moves)


def _after_draw_actions(t: GameState, r: Round, p: str, moves: PlayerMoves) -> list[Action]:
    """R6.4-R6.6, R7.4: the spreads, lay-offs, discards and tonk outs of a drawn hand, then ``Leave``."""
    hand = r.hands[p]
    found = find_spreads(hand)
    acts: list[Action] = [Spread(p, s) for s in found] if found else []
    for i, sp in enumerate(r.spreads):
        wanted = sp.takes()
        acts.extend([LayOff(p, c, i) for c in hand if c in wanted])
    banned = forbidden_discard(r, hand)
    discards = moves.discards
    if banned is None:
        acts.extend(map(discards.__getitem__, hand))
    else:
        acts.extend([discards[c] for c in hand if c != banned])
    if found and holds_tonk_hand(t, r, hand) and not played_this_turn(r):
        acts.extend(TonkOut(p, a, b) for a, b in two_spread_splits(hand, found))
    acts.append(moves.leave)
    return acts


def check(t: GameState, action: Action) -> None:
    """Raise the coded ``IllegalAction`` that refuses ``action`` now; return if it is legal."""
    if t.over:
        raise IllegalAction("game_over")
    p = action.player
    r = t.round
    kind = type(action)  # actions are final classes: one look instead of a chain of isinstance calls
    if kind is Leave:
        if p not in t.seated:
            raise IllegalAction("not_seated", player=t.name(p))
        if r is not None and r.end is None and p in r.dead:
            raise IllegalAction("already_left", player=t.name(p))
        return
    if r is None or r.end is not None:
        raise IllegalAction("no_round")
    if p != r.players[r.turn]:
        _refuse_out_of_turn(t, r, p)
    checker = _CHECKS.get(kind)
    if checker is not None:
        checker(t, r, action)


def _refuse_out_of_turn(t: GameState, r: Round, p: str) -> None:
    """R6, R8.4: who may not act now, and why."""
    if p not in t.names:
        raise IllegalAction("not_at_table", player=p)
    if p not in r.players or p in r.dead:
        raise IllegalAction("not_in_round", player=t.name(p))
    raise IllegalAction("not_your_turn", player=t.name(r.players[r.turn]))


def _check_draw(t: GameState, r: Round, action: Draw) -> None:
    """R6.2: a draw, from the stock or a discard pile that has a card, before anything else."""
    if not before_draw(r):
        raise IllegalAction("already_drawn")
    source = action.source
    if source not in ("stock", "discard"):
        raise IllegalAction("bad_draw_source", source=repr(source))
    if source == "discard" and not can_take_discard(r):
        raise IllegalAction("discard_pile_empty")


def _check_discard(t: GameState, r: Round, action: Discard) -> None:
    """R6.6: a card held, after the draw, and not the one just taken from the pile."""
    _after_draw(r, "draw_before_discard")
    hand = r.hands[action.player]
    card = action.card
    if card not in hand:
        raise IllegalAction("not_held", card=card.label)
    if card == forbidden_discard(r, hand):
        raise IllegalAction("discard_taken", card=card.label)


def _check_drop(t: GameState, r: Round, action: Drop) -> None:
    """R6.1, R7.2: a drop comes instead of the draw."""
    if not before_draw(r):
        raise IllegalAction("drop_after_draw")


def _check_spread(t: GameState, r: Round, action: Spread) -> None:
    """R6.4: a run or set of cards held, after the draw."""
    _after_draw(r, "draw_before_spread")
    _held(r.hands[action.player], action.cards)
    spread_kind(action.cards)


def _check_lay_off(t: GameState, r: Round, action: LayOff) -> None:
    """R6.5: a card held that the named spread takes, after the draw."""
    _after_draw(r, "draw_before_layoff")
    _held(r.hands[action.player], (action.card,))
    if not valid_target(r, action.target):
        raise IllegalAction("no_such_spread", target=action.target)
    sp = r.spreads[action.target]
    if action.card not in sp.takes():
        raise IllegalAction("does_not_fit", card=action.card.label, spread=labels(sp.cards))


def _after_draw(r: Round, code: str) -> None:
    if before_draw(r):
        raise IllegalAction(code)


def _held(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    for c in cards:
        if c not in hand:
            raise IllegalAction("not_held", card=c.label)


def _check_tonk_out(t: GameState, r: Round, action: TonkOut) -> None:
    """R7.4: two spreads of three, together the whole six-card hand, before any other play."""
    hand = r.hands[action.player]
    if before_draw(r) or not holds_tonk_hand(t, r, hand):
        raise IllegalAction("tonk_six_cards")
    if played_this_turn(r):
        raise IllegalAction("tonk_after_play")
    if len(action.first) != 3 or len(action.second) != 3:
        raise IllegalAction("tonk_two_threes")
    for group in (action.first, action.second):
        _held(hand, group)
        spread_kind(group)
    if set(action.first) & set(action.second):
        raise IllegalAction("tonk_shared_card")


_CHECKS: dict[type, Callable[[GameState, Round, Any], None]] = {
    Draw: _check_draw,
    Discard: _check_discard,
    Drop: _check_drop,
    Spread: _check_spread,
    LayOff: _check_lay_off,
    TonkOut: _check_tonk_out,
}
"""Each action's own checks, after the ones every action but ``Leave`` shares (``check``)."""
