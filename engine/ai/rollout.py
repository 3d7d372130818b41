"""A fast play-out of one sampled world by the basic policy, for the strong player's search.

``Game`` checks every action, lists every legal action and records events: the
right thing for a real table, but most of a search's time. ``play_out`` plays
the same round with the same rules (R6, R7) and the same basic policy as
``engine.ai.strategies`` (``start_move``, ``drawn_move``: same choices, same ties)
on bare lists, and returns only what the search needs: the player's chip result
from the game pot and side stakes. Flip and flop are settled by the deal (R5.4)
and are not played for, as in ``Game.sampled_world``. A test plays many worlds
both ways and checks the results agree.

This is a second statement of R6-R7, kept only for speed (a play-out here is
many times cheaper than through ``Game``). Its guard is the equivalence test
``tests/engine/test_play_out.py``:
change a rule of a turn or a round's end and this module must change with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action, Discard, Draw, Drop, LayOff, Spread, TonkOut
from engine.ai.inference import BIT, KEY, NEAR
from engine.cards import DECK, VALUES, Card, hand_value
from engine.spreads import find_spreads, may_hold_spread, normalise, spread_kind, takes, two_spread_splits
from engine.view import PlayerView

VALUE = {c: VALUES[c.rank] for c in DECK}
MAX_STEPS = 300
"""A play-out longer than this is cut short (the stock ends every round long before)."""


class SharedPosition:
    """What every world sampled from one view shares: seats, stakes, stacks, the table's spreads."""

    __slots__ = (
        "carried",
        "dealer_order",
        "me",
        "players",
        "pot",
        "spreads",
        "stake",
        "stacks",
        "turn",
        "view",
    )

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.players = view.players
        self.me = view.players.index(view.player)
        self.stake = view.stake
        self.stacks = [view.stacks.get(p, 0) for p in view.players]
        self.pot = view.pots.get("game", 0)
        self.carried = [v for k, v in view.pots.items() if k != "game" and v]
        """The other pots' chips (flip, flop): in a sampled world they are carried over (R5.6)."""
        n = len(view.players)
        d = view.players.index(view.dealer) if view.dealer in view.players else n - 1
        self.dealer_order = sorted(range(n), key=lambda i: (i - d - 1) % n)
        """R2.6: seats from the dealer's left, for splitting a pot."""
        self.spreads = [(s.kind, s.cards) for s in view.spreads]
        self.turn = view.players.index(view.to_act) if view.to_act in view.players else 0


_DROP, _STOCK, _TAKE, _DISCARD, _LAYOFF, _SPREAD, _TONK = range(7)


def _op(action: Action) -> tuple[int, object, object]:
    if isinstance(action, Drop):
        return _DROP, None, None
    if isinstance(action, Draw):
        return (_STOCK if action.source == "stock" else _TAKE), None, None
    if isinstance(action, Discard):
        return _DISCARD, action.card, None
    if isinstance(action, LayOff):
        return _LAYOFF, action.card, action.target
    if isinstance(action, Spread):
        return _SPREAD, action.cards, None
    assert isinstance(action, TonkOut)
    return _TONK, action.first, action.second


def play_out(
    table: SharedPosition, hands: Mapping[str, Sequence[Card]], stock: Sequence[Card], action: Action
) -> float:
    """Apply ``action`` in the world (``hands``; ``stock`` top card last), let basic finish; the chips won.

    The basic policy is written out inline (``engine.ai.strategies.start_move`` and
    ``drawn_move``: the same choices, ties broken the same way).
    """
    view = table.view
    n = len(table.players)
    live = [p not in view.dead for p in table.players]
    hs = [list(hands[p]) for p in table.players]
    stk = list(stock)
    pile = list(view.discard_pile)
    kinds = [k for k, _ in table.spreads]
    runs = [list(c) for _, c in table.spreads]
    wanted = [takes(k, c) for k, c in table.spreads]
    stacks = list(table.stacks)
    stake = table.stake
    me = table.me
    turn = table.turn
    start = view.phase != "drawn"
    taken = view.taken
    drawn_size = len(hs[turn]) if not start else 0
    spread_n = layoff_n = 0  # this turn's spreads and lay-offs (R7.4)
    winners: list[int] = []
    side_in = 0  # a caught dropper's side stake (R7.2)
    tonk = False
    value = VALUE
    op, arg, arg2 = _op(action)
    for _ in range(MAX_STEPS):
        hand = hs[turn]
        if op < 0:  # the basic policy decides
            if start:
                others = [len(h) for q, h in enumerate(hs) if q != turn and live[q]]
                fewest = min(others, default=5)
                threshold = 11 - 2 * max(0, len(others) - 2) - 2 * max(0, 5 - fewest)
                total = 0
                for c in hand:
                    total += value[c]
                op = _STOCK
                if total <= threshold:
                    op = _DROP
                elif pile:
                    top = pile[-1]
                    if any(top in w for w in wanted):
                        op = _TAKE
                    else:
                        both = [*hand, top]
                        if may_hold_spread(both) and any(top in f for f in find_spreads(both)):
                            op = _TAKE
                        elif value[top] <= 3 and value[_throw(both, top)] - value[top] >= 6:
                            op = _TAKE
            else:
                found = find_spreads(hand) if len(hand) >= 3 else ()
                if found:
                    splits = (
                        two_spread_splits(hand, found)
                        if drawn_size == 6 and len(hand) == 6 and not spread_n and not layoff_n
                        else ()
                    )
                    if splits:
                        op, arg, arg2 = _TONK, splits[0][0], splits[0][1]
                    else:
                        op, arg = _SPREAD, max(found, key=_spread_key)
                else:
                    best: Card | None = None
                    for i, w in enumerate(wanted):
                        for c in hand:
                            if c in w and (best is None or value[c] > value[best]):
                                best, arg2 = c, i
                    if best is not None:
                        op, arg = _LAYOFF, best
                    else:
                        op, arg = _DISCARD, _throw(hand, taken if len(hand) > 1 else None)
        if op == _STOCK:
            hand.append(stk.pop())
            if not stk:  # R6.3, R7.3
                values = {q: hand_value(hs[q]) for q in range(n) if live[q]}
                low = min(values.values())
                winners = [q for q, v in values.items() if v == low]
                break
            start, taken, drawn_size = False, None, len(hand)
        elif op == _DISCARD:
            hand.remove(arg)  # type: ignore[arg-type]
            pile.append(arg)  # type: ignore[arg-type]
            if not hand:
                winners = [turn]
                break
            for _k in range(n):
                turn = (turn + 1) % n
                if live[turn]:
                    break
            start, taken, drawn_size, spread_n, layoff_n = True, None, 0, 0, 0
        elif op == _TAKE:
            taken = pile.pop()
            hand.append(taken)
            start, drawn_size = False, len(hand)
        elif op == _DROP:  # R7.2
            values_l = [hand_value(h) for h in hs]
            mine = values_l[turn]
            low = min(v for q, v in enumerate(values_l) if q != turn and live[q])
            if mine < low:
                winners = [turn]
            else:
                side_in = min(stake, stacks[turn])
                stacks[turn] -= side_in
                winners = [q for q, v in enumerate(values_l) if v == low and q != turn and live[q]]
            break
        elif op == _LAYOFF:
            card: Card = arg  # type: ignore[assignment]
            t: int = arg2  # type: ignore[assignment]
            hand.remove(card)
            run = runs[t]
            if kinds[t] == "run" and card.rank < run[0].rank:
                run.insert(0, card)
            else:
                run.append(card)
            wanted[t] = takes(kinds[t], run)
            layoff_n += 1
            if not hand:
                winners = [turn]
                break
        else:
            groups = [arg] if op == _SPREAD else [arg, arg2]
            for g in groups:
                g = normalise(g)  # type: ignore[arg-type]
                for c in g:
                    hand.remove(c)
                kind = spread_kind(g)
                kinds.append(kind)
                runs.append(list(g))
                wanted.append(takes(kind, g))
                spread_n += 1
            if not hand:
                winners = [turn]
                tonk = drawn_size == 6 and spread_n == 2 and not layoff_n  # R7.4, as engine.turns.lay_down
                break
        op = -1
    else:
        return 0.0
    return float(_settle(table, stacks, live, winners, side_in, tonk) - table.stacks[me])


def _settle(
    table: SharedPosition, stacks: list[int], live: list[bool], winners: list[int], side_in: int, tonk: bool
) -> int:
    """The player's stack once the round is paid: side stakes, the game pot, and R8.3 if the game ends.

    ``stacks`` already holds a caught dropper's side stake taken (``side_in``, R7.2). As
    ``engine.turns``: a tonk out's side stakes (R7.4), the game pot split from the dealer's
    left (R2.6); then, if fewer than two players of the round can stay (R2.7), the game ends
    and the pots carried over (flip, flop) are shared among those who can, or all still in it.
    """
    stake = table.stake
    n = len(stacks)
    if tonk:
        ender = winners[0]
        for q in range(n):
            if q != ender:
                amount = min(stake, stacks[q])
                stacks[q] -= amount
                stacks[ender] += amount
    _split(table.pot + side_in, winners, table.dealer_order, stacks)
    if table.carried:
        staying = [q for q in range(n) if live[q] and stacks[q] >= stake]
        if len(staying) < 2:
            for amount in table.carried:
                _split(amount, staying or [q for q in range(n) if live[q]], table.dealer_order, stacks)
    return stacks[table.me]


def _split(total: int, winners: Sequence[int], dealer_order: Sequence[int], stacks: list[int]) -> None:
    """R2.6: ``total`` split equally among ``winners``, odd chips one each from the dealer's left."""
    if len(winners) == 1:
        stacks[winners[0]] += total
        return
    ordered = [q for q in dealer_order if q in winners]
    share, odd = divmod(total, len(ordered))
    for i, q in enumerate(ordered):
        stacks[q] += share + (1 if i < odd else 0)


def _throw(hand: Sequence[Card], banned: Card | None) -> Card:
    """``engine.ai.strategies.throw``: the highest card not near a spread, else the highest (not banned)."""
    held = 0
    for c in hand:
        held |= BIT[c]
    pick: Card | None = None
    far = False
    for c in hand:
        if c == banned:
            continue
        is_far = not NEAR[c] & held
        if is_far and not far:
            pick, far = c, True
        elif is_far == far and (pick is None or KEY[c] > KEY[pick]):
            pick = c
    assert pick is not None
    return pick


def _spread_key(s: tuple[Card, ...]) -> tuple[int, int]:
    return hand_value(s), len(s)
