"""Who a stored row is about: Discord members, and one pseudo-member per computer level.

Computer seats have negative ids that belong to one table; stats and
ratings need an identity that lasts. So each computer level is rated and
counted as one pseudo-member per server with a fixed negative id (two
``basic`` computers at one table are two seats of the same pseudo-member).
Human members are Discord user ids, always positive, so "humans only" is
``user_id > 0`` in SQL.
"""

from __future__ import annotations

COMPUTER_MEMBERS: dict[str, int] = {"random": -1, "basic": -2, "strong": -3}
"""Each computer level's pseudo-member id (engine/ai/strategies.py names the levels)."""

_LEVELS = {member: level for level, member in COMPUTER_MEMBERS.items()}


class HistoryError(ValueError):
    """A history call that can not be done; ``code`` names the reason, the message explains it.

    Codes: ``bad_guild``, ``bad_member``, ``bad_limit``, ``bad_round`` (arguments);
    ``bad_transcript`` (not a one-round transcript), ``illegal_transcript``
    (an action the rules refuse), ``round_not_over`` (a round still in play is
    never recorded), ``unknown_seat`` (a seat missing from ``members``),
    ``bad_reveal`` (a revealed seed that does not belong to the round), ``bad_away`` (an away
    seat not dealt in, or a move named that is not one of its actions);
    ``bad_finish`` (``record_game``: standings ``bot.ratings`` refuses);
    ``bad_order``, ``bad_season`` (``season_leaderboard``: what to rank by, its time range).
    Nothing was written when one is raised.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def computer_member(level: str) -> int:
    """The pseudo-member id of a computer level; ``HistoryError('bad_member')`` for an unknown one."""
    try:
        return COMPUTER_MEMBERS[level]
    except KeyError:
        raise HistoryError(
            "bad_member", f"{level!r} is not a computer level ({', '.join(COMPUTER_MEMBERS)})"
        ) from None


def computer_level(member: int) -> str | None:
    """The level a pseudo-member stands for, or None for a human member."""
    return _LEVELS.get(member)


def check_guild(guild_id: object) -> int:
    """A server id is a positive whole number."""
    if isinstance(guild_id, bool) or not isinstance(guild_id, int) or guild_id <= 0:
        raise HistoryError("bad_guild", f"a server id is a positive whole number, not {guild_id!r}")
    return guild_id


def check_member(member: object) -> int:
    """A Discord user id (positive) or a computer level's pseudo id (``COMPUTER_MEMBERS``)."""
    if isinstance(member, bool) or not isinstance(member, int) or (member <= 0 and member not in _LEVELS):
        raise HistoryError(
            "bad_member",
            f"a member is a Discord user id or a computer level's id {sorted(_LEVELS)}, not {member!r}",
        )
    return member


def computer_seat(seat: str, member: int) -> int | str:
    """How a round's story names a seat: a member id, or ``basic#2`` for a computer seat.

    A computer level is one pseudo-member, so two computers of a level would read the
    same; the seat id ``-n`` says it was the table's n-th computer, as it was named there.
    """
    level = computer_level(member)
    return member if level is None else f"{level}#{abs(int(seat))}"
