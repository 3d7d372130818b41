"""The one exception the engine raises for a move the rules forbid."""


class IllegalAction(Exception):
    """An action the rules do not allow now.

    The message is written for a player ("It's Ben's turn.") and the game is
    left exactly as it was before the action was tried.
    """
