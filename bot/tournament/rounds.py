"""One tournament round at one table, played by the rules engine with computer players' moves.

Used where nobody plays the seats by hand: computer entrants, and the
``bench/sit_and_go.py`` run. A fresh one-round ``Game`` is dealt from the
tournament's stacks, its stake of the level and the table's carried pots; the
deal passes round the table with the tournament's rounds. What the round ends
with goes back to the tournament (``Tournament.table_round_ended``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.tournament.model import Tournament
from engine import Game, Seat
from engine.actions import Action
from engine.ai.strategies import STRATEGIES, BasicStrategy
from engine.events import Pot
from engine.view import PlayerView

POTS: dict[str, Pot] = {"game": "game", "flip": "flip", "flop": "flop"}
Chooser = Callable[[PlayerView, random.Random], Action]


def basic(view: PlayerView, rng: random.Random) -> Action:
    """The basic computer player's move."""
    return STRATEGIES.get("basic", BasicStrategy)().choose(view, rng)


def play_table_round(
    tour: Tournament, table: int, rng: random.Random, choose: Chooser = basic
) -> tuple[dict[int, int], dict[str, int]]:
    """Deal and play one round at ``table``: each player's stack after it and the pots it carries on."""
    players = tour.tables[table]
    carried: dict[Pot, int] = {}
    for pot, chips in tour.pots.get(table, {}).items():
        if pot in POTS:
            carried[POTS[pot]] = chips
    game = Game([Seat(str(e), tour.entrants[e].stack) for e in players], tour.stake, pots=carried)
    game.start_round(rng, dealer=str(players[tour.round % len(players)]))
    while game.in_round:
        player = game.public_view().to_act
        assert player is not None
        game.apply(choose(game.view(player), rng))
    stacks = {e: game.stacks[str(e)] for e in players}
    return stacks, {str(k): v for k, v in game.pots.items()}
