"""bot.ratings: Plackett–Luce updates from final standings, ties, the ordinal, persistence, bad input."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.ratings import DEFAULT_RATING, Finish, RatingError, SkillRating, rate_game, standings


def test_a_new_player_starts_at_ordinal_zero() -> None:
    assert (DEFAULT_RATING.mu, DEFAULT_RATING.sigma) == (25.0, 25.0 / 3.0)
    assert DEFAULT_RATING.ordinal == pytest.approx(0.0)


def test_a_game_moves_winners_up_losers_down_and_every_sigma_down() -> None:
    after = rate_game({"ann": 1, "ben": 2, "cat": 3}, {})
    assert after["ann"].mu > 25 > after["cat"].mu
    assert after["ann"].ordinal > after["ben"].ordinal > after["cat"].ordinal
    assert all(rating.sigma < DEFAULT_RATING.sigma for rating in after.values())


def test_it_is_openskill_plackett_luce_with_ranks() -> None:
    prior = {"ann": SkillRating(30.0, 5.0), "ben": SkillRating(22.0, 7.0), "cat": DEFAULT_RATING}
    after = rate_game({"ann": 3, "ben": 1, "cat": 2}, prior)
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating(30.0, 5.0)], [model.rating(22.0, 7.0)], [model.rating()]], ranks=[3.0, 1.0, 2.0]
    )
    assert [(after[p].mu, after[p].sigma) for p in ("ann", "ben", "cat")] == [
        (team[0].mu, team[0].sigma) for team in expected
    ]


def test_the_order_players_are_listed_in_does_not_matter() -> None:
    places = {"ann": 2, "ben": 1, "cat": 3, "dan": 2}
    forward = rate_game(places, {})
    backward = rate_game(dict(reversed(places.items())), {})
    for player in places:
        assert forward[player].mu == pytest.approx(backward[player].mu)
        assert forward[player].sigma == pytest.approx(backward[player].sigma)


def test_tied_players_with_equal_ratings_get_equal_ratings() -> None:
    after = rate_game({"ann": 1, "ben": 2, "cat": 2, "dan": 2, "eve": 5}, {})
    assert after["ben"] == after["cat"] == after["dan"]
    assert after["ann"].ordinal > after["ben"].ordinal > after["eve"].ordinal


def test_only_the_players_of_the_game_are_rated() -> None:
    prior = {"zed": SkillRating(40.0, 2.0)}
    after = rate_game({"ann": 1, "ben": 2}, prior)
    assert set(after) == {"ann", "ben"}
    assert prior["zed"] == SkillRating(40.0, 2.0)


def test_a_player_who_keeps_winning_climbs_and_becomes_surer() -> None:
    ratings: dict[str, SkillRating] = {}
    ordinals = []
    for _ in range(10):
        ratings.update(rate_game({"ann": 1, "ben": 2, "cat": 3}, ratings))
        ordinals.append(ratings["ann"].ordinal)
    assert ordinals == sorted(ordinals) and ordinals[-1] > ordinals[0] + 5
    assert ratings["cat"].ordinal < ratings["ben"].ordinal < ratings["ann"].ordinal


def test_an_upset_moves_more_than_an_expected_result() -> None:
    prior = {"pro": SkillRating(35.0, 3.0), "new": SkillRating(20.0, 3.0), "mid": SkillRating(25.0, 3.0)}
    expected = rate_game({"pro": 1, "mid": 2, "new": 3}, prior)
    upset = rate_game({"new": 1, "mid": 2, "pro": 3}, prior)
    assert upset["new"].mu - prior["new"].mu > expected["pro"].mu - prior["pro"].mu


def test_standings_rank_chips_then_the_later_round_and_share_places_on_ties() -> None:
    places = standings(
        [
            Finish("ann", 0, 4),  # bust in round 4
            Finish("ben", 420, 9),
            Finish("cat", 0, 7),  # bust later than ann: ranks above her
            Finish("dan", 180, 9),
            Finish("eve", 180, 9),  # same chips, same round as dan: a tie
        ]
    )
    assert places == {"ben": 1, "dan": 2, "eve": 2, "cat": 4, "ann": 5}


def test_standings_feed_rate_game() -> None:
    places = standings([Finish("ann", 300, 5), Finish("ben", 150, 5), Finish("cat", 150, 5)])
    after = rate_game(places, {})
    assert after["ann"].ordinal > after["ben"].ordinal == after["cat"].ordinal


def test_ratings_round_trip_through_json_exactly() -> None:
    rating = rate_game({"ann": 1, "ben": 2, "cat": 3}, {})["ann"]
    stored = json.loads(json.dumps(rating.to_json()))
    assert SkillRating.from_json(stored) == rating
    assert SkillRating.from_json(stored).ordinal == rating.ordinal


@pytest.mark.parametrize(
    "stored",
    [
        {"mu": 25.0},
        {"mu": "25", "sigma": 8.0},
        {"mu": math.nan, "sigma": 8.0},
        {"mu": 25.0, "sigma": math.inf},
        {"mu": 25.0, "sigma": 0.0},
        {"mu": 25.0, "sigma": -1.0},
        {"mu": True, "sigma": 8.0},
        None,
    ],
)
def test_a_bad_stored_rating_is_refused(stored: Any) -> None:
    with pytest.raises(RatingError) as error:
        SkillRating.from_json(stored)
    assert error.value.code == "bad_rating"


@pytest.mark.parametrize(
    ("places", "code"),
    [
        ({}, "too_few_players"),
        ({"ann": 1}, "too_few_players"),
        ({"ann": 1, "ben": 0}, "bad_place"),
        ({"ann": 1, "ben": 1.5}, "bad_place"),
        ({"ann": 1, "ben": True}, "bad_place"),
    ],
)
def test_standings_that_can_not_be_rated_are_refused(places: Any, code: str) -> None:
    with pytest.raises(RatingError) as error:
        rate_game(places, {})
    assert error.value.code == code


@pytest.mark.parametrize(
    "finishes",
    [
        [Finish("ann", 10, 1), Finish("ann", 5, 1)],
        [Finish("ann", -1, 1), Finish("ben", 5, 1)],
        [Finish("ann", 1, -1), Finish("ben", 5, 1)],
    ],
)
def test_bad_finishes_are_refused(finishes: list[Finish]) -> None:
    with pytest.raises(RatingError) as error:
        standings(finishes)
    assert error.value.code == "bad_finish"
