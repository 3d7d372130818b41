"""Words for stored history: who a recorded member is, a round's story line by line, stats.

``bot.history`` hands out data (member ids, a round's replayed events, ``Stats``);
this module words it for Discord, as short lines, a round's events in the words the
live table used (``bot.presentation.event_words``). Members are
mentions (sent with mentions switched off), computer levels their label.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.history import RoundSummary, Stats, computer_level
from bot.history.members import computer_seat
from bot.history.queries import RoundStory
from bot.i18n import N_, Texts
from bot.presentation import event_words
from bot.presentation.computer_names import computer_name, level_name
from bot.presentation.event_words import POT_NAME, Telling, away_named
from bot.presentation.render import plain, plain_cards
from bot.privacy import PSEUDONYM_FLOOR
from engine.cards import sort_key
from engine.events import POTS, Event, GameOver, NextDealer, RoundStarted

END_WORD = {
    "out": N_("went out"),
    "tonk": N_("tonk out"),
    "drop": N_("drop"),
    "caught": N_("caught drop"),
    "stock": N_("stock ran out"),
    "fifty": N_("50 at the deal"),
    "forty_nine": N_("49 at the deal"),
}
"""How a round ended (``bot.history.WAYS``), in a word or three (translated where shown)."""



def _end(reason: str, t: Texts) -> str:
    return t.gettext(END_WORD[reason]) if reason in END_WORD else reason


def _pot(pot: str, t: Texts) -> str:
    return t.gettext(POT_NAME[pot]) if pot in POT_NAME else pot


COMPUTER_SEAT = re.compile(r"([a-z]+)#(\d+)")
"""A computer seat in a round's story (``bot.history.computer_seat``): its level and number."""


def who(member: int | str, t: Texts) -> str:
    """A recorded member: a mention for a person, ``🤖 Basic 2`` for a computer seat, else its level."""
    if isinstance(member, str) and (seat := COMPUTER_SEAT.fullmatch(member)):
        return computer_name(seat[1], int(seat[2]), t)
    if isinstance(member, int):
        level = computer_level(member)
        if level is not None:
            return f"🤖 {level_name(level, t)}"
        if member <= PSEUDONYM_FLOOR:  # a member who asked to be forgotten: no mention, no name
            return f"👤 {str(member)[-4:]}"
        return f"<@{member}>"
    return str(member)


def story_lines(found: RoundStory, t: Texts, only: tuple[type[Event], ...] = ()) -> list[str]:
    """The round turn by turn, in the words the live table used; the hands as they were come at its end.

    Each event is worded by ``bot.presentation.event_words`` (as the table's log and last
    move said it), every seat named as history names it (``who``), and a card drawn from the
    stock named too: the round is over. A move the computer made for an away member names their
    seat with 💤, as the live table's log did (``RoundStory.away``; a round stored before that
    was kept has none). The deal carries the table's round number: the stored
    transcript replays the round on its own, so the engine counts it as round 1. It names no next
    dealer: the stored round can't tell who left after it (the next round's deal says who dealt).
    ``only``: the lines of these kinds of event alone (``PotPaid``: who won which pot).
    """
    deal = next((i for i, e in enumerate(found.events) if isinstance(e, RoundStarted)), len(found.events))
    origins = found.origins or (None,) * len(found.events)  # each event's action, when known
    by_computer = {i: seat for seat, moves in found.away.items() for i in moves}
    batches: list[tuple[str | None, list[Event]]] = []  # consecutive events, and the seat played for
    for e, origin in zip(found.events[deal:], origins[deal:], strict=True):
        if isinstance(e, NextDealer) or (only and not isinstance(e, only)):
            continue
        played_for = by_computer.get(origin) if origin is not None else None
        if not batches or batches[-1][0] != played_for:
            batches.append((played_for, []))
        batches[-1][1].append(replace(e, number=found.number) if isinstance(e, RoundStarted) else e)

    def told(played_for: str | None) -> Telling:
        return Telling(
            t,
            name=lambda seat: away_named(who(found.named.get(seat, seat), t), seat == played_for),
            who=lambda seat: who(found.named.get(seat, seat), t),
            card=lambda c: plain(c, t),
            cards=lambda cs: plain_cards(sorted(cs, key=sort_key), t),
            stacks=found.result.get("stacks", {}),
            game_ends=any(isinstance(e, GameOver) for e in found.events),
            open_cards=True,
        )

    return [line for played_for, events in batches for line in event_words.story(events, told(played_for))]


def players_line(found: RoundStory, t: Texts) -> str:
    """Who played the round, each once; a seat away for some of it marked 💤, as the live table marks it."""
    named = (
        away_named(who(found.named.get(seat, member), t), seat in found.away)
        for seat, member in found.members.items()
    )
    return " ".join(dict.fromkeys(named))


def history_line(summary: RoundSummary, t: Texts) -> str:
    """One recorded round: id, when, how it ended, who won which pot, who played."""
    named = {s.seat: who(computer_seat(s.seat, s.member), t) for s in summary.seats}  # as the table did
    pots = []
    for pot in POTS:
        winners = [named[s.seat] for s in summary.seats if s.won[pot] is not None]
        won = " & ".join(winners) if winners else t.gettext("carried")
        pots.append(f"{_pot(pot, t)}: {won}")
    players = " ".join(dict.fromkeys(named.values()))
    head = t.gettext("`#{id}` {when} · round {number} at table `{table}` · {end} · {pots}").format(
        id=summary.round_id,
        when=f"<t:{int(summary.ended_at)}:R>",
        number=t.number(summary.number),
        table=summary.table_id,
        end=_end(summary.end, t),
        pots=" · ".join(pots),
    )
    return f"{head}\n  {players}"


def stats_text(member: int, s: Stats, t: Texts, name: str | None = None) -> str:
    """``/flipflop stats``: a member's record here, and their rating as its ordinal (μ − 3σ).

    ``name`` (written out) names one who left the server, whom a mention may not show.
    """
    shown = who(member, t) if name is None else name
    if s.rounds == 0:  # a tournament's rounds are not stored, but its games are rated
        none = t.gettext("{member} hasn't finished a round of Flip Flop in this server yet.")
        return "\n".join([none.format(member=shown), *([_rating_line(s, t)] if s.rating else [])])
    wins, n = s.wins, t.number
    ways = t.gettext(
        "out {out} · tonk {tonk} · drop {drop} · caught drop {caught} · stock {stock} · 49/50 {deal}"
    ).format(
        out=n(wins["out"]),
        tonk=n(wins["tonk"]),
        drop=n(wins["drop"]),
        caught=n(wins["caught"]),
        stock=n(wins["stock"]),
        deal=n(wins["fifty"] + wins["forty_nine"]),
    )
    biggest = t.chips(s.biggest_pot) if s.biggest_pot is not None else t.gettext("none yet")
    net = ("+" if s.net >= 0 else "") + n(s.net)
    lines = [
        t.gettext("📊 **{member}** in this server").format(member=shown),
        t.ngettext(
            "Games **{games}** · rounds **{rounds}** · net **{net}** chip",
            "Games **{games}** · rounds **{rounds}** · net **{net}** chips",
            abs(s.net),
        ).format(games=n(s.games), rounds=n(s.rounds), net=net),
        t.gettext("Rounds won: {ways}").format(ways=ways),
        t.gettext("Pots won: game {game} · flip {flip} · flop {flop} · biggest {biggest}").format(
            game=n(s.game_pots), flip=n(s.flip_pots), flop=n(s.flop_pots), biggest=biggest
        ),
        t.gettext("Drops {drops}, caught {caught}").format(drops=n(s.drops), caught=n(s.caught)),
    ]
    lines.append(_rating_line(s, t))
    return "\n".join(lines)


def _rating_line(s: Stats, t: Texts) -> str:
    """The rating as ``/flipflop stats`` shows it: its ordinal (μ − 3σ), or none yet."""
    if s.rating is None:
        return t.gettext("Rating: none yet (it comes with the first finished game)")
    r = s.rating.rating
    return t.ngettext(
        "Rating **{rating}** (μ {mu} − 3 × σ {sigma}; {count} rated game)",
        "Rating **{rating}** (μ {mu} − 3 × σ {sigma}; {count} rated games)",
        s.rating.games,
    ).format(
        rating=t.decimal(r.ordinal),
        mu=t.decimal(r.mu),
        sigma=t.decimal(r.sigma, 2),
        count=t.number(s.rating.games),
    )
