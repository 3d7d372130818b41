"""A season's leaderboard on either store: chips won, rounds won and rating change, from history only.

Games of the computer strategies are recorded with a fake clock on both sides of a month
boundary and of a year boundary; each season sees exactly its own rounds and games.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime

import pytest

from bot.history import COMPUTER_MEMBERS, HistoryError, rating, record_game, record_round, season_leaderboard
from bot.history.seasons import season_at
from bot.ratings import DEFAULT_RATING, Finish
from bot.storage import IntegrityError, Store
from engine import Game, Seat
from engine.ai.strategies import BasicStrategy, RandomStrategy
from tests.storage.test_history import _finished_transcript

G, OTHER_G = 2**60, 2**60 + 99
ANN, BEN, CAT = 2**60 + 1, 2**60 + 2, 2**60 + 3
BASIC = COMPUTER_MEMBERS["basic"]
MEMBERS = {"ann": ANN, "ben": BEN, "cat": CAT, "-7": BASIC}


def at(*when: int) -> float:
    return datetime(*when, tzinfo=UTC).timestamp()  # type: ignore[misc]


class Tally:
    """What the engine says each member's rounds came to: chips won and game pots won."""

    def __init__(self) -> None:
        self.chips: Counter[int] = Counter()
        self.won: Counter[int] = Counter()


async def play_game(store: Store, seed: int, when: float, guild: int = G) -> Tally:
    """One whole game, every round recorded as ending at ``when``, then the game rated at ``when``."""
    rng = random.Random(seed)
    seats = list(MEMBERS)
    game = Game([Seat(s, 40) for s in seats], 5)
    strategy = {s: BasicStrategy() if i == 1 else RandomStrategy() for i, s in enumerate(seats)}
    tally = Tally()
    last_round: dict[str, int] = {}
    while not game.over:
        before, dealt = dict(game.stacks), game.rounds_played
        game.start_round(rng=rng)
        if game.rounds_played == dealt or game.round is None:
            break
        while game.in_round:
            p = game.to_act
            assert p is not None
            game.apply(strategy[p].choose(game.view(p), rng))
        for seat in game.round.players:
            last_round[seat] = game.round.number
            tally.chips[MEMBERS[seat]] += game.stacks[seat] - before[seat]
        for seat in game.round.winners["game"]:
            tally.won[MEMBERS[seat]] += 1
        async with store.transaction() as tx:
            await record_round(
                tx, guild, f"t{seed}", game.round.number, when, game.round_transcript(), MEMBERS
            )
    finishes = [Finish(s, game.stacks[s], last_round.get(s, 0)) for s in seats]
    async with store.transaction() as tx:
        await record_game(tx, guild, finishes, MEMBERS, when)
    return tally


async def ordinals(store: Store) -> dict[int, float]:
    out = {}
    for member in (ANN, BEN, CAT):
        entry = await rating(store, G, member)
        out[member] = entry.rating.ordinal if entry is not None else DEFAULT_RATING.ordinal
    return out


async def test_seasons_across_a_month_and_a_year_boundary_see_only_their_own_games(store: Store) -> None:
    start = await ordinals(store)
    december = await play_game(store, 1, at(2025, 12, 31, 23, 59, 59))
    after_december = await ordinals(store)
    january = await play_game(store, 2, at(2026, 1, 31, 23, 59, 59))
    after_january = await ordinals(store)
    february = await play_game(store, 3, at(2026, 2, 1, 0, 0, 0))
    after_february = await ordinals(store)
    await play_game(store, 4, at(2026, 1, 10), guild=OTHER_G)  # another server's game is not counted

    for season, tally, before, after in [
        (season_at(at(2026, 1, 1)).previous(), december, start, after_december),
        (season_at(at(2026, 1, 1)), january, after_december, after_january),
        (season_at(at(2026, 2, 1)), february, after_january, after_february),
    ]:
        board = await season_leaderboard(store, G, season.start, season.end, limit=10)
        assert {e.member for e in board} == {ANN, BEN, CAT}  # the computer is left off
        for entry in board:
            assert entry.chips == tally.chips[entry.member]
            assert entry.rounds_won == tally.won[entry.member]
            assert entry.rating_change == pytest.approx(after[entry.member] - before[entry.member])
        assert [e.chips for e in board] == sorted((e.chips for e in board), reverse=True)
        by_rating = await season_leaderboard(store, G, season.start, season.end, by="rating")
        changes = [e.rating_change for e in by_rating]
        assert changes == sorted(changes, reverse=True) and len(by_rating) == 3

    quarter = season_at(at(2026, 3, 31), 3)  # January to March: two games
    board = {e.member: e for e in await season_leaderboard(store, G, quarter.start, quarter.end)}
    assert {m: e.chips for m, e in board.items()} == {
        m: january.chips[m] + february.chips[m] for m in (ANN, BEN, CAT)
    }
    year_2025 = season_at(at(2025, 6, 1), 12)
    board = {e.member: e for e in await season_leaderboard(store, G, year_2025.start, year_2025.end)}
    assert {m: e.rounds_won for m, e in board.items()} == {m: december.won[m] for m in (ANN, BEN, CAT)}
    march = season_at(at(2026, 3, 1))
    assert await season_leaderboard(store, G, march.start, march.end) == []
    top = await season_leaderboard(store, G, quarter.start, quarter.end, limit=1)
    assert len(top) == 1


async def test_bad_season_arguments_are_refused(store: Store) -> None:
    season = season_at(at(2026, 1, 1))
    with pytest.raises(HistoryError) as refused:
        await season_leaderboard(store, G, season.start, season.end, by="luck")
    assert refused.value.code == "bad_order"
    with pytest.raises(HistoryError) as refused:
        await season_leaderboard(store, G, season.end, season.start)
    assert refused.value.code == "bad_season"
    with pytest.raises(HistoryError) as refused:
        await season_leaderboard(store, G, season.start, season.end, limit=0)
    assert refused.value.code == "bad_limit"


@pytest.mark.parametrize(
    "sql", ["UPDATE rating_changes SET ordinal_after = 99", "DELETE FROM rating_changes"]
)
async def test_rating_changes_are_append_only(store: Store, sql: str) -> None:
    await play_game(store, 5, at(2026, 1, 2))
    count = await store.fetchone("SELECT COUNT(*) FROM rating_changes")
    assert count == (4,)  # three people and the computer level
    with pytest.raises(IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await tx.execute(sql)
    assert await store.fetchone("SELECT COUNT(*) FROM rating_changes") == count


async def test_rounds_recorded_out_of_time_order_across_a_boundary_count_in_their_own_season(
    store: Store,
) -> None:
    """Two tables ending rounds a moment apart at midnight: ids and times disagree, seasons do not."""
    members = {"ann": ANN, "ben": BEN, "cat": CAT}
    recorded: dict[str, Counter[int]] = {"january": Counter(), "february": Counter()}
    for seed, when, season in [
        (1, at(2026, 1, 15), "january"),
        (2, at(2026, 2, 1, 0, 0, 1), "february"),
        (3, at(2026, 1, 31, 23, 59, 59), "january"),  # recorded after February's first round
        (4, at(2026, 2, 2), "february"),
    ]:
        transcript = _finished_transcript(seed)
        async with store.transaction() as tx:
            rid = await record_round(tx, G, f"t{seed}", 1, when, transcript, members)
        for user_id, net in await store.fetchall(
            "SELECT user_id, net FROM round_seats WHERE round_id = ?", (rid,)
        ):
            recorded[season][int(user_id)] += int(net)
    for name, month in [("january", 1), ("february", 2)]:
        season = season_at(at(2026, month, 10))
        board = await season_leaderboard(store, G, season.start, season.end)
        assert {e.member: e.chips for e in board} == {m: recorded[name][m] for m in (ANN, BEN, CAT)}
        assert all(e.rounds == 2 for e in board)
