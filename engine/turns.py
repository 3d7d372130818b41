"""Turns and the ends of a round (R6, R7), and leaving during a round (R8.4).

These functions only *carry out* an action: ``engine.legal`` has already
checked it with the same predicates that list the legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, hand_value
from engine.ending import close_seat, game_over
from engine.events import (
    Discarded,
    Drew,
    Dropped,
    EndReason,
    Event,
    LaidOff,
    NextDealer,
    PlayerLeft,
    RoundEnded,
    SideStakePaid,
    SpreadLaid,
    TurnStarted,
)
from engine.pots import pay, pay_out_all, side_stake
from engine.showing import pay_flip_flop, show
from engine.spreads import normalise, spread_kind
from engine.state import GameState, Round, TableSpread


def begin_turn(r: Round, events: list[Event]) -> None:
    """R6: the turn passes; on a first turn the player shows flip and flop cards (R5.3)."""
    p = r.players[r.turn]
    events.append(TurnStarted(p))
    if not r.flipflop_paid and p not in r.shown:
        show(r, p, events)


def end_turn(t: GameState, r: Round, events: list[Event]) -> None:
    """R6.6: the next live player clockwise; after the first cycle flip and flop are paid (R5.5)."""
    r.had_turn.add(r.players[r.turn])
    r.phase = "start"
    r.taken = None
    r.drawn_size = r.spreads_this_turn = r.layoffs_this_turn = 0
    n = len(r.players)
    nxt = r.turn
    for _ in range(n):
        nxt = (nxt + 1) % n
        if r.players[nxt] not in r.dead:
            break
    if not r.flipflop_paid and r.players[nxt] in r.had_turn:
        pay_flip_flop(t, r, events)
    r.turn = nxt
    begin_turn(r, events)


def draw(t: GameState, r: Round, p: str, source: str, events: list[Event]) -> None:
    """R6.2: take the top card of the stock or the discard pile; the last stock card ends the round (R6.3)."""
    hand = r.hands[p]
    if source == "stock":
        hand.append(r.stock.pop())
        events.append(Drew(p, "stock", None, len(r.stock)))
        if not r.stock:
            stock_out(t, r, p, events)
            return
    else:
        card = r.discard.pop()
        hand.append(card)
        r.taken = card
        events.append(Drew(p, "discard", card, len(r.stock)))
    r.phase = "drawn"
    r.drawn_size = len(hand)


def discard(t: GameState, r: Round, p: str, card: Card, events: list[Event]) -> None:
    """R6.6: end the turn with a card face up; discarding the last card goes out (R6.7, R7.1)."""
    hand = r.hands[p]
    hand.remove(card)
    r.discard.append(card)
    events.append(Discarded(p, card))
    if not hand:
        end_round(t, r, events, "out", p, [p])
    else:
        end_turn(t, r, events)


def lay_down(t: GameState, r: Round, p: str, groups: Sequence[tuple[Card, ...]], events: list[Event]) -> None:
    """R6.4: new spreads from the hand; an empty hand goes out (R6.7, R7.1), or tonks out (R7.4)."""
    hand = r.hands[p]
    for group in groups:
        cards = normalise(group)
        for c in cards:
            hand.remove(c)
        kind = spread_kind(cards)
        r.spreads.append(TableSpread(p, kind, list(cards)))
        r.spreads_this_turn += 1
        events.append(SpreadLaid(p, cards, len(r.spreads) - 1, kind))
    if not hand:
        tonk = r.drawn_size == t.rules.tonk_size and r.spreads_this_turn == 2 and not r.layoffs_this_turn
        if tonk:
            side = [(q, "R7.4") for q in r.players if q != p]
            end_round(t, r, events, "tonk", p, [p], side_to_player=side)
        else:
            end_round(t, r, events, "out", p, [p])


def lay_off(t: GameState, r: Round, p: str, card: Card, target: int, events: list[Event]) -> None:
    """R6.5: one card onto a spread, at the end of a run it extends or as a set's fourth; R6.7 if emptied."""
    hand = r.hands[p]
    hand.remove(card)
    r.spreads[target].add(card)
    r.layoffs_this_turn += 1
    events.append(LaidOff(p, card, target))
    if not hand:
        end_round(t, r, events, "out", p, [p])


def drop(t: GameState, r: Round, p: str, events: list[Event]) -> None:
    """R7.2: show the hand; lowest wins, otherwise the dropper is caught and pays a side stake."""
    values = {q: hand_value(h) for q, h in r.hands.items()}
    mine = values[p]
    events.append(Dropped(p, mine))
    dead = r.dead
    low = min([v for q, v in values.items() if q != p and q not in dead])
    if mine < low:
        end_round(t, r, events, "drop", p, [p], values=values)
    else:
        winners = [q for q, v in values.items() if v == low and q != p and q not in dead]
        end_round(t, r, events, "caught", p, winners, side_to_pot=[(p, "R7.2")], values=values)


def stock_out(t: GameState, r: Round, p: str, events: list[Event]) -> None:
    """R6.3, R7.3: the last stock card was drawn; the lowest hand wins."""
    values = {q: hand_value(r.hands[q]) for q in r.players if q not in r.dead}
    low = min(values.values())
    end_round(t, r, events, "stock", p, [q for q, v in values.items() if v == low])


def leave_round(t: GameState, r: Round, p: str, events: list[Event]) -> None:
    """R8.4: the hand is dead for the rest of the round; the last live player wins it."""
    was_turn = r.players[r.turn] == p
    r.dead.add(p)
    events.append(PlayerLeft(p, during_round=True))
    live = r.live()
    if len(live) == 1:
        end_round(t, r, events, "out", live[0], live)
    elif was_turn:
        end_turn(t, r, events)


def end_round(
    t: GameState,
    r: Round,
    events: list[Event],
    reason: EndReason,
    ender: str | None,
    winners: Sequence[str],
    side_to_pot: Sequence[tuple[str, str]] = (),
    side_to_player: Sequence[tuple[str, str]] = (),
    values: dict[str, int] | None = None,
) -> None:
    """R7, R7.6: show hands, take side stakes, pay the pots, close seats, pass the deal.

    ``values`` may pass the hands' values when the caller has just counted them.
    """
    r.end = reason
    t.in_round = False
    hands = {p: tuple(h) for p, h in r.hands.items()}
    if values is None:
        values = {p: hand_value(h) for p, h in hands.items()}
    events.append(RoundEnded(reason, ender, hands, values, tuple(winners)))
    for payer, rule in side_to_pot:
        amount = side_stake(t, payer)
        t.pots["game"] += amount
        events.append(SideStakePaid(payer, amount, "game", None, rule))
    for payer, rule in side_to_player:
        amount = side_stake(t, payer)
        assert ender is not None
        t.stacks[ender] += amount
        events.append(SideStakePaid(payer, amount, None, ender, rule))
    pay(t, "game", winners, events)
    if not r.flipflop_paid:
        pay_flip_flop(t, r, events)
    stake, stacks = t.stake, t.stacks
    staying = [p for p in r.players if p not in r.dead and stacks[p] >= stake]
    if len(staying) < 2 and any(t.pots.values()):
        # R8.3: the game ends now; carried pots go to those still seated before seats close.
        pay_out_all(t, staying or r.live(), events)
    if len(staying) < len(r.players):
        for p in r.players:
            if p in r.dead:
                close_seat(t, p, "left", events)
            elif stacks[p] < stake:
                close_seat(t, p, "eliminated", events)  # R2.7
    if len(t.seated) < 2:
        game_over(t, events)
    else:
        events.append(NextDealer(t.next_dealer()))
