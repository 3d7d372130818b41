"""Showing and the flip and flop pots (R5).

Who wins flip and flop is fixed by the deal (R5.4): each player's candidate
cards are found once, when the cards are dealt; the first cycle of turns only
shows them (R5.3) and pays when it is over (R5.5).
"""

from __future__ import annotations

from engine.cards import SISTER_SUIT, Card
from engine.events import CardShown, Event, PotCarried
from engine.pots import pay
from engine.state import FLIP_FLOP, Round, Table


def candidates(r: Round, p: str) -> tuple[Card | None, Card | None]:
    """R2.4, R5.2-R5.4: the flip and flop cards ``p`` would show, fixed by the deal.

    The lowest dealt card of each suit, for a pot the player paid into; a flip
    card must beat the upcard, which is shown first (only the dealer holds it).
    """
    paid = r.paid[p]
    flip_suit, flop_suit = r.upcard.suit, SISTER_SUIT[r.upcard.suit]
    flip: Card | None = None
    flop: Card | None = None
    for c in r.dealt[p]:
        if c.suit == flip_suit:
            if flip is None or c.rank < flip.rank:
                flip = c
        elif c.suit == flop_suit and (flop is None or c.rank < flop.rank):
            flop = c
    if "flip" not in paid or (flip is not None and flip.rank > r.upcard.rank):
        flip = None
    if "flop" not in paid:
        flop = None
    return flip, flop


def show(r: Round, p: str, events: list[Event]) -> None:
    """R5.3: at the start of a first turn, show a card that beats the best shown."""
    if p in r.shown or r.flipflop_paid:
        return
    r.shown.add(p)
    if p in r.dead:
        return
    flip, flop = r.candidates[p]
    best = r.best
    if flip is not None:
        b = best["flip"]
        if b is None or flip.rank < b[0].rank:
            best["flip"] = (flip, p)
            r.showings.append((p, "flip", flip))
            events.append(CardShown(p, "flip", flip))
    if flop is not None:
        b = best["flop"]
        if b is None or flop.rank < b[0].rank:
            best["flop"] = (flop, p)
            r.showings.append((p, "flop", flop))
            events.append(CardShown(p, "flop", flop))


def pay_flip_flop(t: Table, r: Round, events: list[Event]) -> None:
    """R5.4-R5.6: everyone yet to show does so; the lowest eligible card wins each pot.

    A pot no one can win carries to the next round (R5.6).
    """
    players = r.players
    shown = r.shown
    if len(shown) < len(players):
        n = len(players)
        d = players.index(r.dealer)
        for i in range(1, n + 1):
            q = players[(d + i) % n]
            if q not in shown:
                show(r, q, events)
    r.flipflop_paid = True
    winners = r.leaders if r.leaders is not None and not r.dead else leaders(r)
    for pot, best in zip(FLIP_FLOP, winners, strict=True):
        if best is None:
            if t.pots[pot]:
                events.append(PotCarried(pot, t.pots[pot]))
            continue
        on_show = r.best[pot]
        if on_show is None or on_show[1] != best[1]:
            r.showings.append((best[1], pot, best[0]))
            events.append(CardShown(best[1], pot, best[0]))
        pay(t, pot, [best[1]], events)


def leaders(r: Round) -> list[tuple[Card, str] | None]:
    """R5.4: for flip and flop, the lowest candidate card of a live player, and whose it is.

    Fixed by the deal: ``deal`` keeps it in ``r.leaders``; it is found again
    only when someone has left the round since (R8.4).
    """
    out: list[tuple[Card, str] | None] = []
    for i in (0, 1):
        best: tuple[Card, str] | None = None
        for p in r.players:
            c = r.candidates[p][i]
            if c is not None and p not in r.dead and (best is None or c.rank < best[0].rank):
                best = (c, p)
        out.append(best)
    return out
