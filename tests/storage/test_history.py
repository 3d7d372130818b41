"""History, stats and ratings on either store: recorded from real engine games."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.fair_deal import FairDeal
from bot.history import (
    COMPUTER_MEMBERS,
    WAYS,
    HistoryError,
    history,
    known_here,
    leaderboard_by_rating,
    rating,
    rating_place,
    record_game,
    record_round,
    round_story,
    stats,
)
from bot.history.outcome import EMPTY_SEAT, replayable
from bot.history.queries import TABLE_NET, TABLE_REASONS, table_net_params
from bot.ratings import Finish
from bot.storage import IntegrityError, Store
from engine import Card, Game, Seat
from engine.ai.strategies import BasicStrategy, RandomStrategy
from engine.events import Dropped, Event, PotPaid, RoundEnded
from engine.replay import replay

G, OTHER_G = 2**60, 2**60 + 99
ANN, BEN, CAT = 2**60 + 1, 2**60 + 2, 2**60 + 3
BASIC = COMPUTER_MEMBERS["basic"]
MEMBERS = {"ann": ANN, "ben": BEN, "cat": CAT, "-7": BASIC}


@dataclass
class Expected:
    """What the engine itself says about each member, tallied from its objects and events."""

    games: Counter[int] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    wins: dict[int, Counter[str]] = field(default_factory=dict)
    pots: dict[str, Counter[int]] = field(
        default_factory=lambda: {"game": Counter(), "flip": Counter(), "flop": Counter()}
    )
    net: Counter[int] = field(default_factory=Counter)
    biggest: dict[int, int] = field(default_factory=dict)
    drops: Counter[int] = field(default_factory=Counter)
    caught: Counter[int] = field(default_factory=Counter)


@dataclass
class Played:
    round_ids: list[int] = field(default_factory=list)
    transcripts: list[dict[str, object]] = field(default_factory=list)
    expected: Expected = field(default_factory=Expected)


def _tally(
    game: Game, before: dict[str, int], events: list[Event], members: dict[str, int], exp: Expected
) -> None:
    r = game.round
    assert r is not None and r.end is not None
    for seat in r.players:
        m = members[seat]
        exp.rounds[m] += 1
        exp.games[m] += r.number == 1
        exp.net[m] += game.stacks[seat] - before[seat]
    ended = next(e for e in events if isinstance(e, RoundEnded))
    for seat in ended.game_winners:
        exp.wins.setdefault(members[seat], Counter())[ended.reason] += 1
    paid: dict[str, PotPaid] = {}
    for e in events:
        if isinstance(e, PotPaid) and e.pot not in paid:
            paid[e.pot] = e
        if isinstance(e, Dropped):
            exp.drops[members[e.player]] += 1
            exp.caught[members[e.player]] += ended.reason == "caught"
    for pot, winners in r.winners.items():
        for seat in winners:
            m = members[seat]
            exp.pots[pot][m] += 1
            exp.biggest[m] = max(exp.biggest.get(m, 0), paid[pot].shares[seat])


async def _play_game(
    store: Store, rng: random.Random, seats: list[str], played: Played, guild: int = G, table: str = "t1"
) -> None:
    """One whole game of computer strategies; every finished round recorded, then the game rated.

    The table's row is saved first, still open, as the runtime saves a table before its first round.
    """
    async with store.transaction() as tx:
        await tx.execute(
            "INSERT INTO tables (table_id, guild_id, channel_id, status, chips, refunds, version, state,"
            " updated_at) VALUES (?, ?, 1, 'playing', 0, '{}', 1, '{}', 1.0)"
            " ON CONFLICT (table_id) DO NOTHING",
            (table, guild),
        )
    game = Game([Seat(s, 40) for s in seats], 5)
    strategy = {
        s: BasicStrategy() if i == 1 else RandomStrategy() for i, s in enumerate(seats)
    }  # two basics can loop
    last_round: dict[str, int] = {}
    while not game.over:
        before, dealt = dict(game.stacks), game.rounds_played
        events = game.start_round(rng=rng)
        if game.rounds_played == dealt or game.round is None:  # over before a deal (R2.3)
            break
        while game.in_round:
            p = game.to_act
            assert p is not None
            events += game.apply(strategy[p].choose(game.view(p), rng))
        for seat in game.round.players:
            last_round[seat] = game.round.number
        _tally(game, before, events, MEMBERS, played.expected)
        transcript = game.round_transcript()
        async with store.transaction() as tx:
            rid = await record_round(
                tx, guild, table, game.round.number, 1000.0 + len(played.round_ids), transcript, MEMBERS
            )
        played.round_ids.append(rid)
        played.transcripts.append(transcript)
    finishes = [Finish(s, game.stacks[s], last_round.get(s, 0)) for s in seats]
    async with store.transaction() as tx:
        await record_game(tx, guild, finishes, MEMBERS, 5000.0)


async def _played(store: Store, games: int = 3, seed: int = 7) -> Played:
    played = Played()
    rng = random.Random(seed)
    for _ in range(games):
        await _play_game(store, rng, ["ann", "ben", "cat", "-7"], played)
    return played


async def test_whole_games_are_recorded_and_stats_equal_the_engines_events(store: Store) -> None:
    played = await _played(store)
    exp = played.expected
    assert len(played.round_ids) >= 3
    for member in MEMBERS.values():
        got = await stats(store, G, member)
        assert got.rounds == exp.rounds[member]
        assert got.games == exp.games[member] == 3
        assert got.net == exp.net[member]
        assert got.wins == {way: exp.wins.get(member, Counter())[way] for way in WAYS}
        assert (got.game_pots, got.flip_pots, got.flop_pots) == (
            exp.pots["game"][member],
            exp.pots["flip"][member],
            exp.pots["flop"][member],
        )
        assert got.biggest_pot == exp.biggest.get(member)
        assert (got.drops, got.caught) == (exp.drops[member], exp.caught[member])
        assert got.rating is not None and got.rating.games == 3
    assert sum(sum(c.values()) for c in exp.wins.values()) >= len(played.round_ids)


async def test_a_stored_round_replays_to_its_stored_result(store: Store) -> None:
    played = await _played(store, games=1)
    rid, transcript = played.round_ids[-1], played.transcripts[-1]
    story = await round_story(store, G, rid)
    assert story is not None
    assert story.transcript == json.loads(json.dumps(replayable(transcript)))
    seats = story.transcript["seats"]
    assert seats[: len(transcript["seats"])] == transcript["seats"]  # type: ignore[arg-type]
    assert len(seats) >= 3 and all(s["stack"] == 0 for s in seats[len(transcript["seats"]) :])  # type: ignore[arg-type]
    assert EMPTY_SEAT not in json.dumps(story.lines)
    assert replay(story.transcript) == (story.result, 0)
    assert len(story.members) >= 2 and all(MEMBERS[seat] == m for seat, m in story.members.items())
    codes = [code for code, _ in story.lines]
    assert codes[0] == "round_started" and "round_ended" in codes and "turn_started" not in codes
    ended = dict(story.lines)["round_ended"]
    assert set(ended["hands"]) <= {ANN, BEN, CAT, BASIC}
    assert all(
        isinstance(card, str) and Card.parse(card) for hand in ended["hands"].values() for card in hand
    )
    assert story.reveal is None and "reveal" not in story.transcript


async def test_history_is_newest_first_and_filters_by_member(store: Store) -> None:
    played = await _played(store, games=1)  # at most 100 rounds: all are listed
    latest = await history(store, G, limit=100)
    assert [r.round_id for r in latest] == sorted(played.round_ids, reverse=True)[:100]
    first = latest[-1]
    assert first.number == 1 and set(first.members) == {ANN, BEN, CAT, BASIC}
    assert first.end in WAYS and first.winners["game"]
    assert [r.round_id for r in await history(store, G, limit=2)] == [r.round_id for r in latest[:2]]
    bens = await history(store, G, member=BEN, limit=100)
    assert [r.round_id for r in bens] == [r.round_id for r in latest if BEN in r.members]
    assert await history(store, G, member=ANN + 500) == []


async def test_known_here_is_an_account_or_a_round_in_this_server(store: Store) -> None:
    """What lets a look-up show someone who left: a round they played here, or a chips account here."""
    await _played(store, games=1)
    assert await known_here(store, G, BEN) and not await known_here(store, OTHER_G, BEN)
    assert not await known_here(store, G, ANN + 500)
    async with store.transaction() as tx:
        opened = "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, 1.0)"
        await tx.execute(opened, (OTHER_G, BEN))
    assert await known_here(store, OTHER_G, BEN) and not await known_here(store, OTHER_G, ANN)


async def test_rounds_of_another_server_are_invisible(store: Store) -> None:
    played = await _played(store, games=1)
    assert await round_story(store, OTHER_G, played.round_ids[0]) is None
    assert await round_story(store, G, played.round_ids[-1] + 1000) is None
    assert await round_story(store, G, -1) is None
    assert await history(store, OTHER_G) == []
    other = await stats(store, OTHER_G, ANN)
    assert (other.rounds, other.games, other.net, other.rating) == (0, 0, 0, None)
    assert await leaderboard_by_rating(store, OTHER_G) == []
    assert await rating(store, OTHER_G, ANN) is None


async def test_the_rating_leaderboard_is_humans_only(store: Store) -> None:
    await _played(store, games=2)
    board = await leaderboard_by_rating(store, G, limit=10)
    assert {e.member for e in board} == {ANN, BEN, CAT}
    ordinals = [e.rating.ordinal for e in board]
    assert ordinals == sorted(ordinals, reverse=True)
    computer = await rating(store, G, BASIC)
    assert computer is not None and computer.games == 2
    assert [e.member for e in await leaderboard_by_rating(store, G, limit=1)] == [board[0].member]


async def test_a_members_rating_place_is_their_place_on_the_board(store: Store) -> None:
    """``/leaderboard by:rating`` below the ten: humans only, counted as the board counts; ties share."""
    await _played(store, games=2)
    board = await leaderboard_by_rating(store, G, limit=10)
    for i, e in enumerate(board):
        better = sum(1 for o in board if o.rating.ordinal > e.rating.ordinal)
        assert await rating_place(store, G, e.member) == (better + 1, len(board)), i
    assert await rating_place(store, G, ANN + 500) is None  # never rated
    assert await rating_place(store, OTHER_G, ANN) is None  # rated in another server only
    async with store.transaction() as tx:  # two members rated alike share their place
        await tx.execute(
            "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ? WHERE guild_id = ? AND user_id IN (?, ?)",
            (30.0, 2.0, 24.0, G, ANN, BEN),
        )
    places = {m: await rating_place(store, G, m) for m in (ANN, BEN)}
    assert places[ANN] == places[BEN] and places[ANN] is not None and places[ANN][1] == 3


async def test_a_computer_level_in_two_seats_is_rated_once_on_its_better_finish(store: Store) -> None:
    members = {"ann": ANN, "-5": BASIC, "-6": BASIC}
    finishes = [Finish("ann", 50, 3), Finish("-5", 100, 3), Finish("-6", 0, 2)]
    async with store.transaction() as tx:
        rated = await record_game(tx, G, finishes, members, 10.0)
    assert set(rated) == {ANN, BASIC} and rated[BASIC].mu > rated[ANN].mu
    async with store.transaction() as tx:  # only one member: nothing to rate
        assert await record_game(tx, G, [Finish("-5", 1, 1), Finish("-6", 0, 1)], members, 11.0) == {}
    entry = await rating(store, G, BASIC)
    assert entry is not None and entry.games == 1 and entry.rating == rated[BASIC]


def _mid_round_transcript() -> dict[str, object]:
    game = Game([Seat("ann", 40), Seat("ben", 40), Seat("cat", 40)], 5)
    rng = random.Random(3)
    game.start_round(rng=rng)
    while not game.in_round:  # an opening 49/50 ends at once; deal again
        game.start_round(rng=rng)
    return game.round_transcript()


def _finished_transcript(seed: int = 4) -> dict[str, Any]:
    game = Game([Seat("ann", 40), Seat("ben", 40), Seat("cat", 40)], 5)
    rng = random.Random(seed)
    game.start_round(rng=rng)
    while game.in_round:
        p = game.to_act
        assert p is not None
        game.apply(RandomStrategy().choose(game.view(p), rng))
    return game.round_transcript()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda t, m: (t.__setitem__("rounds", []), m), "bad_transcript"),
        (lambda t, m: (t.__setitem__("stake", "five"), m), "bad_transcript"),
        (
            lambda t, m: (t["rounds"][0]["actions"].insert(0, ["ann", "discard", "AS"]), m),
            "illegal_transcript",
        ),
        (lambda t, m: (None, {"ann": ANN, "ben": BEN}), "unknown_seat"),
        (lambda t, m: (None, {**m, "cat": -99}), "bad_member"),
        (lambda t, m: (None, {**m, "cat": "cat"}), "bad_member"),
    ],
)
async def test_bad_rounds_are_refused_with_a_code_and_write_nothing(
    store: Store, change: Any, code: str
) -> None:
    transcript = _finished_transcript()
    members = {"ann": ANN, "ben": BEN, "cat": CAT}
    _, new_members = change(transcript, members)
    with pytest.raises(HistoryError) as refused:
        async with store.transaction() as tx:
            await record_round(tx, G, "t1", 1, 1.0, transcript, new_members or members)
    assert refused.value.code == code
    assert await store.fetchone("SELECT COUNT(*) FROM rounds") == (0,)
    assert await store.fetchone("SELECT COUNT(*) FROM round_seats") == (0,)


async def test_a_round_still_in_play_is_never_recorded(store: Store) -> None:
    with pytest.raises(HistoryError) as refused:
        async with store.transaction() as tx:
            await record_round(
                tx, G, "t1", 1, 1.0, _mid_round_transcript(), {"ann": ANN, "ben": BEN, "cat": CAT}
            )
    assert refused.value.code == "round_not_over"
    assert await store.fetchone("SELECT COUNT(*) FROM rounds") == (0,)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((0, "t1", 1, 1.0), "bad_guild"),
        ((G, "", 1, 1.0), "bad_round"),
        ((G, "t1", 0, 1.0), "bad_round"),
        ((G, "t1", 1, float("nan")), "bad_round"),
    ],
)
async def test_bad_arguments_are_refused_with_a_code(store: Store, args: tuple[Any, ...], code: str) -> None:
    with pytest.raises(HistoryError) as refused:
        async with store.transaction() as tx:
            await record_round(tx, *args, _finished_transcript(), {"ann": ANN, "ben": BEN, "cat": CAT})
    assert refused.value.code == code
    assert await store.fetchone("SELECT COUNT(*) FROM rounds") == (0,)


async def test_bad_query_arguments_say_which(store: Store) -> None:
    for call, code in [
        (history(store, G, limit=0), "bad_limit"),
        (history(store, G, limit=101), "bad_limit"),
        (history(store, -3), "bad_guild"),
        (stats(store, G, 0), "bad_member"),
        (leaderboard_by_rating(store, G, limit=True), "bad_limit"),
    ]:
        with pytest.raises(HistoryError) as refused:
            await call
        assert refused.value.code == code


def _fair_round() -> tuple[dict[str, Any], dict[str, Any]]:
    """A round dealt by the provably fair shuffle, played out, and its reveal."""
    fair = FairDeal()
    fair.commit(1)
    fair.add_interaction(1234567890123)
    dealt = fair.deal(1)
    game = Game([Seat("ann", 40), Seat("ben", 40), Seat("cat", 40)], 5)
    rng = random.Random(5)
    game.start_round(deck=[Card.parse(c) for c in dealt.deck], dealer="ann")
    while game.in_round:
        p = game.to_act
        assert p is not None
        game.apply(RandomStrategy().choose(game.view(p), rng))
    return game.round_transcript(), fair.reveal(1).public()


async def test_a_revealed_seed_is_checked_stored_and_in_the_story(store: Store) -> None:
    transcript, reveal = _fair_round()
    members = {"ann": ANN, "ben": BEN, "cat": CAT}
    async with store.transaction() as tx:
        rid = await record_round(tx, G, "t1", 1, 1.0, transcript, members, reveal=reveal)
    story = await round_story(store, G, rid)
    assert story is not None and story.reveal == reveal and story.transcript["reveal"] == reveal
    assert replay(story.transcript)[1] == 0
    for bad, number in [({**reveal, "server_seed": "00" * 32}, 1), (reveal, 2), ({"seed": "x"}, 1)]:
        with pytest.raises(HistoryError) as refused:
            async with store.transaction() as tx:
                await record_round(tx, G, "t1", number, 2.0, transcript, members, reveal=bad)
        assert refused.value.code == "bad_reveal"
    assert await store.fetchone("SELECT COUNT(*) FROM rounds") == (1,)


@pytest.mark.parametrize(
    "sql",
    ["UPDATE round_seats SET net = 0", "DELETE FROM round_seats", "UPDATE rounds SET reveal = 'x'"],
)
async def test_recorded_rounds_are_append_only(store: Store, sql: str) -> None:
    async with store.transaction() as tx:
        await record_round(tx, G, "t1", 1, 1.0, _finished_transcript(), {"ann": ANN, "ben": BEN, "cat": CAT})
    with pytest.raises(IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await tx.execute(sql)
    assert await store.fetchone("SELECT COUNT(*) FROM round_seats") == (3,)


async def test_ratings_refuse_an_impossible_sigma(store: Store) -> None:
    with pytest.raises(IntegrityError):
        async with store.transaction() as tx:
            await tx.execute(
                "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, games, updated_at)"
                " VALUES (?, ?, 25.0, 0.0, 25.0, 0, 1.0)",
                (G, ANN),
            )


async def test_bad_finishes_are_refused_with_a_code_and_rate_no_one(store: Store) -> None:
    members = {"ann": ANN, "ben": BEN}
    for finishes, code in [
        ([Finish("ann", 5, 1), Finish("ann", 6, 1)], "bad_finish"),
        ([Finish("ann", -5, 1), Finish("ben", 6, 1)], "bad_finish"),
        ([Finish("ann", 5, 1), Finish("zed", 6, 1)], "unknown_seat"),
    ]:
        with pytest.raises(HistoryError) as refused:
            async with store.transaction() as tx:
                await record_game(tx, G, finishes, members, 1.0)
        assert refused.value.code == code
    assert await store.fetchone("SELECT COUNT(*) FROM ratings") == (0,)


async def test_two_games_ending_at_once_both_count_for_a_shared_member(store: Store) -> None:
    """Two tables' games end together and share the basic computer: neither update is lost."""

    async def end_game(human: int, at: float) -> None:
        async with store.transaction() as tx:
            await record_game(tx, G, [Finish("h", 90, 4), Finish("-5", 10, 4)], {"h": human, "-5": BASIC}, at)

    await asyncio.gather(*(end_game(human, float(i)) for i, human in enumerate([ANN, BEN, CAT])))
    computer = await rating(store, G, BASIC)
    assert computer is not None and computer.games == 3
    one_game = await rating(store, G, ANN)
    assert one_game is not None and one_game.games == 1 and computer.rating.mu < one_game.rating.mu


CARRY_DECK = "AC 2C 3C 4C 5C 6C 7C 8C 9C AS 2S 3S 4S 5S AH".split()
"""Round 1 of three seats, the third dealing: no diamond dealt, so the flop (the upcard A♥'s sister
suit) carries (R5.6); the first player holds the lowest hand and drops."""


async def _ended_with_a_carried_flop(store: Store, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A real table (runtime, ledger) whose round 1 carried its flop, ended by its host between rounds."""
    from bot.table import transitions
    from engine.actions import Drop
    from tests.bot.runtime.fakes import ANN as T_ANN
    from tests.bot.runtime.fakes import FakeClock, Harness

    rest = [c for c in (f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK") if c not in CARRY_DECK]
    deck = [Card.parse(c) for c in CARRY_DECK + rest]

    def rigged(table: Any) -> list[Event]:
        game = table.game
        return list(game.start_round(deck=deck, dealer=game.seated[2]))

    monkeypatch.setattr(transitions, "deal", rigged)
    h = Harness(store, FakeClock())
    table = await h.game()
    assert table.game is not None
    await h.runtime.act(table.id, T_ANN, table.seq, Drop(str(T_ANN)))
    assert table.game.pots["flop"] == 15 and not table.game.in_round
    assert (await stats(store, 1, T_ANN)).net == 0  # a game in play: its rounds so far (paid 15, won 15)
    await h.runtime.stop(table.id, T_ANN, may_manage=False)  # R8.3: the 15 carried chips are shared, 5 each
    assert table.status == "closed"
    return h


async def test_stats_net_counts_the_share_of_the_pots_when_a_game_ends(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.bot.runtime.fakes import ANN as T_ANN
    from tests.bot.runtime.fakes import BEN as T_BEN
    from tests.bot.runtime.fakes import CAT as T_CAT
    from tests.bot.runtime.fakes import G as T_G

    h = await _ended_with_a_carried_flop(store, monkeypatch)
    for member in (T_ANN, T_BEN, T_CAT):
        got = await stats(store, T_G, member)
        assert got.rounds == 1
        assert got.net == await h.ledger.balance(T_G, member) - 1000, member
    assert (await stats(store, T_G, T_ANN)).net == 5  # paid 15, won the game pot's 15, shared 5
    rows = await store.fetchone(  # what TABLE_NET rests on: each round and table entry has its table's row
        "SELECT (SELECT COUNT(*) FROM rounds), (SELECT COUNT(*) FROM rounds r WHERE NOT EXISTS"
        " (SELECT 1 FROM tables t WHERE t.table_id = r.table_id AND t.guild_id = r.guild_id)),"
        f" (SELECT COUNT(*) FROM ledger l WHERE l.reason IN ({', '.join(repr(r) for r in TABLE_REASONS)})"
        " AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.table_id = l.reference AND t.guild_id = l.guild_id))"
    )
    assert rows == (1, 0, 0)


EACH_ROUNDS_TABLE = (  # migration 15's net chips: the table of each of the member's rounds looked up
    "SELECT (SELECT COALESCE(SUM(s.net), 0) FROM round_seats s JOIN rounds r ON r.id = s.round_id"
    " LEFT JOIN tables t ON t.table_id = r.table_id"
    " WHERE s.guild_id = ? AND s.user_id = ? AND (t.status IS NULL OR t.status != 'closed'))"
    " + (SELECT COALESCE(SUM(l.change), 0) FROM ledger l JOIN tables t ON t.table_id = l.reference"
    " WHERE l.guild_id = ? AND l.user_id = ? AND l.reason IN ('buy_in', 'refund', 'cash_out')"
    " AND t.status = 'closed')"
)


async def test_net_chips_read_from_the_open_tables_equal_each_rounds_table_looked_up(store: Store) -> None:
    """``TABLE_NET`` reads a server's open tables, not the table of each of a member's rounds: same net.

    An open table counts its rounds, a closed one its ledger entries (the chips shared when it closed
    too), a lobby its buy-ins not at all; another server's tables, other reasons and an entry naming
    no table never count. A round whose table has no row, which the bot never stores (each round is
    recorded in the transaction that saves its table), counted as an open table's before; now not.
    """

    async def net(guild: int, member: int) -> tuple[int, int]:
        new = await store.fetchone(TABLE_NET, table_net_params(guild, member))
        old = await store.fetchone(EACH_ROUNDS_TABLE, (guild, member, guild, member))
        assert new is not None and old is not None
        return int(new[0]), int(old[0])

    async def table(guild: int, table_id: str, status: str) -> None:
        async with store.transaction() as tx:
            await tx.execute(
                "INSERT INTO tables (table_id, guild_id, channel_id, status, chips, refunds, version, state,"
                " updated_at) VALUES (?, ?, 1, ?, 0, '{}', 1, '{}', 1.0) ON CONFLICT (table_id)"
                " DO UPDATE SET status = excluded.status",
                (table_id, guild, status),
            )

    async def round_at(guild: int, table_id: str, nets: dict[int, int]) -> None:
        async with store.transaction() as tx:
            row = await tx.fetchone(
                "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result)"
                " VALUES (?, ?, 1, 1.0, '{}', '{}') RETURNING id",
                (guild, table_id),
            )
            assert row is not None
            await tx.executemany(
                "INSERT INTO round_seats (guild_id, user_id, round_id, seat, opening, net, dropped, caught)"
                " VALUES (?, ?, ?, ?, 1, ?, 0, 0)",
                [(guild, m, row[0], str(m), n) for m, n in nets.items()],
            )

    async def entries(guild: int, table_id: str | None, *changes: tuple[int, int, str]) -> None:
        async with store.transaction() as tx:
            await tx.executemany(
                "INSERT INTO ledger (guild_id, user_id, change, balance_after, reason, reference, created_at)"
                " VALUES (?, ?, ?, 1000, ?, ?, 1.0)",
                [(guild, m, change, reason, table_id) for m, change, reason in changes],
            )

    async with store.transaction() as tx:
        await tx.executemany(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 1000, 1.0)",
            [(G, ANN), (G, BEN), (OTHER_G, ANN)],
        )
    await table(G, "closed", "playing")
    await entries(G, "closed", (ANN, -100, "buy_in"), (BEN, -100, "buy_in"))
    await round_at(G, "closed", {ANN: 30, BEN: -30})
    await table(G, "open", "playing")
    await entries(G, "open", (ANN, -200, "buy_in"), (BEN, -200, "buy_in"))
    await round_at(G, "open", {ANN: -15, BEN: 15})
    await round_at(G, "open", {ANN: 40, BEN: -40})
    await table(G, "lobby", "lobby")
    await entries(G, "lobby", (ANN, -50, "buy_in"))
    await table(OTHER_G, "elsewhere", "playing")
    await entries(OTHER_G, "elsewhere", (ANN, -300, "buy_in"))
    await round_at(OTHER_G, "elsewhere", {ANN: 7})
    await entries(G, None, (ANN, 500, "daily"), (ANN, 9, "refund"))
    assert await net(G, ANN) == (55, 55)  # open: both tables' rounds (30 - 15 + 40)
    assert await net(G, BEN) == (-55, -55)
    assert await net(OTHER_G, ANN) == (7, 7)
    await entries(G, "closed", (ANN, 100 + 30 + 5, "cash_out"), (BEN, 100 - 30 + 5, "cash_out"))
    await table(G, "closed", "closed")  # 10 carried chips shared when it closed: its ledger counts them
    assert await net(G, ANN) == (35 + 25, 35 + 25)
    assert await net(G, BEN) == (-25 - 25, -25 - 25)
    await entries(G, "lobby", (ANN, 50, "refund"))
    await table(G, "lobby", "closed")
    await entries(G, "open", (ANN, 200 + 25, "cash_out"), (BEN, 200 - 25, "cash_out"))
    await table(G, "open", "closed")
    assert await net(G, ANN) == (35 + 25, 35 + 25)
    assert await net(G, BEN) == (-25 - 25, -25 - 25)
    await round_at(G, "no row", {ANN: 1000})
    assert await net(G, ANN) == (60, 1060)
