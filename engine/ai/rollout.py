"""A fast play-out of one sampled world by the basic policy, for the strong player's search.

``Game`` checks every action, lists every legal action and records events: the
right thing for a real table, but most of a search's time. ``play_out`` plays
the same round with the same rules (R6, R7) and the same basic policy as
``engine.ai.strategies`` (``start_move``, ``drawn_move``: same choices, same ties)
and returns only what the search needs: the player's chip result. Flip and flop
are settled by the deal (R5.4) and are not played for, as in ``Game.sampled_world``;
the pots they carry over are shared if the game ends with the round (R8.3).

Cards are numbers here (``engine.cards.DECK``'s order: 13 a suit, ace to king) and
a hand is a set of bits (``engine.ai.hand_bits``), so a hand's value, what is near a card, whether a card
makes a spread and which spread is laid down are a few integer operations, not a
search through ``Card`` objects (a play-out about 1.6x as fast as on lists of cards).

This is a second statement of R6-R7, kept only for speed (a play-out here is
many times cheaper than through ``Game``). Its guard is the equivalence test
``tests/engine/test_play_out.py``: change a rule of a turn or a round's end
and this module must change with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action, Discard, Draw, Drop, LayOff, Spread, TonkOut
from engine.ai.hand_bits import (
    INDEX,
    VAL,
    best_spread,
    bits_of,
    is_a_set,
    makes_spread,
    takes,
    throw,
    tonk_split,
)
from engine.cards import Card
from engine.view import PlayerView

MAX_STEPS = 300
"""A play-out longer than this is cut short (the stock ends every round long before)."""


class SharedPosition:
    """What every world sampled from one view shares: seats, stakes, stacks, the pile, the table's spreads."""

    __slots__ = (
        "anywhere",
        "carried",
        "dealer_order",
        "kinds",
        "live",
        "me",
        "pile",
        "players",
        "pot",
        "runs",
        "stake",
        "stacks",
        "turn",
        "view",
        "wanted",
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
        self.kinds = [s.kind == "set" for s in view.spreads]
        self.runs = [bits_of(s.cards) for s in view.spreads]
        self.wanted = [takes(k, m) for k, m in zip(self.kinds, self.runs, strict=True)]
        """What each spread on the table takes (R6.5), and all of it (``anywhere``), as bits."""
        self.anywhere = 0
        for w in self.wanted:
            self.anywhere |= w
        self.pile = [INDEX[c] for c in view.discard_pile]
        self.live = [p not in view.dead for p in view.players]
        self.turn = view.players.index(view.to_act) if view.to_act in view.players else 0


_DROP, _STOCK, _TAKE, _DISCARD, _LAYOFF, _SPREAD, _TONK = range(7)


def _op(action: Action) -> tuple[int, int, int]:
    """The action as (operation, card or cards as bits, second argument)."""
    if isinstance(action, Drop):
        return _DROP, 0, 0
    if isinstance(action, Draw):
        return (_STOCK if action.source == "stock" else _TAKE), 0, 0
    if isinstance(action, Discard):
        return _DISCARD, INDEX[action.card], 0
    if isinstance(action, LayOff):
        return _LAYOFF, INDEX[action.card], action.target
    if isinstance(action, Spread):
        return _SPREAD, bits_of(action.cards), 0
    assert isinstance(action, TonkOut)
    return _TONK, bits_of(action.first), bits_of(action.second)


Dealt = tuple[list[int], list[int], list[int], list[int]]
"""One world as bits: each seat's hand, its value, its card count; the stock (top card last)."""


def deal(table: SharedPosition, hands: Mapping[str, Sequence[Card]], stock: Sequence[Card]) -> Dealt:
    """The world's cards as numbers, once for every action played in it."""
    index = INDEX
    val = VAL
    hs: list[int] = []
    totals: list[int] = []
    counts: list[int] = []
    for p in table.players:
        m = t = 0
        h = hands[p]
        for card in h:
            i = index[card]
            m |= 1 << i
            t += val[i]
        hs.append(m)
        totals.append(t)
        counts.append(len(h))
    return hs, totals, counts, [index[card] for card in stock]


def play_out(
    table: SharedPosition, hands: Mapping[str, Sequence[Card]], stock: Sequence[Card], action: Action
) -> float:
    """Apply ``action`` in the world (``hands``; ``stock`` top card last), let basic finish; the chips won."""
    return play_dealt(table, deal(table, hands, stock), action)


def play_dealt(table: SharedPosition, dealt: Dealt, action: Action) -> float:
    """``play_out`` in a world already ``deal``t (which it does not change).

    The basic policy is written out inline (``engine.ai.strategies.start_move`` and
    ``drawn_move``: the same choices, ties broken the same way).
    """
    view = table.view
    n = len(table.players)
    live = table.live
    val = VAL
    hs = list(dealt[0])
    totals = list(dealt[1])
    counts = list(dealt[2])
    stk = list(dealt[3])
    pile = list(table.pile)
    kinds = list(table.kinds)
    runs = list(table.runs)
    wanted = list(table.wanted)
    anywhere = table.anywhere
    stacks = list(table.stacks)
    stake = table.stake
    turn = table.turn
    start = view.phase != "drawn"
    taken = INDEX[view.taken] if view.taken is not None else -1
    drawn_size = counts[turn] if not start else 0
    spread_n = layoff_n = 0  # this turn's spreads and lay-offs (R7.4)
    winners: list[int] = []
    side_in = 0  # a caught dropper's side stake (R7.2)
    tonk = False
    op, arg, arg2 = _op(action)
    for _ in range(MAX_STEPS):
        hand = hs[turn]
        if op < 0:  # the basic policy decides
            if start:
                others = 0
                fewest = 5
                for q in range(n):
                    if q != turn and live[q]:
                        others += 1
                        if counts[q] < fewest:
                            fewest = counts[q]
                threshold = 11 - (2 * others - 4 if others > 2 else 0)  # threshold_for, without max()
                if fewest < 5:
                    threshold -= 10 - 2 * fewest
                op = _STOCK
                if totals[turn] <= threshold:
                    op = _DROP
                elif pile:
                    top = pile[-1]
                    if anywhere >> top & 1:
                        op = _TAKE
                    else:
                        both = hand | 1 << top
                        if makes_spread(both, top):
                            op = _TAKE
                        elif val[top] <= 3 and val[throw(both, top)] - val[top] >= 6:
                            op = _TAKE
            else:
                best_m = best_spread(hand)
                if best_m:
                    split = (
                        tonk_split(hand)
                        if drawn_size == 6 and counts[turn] == 6 and not spread_n and not layoff_n
                        else 0
                    )
                    if split:
                        op, arg, arg2 = _TONK, split, hand ^ split
                    else:
                        op, arg = _SPREAD, best_m
                else:
                    best = -1
                    for t_i, w in enumerate(wanted):
                        m = hand & w
                        while m:
                            low = m & -m
                            c = low.bit_length() - 1
                            m ^= low
                            if best < 0 or val[c] > val[best]:
                                best, arg2 = c, t_i
                    if best >= 0:
                        op, arg = _LAYOFF, best
                    else:
                        op, arg = _DISCARD, throw(hand, taken if counts[turn] > 1 else -1)
        if op == _STOCK:
            c = stk.pop()
            hs[turn] = hand | 1 << c
            totals[turn] += val[c]
            counts[turn] += 1
            if not stk:  # R6.3, R7.3
                low_v = min(totals[q] for q in range(n) if live[q])
                winners = [q for q in range(n) if live[q] and totals[q] == low_v]
                break
            start, taken, drawn_size = False, -1, counts[turn]
        elif op == _DISCARD:
            hs[turn] = hand & ~(1 << arg)
            totals[turn] -= val[arg]
            counts[turn] -= 1
            pile.append(arg)
            if not counts[turn]:
                winners = [turn]
                break
            for _k in range(n):
                turn = (turn + 1) % n
                if live[turn]:
                    break
            start, taken, drawn_size, spread_n, layoff_n = True, -1, 0, 0, 0
        elif op == _TAKE:
            taken = pile.pop()
            hs[turn] = hand | 1 << taken
            totals[turn] += val[taken]
            counts[turn] += 1
            start, drawn_size = False, counts[turn]
        elif op == _DROP:  # R7.2
            mine = totals[turn]
            low_v = min(totals[q] for q in range(n) if q != turn and live[q])
            if mine < low_v:
                winners = [turn]
            else:
                side_in = min(stake, stacks[turn])
                stacks[turn] -= side_in
                winners = [q for q in range(n) if totals[q] == low_v and q != turn and live[q]]
            break
        elif op == _LAYOFF:
            hs[turn] = hand & ~(1 << arg)
            totals[turn] -= val[arg]
            counts[turn] -= 1
            runs[arg2] |= 1 << arg
            wanted[arg2] = takes(kinds[arg2], runs[arg2])
            anywhere = 0
            for w in wanted:
                anywhere |= w
            layoff_n += 1
            if not counts[turn]:
                winners = [turn]
                break
        else:
            for g in (arg, arg2) if op == _TONK else (arg,):
                hand &= ~g
                m = g
                while m:
                    low = m & -m
                    totals[turn] -= val[low.bit_length() - 1]
                    m ^= low
                counts[turn] -= g.bit_count()
                is_set = is_a_set(g)
                kinds.append(is_set)
                runs.append(g)
                w = takes(is_set, g)
                wanted.append(w)
                anywhere |= w
                spread_n += 1
            hs[turn] = hand
            if not counts[turn]:
                winners = [turn]
                tonk = drawn_size == 6 and spread_n == 2 and not layoff_n  # R7.4, as engine.turns.lay_down
                break
        op = -1
    else:
        return 0.0
    return float(_settle(table, stacks, live, winners, side_in, tonk) - table.stacks[table.me])


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
