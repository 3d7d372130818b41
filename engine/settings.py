"""House rules in one object, the way RLCard keeps its game settings.

Every number a table could set differently lives here, not scattered over the
engine, the bot and the cogs. The defaults are the rules as written
(``docs/RULES.md``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The settings of one game of Flip Flop."""

    hand_size: int = 5
    """R3.2: cards dealt to each player."""
    min_players: int = 3
    """R8.1: fewest players to start a game."""
    max_players: int = 5
    """R8.1: most players at a table."""
    default_stake: int = 5
    """R2.1: the stake S a table uses unless it sets its own."""
    default_buy_in_stakes: int = 40
    """R2.1: the buy-in B a table uses unless it sets its own, in stakes (B = 40 S = 200)."""
    min_buy_in_stakes: int = 4
    """R2.1: the buy-in is at least this many stakes (and a multiple of S)."""
    opening_win: int = 50
    """R4.1: a dealt hand worth exactly this wins at once (side stakes from all)."""
    opening_near_win: int = 49
    """R4.2: a dealt hand worth exactly this wins the game pot at once."""

    @property
    def default_buy_in(self) -> int:
        """R2.1: the default buy-in in chips."""
        return self.default_buy_in_stakes * self.default_stake

    @property
    def tonk_size(self) -> int:
        """R7.4: a tonk out lays down the whole hand held after the draw (two spreads of three)."""
        return self.hand_size + 1


HOUSE_RULES = HouseRules()
"""The rules as written."""
