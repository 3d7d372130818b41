"""Writing history: a finished round (append-only) and a finished game's ratings.

And a tournament table's finished round, which is not history (tournament chips), for the
chip-dumping report alone (``record_tournament_round``). Each runs inside the caller's
transaction — the one of the action that ended the round or the game — so the round, its
derived rows, the chips and the table's save commit together or not at all. Every check is
made before the first write, so a refusal leaves the transaction as it was.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from bot.fair_deal import Reveal
from bot.history.members import HistoryError, check_guild, check_member
from bot.history.outcome import RoundOutcome, SeatOutcome, replayable, round_outcome
from bot.ratings import DEFAULT_RATING, Finish, RatingError, SkillRating, rate_game, standings
from bot.storage import Tx

INSERT_SEAT = (
    "INSERT INTO round_seats (guild_id, user_id, round_id, seat, opening, net, won_game, won_flip,"
    " won_flop, best_pot, way, dropped, caught) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
"""One ``round_seats`` row; its values come from ``seat_row``."""


def seat_row(guild_id: int, member: int, round_id: int, number: int, s: SeatOutcome) -> tuple[object, ...]:
    """The ``round_seats`` row of one dealt-in seat (``INSERT_SEAT``'s values, in order)."""
    return (
        guild_id,
        member,
        round_id,
        s.seat,
        int(number == 1),
        s.net,
        s.won["game"],
        s.won["flip"],
        s.won["flop"],
        s.best_pot,
        s.way,
        int(s.dropped),
        int(s.caught),
    )


async def record_round(
    tx: Tx,
    guild_id: int,
    table_id: str,
    number: int,
    ended_at: float,
    transcript: Mapping[str, Any],
    members: Mapping[str, int],
    *,
    reveal: Mapping[str, Any] | None = None,
    away: Mapping[str, Sequence[int]] | None = None,
) -> int:
    """Store a finished round and what each seat's round came to; return the round's id.

    ``transcript`` is ``Game.round_transcript()`` taken after the round ended
    (stored as ``replayable`` makes it);
    ``members`` maps its seat ids to Discord user ids (computers: their
    level's ``COMPUTER_MEMBERS`` id); ``number`` is the table's round number
    (1 opens a game); ``reveal`` is ``Reveal.public()`` of the round's fair
    deal, checked against the deck dealt before it is stored; ``away`` the seats that were away
    for some of the round (their members' seats played by the computer), each with the indices of
    its transcript actions the computer made for it (``Table.away_moves``), stored beside the
    transcript (whose format stays docs/TRANSCRIPT.md's). Raises ``HistoryError`` and writes
    nothing for bad input (see its codes).
    """
    transcript, outcome, who = _checked_round(guild_id, table_id, number, ended_at, transcript, members)
    revealed = _checked_reveal(reveal, number, transcript) if reveal is not None else None
    away_json = _checked_away(away, transcript, {s.seat for s in outcome.seats}) if away else None
    row = await tx.fetchone(
        "INSERT INTO rounds (guild_id, table_id, number, ended_at, transcript, result, reveal, away)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            table_id,
            number,
            float(ended_at),
            json.dumps(transcript, separators=(",", ":")),
            json.dumps(outcome.result, separators=(",", ":")),
            revealed,
            away_json,
        ),
    )
    assert row is not None
    round_id = int(row[0])
    await tx.executemany(
        "INSERT INTO round_players (round_id, guild_id, user_id) VALUES (?, ?, ?)",
        [(round_id, guild_id, member) for member in dict.fromkeys(who.values())],
    )
    await tx.executemany(
        INSERT_SEAT, [seat_row(guild_id, who[s.seat], round_id, number, s) for s in outcome.seats]
    )
    return round_id


def _checked_round(
    guild_id: int,
    table_id: str,
    number: int,
    ended_at: float,
    transcript: Mapping[str, Any],
    members: Mapping[str, int],
) -> tuple[dict[str, Any], RoundOutcome, dict[str, int]]:
    """A finished round's replayable transcript, what it came to, and each dealt-in seat's member.

    Raises ``HistoryError`` for bad input (see its codes).
    """
    check_guild(guild_id)
    if not isinstance(table_id, str) or not table_id:
        raise HistoryError("bad_round", "a round belongs to a table: table_id is a non-empty text")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise HistoryError("bad_round", f"a round number is a whole number from 1, not {number!r}")
    if isinstance(ended_at, bool) or not isinstance(ended_at, int | float) or not math.isfinite(ended_at):
        raise HistoryError("bad_round", f"ended_at is a time in seconds, not {ended_at!r}")
    if not isinstance(transcript, Mapping):
        raise HistoryError("bad_transcript", "a transcript is a JSON object with stake, seats and rounds")
    played = replayable(transcript)
    outcome = round_outcome(played)
    missing = [s.seat for s in outcome.seats if s.seat not in members]
    if missing:
        raise HistoryError("unknown_seat", f"no member given for seat(s) {', '.join(missing)}")
    return played, outcome, {s.seat: check_member(members[s.seat]) for s in outcome.seats}


async def record_tournament_round(
    tx: Tx,
    guild_id: int,
    tournament_id: str,
    table_id: str,
    number: int,
    ended_at: float,
    transcript: Mapping[str, Any],
    members: Mapping[str, int],
) -> None:
    """Store what each seat of a tournament table's finished round came to, for the chip-dumping report.

    Not history: tournament chips are not server chips, so the round reaches neither ``rounds`` nor
    ``round_seats`` (stats, seasons, leaderboards, ratings, replays); ``tournament_round_seats`` keeps
    only what ``bot.dumping`` reads of each dealt-in seat (net in tournament chips, the game pot
    won, a caught drop). ``table_id`` is the table dealt for that round, ``number`` the
    tournament's round; ``transcript`` and ``members`` are as in ``record_round``. Raises
    ``HistoryError`` and writes nothing for bad input.
    """
    if not isinstance(tournament_id, str) or not tournament_id:
        raise HistoryError("bad_round", "a tournament round belongs to a tournament: a non-empty text id")
    _, outcome, who = _checked_round(guild_id, table_id, number, ended_at, transcript, members)
    await tx.executemany(
        "INSERT INTO tournament_round_seats (tournament_id, round_number, seat, guild_id, user_id, table_id,"
        " ended_at, net, won_game, caught) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                tournament_id,
                number,
                s.seat,
                guild_id,
                who[s.seat],
                table_id,
                float(ended_at),
                s.net,
                s.won["game"],
                int(s.caught),
            )
            for s in outcome.seats
        ],
    )


def _checked_away(
    away: Mapping[str, Sequence[int]], transcript: Mapping[str, Any], dealt: set[str]
) -> str:
    """The away seats as stored JSON, once each is a seat dealt in and each index one of its actions."""
    actions = transcript["rounds"][0]["actions"]
    kept: dict[str, list[int]] = {}
    for seat, moves in away.items():
        if seat not in dealt:
            raise HistoryError("bad_away", f"seat {seat!r} away, but not dealt into the round")
        if isinstance(moves, str | bytes) or not isinstance(moves, Sequence):
            raise HistoryError("bad_away", f"seat {seat!r}: its moves are a list of action indices")
        for i in moves:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(actions):
                raise HistoryError("bad_away", f"seat {seat!r}: {i!r} is not an action of the round")
            if str(actions[i][0]) != seat:
                raise HistoryError("bad_away", f"action {i} is {actions[i][0]!r}'s, not seat {seat!r}'s")
        kept[str(seat)] = sorted(set(moves))
    return json.dumps(kept, separators=(",", ":"))


def _checked_reveal(reveal: Mapping[str, Any], number: int, transcript: Mapping[str, Any]) -> str:
    """The reveal as stored JSON, once it proves the deck dealt (commit–reveal, docs/FAIRNESS.md)."""
    try:
        seeds = Reveal(**reveal)
        verification = seeds.check(transcript["rounds"][0]["deck"])
    except (TypeError, ValueError) as error:
        raise HistoryError("bad_reveal", f"not a revealed seed: {error}") from None
    if seeds.round != number:
        raise HistoryError("bad_reveal", f"the seed revealed is round {seeds.round}'s, not round {number}'s")
    if not verification.ok:
        raise HistoryError("bad_reveal", "the revealed seed does not produce the deck that was dealt")
    return json.dumps(seeds.public(), separators=(",", ":"))


async def record_game(
    tx: Tx,
    guild_id: int,
    finishes: Sequence[Finish],
    members: Mapping[str, int],
    now: float,
) -> dict[int, SkillRating]:
    """Update the ratings of everyone in a finished game from its standings; return the new ratings.

    ``finishes`` are the players' finishes (``bot.ratings.standings`` ranks
    them: chips taken away, then the later last round, R8.3); ``members`` maps
    their seat ids to members as in ``record_round``. A computer level in two
    seats is rated once, on its better finish. A game with fewer than two
    distinct members rates no one (returns ``{}``).

    Each member's rating before and after is kept in ``rating_changes`` (a season's rating
    change is their sum over its games, ``bot.history.seasons``).

    Each member's row is locked (an upsert that touches it) in user-id order
    before it is read, so two games ending at once in one server — they may
    share a computer pseudo-member — queue instead of losing an update, and
    can not deadlock. Raises ``HistoryError`` for bad finishes or members.
    """
    check_guild(guild_id)
    try:
        places = standings(finishes)
    except RatingError as error:
        raise HistoryError(error.code, str(error)) from None
    missing = [seat for seat in places if seat not in members]
    if missing:
        raise HistoryError("unknown_seat", f"no member given for seat(s) {', '.join(missing)}")
    best: dict[int, int] = {}
    for seat, place in places.items():
        member = check_member(members[seat])
        best[member] = min(place, best.get(member, place))
    if len(best) < 2:
        return {}
    order = sorted(best)
    before: dict[str, SkillRating] = {}
    for member in order:
        row = await tx.fetchone(
            "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, user_id)"
            " DO UPDATE SET games = ratings.games RETURNING mu, sigma",
            (guild_id, member, DEFAULT_RATING.mu, DEFAULT_RATING.sigma, DEFAULT_RATING.ordinal, float(now)),
        )
        assert row is not None
        before[str(member)] = SkillRating(row[0], row[1])
    after = rate_game({str(member): place for member, place in best.items()}, before)
    for member in order:
        rated = after[str(member)]
        await tx.execute(
            "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = games + 1, updated_at = ?"
            " WHERE guild_id = ? AND user_id = ?",
            (rated.mu, rated.sigma, rated.ordinal, float(now), guild_id, member),
        )
    await tx.executemany(
        "INSERT INTO rating_changes (guild_id, user_id, rated_at, ordinal_before, ordinal_after)"
        " VALUES (?, ?, ?, ?, ?)",
        [(guild_id, m, float(now), before[str(m)].ordinal, after[str(m)].ordinal) for m in order],
    )
    return {member: after[str(member)] for member in order}
