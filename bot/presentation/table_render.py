"""What players see: the lobby, the table message, event messages and a private hand.

Pure functions from a ``Table``'s views, engine events and the runtime's
notices to text; the lobby and the table message are laid out by
``bot.presentation.table_layout`` and the cog's screens attach the controls. Each takes
the reader's ``Texts``: the server's for public messages, the member's for a
private hand. Names, cards, seeds and numbers are not words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_, Texts
from bot.i18n.mentions import member
from bot.presentation import event_words
from bot.presentation.computer_names import computer_name
from bot.presentation.event_words import Telling, away_named, told
from bot.presentation.render import card, cards
from bot.presentation.round_picture import Ending
from bot.runtime.outcomes import (
    CameBack,
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Released,
    Resumed,
    Stopped,
    StopRequested,
    TableClosed,
    TimedOut,
    WentAway,
)
from bot.table.log import Entry
from bot.table.model import Table
from bot.table.transitions import dealt_commitment, game_ends
from bot.tournament.ref import TableRef
from engine import Card
from engine.events import CardShown, Event, PotCarried, PotPaid, RoundEnded
from engine.view import PlayerView, PublicView

Colour = int
"""A message's accent colour as 0xRRGGBB (Discord's own form: a component's ``accent_color``)."""
GREEN: Colour = 0x2E8B57
PLAYING: Colour = 0x5865F2
"""Discord's blurple."""
BETWEEN: Colour = 0xF1C40F
"""Discord's gold."""
OVER: Colour = 0x607D8B
"""Discord's dark grey."""


def state_colour(table: Table) -> Colour:
    """The table message's accent: green open lobby, blurple round in play, gold between rounds, grey over."""
    if table.status == "lobby":
        return GREEN
    if table.status != "playing" or table.game is None or table.game.public_view().over:
        return OVER
    return PLAYING if table.game.public_view().in_round else BETWEEN


def seat_name(table: Table, t: Texts, user_id: int | str) -> str:
    """A seat's name as the channel reads it: a member's display name, or the computer's level and number."""
    computer = table.computers.get(int(user_id))
    if computer is not None:
        return computer_name(computer.level, computer.number, t)
    return table.names.get(int(user_id)) or member(int(user_id))


def away_rule(table: Table, t: Texts) -> str:
    """The table's away rule in ``t``'s language, said on the lobby and the table.

    Nobody loses chips to a rule they were not told. A practice table's chips never reach a balance,
    so its rule says less.
    """
    rounds = table.away_rounds
    if not table.releases_away_seats:  # a tournament's: it keeps the seat away in its next rounds
        return t.gettext(
            "💤 Away (your click, or a turn that runs out): the basic computer plays your seat with your "
            "tournament chips, in this round and the next ones, until you click **I'm back**."
        )
    if table.practice:
        rule = t.ngettext(
            "💤 Away (your click, or a turn that runs out): the basic computer plays your seat until you "
            "click **I'm back**; after {rounds} round away your seat is released.",
            "💤 Away (your click, or a turn that runs out): the basic computer plays your seat until you "
            "click **I'm back**; after {rounds} rounds away your seat is released.",
            rounds,
        )
    else:
        rule = t.ngettext(
            "💤 Away (your click, or a turn that runs out): the basic computer plays your seat with your own "
            "chips until you click **I'm back**; after {rounds} round away your seat is released and your "
            "stack goes back to your balance.",
            "💤 Away (your click, or a turn that runs out): the basic computer plays your seat with your own "
            "chips until you click **I'm back**; after {rounds} rounds away your seat is released and your "
            "stack goes back to your balance.",
            rounds,
        )
    return rule.format(rounds=t.number(rounds))


SEED_SHOWN = 60
"""Characters of a client seed the table's status shows; the round log publishes it whole."""


def short_seed(seed: str, room: int = SEED_SHOWN) -> str:
    """A client seed for the table's status: whole when short, else its two ends around "…".

    A busy round's seed holds an interaction id per click; the deal's line in the round log
    (and ``/flipflop verify``) carry it in full, so the status stays a few lines long.
    """
    if len(seed) <= room:
        return seed
    half = (room - 1) // 2
    return f"{seed[:half]}…{seed[-half:]}"


def commitment_lines(table: Table, t: Texts, seed_room: int = SEED_SHOWN) -> str:
    """The fair deal's public state: commitments and the client seed (``seed_room`` of it), no server seed.

    The round in play shows the commitment it was dealt under and its client
    seed; the next round's commitment is shown from the moment it is drawn.
    """
    if table.status == "closed":
        return ""  # a commitment no round will be dealt under is only noise
    public = table.fair.to_public()
    lines = []
    if public["in_play"] is not None:
        now = public["in_play"]
        lines.append(
            t.gettext("Round {round}: commitment `{commitment}` · client seed `{client_seed}`").format(
                round=t.number(now["round"]),
                commitment=now["commitment"],
                client_seed=short_seed(now["client_seed"], seed_room),
            )
        )
    if public["pending"] is not None:
        lines.append(
            t.gettext("Round {round} commitment: `{commitment}`").format(
                round=t.number(public["pending"]["round"]), commitment=public["pending"]["commitment"]
            )
        )
    return "\n".join(lines)


def dealt_line(table: Table, number: int, t: Texts, commitment: str | None = None) -> str:
    """Published with a deal: the commitment it was dealt under.

    Its client seed and the next round's commitment are in the **Fair deal** answer, the
    round's replay and ``/flipflop verify`` (the table shows the next commitment whole).
    ``commitment``: as saved with the deal in the round's log (else read from the table now).
    """
    if commitment is None:
        commitment = dealt_commitment(table, number)
    if not commitment:
        return ""
    return "\n" + t.gettext("🔒 Fair deal: commitment `{commitment}`").format(commitment=commitment)


def reveal_line(
    table: Table, t: Texts, reveal: Mapping[str, Any] | None = None, round_id: int | None = None
) -> str:
    """Published with a round's result: its server seed, now that the round is over.

    ``reveal`` and ``round_id``: as saved with the round's end in its log (else the table's last).
    """
    if reveal is None:
        reveal, round_id = table.last_reveal, table.last_round_id
    if reveal is None:
        return ""
    if table.practice or table.tournament:  # not stored (not the server's chips): verify can't find them
        unkept = (
            t.gettext(
                "🔓 Round {round} server seed: `{server_seed}` (practice rounds are not kept for "
                "`/flipflop verify`)."
            )
            if table.practice
            else t.gettext(
                "🔓 Round {round} server seed: `{server_seed}` (tournament rounds are not kept for "
                "`/flipflop verify`)."
            )
        )
        return "\n" + unkept.format(round=t.number(reveal["round"]), server_seed=reveal["server_seed"])
    check = f"`/flipflop verify round:{round_id}`" if round_id else "`/flipflop verify`"
    return "\n" + t.gettext(
        "🔓 Round {round} server seed: `{server_seed}` — check the deal with {check}."
    ).format(round=t.number(reveal["round"]), server_seed=reveal["server_seed"], check=check)


def _status(view: PublicView, pid: str, t: Texts) -> str:
    if pid not in view.seated:
        return t.gettext("out")
    if not view.players:
        return t.gettext("waiting")
    if pid in view.dead:
        return t.gettext("left the round")
    if not view.in_round:
        return "—"
    if view.to_act == pid:
        return t.gettext("**to act**")
    return t.gettext("waiting")


LOG_CHARS = 3000
"""Room for a round's log where one is shown whole (a finished round's record)."""


def log_text(lines: Sequence[str], room: int = LOG_CHARS) -> str:
    """A round's log, its oldest lines left out (with "…") when it outgrows ``room``."""
    text = "\n".join(lines)
    if len(text) <= room:
        return text
    return "…" + text[-(room - 1) :].split("\n", 1)[-1]


def table_round(table: Table, number: int) -> int:
    """Round ``number`` of the table's game as its players count it.

    A tournament's table plays one round, the tournament's next (its ref reads
    ``<tournament>:<table>:<rounds played>``): its game's round 1 is told as the tournament's round,
    as the tournament's message counts it. Any other table counts its own game's rounds.
    """
    if table.tournament is None:
        return number
    return TableRef.parse(table.tournament).played + number


def round_title(table: Table, number: int, t: Texts) -> str:
    """The table message's title during its game's round ``number`` (and the finished round's record)."""
    return t.gettext("🃏 Flip Flop — round {number}").format(number=t.number(table_round(table, number)))


def telling(
    table: Table, t: Texts, events: Sequence[Event] = (), ending: str = "", saved: Entry | None = None
) -> Telling:
    """How the table's channel (or a member, in ``t``) is told these events of ``table``.

    ``saved``: the round log's entry they are told from (the table as it was just after them:
    its stacks, whether the game ended, the fair deal's values then), else the table now.
    """
    t = t.at(table.practice)  # a practice table's amounts are practice chips, wherever it is told
    if saved is not None:
        stacks, ends = saved.stacks, saved.ends
        commitment = saved.commitment
        reveal = saved.reveal
        away = set(saved.away)  # who the computer played for, then

        def revealed() -> str:  # as saved with the round's end: a later round's seeds never stand in
            return reveal_line(table, t, reveal, saved.round_id) if reveal else ""
    else:
        stacks = table.game.public_view().stacks if table.game is not None else {}
        away = {table.pid(u) for u in table.away}  # an away seat's move now is the computer's
        ends, commitment = game_ends(table, events), None

        def revealed() -> str:
            return reveal_line(table, t)

    return Telling(
        t,
        name=lambda p: away_named(seat_name(table, t, p), p in away),
        who=lambda p: seat_name(table, t, p),
        card=lambda c: card(c, t),
        cards=lambda cs: cards(cs, sort=True, t=t),
        stacks=stacks,
        game_ends=ends,
        ending=ending,
        practice=table.practice,
        tournament=table.tournament is not None,
        rounds_before=table_round(table, 0),
        last_round={str(u): last for u, (_, last) in table.finishes.items()},
        dealt=lambda number: dealt_line(table, number, t, commitment),
        revealed=revealed,
    )


def event_lines(
    table: Table,
    events: Sequence[Event],
    t: Texts,
    ending: str = "",
    *,
    saved: Entry | None = None,
) -> list[str]:
    """The public messages for what everyone should see (ordinary draws and discards go in the table).

    ``ending`` is why the game ends (said after what caused it, before the
    standings); no "next deal" is announced when the game ends with it.
    ``saved``: the round log's entry they are told from (the table as it was just after them),
    else the table as it is now.
    """
    return told(events, telling(table, t, events, ending, saved))


def log_lines(table: Table, entries: Sequence[Entry], t: Texts) -> list[str]:
    """A saved round log (``bot.table.log``) in words: each change's notices, then its events."""
    t = t.at(table.practice)
    out: list[str] = []
    for entry in entries:
        out.extend(line for n in entry.notices if (line := notice_line(table, n, t)) is not None)
        out.extend(event_lines(table, entry.events, t, saved=entry))
    return out


def round_ending(table: Table, entries: Sequence[Entry], t: Texts) -> list[str]:
    """How the round ended and who won which pot, from its log: what a table says between rounds.

    The ending's headline alone (its hands and the deal's seed are in the round's record), the
    flip and flop pots paid (or carried) earlier in the round (R5.5: after one cycle of turns),
    then the ending's lines but the cards shown for those pots (the record shows them too);
    nothing while the round is not over.
    """
    for at in range(len(entries) - 1, -1, -1):
        entry = entries[at]
        if entry.ended is not None:
            cut = next((i for i, e in enumerate(entry.events) if isinstance(e, RoundEnded)), 0)
            headline = event_lines(table, entry.events[cut : cut + 1], t, saved=entry)[:1]
            settled = [
                line
                for earlier in entries[:at]
                for line in event_lines(
                    table,
                    [e for e in earlier.events if isinstance(e, PotPaid | PotCarried)],
                    t,
                    saved=earlier,
                )
            ]
            rest = [e for e in entry.events[cut + 1 :] if not isinstance(e, CardShown)]
            return (
                [line.split("\n", 1)[0] for line in headline]
                + settled
                + event_lines(table, rest, t, saved=entry)
            )
    return []


def last_move_line(table: Table, t: Texts) -> str:
    """The table's "last move" line, from its saved log."""
    return last_move(table, table.log.last, t)


def ending_of(table: Table, entries: Sequence[Entry], t: Texts) -> Ending | None:
    """The picture of a logged round's end (every hand, the spreads, the winners), if it ended."""
    for entry in reversed(entries):
        ended = entry.ended
        if ended is not None:
            return Ending(
                number=table_round(table, entry.round),
                hands=tuple(
                    (seat_name(table, t, p), tuple(h), ended.values.get(p, 0)) for p, h in ended.hands.items()
                ),
                spreads=tuple((seat_name(table, t, owner), cards) for owner, cards in entry.spreads),
                winners=tuple(seat_name(table, t, p) for p in ended.game_winners),
            )
    return None


def last_move(table: Table, events: Sequence[Event], t: Texts) -> str:
    """One line for the table message about the ordinary moves just made."""
    return event_words.last_move(events, telling(table, t, events))


def _hand_line(view: PlayerView, t: Texts, drawn: Card | None) -> str:
    marks: dict[Card, str] = {}
    if view.player == view.dealer and view.upcard_held and view.upcard in view.hand:
        marks[view.upcard] = t.gettext("upcard, seen by all")
    if drawn is not None and drawn in view.hand:
        marks[drawn] = t.gettext("just drawn")
    return t.gettext("**Your hand** (value **{value}**): {cards}").format(
        value=t.number(view.hand_value), cards=cards(view.hand, sort=True, marks=marks, t=t)
    )


def _turn_prompt(view: PlayerView, t: Texts) -> str:
    top: Card | None = view.top_discard
    if view.phase == "start" and top is not None:
        return t.gettext(
            "▶️ **Your turn.** Draw from the stock, take {card} from the discard pile, or drop with {value}."
        ).format(card=card(top, t), value=t.number(view.hand_value))
    if view.phase == "start":
        return t.gettext("▶️ **Your turn.** Draw from the stock, or drop with {value}.").format(
            value=t.number(view.hand_value)
        )
    if view.can_tonk_out:
        return t.gettext(
            "▶️ **Your turn.** Lay down spreads or lay off if you like, then discard a card. "
            "You can **tonk out**!"
        )
    return t.gettext("▶️ **Your turn.** Lay down spreads or lay off if you like, then discard a card.")


AWAY_TURN = N_("💤 You're away: the computer plays this turn for you, unless you move first.")
"""An away member's hand on their turn: a move of theirs brings them back (``TableRuntime.act``)."""


def _turn_lines(table: Table, view: PlayerView, t: Texts, away_said: bool = False) -> list[str]:
    lines = [_turn_prompt(view, t)]
    if view.phase != "start":
        lines.append(t.gettext("👆 Click one of your cards below to discard it."))
    if table.is_away(view.player):  # the computer plays the turn after its pause: no timer to race
        if not away_said:  # else the note above the hand (the answer to **Away**) says it
            lines.append(t.gettext(AWAY_TURN))
    elif table.turn_deadline:
        lines.append(t.gettext("⏳ Time runs out {when}.").format(when=f"<t:{int(table.turn_deadline)}:R>"))
    return lines


NO_LONGER_PLAYING = N_("You're no longer playing at this table.")
"""A hand (or **My hand**) of a member who played in this game and is not seated any more."""


def hand_finished(table: Table, view: PlayerView) -> bool:
    """The game is over, or the table closed: a hand shows its cards and offers nothing to play.

    As Discord's hand (``cogs.flipflop.screens.hand_screen``) and the live page's (``bot.live.state``).
    """
    return view.over or table.status != "playing"


HAND_FINISHED = N_("🏁 The game is over; this hand is finished.")
TOURNAMENT_HAND_FINISHED = N_(
    "🏁 This table's round is over: your stack went back to the tournament, whose message shows the"
    " standings."
)
"""A finished hand (``hand_finished``): an ordinary table's, a tournament table's."""
GAME_OVER = N_("Game over.")
TOURNAMENT_TABLE_OVER = N_("This table's round is over: its stacks went back to the tournament.")
"""The turn line once a table's game is over (the live page's, and so the Activity's and the
playground's): an ordinary table's, a tournament table's. At a tournament's table the game is its one
round, not the tournament (the last table's end may finish it: nothing here says it goes on)."""


def _out(table: Table, view: PlayerView, t: Texts) -> str | None:
    """Why a hand has nothing left to play (the game is over, its member left or is out), else None."""
    if hand_finished(table, view):
        # a tournament table's one round: the tournament goes on, and no stack goes to a balance
        return t.gettext(TOURNAMENT_HAND_FINISHED if table.tournament else HAND_FINISHED)
    if view.player in view.dead and view.in_round:
        if table.tournament:
            return t.gettext(
                "You left this round; your stack stays in the tournament, and the computer plays your seat"
                " in its next rounds until you click **I'm back**."
            )
        return t.gettext("You left this round; your stack comes back when it ends.")
    gone = view.player not in view.seated and int(view.player) in table.finishes
    if gone or view.player in view.dead:  # left, let go, or out of chips (R2.7)
        return t.gettext(NO_LONGER_PLAYING)
    return None


AWAY_SEAT = N_("💤 You're away: the computer plays your seat until you click **I'm back**.")
"""An away member's hand between their turns (on their turn: ``AWAY_TURN``)."""


def _hand_state(table: Table, view: PlayerView, t: Texts, away_said: bool = False) -> list[str]:
    if not view.in_round:
        if table.stop_after_round:
            return [t.gettext("The round is over; the game ends now.")]
        lines = [t.gettext("The round is over. The next deal starts by itself.")]
    elif view.can_act:
        return _turn_lines(table, view, t, away_said)
    else:
        lines = [t.gettext("⏳ Not your turn yet: this hand updates itself when your turn comes.")]
    return [*lines, t.gettext(AWAY_SEAT)] if table.is_away(view.player) and not away_said else lines


def hand_text(
    table: Table,
    view: PlayerView,
    t: Texts,
    note: str = "",
    drawn: Card | None = None,
    away_said: bool = False,
) -> str:
    """A player's private hand: cards sorted, value, and what to do now.

    The card just drawn is marked, and so is the dealer's upcard while the
    dealer holds it (everyone saw it dealt face up, R3.2). ``away_said``: the ``note`` already
    says the member is away (the answer to **Away**), so the hand's own away line is left out.
    """
    lines = [note] if note else []
    out = _out(table, view, t)
    if not view.players or view.player not in view.players:
        lines.append(out or t.gettext("You're not in this round."))
        return "\n".join(lines)
    lines.append(_hand_line(view, t, drawn))
    lines.extend([out] if out else _hand_state(table, view, t, away_said))
    return "\n".join(lines)


def _refund_list(table: Table, refunds: dict[int, int], t: Texts) -> str:
    got = (  # a tournament's stacks go back to the tournament, never to a balance
        t.gettext("{name} keeps {amount} in the tournament")
        if table.tournament
        else t.gettext("{name} got {amount} back")
    )
    return ", ".join(
        got.format(name=seat_name(table, t, u), amount=t.chips(a)) for u, a in refunds.items() if a
    )


def notice_line(table: Table, notice: Notice, t: Texts) -> str | None:
    """What the channel reads about a table-life notice in the server's language (None: nothing to say)."""
    if isinstance(notice, GameStarted):
        return t.ngettext(
            "🎲 The game begins with {count} player!",
            "🎲 The game begins with {count} players!",
            notice.players,
        ).format(count=t.number(notice.players))
    if isinstance(notice, TimedOut):
        who = seat_name(table, t, notice.player)
        if notice.removed:
            return t.gettext(
                "⏰ {name} ran out of time {count} turns in a row and is removed from the game "
                "(their hand is dead; their stack goes back at the end of the round)."
            ).format(name=who, count=t.number(notice.count))
        return t.gettext(
            "⏰ {name} ran out of time, so the bot played this turn for them with the basic computer "
            "strategy (timeouts in a row: {count}; at {limit} they are removed from the game)."
        ).format(name=who, count=t.number(notice.count), limit=t.number(notice.allowed + 1))
    if isinstance(notice, LeavingAfterRound) and notice.staying:
        return t.gettext("🪑 {name} stays at the table after all.").format(
            name=seat_name(table, t, notice.player)
        )
    if isinstance(notice, WentAway):
        who = seat_name(table, t, notice.player)
        if not table.releases_away_seats:  # a tournament's: it keeps the seat away in its next rounds
            return (
                t.gettext(
                    "💤 {name} ran out of time and is away: the basic computer plays their seat with their "
                    "tournament chips, in this round and the next ones, until they click **I'm back**."
                )
                if notice.timed_out
                else t.gettext(
                    "💤 {name} stepped away: the basic computer plays their seat with their tournament "
                    "chips, in this round and the next ones, until they click **I'm back**."
                )
            ).format(name=who)
        if notice.timed_out:
            text = t.ngettext(
                "💤 {name} ran out of time and is away: the basic computer plays their seat with their chips "
                "until they click **I'm back** (after {rounds} round away the seat is released).",
                "💤 {name} ran out of time and is away: the basic computer plays their seat with their chips "
                "until they click **I'm back** (after {rounds} rounds away the seat is released).",
                notice.rounds,
            )
        else:
            text = t.ngettext(
                "💤 {name} stepped away: the basic computer plays their seat with their chips "
                "until they click **I'm back** (after {rounds} round away the seat is released).",
                "💤 {name} stepped away: the basic computer plays their seat with their chips "
                "until they click **I'm back** (after {rounds} rounds away the seat is released).",
                notice.rounds,
            )
        return text.format(name=who, rounds=t.number(notice.rounds))
    if isinstance(notice, CameBack):
        return t.gettext("👋 {name} is back and plays their own seat again.").format(
            name=seat_name(table, t, notice.player)
        )
    if isinstance(notice, Released):
        return t.gettext(
            "💤 {name} was away for {rounds} rounds: their seat is released and their stack went back "
            "to their balance."
        ).format(name=seat_name(table, t, notice.player), rounds=t.number(notice.rounds))
    if isinstance(notice, LeavingAfterRound):
        return t.gettext("👋 {name} will leave after this round.").format(
            name=seat_name(table, t, notice.player)
        )
    if isinstance(notice, StopRequested):
        return t.gettext("⏹️ {member} will stop the game when this round ends.").format(
            member=member(notice.by)
        )
    if isinstance(notice, Stopped):
        return t.gettext("⏹️ {member} stopped the game.").format(member=member(notice.by))
    if isinstance(notice, ComputersOnly):
        return t.gettext("🤖 Only computer players are left at the table, so the game ends.")
    if isinstance(notice, Resumed):
        # a game's table reads as it did before the restart (its log is saved with it): nothing to add
        return t.gettext("♻️ The bot restarted; the table is still open.") if table.status == "lobby" else ""
    return _closed_line(table, notice, t)


def _closed_line(table: Table, notice: TableClosed, t: Texts) -> str | None:
    refunds = _refund_list(table, notice.refunds, t)
    if notice.reason == "expired":
        return t.gettext(
            "⌛ The Flip Flop table closed after 10 minutes without enough players; {refunds}."
        ).format(refunds=refunds)
    if notice.reason == "cancelled":
        if notice.by is None:
            return t.gettext("The host cancelled the table. {refunds}.").format(refunds=refunds)
        return t.gettext("{name} cancelled the table. {refunds}.").format(
            name=seat_name(table, t, notice.by), refunds=refunds
        )
    if notice.reason == "empty":
        return t.gettext("Everyone left, so the table closed.")
    if notice.reason == "message_gone":
        return t.gettext(
            "♻️ While the bot was away its table message was deleted, "
            "so the Flip Flop table closed: {refunds}."
        ).format(refunds=refunds)
    return None


def unreadable_line(refunds: dict[int, int], t: Texts) -> str:
    """A saved table this version can not read was closed."""
    paid = ", ".join(
        t.gettext("{name} got {amount} back").format(name=member(u), amount=t.chips(a))
        for u, a in refunds.items()
        if a
    )
    return t.gettext(
        "♻️ The bot was updated and could not carry on the Flip Flop table here, so it closed it: {refunds}."
    ).format(refunds=paid)
