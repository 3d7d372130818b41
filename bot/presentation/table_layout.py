"""The lobby and the table message as a Components V2 page: blocks of text in one coloured box.

A ``Page`` is what the message says, in the reader's language: a title, blocks of text
(each a text display, with a separator between them), a small footer and the accent
colour of the table's state (``state_colour``). The cog's screens add the controls
(``cogs.flipflop.layout``). Cards are the reader's card faces (``bot.presentation.render``).

Discord's limits hold by construction: a page has a fixed number of blocks (so of
components), and its text is budgeted: the round's log gets the room the rest leaves
(its last ``LOG_LINES`` lines at most); where card pictures would not fit, cards are
drawn as text; and whatever still overflows is cut at a line (``fit_page``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.i18n import N_, Texts
from bot.i18n.mentions import member
from bot.presentation.coach_render import practice_dress
from bot.presentation.event_words import POT_NAME
from bot.presentation.first_game import short_buy_in
from bot.presentation.limits import V2_TEXT, shorten
from bot.presentation.render import card, cards, look, suit_name
from bot.presentation.table_picture import FILE_NAME, MAX_BYTES, alt, render, scene, undrawn
from bot.presentation.table_render import (
    OVER,
    SEED_SHOWN,
    Colour,
    _status,
    away_rule,
    commitment_lines,
    log_text,
    round_ending,
    round_title,
    seat_name,
    short_seed,
    state_colour,
)
from bot.table.model import MAX_SEATS, MIN_SEATS, Table
from engine.view import PublicView

TEXT_ROOM = V2_TEXT - 100
"""The text a page may hold (Discord's 4,000 for all text displays, less a margin)."""
LOG_LINES = 6
"""The round's last lines a table without its picture shows; the whole story is ``/flipflop round``."""
PICTURE_LOG_LINES = 4
"""The round's last lines under the table's picture: the picture shows the rest, the record keeps all."""
LOG_ROOM = 1200
"""At most this much of the page is the round's log."""
PREFIX = 12
"""Hex digits of a commitment the table shows; the Fair deal button shows it whole."""
FAIR_SEED = 1500
"""Room for the Fair deal answer's explanation and client seed (a message holds 2,000 characters)."""
IN_PICTURE = N_("In the picture: {names}")
"""Who is who where a picture could not draw a name ("#3 = 🦊"): said in words, which any script reads."""
INVITED_ROOM = 1000
"""Room for the mentions of last game's players on a Play again lobby."""


@dataclass(frozen=True)
class Picture:
    """An image a page shows under its title: the attachment's name, the PNG, its alt text."""

    name: str
    data: bytes
    alt: str


@dataclass(frozen=True)
class Page:
    """A message's words as a V2 layout shows them: title, blocks, footer, accent colour.

    ``fair``: the page offers the private **Fair deal** answer (a commitment is out).
    ``picture``: the live table's picture, shown between the title and the blocks.
    """

    title: str
    blocks: tuple[str, ...]
    footer: str
    colour: Colour
    fair: bool = False
    picture: Picture | None = None

    def displays(self) -> list[str]:
        """The text displays: the title with the first block (alone over a picture), the rest, the footer."""
        rest = [b for b in self.blocks if b]
        if self.title and self.picture is not None:
            rest = [f"### {self.title}", *rest]
        elif self.title:
            head = f"### {self.title}"
            rest = [f"{head}\n{rest[0]}" if rest else head, *rest[1:]]
        return rest + ([f"-# {self.footer}"] if self.footer else [])

    @property
    def length(self) -> int:
        """The characters of all its text displays together (Discord counts them as one)."""
        return sum(len(text) for text in self.displays())


def fit_page(page: Page, room: int = TEXT_ROOM) -> Page:
    """The page within ``room`` characters: its longest blocks cut at a line until it fits."""
    blocks = list(page.blocks)
    while blocks and replace(page, blocks=tuple(blocks)).length > room:
        over = replace(page, blocks=tuple(blocks)).length - room
        longest = max(range(len(blocks)), key=lambda i: len(blocks[i]))
        blocks[longest] = shorten(blocks[longest], max(1, len(blocks[longest]) - over - 1))
        if len(blocks[longest]) <= 1:
            blocks[longest] = ""
    title, footer = shorten(page.title, 200), shorten(page.footer, 300)
    return replace(page, title=title, blocks=tuple(blocks), footer=footer)


def dressed(table: Table, page: Page, t: Texts) -> Page:
    """A practice table's page says so: its title, a banner first and its footer (a real one stays)."""
    if not table.practice:
        return page
    title, banner, footer = practice_dress(t, page.title, None, page.footer)
    return replace(page, title=title, blocks=(banner, *page.blocks), footer=footer)


def playing_under(table: Table) -> dict[str, Any] | None:
    """The public commitment the table plays under now, else the next one; None when closed or none."""
    if table.status == "closed":
        return None
    public = table.fair.to_public()
    now: dict[str, Any] | None = public["in_play"] or public["pending"]
    return now


def short(commitment: dict[str, Any]) -> str:
    """A commitment's start, as the table shows it beside its round."""
    return str(commitment["commitment"])[:PREFIX] + "…"


def fair_prefix(table: Table) -> str:
    """The start of the commitment the table plays under now (else the next one), or "" for none."""
    now = playing_under(table)
    return f"🔒 `{short(now)}`" if now is not None else ""


def fair_line(table: Table, t: Texts) -> str:
    """The table's one fair-deal line: the next round's commitment whole, else the one in play, short.

    The next round's commitment is drawn at this round's deal and must be public in a message
    *created* before the clicks that seed it (docs/FAIRNESS.md): the table message posted for
    the deal shows it from the start. Once the game is to stop at this round's end, no next round
    is dealt: the line is back to the commitment in play.
    """
    if (shown := playing_under(table)) is None:
        return ""
    pending = table.fair.to_public()["pending"]
    if pending is not None and not table.stop_after_round:
        shown, commitment = pending, pending["commitment"]
    else:  # named too, not a bare `1a2b…`
        commitment = short(shown)
    return "🔒 " + t.gettext("Round {round} commitment: `{commitment}`").format(
        round=t.number(shown["round"]), commitment=commitment
    )


FAIR_HOW = N_(
    "How it works: before each deal the bot publishes a commitment, the SHA-256 fingerprint of a secret "
    "server seed it can no longer change. The deal mixes that seed with a client seed made from the players' "
    "own clicks (and `/flipflop seed` texts), so the bot can neither choose nor foresee the deck; the server "
    "seed is revealed when the round ends."
)
"""The **Fair deal** answer's first words to a newcomer: what the digits below are for (docs/FAIRNESS.md)."""


def fair_text(table: Table, t: Texts) -> str:
    """The private answer to **Fair deal**: what it is for, the commitments, the client seed, how to check.

    The client seed gives way by the length of the explanation, so the answer keeps within Discord's
    2,000 characters in every language.
    """
    how = t.gettext(FAIR_HOW)
    lines = commitment_lines(table, t, seed_room=FAIR_SEED - len(how))
    if not lines:
        return ""
    check = t.gettext("Once a round ends, `/flipflop verify` checks its deal against it.")
    return "**" + t.gettext("🔒 Fair deal") + f"**\n{how}\n{lines}\n{check}"


def backs(count: int, t: Texts) -> str:
    """``count`` cards face down as card backs (the picture, else 🂠); nothing for a reader of words."""
    seen = look(t)
    if seen.words or count <= 0:
        return ""
    emoji = seen.faces.emoji(None, seen.style)
    return (str(emoji) if emoji is not None else "🂠") * count


# ---------------------------------------------------------------------- the lobby


def lobby_page(table: Table, t: Texts) -> Page:
    """The lobby: stake, buy-in, who is seated (and the host), who was asked to play again, the away rule."""
    about = t.gettext(
        "Stake **{stake}** · buy-in **{buy_in}** · {seconds} s a turn\n"
        "Click **Join** to sit down ({least}–{most} players). "
        "Your buy-in moves from your balance to the table and comes back when you leave."
    ).format(
        stake=t.chips(table.stake),
        buy_in=t.chips(table.buy_in),
        seconds=t.number(table.turn_seconds),
        least=t.number(MIN_SEATS),
        most=t.number(MAX_SEATS),
    )
    if table.practice:
        about = about.replace(
            t.gettext("Your buy-in moves from your balance to the table and comes back when you leave."),
            t.gettext("Your buy-in is practice chips; your balance is never touched."),
        )
    seated = [
        (
            t.gettext("{number}. **{name}** (host)")
            if u == table.host_id
            else t.gettext("{number}. **{name}**")
        ).format(number=t.number(i), name=seat_name(table, t, u))
        for i, u in enumerate(table.seats, start=1)
    ]
    heading = t.gettext("Seated ({seated}/{seats})").format(
        seated=t.number(len(table.seats)), seats=t.number(MAX_SEATS)
    )
    blocks = [f"{about}\n-# {away_rule(table, t)}"]
    if warning := short_buy_in(table, t):  # allowed (R2.1), but the players should know
        blocks.append(warning)
    if waiting := [u for u in table.invited if u not in table.seats]:
        mentions = shorten(", ".join(member(u) for u in waiting), INVITED_ROOM)
        invite = t.gettext("🔁 Play again: last game's players, click Join")
        blocks.append(f"**{invite}**\n{mentions}")
    blocks.append(f"**{heading}**\n" + ("\n".join(seated) or "—"))
    prefix = fair_prefix(table)
    if prefix:  # whole: round 1's commitment must be public before any click that seeds its deal
        blocks.append("\n".join(f"-# 🔒 {line}" for line in commitment_lines(table, t).splitlines()))
    page = Page(
        title=t.gettext("🃏 Flip Flop — table open"),
        blocks=tuple(blocks),
        footer=t.gettext("Table {table} · the host starts the game").format(table=table.id),
        colour=state_colour(table),
        fair=bool(prefix),
    )
    return fit_page(dressed(table, page, t))


# ---------------------------------------------------------------------- the table


def table_page(
    table: Table,
    t: Texts,
    last_line: str = "",
    log: Sequence[str] = (),
    whole: bool = False,
    picture: bool = True,
) -> Page:
    """The one public table message of a round, in ``t``'s language and card faces.

    With ``picture`` the table is drawn (``bot.presentation.table_picture``) and the words say only what the
    picture can not: whose turn and until when, the last move, the round's last few lines, the
    away rule while someone is away, the commitment's start. Without (a closed table, or a
    picture over its cap) it is all words: where card pictures do not fit (they are long:
    ~38 characters each), the players' card backs go first, then every card is drawn as text.
    ``whole``: the round's log in full, as written (a game's last round).
    """
    if picture and table.game is not None and table.game.public_view().players:
        drawn = _pictured_page(table, t, last_line, log, whole)
        if drawn is not None:
            return fit_page(drawn)
    page = _table_page(table, t, last_line, log, True, whole)
    if _crowded(page) and t.faces is not None and t.faces.pictures:
        page = _table_page(table, t, last_line, log, False, whole)
        if _crowded(page):
            page = _table_page(table, t.with_faces(t.faces.as_text()), last_line, log, False, whole)
    return fit_page(page)


def _pictured_page(table: Table, t: Texts, last_line: str, log: Sequence[str], whole: bool) -> Page | None:
    """The short table under its picture, or None when the picture is over its cap."""
    assert table.game is not None
    v = table.game.public_view()
    drawn = scene(table, t)
    data = render(drawn, look(t).style)
    if len(data) > MAX_BYTES:
        return None
    turn = [line for line in (_turn(table, v, t),) if line]  # the picture shows the dealer and upcard
    if missing := undrawn(drawn):  # names the fonts can not draw: said here, where any script reads
        pairs = ", ".join(f"{label} = {name}" for label, name in missing)
        turn.append("-# " + t.gettext(IN_PICTURE).format(names=pairs))
    small = [away_rule(table, t)] if table.away and table.status == "playing" else []
    prefix = fair_prefix(table)
    if line := fair_line(table, t):
        small.append(line)
    footer = t.gettext("Table {table} · stake {stake} · click My hand to see your cards and play").format(
        table=table.id, stake=t.chips(table.stake)
    )
    title = round_title(table, v.round_number, t) if v.round_number else "🃏 Flip Flop"
    blocks = ("\n".join(turn), "\n".join(f"-# {line}" for line in small))
    page = Page(
        title,
        blocks,
        footer,
        state_colour(table),
        bool(prefix),
        Picture(FILE_NAME, data, alt(drawn, table, t)),
    )
    page = dressed(table, page, t)
    ending = _ending(table, t, whole)
    story = _story(last_line, log, t, TEXT_ROOM - page.length - 2, whole, PICTURE_LOG_LINES, ending)
    return replace(page, blocks=(*page.blocks[:-1], story, page.blocks[-1]))


STORY_ROOM = LOG_ROOM + 700
"""What the last move and the log may need; the rest of the page must leave them that."""


def _crowded(page: Page) -> bool:
    """Whether the page without its story (the last move and the log) leaves them too little room."""
    return page.length - len(page.blocks[-2]) > TEXT_ROOM - STORY_ROOM


def _table_page(
    table: Table, t: Texts, last_line: str, log: Sequence[str], with_backs: bool, whole: bool
) -> Page:
    assert table.game is not None
    v = table.game.public_view()
    if table.status == "closed" and v.to_act is not None:
        v = replace(v, to_act=None)  # closed mid-round: its cards stay as they were, nobody is to act
    title = round_title(table, v.round_number, t) if v.round_number else "🃏 Flip Flop"
    footer = (
        t.gettext("Table {table} · click My hand to see your cards and play")
        if table.status == "playing"
        else t.gettext("Table {table} · this table is closed")
    ).format(table=table.id)
    small = [away_rule(table, t)] if table.status == "playing" else []
    prefix = fair_prefix(table)
    if line := fair_line(table, t):
        small.append(line)
    blocks = [
        _header(table, v, t),
        _board(v, t),
        _players(table, v, t, with_backs),
        _spreads(table, v, t, bool(log)),
        "\n".join(f"-# {line}" for line in small),
    ]
    page = dressed(table, Page(title, tuple(blocks), footer, state_colour(table), bool(prefix)), t)
    ending = _ending(table, t, whole)
    story = _story(last_line, log, t, TEXT_ROOM - page.length - 2, whole, ending=ending)
    return replace(page, blocks=(*page.blocks[:-1], story, page.blocks[-1]))


def _ending(table: Table, t: Texts, whole: bool) -> list[str]:
    """Between rounds, how the round ended and who won which pot; else nothing."""
    if whole or table.game is None or table.game.public_view().in_round:
        return []
    return round_ending(table, table.log.lines, t)


def _header(table: Table, v: PublicView, t: Texts) -> str:
    """Stake; dealer, upcard and the pots' suits; whose turn it is (or when the next deal comes)."""
    if table.tournament:  # the stacks are the tournament's: no one bought in at this table
        lines = [t.gettext("Stake **{stake}**").format(stake=t.chips(table.stake))]
    else:
        lines = [
            t.gettext("Stake **{stake}** · buy-in {buy_in}").format(
                stake=t.chips(table.stake), buy_in=t.chips(table.buy_in)
            )
        ]
    if v.players and v.upcard is not None and v.flip_suit is not None and v.flop_suit is not None:
        lines.append(
            t.gettext("Dealer **{dealer}** · upcard {upcard} · flip suit {flip} · flop suit {flop}").format(
                dealer=seat_name(table, t, v.dealer or ""),
                upcard=card(v.upcard, t),
                flip=suit_name(v.flip_suit, t),
                flop=suit_name(v.flop_suit, t),
            )
        )
    if turn := _turn(table, v, t):
        lines.append(turn)
    return "\n".join(lines)


def _turn(table: Table, v: PublicView, t: Texts) -> str:
    """Whose turn it is and when their time runs out, or when the next deal comes (else "")."""
    if v.in_round and v.to_act is not None:
        name = seat_name(table, t, v.to_act)
        if table.turn_deadline:
            return t.gettext("▶️ **{name}**'s turn — time runs out {when}").format(
                name=name, when=f"<t:{int(table.turn_deadline)}:R>"
            )
        return t.gettext("▶️ **{name}**'s turn").format(name=name)
    if table.next_round_at and not v.over and not table.stop_after_round and table.status == "playing":
        return t.gettext("⏸️ Next round {when}").format(when=f"<t:{int(table.next_round_at)}:R>")
    return ""


def _board(v: PublicView, t: Texts) -> str:
    """The three pots; once dealt, the top of the discard pile and the stock."""
    pots = t.gettext("Pots — game **{game}** · flip **{flip}** · flop **{flop}**").format(
        game=t.number(v.pots["game"]), flip=t.number(v.pots["flip"]), flop=t.number(v.pots["flop"])
    )
    if not v.players:
        return pots
    top = card(v.top_discard, t) if v.top_discard is not None else t.gettext("empty")
    stock = t.ngettext("{count} card", "{count} cards", v.stock_size).format(count=t.number(v.stock_size))
    pile, left = t.gettext("Discard pile"), t.gettext("Stock")
    pile = f"**{pile}** {top}  ·  **{left}** " + f"{backs(1, t)} {stock}".strip()
    return f"{pots}\n{pile}"


def _players(table: Table, v: PublicView, t: Texts, with_backs: bool) -> str:
    """One line a seat: name, dealer, leaving, away; stack, cards (as backs), status; the turn's pointer."""
    rows = []
    for pid in [*v.players, *(p for p in v.seated if p not in v.players)]:
        count = v.card_counts.get(pid, 0)
        row = t.ngettext(
            "{pointer}**{name}**{marks} — {stack} · {count} card · {status}",
            "{pointer}**{name}**{marks} — {stack} · {count} cards · {status}",
            count,
        ).format(
            pointer="▶️ " if v.in_round and v.to_act == pid else "",
            name=seat_name(table, t, pid),
            marks="".join(" " + note for note in _notes(table, v, pid, t)),
            stack=t.chips(v.stacks.get(pid, 0)),
            count=t.number(count),
            status=_status(v, pid, t),
        )
        shown = backs(count, t) if with_backs and v.in_round and pid not in v.dead else ""
        rows.append(f"{row} {shown}".rstrip())
    heading = t.gettext("Players")
    return f"**{heading}**\n" + ("\n".join(rows) or "—")


def _notes(table: Table, v: PublicView, pid: str, t: Texts) -> list[str]:
    notes = []
    if v.players and pid == v.dealer:
        notes.append(t.gettext("(dealer)"))
    if pid.isdigit() and int(pid) in table.leave_after_round:
        notes.append(t.gettext("· leaving after this round"))
    if pid.isdigit() and table.is_away(pid):
        notes.append(
            t.gettext("· 💤 away (the computer plays)")  # never released: no rounds to count
            if not table.releases_away_seats
            else t.gettext("· 💤 away ({rounds} of {allowed} rounds)").format(
                rounds=t.number(table.away_round(pid)), allowed=t.number(table.away_rounds)
            )
        )
    return notes


def _spreads(table: Table, v: PublicView, t: Texts, logged: bool) -> str:
    """The spreads on the table as card faces; the cards shown for the flip and flop pots (unless logged)."""
    if not v.players:
        return ""
    spreads = [f"`#{s.index + 1}` {cards(s.cards, t=t)} ({seat_name(table, t, s.owner)})" for s in v.spreads]
    heading = t.gettext("Spreads")
    text = f"**{heading}**\n" + ("\n".join(spreads) or t.gettext("none yet"))
    if v.showings and not logged:  # the log says who showed what; not twice
        shown = ", ".join(
            seat_name(table, t, p) + f" {card(c, t)} (" + t.gettext(POT_NAME[pot]) + ")"
            for p, pot, c in v.showings
        )
        heading = t.gettext("Shown for flip / flop")
        text += f"\n**{heading}** {shown}"
    return text


LONG_CODE = re.compile(r"`([^`\n]{" + str(SEED_SHOWN + 7) + ",})`")
"""A code longer than a commitment (64 hex digits): a busy round's client seed."""


def _compact(line: str) -> str:
    """A log line as the table shows it: a long client seed as its two ends (the record keeps it whole)."""
    return LONG_CODE.sub(lambda m: f"`{short_seed(m.group(1))}`", line)


def _window(log: Sequence[str], lines: int, ending: Sequence[str]) -> list[str]:
    """The log lines a table shows: its last ``lines``, or between rounds the round's ``ending``.

    Between rounds the table says how the round ended and who won which pot
    (``table_render.round_ending``), however many lines the cards shown for the pots took.
    """
    return list(ending) if ending else list(log[-lines:])


def _story(
    last_line: str,
    log: Sequence[str],
    t: Texts,
    room: int,
    whole: bool = False,
    lines: int = LOG_LINES,
    ending: Sequence[str] = (),
) -> str:
    """The last move and the round's last few log lines (or all, as written), within ``room`` characters."""
    heading = t.gettext("Last move")
    last = f"**{heading}** {shorten(last_line, 600)}" if last_line else ""
    room = room - len(last) - 1 if whole else min(LOG_ROOM, room - len(last) - 1)
    heading = t.gettext("📜 **This round**")
    recent = list(log) if whole else [_compact(line) for line in _window(log, lines, ending)]
    told = log_text(recent, room - len(heading) - 1) if recent and room > len(heading) + 40 else ""
    if ending and not whole and told.startswith("…") and len(recent) > 1:  # keep the headline; the
        rest = log_text(recent[1:], room - len(heading) - len(recent[0]) - 2)  # pot lines give way
        told = f"{recent[0]}\n{rest}" if len(rest) > 1 else told
    if told and len(log) > len(recent) and not told.startswith("…"):
        told = "…\n" + told
    story = f"{heading}\n{told}" if told else ""
    return "\n".join(part for part in (last, story) if part)


def closed_page(table: Table, t: Texts, last_line: str = "", log: Sequence[str] = ()) -> Page:
    """A table (or lobby) that is over: as it ended, titled closed, with how to open a new one."""
    if table.game is None:
        page = lobby_page(table, t)
    else:  # the last round's story whole: no record of its own follows it
        page = table_page(table, t, last_line, log, whole=True, picture=False)
    title = t.gettext("🃏 Flip Flop — table closed")
    if table.tournament:  # its players are the tournament's: no new table for them to open here
        footer = t.gettext(
            "Table {table} · this table is closed; the tournament's message shows where it stands"
        ).format(table=table.id)
    else:
        footer = t.gettext("Table {table} · this table is closed; open a new one with {command}").format(
            table=table.id, command="/flipflop start"
        )
    if table.practice:
        title, _, footer = practice_dress(t, title, None, footer)
    return fit_page(replace(page, title=title, footer=footer, colour=state_colour(table), fair=False))


def note_page(title: str, text: str, table: Table | None = None, t: Texts | None = None) -> Page:
    """A message left behind: a lobby cancelled or gone to a thread, a table moved (grey, no controls)."""
    page = Page(title, (text,), "", OVER)
    if table is not None and t is not None and table.practice:
        page = replace(page, title=practice_dress(t, title, None, None)[0])
    return fit_page(page)
