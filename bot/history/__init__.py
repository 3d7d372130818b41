"""Every round's history, players' stats and skill ratings, on either store, so every result can be checked.

Writes (inside the transaction of the action that ended a round or game):
``record_round`` stores a finished round's transcript and what each seat's
round came to, derived from that transcript by replaying it; ``record_game``
updates ratings from a game's standings; ``record_tournament_round`` keeps a tournament
table's round for the chip-dumping report alone (not history: tournament chips). Reads:
``history``, ``known_here``, ``round_story``, ``stats``, ``rating``, ``leaderboard_by_rating``,
``rating_place``, ``season_leaderboard`` (a season's time range: ``bot.history.seasons``).

Bad input raises ``HistoryError`` (with a ``code``) and changes nothing; a
round id that is unknown or of another server reads as ``None``.
"""

from bot.history.members import COMPUTER_MEMBERS, HistoryError, computer_level, computer_member
from bot.history.queries import (
    MAX_LIMIT,
    WAYS,
    RatingEntry,
    RoundStory,
    RoundSummary,
    SeasonEntry,
    SeatLine,
    Stats,
    history,
    known_here,
    leaderboard_by_rating,
    rating,
    rating_place,
    round_story,
    season_leaderboard,
    stats,
)
from bot.history.record import record_game, record_round, record_tournament_round

__all__ = [
    "COMPUTER_MEMBERS",
    "MAX_LIMIT",
    "WAYS",
    "HistoryError",
    "RatingEntry",
    "RoundStory",
    "RoundSummary",
    "SeasonEntry",
    "SeatLine",
    "Stats",
    "computer_level",
    "computer_member",
    "history",
    "known_here",
    "leaderboard_by_rating",
    "rating",
    "rating_place",
    "record_game",
    "record_round",
    "record_tournament_round",
    "round_story",
    "season_leaderboard",
    "stats",
]
