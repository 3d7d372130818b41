"""Flip Flop, the game itself: pure Python, no Discord, no asyncio, no I/O.

Rule ids (``R7.2``) refer to ``docs/RULES.md``. Reading order, as the rules
read: ``cards`` and ``spreads`` (R1, R6.4), ``state`` (the records),
``settings`` (house rules), ``deal`` (R3, R4), ``pots`` (R2), ``showing``
(R5), ``turns`` (R6, R7), ``ending`` (R8), ``legal`` (what may be done),
``game`` (the object that ties them together), ``view``, ``snapshot``,
``replay``; words for players are in ``catalog``. Computer play (strategies,
inference, sampled worlds, play-outs, the coach and the review) is not a rule
and lives apart, in ``engine.ai``.

The rule modules that run at every step are compiled with mypyc when the
package is installed, and run from their sources when they can not be (or have
changed since): ``engine._compiled`` says which, and why. ``COMPILED`` and
``HOW_IT_RUNS`` tell a caller what it got.
"""

from engine._compiled import COMPILED, HOW_IT_RUNS  # first: it decides how the rule modules load
from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, SeatId, Spread, TonkOut
from engine.cards import DECK, Card, hand_value
from engine.errors import IllegalAction, MalformedInput
from engine.game import Game
from engine.settings import HOUSE_RULES, HouseRules
from engine.state import Seat, TableSpread
from engine.view import PlayerView, PublicView, SpreadView

__all__ = [
    "COMPILED",
    "DECK",
    "HOW_IT_RUNS",
    "HOUSE_RULES",
    "Action",
    "Card",
    "Discard",
    "Draw",
    "Drop",
    "Game",
    "HouseRules",
    "IllegalAction",
    "LayOff",
    "Leave",
    "MalformedInput",
    "PlayerView",
    "PublicView",
    "Seat",
    "SeatId",
    "Spread",
    "SpreadView",
    "TableSpread",
    "TonkOut",
    "hand_value",
]
