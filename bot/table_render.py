"""What players see: the lobby, the table message, event messages and a private hand.

Pure functions from a ``Table``'s views, engine events and the runtime's
notices to text and embeds; the cog's screens attach the controls.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render import card, cards, chips, suit_name
from bot.runtime.outcomes import (
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Notice,
    Resumed,
    Stopped,
    StopRequested,
    TableClosed,
    TimedOut,
)
from bot.tables import MAX_SEATS, MIN_SEATS, Table
from engine import Card
from engine.events import (
    CardShown,
    Discarded,
    Drew,
    Dropped,
    Event,
    GameOver,
    LaidOff,
    NextDealer,
    PlayerLeft,
    PotCarried,
    PotPaid,
    RoundEnded,
    RoundStarted,
    SeatClosed,
    SideStakePaid,
    SpreadLaid,
)
from engine.view import PlayerView, PublicView

GREEN = discord.Colour.from_rgb(46, 139, 87)
POT_NAME = {"game": "game pot", "flip": "flip pot", "flop": "flop pot"}


def lobby_embed(table: Table) -> discord.Embed:
    """The lobby: who is seated, the stake and the buy-in."""
    lines = [
        f"{i}. **{table.name(u)}**" + (" (host)" if u == table.host_id else "")
        for i, u in enumerate(table.seats, start=1)
    ]
    e = discord.Embed(
        title="🃏 Flip Flop — table open",
        description=(
            f"Stake **{chips(table.stake)}** · buy-in **{chips(table.buy_in)}** · "
            f"{table.turn_seconds} s a turn\n"
            f"Click **Join** to sit down ({MIN_SEATS}–{MAX_SEATS} players). "
            "Your buy-in moves from your balance to the table and comes back when you leave."
        ),
        colour=GREEN,
    )
    e.add_field(name=f"Seated ({len(table.seats)}/{MAX_SEATS})", value="\n".join(lines) or "—", inline=False)
    if fair := commitment_lines(table):
        e.add_field(name="🔒 Fair deal (docs/FAIRNESS.md)", value=fair, inline=False)
    e.set_footer(text=f"Table {table.id} · the host starts the game")
    return e


def commitment_lines(table: Table) -> str:
    """The fair deal's public state for the table message (issue 13): commitments and client seed, no seed.

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
            f"Round {now['round']}: commitment `{now['commitment']}` · client seed `{now['client_seed']}`"
        )
    if public["pending"] is not None:
        lines.append(f"Round {public['pending']['round']} commitment: `{public['pending']['commitment']}`")
    return "\n".join(lines)


def dealt_line(table: Table, number: int) -> str:
    """Published with a deal: the commitment it was dealt under, its client seed, the next commitment."""
    fair = table.fair.to_public()
    now = fair["in_play"]
    if now is None or now["round"] != number:
        now = table.last_reveal if table.last_reveal and table.last_reveal["round"] == number else None
    if now is None:
        return ""
    line = f"\n🔒 Fair deal: commitment `{now['commitment']}` · client seed `{now['client_seed']}`"
    if fair["pending"] is not None:
        line += f" · round {fair['pending']['round']} commitment `{fair['pending']['commitment']}`"
    return line


def reveal_line(table: Table) -> str:
    """Published with a round's result: its server seed, now that the round is over."""
    reveal = table.last_reveal
    if reveal is None:
        return ""
    check = f"`/flipflop verify round:{table.last_round_id}`" if table.last_round_id else "`/flipflop verify`"
    return (
        f"\n🔓 Round {reveal['round']} server seed: `{reveal['server_seed']}` — check the deal with {check}."
    )


def closed_embed(title: str, text: str) -> discord.Embed:
    """A table that is over or was cancelled."""
    return discord.Embed(title=title, description=text, colour=discord.Colour.dark_grey())


def _status(view: PublicView, pid: str) -> str:
    if pid not in view.seated:
        return "out"
    if not view.players:
        return "waiting"
    if pid in view.dead:
        return "left the round"
    if not view.in_round:
        return "—"
    if view.to_act == pid:
        return "**to act**"
    return "waiting"


LOG_CHARS = 3000
"""Room for a round's log in the table message (an embed's description holds 4,096)."""


def log_text(lines: Sequence[str], room: int = LOG_CHARS) -> str:
    """A round's log, its oldest lines left out (with "…") when it outgrows ``room``."""
    text = "\n".join(lines)
    if len(text) <= room:
        return text
    return "…" + text[-(room - 1) :].split("\n", 1)[-1]


def round_record_embed(title: str, lines: Sequence[str]) -> discord.Embed:
    """A finished round as the channel keeps it: what happened, nothing to click."""
    return discord.Embed(
        title=title, description=log_text(lines, 4000) or "—", colour=discord.Colour.dark_grey()
    )


def table_embed(table: Table, last_line: str = "", log: Sequence[str] = ()) -> discord.Embed:
    """The one public table message, edited as the game goes; ``last_line`` tells the last moves.

    ``log`` is this round's story (the deal, shows for the flip and flop pots,
    leavers, the result): the channel gets it here instead of a message per event.
    """
    assert table.game is not None
    v = table.game.public_view()
    dealt = bool(v.players)
    title = f"🃏 Flip Flop — round {v.round_number}" if v.round_number else "🃏 Flip Flop"
    e = discord.Embed(title=title, colour=GREEN)
    desc: list[str] = [f"Stake **{chips(table.stake)}** · buy-in {chips(table.buy_in)}"]
    if dealt and v.upcard is not None and v.flip_suit is not None and v.flop_suit is not None:
        desc.append(
            f"Dealer **{table.name(v.dealer or '')}** · upcard {card(v.upcard)} · "
            f"flip suit {suit_name(v.flip_suit)} · flop suit {suit_name(v.flop_suit)}"
        )
    desc.append(f"Pots — game **{v.pots['game']}** · flip **{v.pots['flip']}** · flop **{v.pots['flop']}**")
    if v.in_round and v.to_act is not None:
        when = f" — time runs out <t:{int(table.turn_deadline)}:R>" if table.turn_deadline else ""
        desc.append(f"▶️ **{table.name(v.to_act)}**'s turn{when}")
    elif table.next_round_at and not v.over and not table.stop_after_round and table.status == "playing":
        desc.append(f"⏸️ Next round <t:{int(table.next_round_at)}:R>")
    if log:
        desc.append("\n📜 **This round**\n" + log_text(log))
    e.description = "\n".join(desc)
    rows = []
    for pid in [*v.players, *(p for p in v.seated if p not in v.players)]:
        count = v.card_counts.get(pid, 0)
        marks = " (dealer)" if dealt and pid == v.dealer else ""
        if pid.isdigit() and int(pid) in table.leave_after_round:
            marks += " · leaving after this round"
        pointer = "▶️ " if v.in_round and v.to_act == pid else ""
        rows.append(
            f"{pointer}**{table.name(pid)}**{marks} — {chips(v.stacks.get(pid, 0))} · {count} cards · "
            + _status(v, pid)
        )
    e.add_field(name="Players", value="\n".join(rows) or "—", inline=False)
    if dealt:
        spreads = [f"`#{s.index + 1}` {cards(s.cards)} ({table.name(s.owner)})" for s in v.spreads]
        e.add_field(name="Spreads", value="\n".join(spreads) or "none yet", inline=False)
        top = card(v.top_discard) if v.top_discard is not None else "empty"
        e.add_field(name="Discard pile", value=top, inline=True)
        e.add_field(name="Stock", value=f"{v.stock_size} cards", inline=True)
        if v.showings and not log:  # the log says who showed what; not twice
            shown = ", ".join(f"{table.name(p)} {card(c)} ({pot})" for p, pot, c in v.showings)
            e.add_field(name="Shown for flip / flop", value=shown, inline=False)
    if (fair := commitment_lines(table)) and not log:  # the round's log carries it when there is one
        e.add_field(name="🔒 Fair deal", value=fair, inline=False)
    if last_line:
        e.add_field(name="Last move", value=last_line, inline=False)
    playing = table.status == "playing"
    footer = "click My hand to see your cards and play" if playing else "this table is closed"
    e.set_footer(text=f"Table {table.id} · {footer}")
    return e


def _names(table: Table, ids: Sequence[str]) -> str:
    names = [f"**{table.name(p)}**" for p in ids]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


END_TEXT = {
    "out": "{who} went out!",
    "tonk": "🎉 **Tonk out!** {who} laid down two spreads at once.",
    "drop": "{who} dropped and nobody beats them.",
    "caught": "{who} dropped but was **caught**.",
    "stock": "The stock ran out ({who} drew the last card): lowest hand wins.",
    "fifty": "**50 at the deal!**",
    "forty_nine": "**49 at the deal!**",
}


def event_lines(table: Table, events: Sequence[Event], ending: str = "") -> list[str]:
    """The public messages for what everyone should see (ordinary draws and discards go in the table).

    ``ending`` is why the game ends (said after what caused it, before the
    standings); no "next deal" is announced when the game ends with it.
    """
    out: list[str] = []
    game_ends = (
        table.stop_after_round
        or (table.game is not None and table.game.public_view().over)
        or any(isinstance(e, GameOver) for e in events)
    )
    stacks = table.game.public_view().stacks if table.game is not None else {}
    for e in events:
        if isinstance(e, RoundStarted):
            short = [p for p, paid in e.paid.items() if len(paid) < 3]
            line = (
                f"🃏 **Round {e.number}** — {table.name(e.dealer)} deals. Upcard {card(e.upcard)}: "
                f"flip suit {suit_name(e.flip_suit)}, flop suit {suit_name(e.flop_suit)}. "
                f"Pots: game {e.pots['game']}, flip {e.pots['flip']}, flop {e.pots['flop']}."
            )
            for p in short:
                pots = " and ".join(e.paid[p])
                allin = " (all in)" if e.paid[p] == ("game",) and stacks.get(p) == 0 else ""
                plural = "s" if len(e.paid[p]) > 1 else ""
                line += f"\n↳ {table.name(p)} plays for the {pots} pot{plural} only{allin}."
            out.append(line + dealt_line(table, e.number))
        elif isinstance(e, CardShown):
            out.append(f"👀 {table.name(e.player)} shows {card(e.card)} for the **{e.pot}**.")
        elif isinstance(e, Dropped):
            out.append(f"✋ {table.name(e.player)} drops with **{e.value}**.")
        elif isinstance(e, PlayerLeft):
            if e.during_round:
                out.append(f"🚪 {table.name(e.player)} left the game and forfeits this round.")
            else:
                out.append(f"🚪 {table.name(e.player)} left the game.")
        elif isinstance(e, RoundEnded):
            who = f"**{table.name(e.player)}**" if e.player else ""
            head = END_TEXT[e.reason].format(who=who)
            if e.reason == "out" and e.player and e.hands.get(e.player):
                head = f"{who} wins the round: everyone else has left it."
            hands = [
                f"{table.name(p)}: {cards(h, sort=True) if h else 'no cards'} (**{e.values[p]}**)"
                for p, h in e.hands.items()
            ]
            out.append(f"🏁 {head}\n" + "\n".join(hands) + reveal_line(table))
        elif isinstance(e, SideStakePaid):
            if e.to_player is not None:
                out.append(
                    f"↳ {table.name(e.player)} pays {table.name(e.to_player)} a side stake of {e.amount}."
                )
            else:
                out.append(f"↳ {table.name(e.player)} pays a side stake of {e.amount} into the game pot.")
        elif isinstance(e, PotPaid):
            winners = list(e.shares)
            if len(winners) == 1:
                out.append(f"💰 {_names(table, winners)} wins the **{POT_NAME[e.pot]}** ({chips(e.total)}).")
            else:
                each = ", ".join(f"{table.name(p)} {n}" for p, n in e.shares.items())
                out.append(
                    f"💰 {_names(table, winners)} split the **{POT_NAME[e.pot]}** ({chips(e.total)}: {each})."
                )
        elif isinstance(e, PotCarried):
            out.append(
                f"↪️ No one can win the {POT_NAME[e.pot]}: its {chips(e.amount)} carry into the next round."
            )
        elif isinstance(e, SeatClosed):
            if e.reason == "eliminated":
                out.append(
                    f"💀 {table.name(e.player)} is out of chips and leaves the game ({chips(e.stack)} back)."
                )
            else:
                out.append(
                    f"👋 {table.name(e.player)}'s stack of {chips(e.stack)} goes back to their balance."
                )
        elif isinstance(e, NextDealer):
            if not game_ends:
                out.append(f"Next deal: **{table.name(e.player)}**.")
        elif isinstance(e, GameOver):
            if ending:
                out.append(ending)
            standings = [
                f"{i}. **{table.name(p)}** — {chips(e.stacks.get(p, stacks.get(p, 0)))}"
                for i, p in enumerate(e.standings, start=1)
            ]
            out.append("🏆 **Game over!** Final standings:\n" + "\n".join(standings))
    return out


def last_move(table: Table, events: Sequence[Event]) -> str:
    """One line for the table message about the ordinary moves just made."""
    parts: list[str] = []
    for e in events:
        if isinstance(e, Drew):
            parts.append(
                f"{table.name(e.player)} drew from the stock"
                if e.source == "stock"
                else f"{table.name(e.player)} took {card(e.card)} from the discard pile"  # type: ignore[arg-type]
            )
        elif isinstance(e, SpreadLaid):
            parts.append(f"{table.name(e.player)} laid down {cards(e.cards)}")
        elif isinstance(e, LaidOff):
            parts.append(f"{table.name(e.player)} laid {card(e.card)} off on #{e.index + 1}")
        elif isinstance(e, Discarded):
            parts.append(f"{table.name(e.player)} discarded {card(e.card)}")
    return "; ".join(parts)


def hand_text(table: Table, view: PlayerView, note: str = "", drawn: Card | None = None) -> str:
    """A player's private hand: cards sorted, value, and what to do now.

    The card just drawn is marked, and so is the dealer's upcard while the
    dealer holds it (everyone saw it dealt face up, R3.2).
    """
    lines = []
    if note:
        lines.append(note)
    if not view.players or view.player not in view.players:
        lines.append("You're not in this round.")
        return "\n".join(lines)
    marks: dict[Card, str] = {}
    if view.player == view.dealer and view.upcard_held and view.upcard in view.hand:
        marks[view.upcard] = "upcard, seen by all"
    if drawn is not None and drawn in view.hand:
        marks[drawn] = "just drawn"
    lines.append(f"**Your hand** (value **{view.hand_value}**): {cards(view.hand, sort=True, marks=marks)}")
    if view.player in view.dead:
        lines.append("You left this round; your stack comes back when it ends.")
    elif view.over or table.status != "playing":
        lines.append("🏁 The game is over; this hand is finished.")
    elif not view.in_round:
        lines.append(
            "The round is over; the game ends now."
            if table.stop_after_round
            else "The round is over. The next deal starts by itself."
        )
    elif view.to_act == view.player:
        top: Card | None = view.top_discard
        if view.phase == "start":
            take = f", take {card(top)} from the discard pile" if top else ""
            lines.append(f"▶️ **Your turn.** Draw from the stock{take}, or drop with {view.hand_value}.")
        else:
            lines.append(
                "▶️ **Your turn.** Lay down spreads or lay off if you like, then discard a card."
                + (" You can **tonk out**!" if view.can_tonk_out else "")
            )
        if table.turn_deadline:
            lines.append(f"⏳ Time runs out <t:{int(table.turn_deadline)}:R>.")
    else:
        lines.append("⏳ Not your turn yet: this hand updates itself when your turn comes.")
    return "\n".join(lines)


def _refund_list(table: Table, refunds: dict[int, int]) -> str:
    return ", ".join(f"{table.name(u)} got {chips(a)} back" for u, a in refunds.items() if a)


def notice_line(table: Table, notice: Notice) -> str | None:
    """What the channel reads about a table-life notice (None: nothing to say in the channel)."""
    if isinstance(notice, GameStarted):
        return f"🎲 The game begins with {notice.players} players!"
    if isinstance(notice, TimedOut):
        who = table.name(notice.player)
        if notice.removed:
            return (
                f"⏰ {who} ran out of time {notice.count} turns in a row and is removed from the game "
                "(their hand is dead; their stack goes back at the end of the round)."
            )
        return (
            f"⏰ {who} ran out of time, so the bot played their turn with the basic computer strategy "
            f"(timeout {notice.count} of {notice.allowed} allowed in a row)."
        )
    if isinstance(notice, LeavingAfterRound):
        return f"👋 {table.name(notice.player)} will leave after this round."
    if isinstance(notice, StopRequested):
        return f"⏹️ <@{notice.by}> will stop the game when this round ends."
    if isinstance(notice, Stopped):
        return f"⏹️ <@{notice.by}> stopped the game."
    if isinstance(notice, ComputersOnly):
        return "🤖 Only computer players are left at the table, so the game ends."
    if isinstance(notice, Resumed):
        if table.status == "lobby":
            return "♻️ The bot restarted; the table is still open."
        to_act = table.game.public_view().to_act if table.game is not None else None
        turn = f" It's **{table.name(to_act)}**'s turn." if to_act is not None else ""
        return "♻️ The bot restarted; the game carries on." + turn
    return _closed_line(table, notice)


def _closed_line(table: Table, notice: TableClosed) -> str | None:
    refunds = _refund_list(table, notice.refunds)
    if notice.reason == "expired":
        return f"⌛ The Flip Flop table closed after 10 minutes without enough players; {refunds}."
    if notice.reason == "cancelled":
        by = table.name(notice.by) if notice.by is not None else "The host"
        return f"{by} cancelled the table. {refunds}."
    if notice.reason == "empty":
        return "Everyone left, so the table closed."
    if notice.reason == "message_gone":
        return (
            "♻️ While the bot was away its table message was deleted, so the Flip Flop table closed: "
            f"{refunds}."
        )
    return None


def unreadable_line(refunds: dict[int, int]) -> str:
    """A saved table this version can not read was closed."""
    paid = ", ".join(f"<@{u}> got {chips(a)} back" for u, a in refunds.items() if a)
    return f"♻️ The bot was updated and could not carry on the Flip Flop table here, so it closed it: {paid}."
