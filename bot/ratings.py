"""Skill ratings: OpenSkill's Plackett–Luce model, updated once per finished game.

Why OpenSkill: it rates free-for-all games of any size with ties, needs no
history beyond each player's two numbers (μ, σ), and is a maintained library
rather than maths of our own. Why Plackett–Luce: a Flip Flop game is one
ranking of 3–5 individuals, exactly what that model is for.

A player's rating is shown as the conservative **ordinal** μ − 3σ: a new
player starts at 0 (μ = 25, σ = 25/3) and climbs as wins make the system
surer of them, so a lucky first game does not top the leaderboard.

A game's final standings come from ``standings``: players rank by the chips
they took away from the table (R2.2, R8.3: the stack returned to their
balance), and equal chips are broken by who stayed longer (the last round
they were dealt into); players equal on both tie. The store keeps one rating
per (server, member), computers included; leaving computers off the human
leaderboard is the query's business.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model with OpenSkill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300 (a little drift per game)."""

ORDINAL_Z = 3.0
"""Ordinal = μ − ORDINAL_Z · σ: about 99.7 % sure the true skill is at least this."""


class RatingError(ValueError):
    """Standings or a stored rating that can not be used; ``code`` names the reason.

    Codes: ``too_few_players``, ``bad_place``, ``bad_finish``, ``bad_rating``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class SkillRating:
    """One player's rating: the model's belief about their skill, mean ``mu`` and uncertainty ``sigma``."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    def __post_init__(self) -> None:
        for name, value in (("mu", self.mu), ("sigma", self.sigma)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise RatingError("bad_rating", f"a rating's {name} is a finite number, not {value!r}")
        if self.sigma <= 0:
            raise RatingError("bad_rating", f"a rating's sigma is positive, not {self.sigma!r}")

    @property
    def ordinal(self) -> float:
        """The conservative skill shown to players and sorted on: μ − 3σ."""
        return self.mu - ORDINAL_Z * self.sigma

    def to_json(self) -> dict[str, float]:
        """Plain numbers for JSON or two REAL columns."""
        return {"mu": float(self.mu), "sigma": float(self.sigma)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SkillRating:
        """Read ``to_json``'s form; anything malformed raises ``RatingError('bad_rating')``."""
        try:
            return cls(data["mu"], data["sigma"])
        except (KeyError, TypeError) as error:
            raise RatingError("bad_rating", f"a stored rating needs mu and sigma ({error})") from None


DEFAULT_RATING = SkillRating()
"""A player who has never finished a game."""


@dataclass(frozen=True)
class Finish:
    """How one player finished a game: the chips they took away and the last round they were dealt into."""

    player: str
    chips: int
    last_round: int


def standings(finishes: Sequence[Finish]) -> dict[str, int]:
    """Places from finishes (1 = best; ties share a place and skip the next: 1, 2, 2, 4).

    Ranked by chips taken away, then by the later last round; equal on both is
    a tie. Raises ``RatingError('bad_finish')`` for negative chips or rounds,
    or a player listed twice.
    """
    players = [finish.player for finish in finishes]
    if len(set(players)) != len(players):
        raise RatingError("bad_finish", "a player is listed twice in the standings")
    for finish in finishes:
        if finish.chips < 0 or finish.last_round < 0:
            raise RatingError("bad_finish", f"{finish.player}: chips and rounds are not negative")
    key = {finish.player: (finish.chips, finish.last_round) for finish in finishes}
    return {player: 1 + sum(other > key[player] for other in key.values()) for player in key}


def rate_game(places: Mapping[str, int], ratings: Mapping[str, SkillRating]) -> dict[str, SkillRating]:
    """New ratings for everyone in a finished game, from their places (1 = best, equal = tie).

    ``ratings`` holds the players' ratings before the game; a player missing
    from it starts at ``DEFAULT_RATING``. Players not in ``places`` are not
    touched and not returned. Raises ``RatingError`` for fewer than two
    players or a place that is not a whole number ≥ 1.
    """
    if len(places) < 2:
        raise RatingError("too_few_players", "a game needs at least two players to be rated")
    for player, place in places.items():
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise RatingError("bad_place", f"{player}: a place is a whole number from 1, not {place!r}")
    players = list(places)
    before = [ratings.get(player, DEFAULT_RATING) for player in players]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=[float(places[player]) for player in players])
    return {
        player: SkillRating(team[0].mu, team[0].sigma) for player, team in zip(players, after, strict=True)
    }
