"""Flip Flop, the game itself: pure Python, no Discord, no asyncio, no I/O.

Rule ids (``R7.2``) refer to ``../shared/RULES.md``.
"""

from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.cards import DECK, Card, hand_value
from engine.errors import IllegalAction
from engine.game import Game, Seat, TableSpread
from engine.view import PlayerView, PublicView, SpreadView

__all__ = [
    "DECK",
    "Action",
    "Card",
    "Discard",
    "Draw",
    "Drop",
    "Game",
    "IllegalAction",
    "LayOff",
    "Leave",
    "PlayerView",
    "PublicView",
    "Seat",
    "Spread",
    "SpreadView",
    "TableSpread",
    "TonkOut",
    "hand_value",
]
