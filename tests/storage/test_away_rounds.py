"""The moves the computer made for an away member, stored beside a round's transcript, on either store.

``record_round``'s ``away`` goes into ``rounds.away`` (migration 14) in the round's own
transaction; the transcript keeps docs/TRANSCRIPT.md's format. A round stored without it (before
migration 14, or with nobody away) reads as it always did.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.history import HistoryError, record_round, round_story
from bot.history.outcome import replayable
from bot.storage import Store, open_store
from engine import Game, Seat
from engine.ai.review import analyse
from engine.ai.strategies import BasicStrategy, RandomStrategy
from tests.bot.runtime.fakes import FakeClock, Harness
from tests.storage.test_privacy import ANN, BEN, CAT, finished_game
from tests.storage.test_privacy import G as G_PRIVACY

G = 2**58
MEMBERS = {"ann": 2**58 + 1, "ben": 2**58 + 2, "cat": 2**58 + 3}


def one_round(seed: int = 3) -> dict[str, Any]:
    """A finished round of computer strategies (the first from ``seed`` on where ann moves at
    least 6 times), as ``Game.round_transcript`` gives it."""
    for tried in range(seed, seed + 100):
        rng = random.Random(tried)
        game = Game([Seat(s, 40) for s in MEMBERS], 5)
        strategy = {"ann": BasicStrategy(), "ben": RandomStrategy(), "cat": RandomStrategy()}
        game.start_round(rng=rng)
        while game.in_round:
            p = game.to_act
            assert p is not None
            game.apply(strategy[p].choose(game.view(p), rng))
        transcript = game.round_transcript()
        if len(moves_of(transcript, "ann")) >= 6:
            return transcript
    raise AssertionError("no such round")


def moves_of(transcript: dict[str, Any], seat: str) -> list[int]:
    """The indices of ``seat``'s actions in the round."""
    return [i for i, a in enumerate(transcript["rounds"][0]["actions"]) if a[0] == seat]


async def rounds_stored(store: Store) -> int:
    row = await store.fetchone("SELECT COUNT(*) FROM rounds")
    assert row is not None
    return int(row[0])


async def test_the_computers_moves_for_an_away_seat_are_kept_beside_the_transcript(store: Store) -> None:
    transcript = one_round()
    anns = moves_of(transcript, "ann")
    later = anns[len(anns) // 2 :]  # ann went away mid-round: the computer made her later moves
    async with store.transaction() as tx:
        rid = await record_round(
            tx, G, "t1", 1, 10.0, transcript, MEMBERS, away={"ann": later, "ben": []}
        )  # ben was away for a while too, but came back before his turn
    story = await round_story(store, G, rid)
    assert story is not None
    assert story.away == {"ann": tuple(later), "ben": ()}
    assert story.by_computer("ann") == frozenset(later) and story.by_computer("cat") == frozenset()
    # the transcript is docs/TRANSCRIPT.md's, not a key more: the moves are kept beside it
    assert story.transcript == json.loads(json.dumps(replayable(transcript)))
    row = await store.fetchone("SELECT transcript, away FROM rounds WHERE id = ?", (rid,))
    assert row is not None and "away" not in row[0]
    assert json.loads(row[1]) == {"ann": later, "ben": []}
    # each story event knows its action: the moves of ann's later turns are the computer's
    played_for = {i for e, i in zip(story.events, story.origins, strict=True) if i in later}
    assert played_for == set(later)
    # the look back reviews ann's own moves only, and counts the others
    analysis = analyse(story.transcript, "ann", budget=0.001, total=1.0, by_computer=story.by_computer("ann"))
    assert (analysis.skipped, analysis.own) == (len(later), len(anns) - len(later))


async def test_a_round_with_nobody_away_is_stored_as_before_and_still_analyses(store: Store) -> None:
    """What a round stored before migration 14 holds: no away seats (NULL); read as it always was."""
    transcript = one_round(seed=5)
    async with store.transaction() as tx:
        rid = await record_round(tx, G, "t1", 1, 10.0, transcript, MEMBERS)
        empty = await record_round(tx, G, "t1", 2, 11.0, transcript, MEMBERS, away={})
    assert await store.fetchall("SELECT away FROM rounds ORDER BY id") == [(None,), (None,)]
    story = await round_story(store, G, rid)
    assert story is not None and story.away == {} and story.by_computer("ann") == frozenset()
    before = analyse(story.transcript, "ann", budget=0.001, total=1.0)
    analysis = analyse(story.transcript, "ann", budget=0.001, total=1.0, by_computer=story.by_computer("ann"))
    assert (analysis.skipped, analysis.own) == (0, len(moves_of(transcript, "ann")))
    assert analysis.decisions == before.decisions > 0
    assert await round_story(store, G, empty) is not None


@pytest.mark.parametrize(
    "away",
    [
        {"dan": []},  # a seat not dealt in
        {"ann": [10_000]},  # not an action of the round
        {"ann": [-1]},
        {"ann": ["0"]},
        {"ann": "012"},
        {"ann": [True]},
        {"ben": "theirs"},  # replaced below by one of ann's actions: another seat's move
    ],
)
async def test_an_away_seat_that_is_not_so_is_refused_and_nothing_is_written(
    store: Store, away: dict[str, Any]
) -> None:
    transcript = one_round()
    if away == {"ben": "theirs"}:
        away = {"ben": moves_of(transcript, "ann")[:1]}
    with pytest.raises(HistoryError) as refused:
        async with store.transaction() as tx:
            await record_round(tx, G, "t1", 1, 10.0, transcript, MEMBERS, away=away)
    assert refused.value.code == "bad_away"
    assert await rounds_stored(store) == 0


async def test_a_game_of_timeouts_stores_every_members_moves_as_the_computers(target: str) -> None:
    """The runtime writes the moves it made for members away (put away by their timeouts) with
    the round, in the transaction that stores it: every move of theirs, and nothing else."""
    async with open_store(target) as db:
        h = Harness(db, FakeClock())
        await finished_game(h)
        rows = await db.fetchall("SELECT id, transcript, away FROM rounds ORDER BY id")
        assert rows
        for rid, text, away in rows:
            transcript = json.loads(text)
            moved = {str(p) for p in (ANN, BEN, CAT)} & {a[0] for a in transcript["rounds"][0]["actions"]}
            kept = json.loads(away)  # a seat away before its first turn came has no move in it
            assert moved and {s: kept[s] for s in moved} == {s: moves_of(transcript, s) for s in moved}
            assert all(not kept[s] for s in set(kept) - moved)
            story = await round_story(db, G_PRIVACY, int(rid))
            assert story is not None and set(story.away) == set(kept)
