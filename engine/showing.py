"""Showing and the flip and flop pots (R5).

Who wins flip and flop is fixed by the deal (R5.4): each player's candidate
cards are found once, when the cards are dealt; the first cycle of turns only
shows them (R5.3) and pays when it is over (R5.5).
"""

from __future__ import annotations

from engine.cards import SISTER_SUIT, Card
from engine.events import CardShown, Event, PotCarried
from engine.pots import pay
from engine.state import FLIP_FLOP, GameState, Round


def find_candidates(r: Round) -> None:
    """R2.4, R5.2-R5.4: each player's flip and flop card, fixed by the deal; who leads each pot.

    A player's candidate is their lowest dealt card of the suit, for a pot they
    paid into; a flip card must beat the upcard, which is shown first (only
    the dealer holds it). The lowest candidate of a live player leads the pot
    (``r.leaders``), found again at payment only if someone has left since.
    """
    up = r.upcard
    flip_suit, flop_suit, up_rank = up.suit, SISTER_SUIT[up.suit], up.rank
    found: dict[str, tuple[Card | None, Card | None]] = {}
    lead_flip: tuple[Card, str] | None = None
    lead_flop: tuple[Card, str] | None = None
    for p, dealt in r.dealt.items():
        flip: Card | None = None
        flop: Card | None = None
        for c in dealt:
            if c.suit == flip_suit:
                if flip is None or c.rank < flip.rank:
                    flip = c
            elif c.suit == flop_suit and (flop is None or c.rank < flop.rank):
                flop = c
        paid = r.paid[p]
        if "flip" not in paid or (flip is not None and flip.rank > up_rank):
            flip = None
        if "flop" not in paid:
            flop = None
        found[p] = (flip, flop)
        if p not in r.dead:
            if flip is not None and (lead_flip is None or flip.rank < lead_flip[0].rank):
                lead_flip = (flip, p)
            if flop is not None and (lead_flop is None or flop.rank < lead_flop[0].rank):
                lead_flop = (flop, p)
    r.candidates = found
    r.leaders = [lead_flip, lead_flop]


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


def pay_flip_flop(t: GameState, r: Round, events: list[Event]) -> None:
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
    if r.leaders is None or r.dead:
        find_candidates(r)  # R8.4: a player who left can not win
    assert r.leaders is not None
    winners = r.leaders
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
