"""Stakes and pots (R2): paying in before the deal, side stakes, paying pots out."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import POTS, Event, Pot, PotPaid
from engine.state import GameState, Round

_GAME_FLIP: tuple[Pot, ...] = ("game", "flip")
_GAME: tuple[Pot, ...] = ("game",)


def pay_stakes(t: GameState, r: Round) -> None:
    """R2.3, R2.4: one stake into the game pot; into flip too with 3 stakes, flop too with 4.

    A player pays only into pots they may win, so ``r.paid`` is also who may win what.
    """
    s = t.stake
    stacks, paid = t.stacks, r.paid
    flip = flop = 0
    for p in r.players:
        k = stacks[p] // s
        if k >= 4:
            paid[p] = POTS
            stacks[p] -= 3 * s
            flip += 1
            flop += 1
        elif k == 3:
            paid[p] = _GAME_FLIP
            stacks[p] -= 2 * s
            flip += 1
        else:
            paid[p] = _GAME
            stacks[p] -= s
    pots = t.pots
    pots["game"] += s * len(r.players)
    pots["flip"] += s * flip
    pots["flop"] += s * flop


def side_stake(t: GameState, p: str) -> int:
    """R2.5: ``min(S, stack)`` leaves the player's stack; the caller puts it where the rule says."""
    amount = min(t.stake, t.stacks[p])
    t.stacks[p] -= amount
    return amount


def seat_order_from_dealer(t: GameState, players: Sequence[str]) -> list[str]:
    """R2.6: ``players`` in seat order starting at the dealer's left."""
    if len(players) == 1:
        return list(players)
    seat = t.seat_index
    n = len(seat)
    d = seat[t.dealer] if t.dealer is not None else n - 1
    return sorted(players, key=lambda q: (seat[q] - d - 1) % n)


def pay(t: GameState, pot: Pot, winners: Sequence[str], events: list[Event], record: bool = True) -> None:
    """R2.6: split the pot equally; odd chips one each from the dealer's left.

    ``record`` notes the winners in the round (for its result); pots split at
    the game's end (R8.3) are not a round's win.
    """
    total = t.pots[pot]
    if len(winners) == 1:  # the usual case: no split, no odd chips
        q = winners[0]
        ordered = [q]
        shares = {q: total}
        t.stacks[q] += total
    else:
        ordered = seat_order_from_dealer(t, winners)
        share, odd = divmod(total, len(ordered))
        shares = {q: share + (1 if i < odd else 0) for i, q in enumerate(ordered)}
        for q, amount in shares.items():
            t.stacks[q] += amount
    t.pots[pot] = 0
    if record and t.round is not None:
        t.round.winners[pot] = ordered
    events.append(PotPaid(pot, total, shares))


def pay_out_all(t: GameState, receivers: Sequence[str], events: list[Event]) -> None:
    """R8.3: every pot still holding chips is split among ``receivers`` (the game is ending)."""
    for pot in POTS:
        if t.pots[pot]:
            pay(t, pot, receivers, events, record=False)


def settlement_if_closed(t: GameState) -> dict[str, int]:
    """What each seated player would take home if the table closed now, even mid-round.

    Their stacks, plus every chip in the pots split among them as at the end
    of a game (R8.3, odd chips by R2.6). The table itself is not changed.
    """
    out = {p: t.stacks[p] for p in t.seated}
    if out:
        ordered = seat_order_from_dealer(t, t.seated)
        for pot in POTS:
            share, odd = divmod(t.pots[pot], len(ordered))
            for i, p in enumerate(ordered):
                out[p] += share + (1 if i < odd else 0)
    return out
