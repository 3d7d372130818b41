"""Elimination and the game's end (R2.7, R8)."""

from __future__ import annotations

from typing import Literal

from engine.events import Event, GameOver, SeatClosed
from engine.pots import pay_out_all
from engine.state import GameState


def close_seat(t: GameState, p: str, reason: Literal["eliminated", "left"], events: list[Event]) -> None:
    """R2.7, R8.4: the player is out of the game; their stack goes home with them."""
    t.seated.remove(p)
    events.append(SeatClosed(p, t.stacks[p], reason))


def game_over(t: GameState, events: list[Event], share_pots: bool = True) -> None:
    """R8.3: pots still holding chips are split among those seated; stacks go home.

    ``share_pots=False`` leaves the pots to whatever the game was one round of (``Game.end_game``).
    """
    if t.seated and share_pots:
        pay_out_all(t, t.seated, events)
    t.over = True
    seat = t.seat_index
    standings = tuple(sorted(t.order, key=lambda q: (-t.stacks[q], seat[q])))
    events.append(GameOver({p: t.stacks[p] for p in t.seated}, standings))


def close_short_stacks(t: GameState, events: list[Event]) -> None:
    """R2.3: before a deal, a player with less than one stake is out."""
    for p in list(t.seated):
        if t.stacks[p] < t.stake:
            close_seat(t, p, "eliminated", events)
    if len(t.seated) < 2:
        game_over(t, events)
