"""Reading history: recent rounds, one round's story, a member's stats, ratings.

Every query names its server and reads through an index (docs/OPERATORS.md,
"History and stats"); none scans a table, so each stays fast however many
rounds are stored (bench/history_bench.py). A round of another server is
invisible: asking for it answers exactly as for an id that does not exist.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, get_args

from bot.dumping import PlayedRound, SeatRound
from bot.history.members import HistoryError, check_guild, check_member, computer_seat
from bot.history.outcome import round_outcome, story
from bot.ledger import TableReason
from bot.ratings import SkillRating
from bot.storage import Row
from engine.events import POTS, Event
from engine.settings import HOUSE_RULES

MAX_LIMIT = 100
"""The most rows one history or leaderboard query returns."""
WAYS = ("out", "tonk", "drop", "caught", "stock", "fifty", "forty_nine")
"""How a round can be won (``engine.events.EndReason``): R7.1, R7.5, R7.2, R7.2 caught, R7.3, R4."""


class Reader(Protocol):
    """A store or an open transaction: anything that reads."""

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row."""
        ...

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row, or None."""
        ...


@dataclass(frozen=True)
class SeatLine:
    """One seat of a recorded round: who, chips won or lost, pots won (None: not won), how."""

    member: int
    seat: str
    net: int
    won: dict[str, int | None]
    way: str | None
    dropped: bool
    caught: bool


@dataclass(frozen=True)
class RoundSummary:
    """One line of ``/flipflop history``: when, who, how it ended, who won which pot, the round id."""

    round_id: int
    table_id: str
    number: int
    ended_at: float
    end: str
    seats: tuple[SeatLine, ...]

    @property
    def members(self) -> tuple[int, ...]:
        """Who played (ordered by seat id)."""
        return tuple(s.member for s in self.seats)

    @property
    def winners(self) -> dict[str, tuple[int, ...]]:
        """Each pot's winners (R2.6); empty for a pot no one won (it carried, R5.6)."""
        return {pot: tuple(s.member for s in self.seats if s.won[pot] is not None) for pot in POTS}


@dataclass(frozen=True)
class RoundStory:
    """``/flipflop round``: the round's transcript (with its revealed seed), result and story lines."""

    round_id: int
    table_id: str
    number: int
    ended_at: float
    transcript: dict[str, Any]
    """Replays with ``python -m engine.replay`` to ``result``; carries ``reveal`` when one was stored."""
    result: dict[str, Any]
    reveal: dict[str, Any] | None
    lines: list[tuple[str, dict[str, Any]]]
    """``(code, params)`` per event (``bot.history.outcome.story``); ``round_ended`` shows the hands."""
    members: dict[str, int]
    """Seat id → member."""
    events: tuple[Event, ...] = ()
    """The round's events, replayed from its transcript (its story in words: ``event_words.story``)."""
    named: dict[str, int | str] = field(default_factory=dict)
    """Seat id → who sat there: a member id, or a computer seat's ``basic#2`` (``computer_seat``)."""
    seated: dict[str, int] = field(default_factory=dict)
    """Seat id → member: ``members``, players of the transcript out of the game, and (when a computer's
    seat is among those) the seats of the table's earlier rounds."""
    away: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """The seats that were away for some of the round (the computer played for their members), each
    with the indices of its transcript actions the computer made; empty for a round stored before
    this was kept (``record_round``'s ``away``)."""
    origins: tuple[int | None, ...] = ()
    """Each of ``events``' transcript action (its index), None before the first: whose move it was."""

    def by_computer(self, seat: str) -> frozenset[int]:
        """The indices of ``seat``'s actions the computer made for it while its member was away."""
        return frozenset(self.away.get(seat, ()))


@dataclass(frozen=True)
class RatingEntry:
    """A member's skill rating (OpenSkill Plackett–Luce) and how many rated games it rests on."""

    member: int
    rating: SkillRating
    games: int


@dataclass(frozen=True)
class Stats:
    """``/flipflop stats``: one member in one server, from the stored rounds (computers: per seat)."""

    member: int
    games: int
    """Games begun (round 1 dealt in, R3)."""
    rounds: int
    wins: dict[str, int] = field(default_factory=dict)
    """Rounds won (the game pot) by each way in ``WAYS``."""
    game_pots: int = 0
    flip_pots: int = 0
    flop_pots: int = 0
    net: int = 0
    """What the member's games at tables moved to or from their balance (``_table_net``)."""
    biggest_pot: int | None = None
    drops: int = 0
    caught: int = 0
    """Drops that were caught (R7.2)."""
    rating: RatingEntry | None = None


def _limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise HistoryError("bad_limit", f"a limit is a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    return limit


async def history(
    db: Reader, guild_id: int, member: int | None = None, limit: int = 10
) -> list[RoundSummary]:
    """The server's (or one member's) latest recorded rounds, newest first."""
    check_guild(guild_id)
    _limit(limit)
    if member is None:
        rows = await db.fetchall(
            "SELECT id, table_id, number, ended_at, result FROM rounds WHERE guild_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
    else:
        rows = await db.fetchall(
            "SELECT r.id, r.table_id, r.number, r.ended_at, r.result FROM round_players p"
            " JOIN rounds r ON r.id = p.round_id"
            " WHERE p.guild_id = ? AND p.user_id = ? ORDER BY p.round_id DESC LIMIT ?",
            (guild_id, check_member(member), limit),
        )
    if not rows:
        return []
    seats = await _seats(db, [int(r[0]) for r in rows])
    return [
        RoundSummary(
            int(rid), table_id, int(number), float(ended_at), _end(result), tuple(seats.get(int(rid), []))
        )
        for rid, table_id, number, ended_at, result in rows
    ]


async def _seats(db: Reader, round_ids: list[int]) -> dict[int, list[SeatLine]]:
    marks = ", ".join("?" * len(round_ids))
    rows = await db.fetchall(
        "SELECT round_id, user_id, seat, net, won_game, won_flip, won_flop, way, dropped, caught"
        f" FROM round_seats WHERE round_id IN ({marks}) ORDER BY round_id, seat",
        round_ids,
    )
    by_round: dict[int, list[SeatLine]] = {}
    for rid, user_id, seat, net, game, flip, flop, way, dropped, caught in rows:
        won = {"game": game, "flip": flip, "flop": flop}
        by_round.setdefault(int(rid), []).append(
            SeatLine(int(user_id), seat, int(net), won, way, bool(dropped), bool(caught))
        )
    return by_round


def _end(result: str) -> str:
    end: str = json.loads(result)["rounds"][0]["end"]
    return end


async def round_story(db: Reader, guild_id: int, round_id: int) -> RoundStory | None:
    """A recorded round of this server, or None (no such round here — including another server's)."""
    check_guild(guild_id)
    if isinstance(round_id, bool) or not isinstance(round_id, int) or not 0 < round_id < 2**63:
        return None
    row = await db.fetchone(
        "SELECT table_id, number, ended_at, transcript, result, reveal, away FROM rounds"
        " WHERE id = ? AND guild_id = ?",
        (round_id, guild_id),
    )
    if row is None:
        return None
    table_id, number, ended_at, transcript_json, result_json, reveal_json, away_json = row
    members = {
        seat: int(user_id)
        for seat, user_id in await db.fetchall(
            "SELECT seat, user_id FROM round_seats WHERE round_id = ?", (round_id,)
        )
    }
    transcript = json.loads(transcript_json)
    reveal = json.loads(reveal_json) if reveal_json is not None else None
    seated = dict(members)
    # a player out of the game stays a seat of its later rounds, never dealt in: a member's seat id
    # is their id (``Table.pid``), a computer's (``-n``) is named as the table's earlier rounds named
    # it (only then is the table's history read, by the ``rounds_by_table`` index)
    missing = {str(s.get("id")) for s in transcript.get("seats", [])} - set(seated)
    seated |= {seat: int(seat) for seat in missing if seat.isdigit()}
    if any(seat.startswith("-") for seat in missing):
        for seat, user_id in await db.fetchall(
            "SELECT s.seat, s.user_id FROM round_seats s JOIN rounds r ON r.id = s.round_id"
            " WHERE r.guild_id = ? AND r.table_id = ? AND r.id < ? ORDER BY r.id DESC",
            (guild_id, table_id, round_id),
        ):
            seated.setdefault(seat, int(user_id))
    named = {seat: computer_seat(seat, member) for seat, member in seated.items()}
    outcome = round_outcome(transcript)
    events = outcome.events
    lines = story(events, named)
    if reveal is not None:
        transcript["reveal"] = reveal
    return RoundStory(
        round_id,
        table_id,
        int(number),
        float(ended_at),
        transcript,
        json.loads(result_json),
        reveal,
        lines,
        members,
        events,
        named,
        seated,
        {str(seat): tuple(int(i) for i in moves) for seat, moves in json.loads(away_json or "{}").items()},
        outcome.origins,
    )


_WAY_SUMS = ", ".join(f"SUM(CASE WHEN way = '{way}' THEN 1 ELSE 0 END)" for way in WAYS)


async def stats(db: Reader, guild_id: int, member: int) -> Stats:
    """A member's stats in this server; all zero (and no rating) for a member who never played here."""
    check_guild(guild_id)
    check_member(member)
    row = await db.fetchone(
        "SELECT COUNT(*), COALESCE(SUM(opening), 0), COUNT(won_game), COUNT(won_flip), COUNT(won_flop),"
        " COALESCE(SUM(net), 0), MAX(best_pot), COALESCE(SUM(dropped), 0), COALESCE(SUM(caught), 0),"
        f" {_WAY_SUMS}"
        " FROM round_seats WHERE guild_id = ? AND user_id = ?",
        (guild_id, member),
    )
    assert row is not None
    rounds, games, game_pots, flip_pots, flop_pots, net, biggest, drops, caught, *ways = row
    return Stats(
        member=member,
        games=int(games),
        rounds=int(rounds),
        wins={way: int(n or 0) for way, n in zip(WAYS, ways, strict=True)},
        game_pots=int(game_pots),
        flip_pots=int(flip_pots),
        flop_pots=int(flop_pots),
        net=await _table_net(db, guild_id, member) if member > 0 else int(net),
        biggest_pot=None if biggest is None else int(biggest),
        drops=int(drops),
        caught=int(caught),
        rating=await rating(db, guild_id, member),
    )


TABLE_REASONS: tuple[str, ...] = get_args(TableReason)
"""The ledger's reasons for chips moving between a balance and a table."""


async def known_here(db: Reader, guild_id: int, member: int) -> bool:
    """Whether ``member`` has a chips account or a recorded round in this server (one who left may)."""
    check_guild(guild_id)
    row = await db.fetchone(
        "SELECT 1 FROM accounts WHERE guild_id = ? AND user_id = ?"
        " UNION ALL SELECT 1 FROM round_players WHERE guild_id = ? AND user_id = ? LIMIT 1",
        (guild_id, check_member(member), guild_id, member),
    )
    return row is not None


async def _table_net(db: Reader, guild_id: int, member: int) -> int:
    """Chips a member's games at tables took from or gave to their balance: what stats call net.

    A closed table's part is its ledger entries (cash-outs and refunds less the buy-in), so the
    chips of the pots shared when a game ends between rounds (R8.3: the host stops it, the
    others leave) or of a round given up when a manager closes the table count too: a round's
    own net holds only what that round moved. A table still open counts its finished rounds so
    far. Tournament fees and prizes are not a table's: a tournament's results are on
    ``/leaderboard season:``. Computers have no ledger: their stats count their rounds.
    """
    row = await db.fetchone(TABLE_NET, table_net_params(guild_id, member))
    assert row is not None
    return int(row[0])


_OPEN_TABLES = "SELECT t.table_id FROM tables t WHERE t.guild_id = ? AND t.status != 'closed'"
_AT_TABLES = f"l.reason IN ({', '.join('?' * len(TABLE_REASONS))})"
TABLE_NET = (  # one statement, so one snapshot: a table closing meanwhile counts once, not twice
    "SELECT (SELECT COALESCE(SUM(s.net), 0) FROM round_seats s WHERE s.guild_id = ? AND s.user_id = ?"
    " AND s.round_id IN (SELECT r.id FROM rounds r WHERE r.guild_id = ?"
    f" AND r.table_id IN ({_OPEN_TABLES})))"
    " + (SELECT COALESCE(SUM(l.change), 0) FROM ledger l WHERE l.guild_id = ? AND l.user_id = ?"
    f" AND {_AT_TABLES} AND l.reference IS NOT NULL)"
    " - (SELECT COALESCE(SUM(l.change), 0) FROM tables t JOIN ledger l ON l.reference = t.table_id"
    f" WHERE t.guild_id = ? AND t.status != 'closed' AND l.guild_id = ? AND l.user_id = ? AND {_AT_TABLES})"
)
"""A member's net chips at tables (``_table_net``): open tables' rounds, closed tables' ledger entries.

Read from the server's few open tables (``tables_open_by_guild``), never by looking up the table of
each of the member's rounds: the rounds' nets at the open tables, plus every table entry of the
member's in the ledger (``ledger_at_tables``, an index range) less the open tables' entries. What
is left of the ledger is exactly the closed tables' entries because every round and every table
entry is written in the transaction that saves its table's row, in the table's server
(``OpenTables.commit``: a lobby's first entry, the host's buy-in, with its first save; and
``close_unreadable``), and no table's row is ever deleted: no round or entry names a table
that has no row, or one of another server."""


def table_net_params(guild_id: int, member: int) -> tuple[int | str, ...]:
    """``TABLE_NET``'s parameters (the benchmark explains it with the same)."""
    entries: tuple[int | str, ...] = (guild_id, member, *TABLE_REASONS)
    return (guild_id, member, guild_id, guild_id, *entries, guild_id, *entries)


async def rating(db: Reader, guild_id: int, member: int) -> RatingEntry | None:
    """A member's rating in this server, or None before their first finished game."""
    check_guild(guild_id)
    row = await db.fetchone(
        "SELECT mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id = ?",
        (guild_id, check_member(member)),
    )
    return None if row is None else RatingEntry(member, SkillRating(row[0], row[1]), int(row[2]))


async def leaderboard_by_rating(db: Reader, guild_id: int, limit: int = 10) -> list[RatingEntry]:
    """``/leaderboard by:rating``: the server's best-rated human members, highest ordinal (μ − 3σ) first."""
    check_guild(guild_id)
    rows = await db.fetchall(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id > 0"
        " ORDER BY ordinal DESC, user_id LIMIT ?",
        (guild_id, _limit(limit)),
    )
    return [RatingEntry(int(u), SkillRating(mu, sigma), int(games)) for u, mu, sigma, games in rows]


async def rating_place(db: Reader, guild_id: int, member: int) -> tuple[int, int] | None:
    """(place, rated members) on ``/leaderboard by:rating``: 1 is the best; ties share a place.

    None before the member's first finished game (no rating, so no place).
    """
    check_guild(guild_id)
    row = await db.fetchone(
        "SELECT (SELECT COUNT(*) FROM ratings r WHERE r.guild_id = ? AND r.user_id > 0"
        "        AND r.ordinal > me.ordinal) + 1,"
        "       (SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND user_id > 0)"
        " FROM ratings me WHERE me.guild_id = ? AND me.user_id = ?",
        (guild_id, guild_id, guild_id, check_member(member)),
    )
    return None if row is None else (int(row[0]), int(row[1]))


@dataclass(frozen=True)
class SeasonEntry:
    """One member's season: chips won (net over its rounds), rounds won (game pots), rating change."""

    member: int
    chips: int
    rounds_won: int
    rounds: int
    rating_change: float


SEASON_ORDERS = ("chips", "rating")


async def _season_seats(db: Reader, guild_id: int, start: float, end: float) -> list[Row]:
    """(member, chips won, rounds won, rounds) for the server's rounds that ended in [start, end).

    Round ids grow as rounds are recorded, so a season's rounds are nearly always one range of
    the server's ids; then the seats are one range scan of ``round_seats_for_seasons``. When
    the range also holds a round that ended outside the season (two tables ending rounds a
    moment apart across the boundary, or a clock set back), each round is read by id instead.
    """
    row = await db.fetchone(
        "SELECT MIN(id), MAX(id), COUNT(*) FROM rounds WHERE guild_id = ? AND ended_at >= ? AND ended_at < ?",
        (guild_id, start, end),
    )
    if row is None or not row[2]:
        return []
    first, last, count = int(row[0]), int(row[1]), int(row[2])
    spanned = await db.fetchone(
        "SELECT COUNT(*) FROM rounds WHERE guild_id = ? AND id >= ? AND id <= ?", (guild_id, first, last)
    )
    if spanned is not None and int(spanned[0]) == count:
        return await db.fetchall(
            "SELECT user_id, SUM(net), COUNT(won_game), COUNT(*) FROM round_seats"
            " WHERE guild_id = ? AND round_id >= ? AND round_id <= ? AND user_id > 0 GROUP BY user_id",
            (guild_id, first, last),
        )
    return await db.fetchall(
        "SELECT s.user_id, SUM(s.net), COUNT(s.won_game), COUNT(*) FROM rounds r"
        " JOIN round_seats s ON s.guild_id = r.guild_id AND s.round_id = r.id"
        " WHERE r.guild_id = ? AND r.ended_at >= ? AND r.ended_at < ? AND s.user_id > 0"
        " GROUP BY s.user_id",
        (guild_id, start, end),
    )


"""What a season's leaderboard ranks by: chips won, or rating change."""


async def season_leaderboard(
    db: Reader, guild_id: int, start: float, end: float, by: str = "chips", limit: int = 10
) -> list[SeasonEntry]:
    """The server's human members ranked for the time ``start`` ≤ t < ``end`` (a season).

    Chips won and rounds won come from the rounds that ended in it (``round_seats``,
    read by round through the ``rounds_by_time`` index, no second ledger); the rating
    change is the sum of the changes of the games rated in it (``rating_changes``). A
    member who only appears in one of the two has zero in the other. Ties: the other
    figure, then the member id. Empty when nothing was played in the season.
    """
    check_guild(guild_id)
    _limit(limit)
    if by not in SEASON_ORDERS:
        raise HistoryError("bad_order", f"a season is ranked by {' or '.join(SEASON_ORDERS)}, not {by!r}")
    if not start < end:
        raise HistoryError("bad_season", f"a season starts before it ends, not {start!r} to {end!r}")
    played = await _season_seats(db, guild_id, float(start), float(end))
    rated = await db.fetchall(
        "SELECT user_id, SUM(ordinal_after - ordinal_before) FROM rating_changes"
        " WHERE guild_id = ? AND rated_at >= ? AND rated_at < ? AND user_id > 0 GROUP BY user_id",
        (guild_id, float(start), float(end)),
    )
    entries: dict[int, SeasonEntry] = {
        int(u): SeasonEntry(int(u), int(net), int(won), int(n), 0.0) for u, net, won, n in played
    }
    for u, change in rated:
        old = entries.get(int(u), SeasonEntry(int(u), 0, 0, 0, 0.0))
        entries[int(u)] = SeasonEntry(old.member, old.chips, old.rounds_won, old.rounds, float(change))
    if by == "chips":
        order = sorted(entries.values(), key=lambda e: (-e.chips, -e.rating_change, e.member))
    else:
        order = sorted(entries.values(), key=lambda e: (-e.rating_change, -e.chips, e.member))
    return order[:limit]


DUMPING_ROUNDS = 5000
"""The latest rounds of a server the chip-dumping report reads (``bot.dumping``), tournament tables' too."""


async def played_rounds(db: Reader, guild_id: int, limit: int = DUMPING_ROUNDS) -> list[PlayedRound]:
    """A server's latest ``limit`` rounds as ``bot.dumping`` reads them: each seat's net, pot, drop.

    Its tables' rounds (``round_seats``) and its tournament tables' (``tournament_round_seats``:
    nets in tournament chips, ``PlayedRound.tournament``) count together, one round each: the
    latest ``limit`` of both by the time they ended, oldest first (at the same time, a table's
    round before a tournament table's).
    """
    check_guild(guild_id)
    both = [*await _table_rounds(db, guild_id, limit), *await _tournament_rounds(db, guild_id, limit)]
    both.sort(key=lambda ended: ended[0])  # stable: each kind stays in its own order at a tie
    return [r for _, r in both[max(0, len(both) - limit) :]]


async def _table_rounds(db: Reader, guild_id: int, limit: int) -> list[tuple[float, PlayedRound]]:
    """The server's latest ``limit`` rounds at its tables, by id, with the time each ended."""
    first = await db.fetchone(
        "SELECT MIN(id) FROM (SELECT id FROM rounds WHERE guild_id = ? ORDER BY id DESC LIMIT ?) latest",
        (guild_id, limit),
    )
    if first is None or first[0] is None:
        return []
    rows = await db.fetchall(
        "SELECT s.round_id, r.table_id, r.ended_at, s.user_id, s.net, s.won_game, s.caught FROM round_seats s"
        " JOIN rounds r ON r.id = s.round_id WHERE s.guild_id = ? AND s.round_id >= ?"
        " ORDER BY s.round_id, s.seat",
        (guild_id, int(first[0])),
    )
    return _grouped([(int(i), str(t), float(at), seat) for i, t, at, *seat in rows], tournament=False)


async def _tournament_rounds(db: Reader, guild_id: int, limit: int) -> list[tuple[float, PlayedRound]]:
    """The server's latest ``limit`` rounds at tournament tables, by the time they ended.

    Read newest first, at most ``limit`` rounds of ``max_players`` seats: those rounds are whole;
    an older one the limit cut short is left out.
    """
    rows = await db.fetchall(
        "SELECT tournament_id, round_number, table_id, ended_at, user_id, net, won_game, caught"
        " FROM tournament_round_seats WHERE guild_id = ?"
        " ORDER BY ended_at DESC, table_id DESC, seat DESC LIMIT ?",
        (guild_id, max(0, limit) * HOUSE_RULES.max_players),
    )
    seats = [(int(n), str(tid), float(at), [t, *seat]) for tid, n, t, at, *seat in reversed(rows)]
    rounds = _grouped(seats, tournament=True)
    return rounds[max(0, len(rounds) - limit) :]


def _grouped(
    rows: list[tuple[int, str, float, list[Any]]], tournament: bool
) -> list[tuple[float, PlayedRound]]:
    """Seat rows as rounds, each with the time it ended: a round's seats are next to each other.

    A row: the round's ``round_id`` and ``table_id`` (a tournament's round number and the
    tournament), when it ended, and its seat's [table dealt (tournament only),] member, net, game
    pot won and caught drop.
    """
    out: list[tuple[float, PlayedRound]] = []
    keys: list[tuple[object, ...]] = []
    for round_id, table_id, ended_at, row in rows:
        *dealt, user_id, net, won_game, caught = row
        key = (round_id, table_id, *dealt)
        seat = SeatRound(int(user_id), int(net), None if won_game is None else int(won_game), bool(caught))
        if keys and keys[-1] == key:
            last = out[-1][1]
            out[-1] = (ended_at, PlayedRound(round_id, table_id, (*last.seats, seat), tournament))
        else:
            keys.append(key)
            out.append((ended_at, PlayedRound(round_id, table_id, (seat,), tournament)))
    return out
