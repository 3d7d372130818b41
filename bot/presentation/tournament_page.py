"""A tournament's one message as a Components V2 page: entries, then standings kept current, then prizes.

Words only: the tournament is ``bot.tournament.model``'s data, the reader's
language is ``t`` (the server's: the message is public) and the cog layer adds
the buttons (``cogs.flipflop.tournament``). Tournament chips are written as
plain numbers ("stack 1,250"), never as the server's chips; fees and prizes
are server chips (``t.chips``).
"""

from __future__ import annotations

from bot.i18n import N_, Texts
from bot.i18n.mentions import member
from bot.presentation.computer_names import computer_name
from bot.presentation.table_layout import Page, fit_page
from bot.presentation.table_render import BETWEEN, GREEN, OVER, PLAYING
from bot.privacy import PSEUDONYM_FLOOR
from bot.tournament.model import STARTING_STACK, Tournament
from bot.tournament.payouts import PAYOUTS, place_prizes

PAYOUT_NAMES = {
    "winner": N_("winner takes all"),
    "65_35": N_("65% / 35%"),
    "50_30_20": N_("50% / 30% / 20%"),
}
"""How each payout table (``bot.tournament.payouts.PAYOUTS``) reads."""
STOP_RULE = N_(
    "If it can't go on (no member left in it, or the host or an admin stops it),"
    " the players still in are placed by their stacks and the prizes are paid by those places."
    " Its host can stop it only before the first round is in; an admin, at any time."
)
SHOWN_OUT = 12
"""Players out listed by name (the rest are counted): the page stays within Discord's limits."""


def entrant_name(tour: Tournament, entrant: int, t: Texts) -> str:
    """A member's name as they joined, or the computer's (the house's players are ``🤖 Basic n``).

    A member who asked to be forgotten after it ended is a pseudonym (``bot.privacy``): no name.
    """
    if entrant <= PSEUDONYM_FLOOR:
        return f"👤 {str(entrant)[-4:]}"
    if entrant < 0:
        return computer_name("basic", -entrant, t)
    return tour.names.get(entrant) or member(entrant)


def payout_name(payout: str, t: Texts) -> str:
    """The payout table's name in ``t``'s language."""
    return t.gettext(PAYOUT_NAMES[payout]) if payout in PAYOUT_NAMES else payout


def _about(tour: Tournament, t: Texts) -> str:
    s = tour.settings
    head = t.gettext("Entry fee **{fee}** · {seats} seats · prizes {payout} (pool {pool})").format(
        fee=t.chips(s.fee),
        seats=t.number(s.seats),
        payout=payout_name(s.payout, t),
        pool=t.chips(s.fee * s.seats),
    )
    if s.start_at is not None:
        when = t.gettext("Starts {time}, with whoever has joined.").format(time=f"<t:{int(s.start_at)}:R>")
    else:
        when = t.gettext("Starts when every seat is taken (or when the host clicks Start).")
    who = (
        t.gettext("Computer players fill the empty seats at the start; the house pays their fees.")
        if s.computers
        else t.gettext("Members only: no computer players.")
    )
    rule = t.ngettext(  # one: "rises every round", never "every 1 rounds"
        "Everyone starts with {stack} tournament chips; they are not server chips. Only the entry fee"
        " leaves your balance, and prizes come back to it. The stake starts at {stake} and rises every"
        " round; a stack that can't pay the stake is out.",
        "Everyone starts with {stack} tournament chips; they are not server chips. Only the entry fee"
        " leaves your balance, and prizes come back to it. The stake starts at {stake} and rises every"
        " {rounds} rounds; a stack that can't pay the stake is out.",
        s.level_rounds,
    ).format(
        stack=t.number(STARTING_STACK), stake=t.number(tour.stake), rounds=t.number(s.level_rounds)
    )
    return f"{head}\n{when} {who}\n-# {rule}\n-# {t.gettext(STOP_RULE)}"


def _entries(tour: Tournament, t: Texts) -> str:
    heading = t.gettext("Entered ({entered}/{seats})").format(
        entered=t.number(len(tour.entrants)), seats=t.number(tour.settings.seats)
    )
    names = [
        (
            t.gettext("{number}. **{name}** (host)")
            if e == tour.host_id
            else t.gettext("{number}. **{name}**")
        ).format(number=t.number(i), name=entrant_name(tour, e, t))
        for i, e in enumerate(tour.entrants, start=1)
    ]
    return f"**{heading}**\n" + ("\n".join(names) or "—")


def _place(number: int, t: Texts) -> str:
    """A place at the start of a line, its dot escaped (a backslash): Discord renumbers a list.

    Players sharing a place must read the same number, not "1. 2. 3." as a list would show.
    """
    return t.number(number) + "\\"


def _standings(tour: Tournament, t: Texts) -> str:
    heading = t.gettext("Standings")  # (a gettext inside an f-string is never extracted, so never translated)
    lines = [f"**{heading}**"]
    place = 1
    for group in tour.standings():
        for e in group:
            entrant = tour.entrants[e]
            name = entrant_name(tour, e, t)
            table = tour.table_of(e)
            if entrant.out_round is None and table is not None:
                line = t.gettext("{place}. **{name}** · table {table} · stack {stack}").format(
                    place=_place(place, t), name=name, table=t.number(table), stack=t.number(entrant.stack)
                )
                lines.append(line + (" 💤" if entrant.away else ""))
            elif entrant.out_round is None:
                lines.append(
                    t.gettext("{place}. **{name}** · stack {stack}").format(
                        place=_place(place, t), name=name, stack=t.number(entrant.stack)
                    )
                )
            elif len(lines) <= len(tour.alive()) + SHOWN_OUT:
                lines.append(
                    t.gettext("{place}. {name} · out in round {round}").format(
                        place=_place(place, t), name=name, round=t.number(entrant.out_round)
                    )
                )
        place += len(group)
    return "\n".join(lines)


def _level(tour: Tournament, t: Texts) -> str:
    line = t.ngettext(
        "Level {level}: stake **{stake}** · {tables} table · {players} players in",
        "Level {level}: stake **{stake}** · {tables} tables · {players} players in",
        len(tour.tables),
    ).format(
        level=t.number(tour.level),
        stake=t.number(tour.stake),
        tables=t.number(len(tour.tables)),
        players=t.number(len(tour.alive())),
    )
    if tour.rounds_to_next_level:
        line += "\n" + t.ngettext(
            "The stake rises after {count} more round.",
            "The stake rises after {count} more rounds.",
            tour.rounds_to_next_level,
        ).format(count=t.number(tour.rounds_to_next_level))
    moves = [
        t.gettext("🔀 {name} moves from table {source} to table {target}, with their stack.").format(
            name=entrant_name(tour, m.entrant, t), source=t.number(m.from_table), target=t.number(m.to_table)
        )
        for m in tour.last_moves
    ]
    return "\n".join([line, *moves])


def _prizes(tour: Tournament, t: Texts) -> str:
    won = tour.prizes()
    heading = t.gettext("Prizes")
    lines = [f"**{heading}**"]
    for e, prize in sorted(
        won.items(), key=lambda kv: (tour.place_of(kv[0]), list(tour.entrants).index(kv[0]))
    ):
        lines.append(
            t.gettext("{place}. **{name}** wins {prize}").format(
                place=_place(tour.place_of(e), t), name=entrant_name(tour, e, t), prize=t.chips(prize)
            )
        )
    if tour.stopped:
        lines.append(f"-# {t.gettext(STOP_RULE)}")
    return "\n".join(lines)


def _fees_back(tour: Tournament) -> bool:
    """Stopped with every stack still level: everyone shares every place, so each wins their own fee."""
    won = tour.prizes()
    return len(won) == len(tour.entrants) and set(won.values()) == {tour.settings.fee}


def prize_table(tour: Tournament, t: Texts) -> str:
    """What each paid place would win with every seat taken (the lobby shows it)."""
    prizes = place_prizes(tour.settings.fee * tour.settings.seats, tour.settings.payout)
    return " · ".join(
        t.gettext("{place}. {prize}").format(place=t.number(i), prize=t.chips(p))
        for i, p in enumerate(prizes, start=1)
    )


def tournament_page(tour: Tournament, t: Texts) -> Page:
    """The tournament's message in its state now."""
    footer = t.gettext("Tournament {id}").format(id=tour.id)
    blocks: tuple[str, ...]
    if tour.status == "open":
        blocks = (_about(tour, t), f"🏅 {prize_table(tour, t)}", _entries(tour, t))
        title, colour = t.gettext("🏆 Flip Flop tournament — open for entries"), GREEN
    elif tour.status == "running":
        blocks = (_level(tour, t), _standings(tour, t))
        title = t.gettext("🏆 Flip Flop tournament — round {round}").format(round=t.number(tour.round + 1))
        colour = PLAYING if any(not done for done in tour.played.values()) else BETWEEN
    elif tour.status == "finished" and tour.stopped and _fees_back(tour):
        blocks = (t.gettext("It was stopped before any stack changed: every entry fee went back."),)
        title, colour = t.gettext("🏆 Flip Flop tournament — stopped"), OVER
    elif tour.status == "finished":
        blocks = (_prizes(tour, t), _standings(tour, t))
        title, colour = t.gettext("🏆 Flip Flop tournament — finished"), OVER  # by the rules, or stopped
    else:
        blocks = (t.gettext("The tournament was cancelled; every entry fee went back."),)
        title, colour = t.gettext("🏆 Flip Flop tournament — cancelled"), OVER
    return fit_page(Page(title=title, blocks=blocks, footer=footer, colour=colour))


__all__ = ["PAYOUTS", "entrant_name", "payout_name", "prize_table", "tournament_page"]
