"""Each screen a member sees, its text and its controls built together: lobby, table, hand, closed.

Screens read only the table's views (``public_view``, ``view(player)``);
the words come from ``bot.table_render`` and the controls from ``controls``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.coach_render import PRACTICE_BANNER, practice_dress
from bot.i18n import N_, Texts
from bot.render import plain, plain_cards
from bot.rules_pages import rules_pages
from bot.runtime import LEVELS
from bot.table_render import closed_embed, hand_text, lobby_embed, table_embed
from bot.tables import Table
from cogs.flipflop.coach import practice_review_button
from cogs.flipflop.controls import (
    OPTION_CHARS,
    HandButton,
    HandSelect,
    LobbyButton,
    LobbySelect,
    RulesButton,
    TableButton,
    code,
    fit,
    label,
)
from engine import Card, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.view import PlayerView


@dataclass(frozen=True)
class Screen:
    """A message's embed (or text) and its controls, ready to send or edit."""

    embed: discord.Embed | None = None
    content: str | None = None
    view: discord.ui.View | None = None

    def send(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``send_message``."""
        out: dict[str, Any] = {}
        if self.embed is not None:
            out["embed"] = self.embed
        if self.content is not None:
            out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        return out

    def edit(self) -> dict[str, Any]:
        """Keyword arguments for ``edit``/``edit_message`` (clearing what the screen lacks)."""
        return {"embed": self.embed, "content": self.content, "view": self.view}


COMPUTER_LEVEL = {
    "basic": (N_("Basic computer"), N_("Sound play: spreads, lays off, drops when low")),
    "strong": (N_("Strong computer"), N_("Thinks ahead by playing out possible hands")),
    "random": (N_("Random computer"), N_("Plays any legal move (for fun)")),
}
"""The lobby menu's option for each level (``bot.runtime.LEVELS``): its label and what it does."""


def _computer_option(level: str, t: Texts) -> discord.SelectOption:
    name, what = COMPUTER_LEVEL.get(level, (level, LEVELS[level]))
    return discord.SelectOption(
        label=fit(t.gettext(name), OPTION_CHARS), value=level, description=fit(t.gettext(what), OPTION_CHARS)
    )


def lobby_screen(table: Table, t: Texts) -> Screen:
    """Who is seated; Join, Leave, Start, Cancel and the host's computer players (server's language)."""
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(table.id, "join", label(t.gettext("Join")), discord.ButtonStyle.success, "🪑"))
    view.add_item(LobbyButton(table.id, "leave", label(t.gettext("Leave")), discord.ButtonStyle.secondary))
    view.add_item(LobbyButton(table.id, "start", label(t.gettext("Start")), discord.ButtonStyle.primary, "▶️"))
    view.add_item(LobbyButton(table.id, "cancel", label(t.gettext("Cancel")), discord.ButtonStyle.danger))
    options = [_computer_option(k, t) for k in LEVELS]
    view.add_item(LobbySelect(table.id, label(t.gettext("🤖 Add a computer player (host)…")), options))
    if table.computers:
        view.add_item(
            LobbyButton(
                table.id,
                "removecpu",
                label(t.gettext("Remove computer")),
                discord.ButtonStyle.secondary,
                "🤖",
            )
        )
    return Screen(embed=practice_embed(table, lobby_embed(table, t.at(table.practice)), t), view=view)


def table_screen(table: Table, t: Texts, last_line: str = "", log: Sequence[str] = ()) -> Screen:
    """The public table: the game as everyone sees it; My hand, Leave after this round (or stay)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(table.id, "hand", label(t.gettext("My hand")), discord.ButtonStyle.primary, "🂠")
    )
    view.add_item(
        TableButton(
            table.id, "leave_next", label(t.gettext("Leave after this round")), discord.ButtonStyle.secondary
        )
    )
    if table.leave_after_round:
        view.add_item(
            TableButton(table.id, "stay", label(t.gettext("Stay after all")), discord.ButtonStyle.secondary)
        )
    return Screen(
        embed=practice_embed(table, table_embed(table, t.at(table.practice), last_line, log), t), view=view
    )


def practice_embed(table: Table, embed: discord.Embed, t: Texts) -> discord.Embed:
    """A practice table's embed says so: title, banner and footer (issue 16).

    Its chip amounts already say "practice chips": it was rendered with ``t.at(True)``.
    """
    if not table.practice:
        return embed
    if embed.description and t.gettext(PRACTICE_BANNER) in embed.description:
        return embed
    title, description, footer = practice_dress(t, embed.title or "", embed.description, embed.footer.text)
    if table.status == "lobby":
        description = description.replace(
            t.gettext("Your buy-in moves from your balance to the table and comes back when you leave."),
            t.gettext("Your buy-in is practice chips; your balance is never touched."),
        )
    embed.title, embed.description = title, description
    embed.set_footer(text=footer)
    return embed


def current_screen(table: Table, t: Texts, last_line: str = "", log: Sequence[str] = ()) -> Screen:
    """The table message as it should read now, whatever the table's state (server's language)."""
    if table.status == "lobby":
        return lobby_screen(table, t)
    if table.status == "playing":
        return table_screen(table, t, last_line, log)
    shown = t.at(table.practice)
    embed = table_embed(table, shown, last_line, log) if table.game is not None else lobby_embed(table, shown)
    embed.title = t.gettext("🃏 Flip Flop — table closed")
    embed.set_footer(
        text=t.gettext("Table {table} · this table is closed; open a new one with {command}").format(
            table=table.id, command="/flipflop start"
        )
    )
    return Screen(embed=practice_embed(table, embed, t))


def closed_screen(title: str, text: str) -> Screen:
    """A lobby that was cancelled or emptied: no controls."""
    return Screen(embed=closed_embed(title, text))


LEAVE_CONFIRM_SECONDS = 30
"""How long a "Yes, leave" button stays good: a confirmation is a decision of the moment."""

PRACTICE_HAND = N_(
    "-# 🎓 Practice table: practice chips only. **Hint** shows what the strong player would do."
)


def hand_screen(table: Table, user_id: int, t: Texts, note: str = "", drawn: Card | None = None) -> Screen:
    """A player's private hand in their language ``t``, with controls for exactly their legal actions now.

    A finished game (or closed table) offers nothing to click.
    """
    assert table.game is not None
    view = table.game.view(table.pid(user_id))
    text = hand_text(table, view, t.at(table.practice), note, drawn)
    if table.practice:
        text += "\n" + t.gettext(PRACTICE_HAND)
    if view.over or table.status != "playing":
        return Screen(content=text, view=None)
    return Screen(content=text, view=_hand_controls(table, view, t))


def leave_confirm_screen(table: Table, user_id: int, now: float, t: Texts) -> Screen:
    """Asks before leaving: "Keep playing" takes the place of the Leave button just clicked.

    The confirming button comes second, expires after ``LEAVE_CONFIRM_SECONDS``
    and only holds for the table's current state (``seq``), so a double
    click, or a click much later, never leaves the game (R8.4: leaving mid-round
    forfeits the round).
    """
    assert table.game is not None
    v = table.game.view(table.pid(user_id))
    if table.practice:  # practice chips never reach a balance
        ask = (
            t.gettext(
                "🚪 **Leave the practice table?** Leaving now forfeits this round (your hand is dead). "
                "This question expires in {seconds} seconds."
            )
            if v.still_playing
            else t.gettext("🚪 **Leave the practice table?** This question expires in {seconds} seconds.")
        )
    elif v.still_playing:
        ask = t.gettext(
            "🚪 **Leave the game?** Leaving now forfeits this round (your hand is dead); your stack goes "
            "back to your balance when the round ends. This question expires in {seconds} seconds."
        )
    else:
        ask = t.gettext(
            "🚪 **Leave the game?** Your stack goes back to your balance. "
            "This question expires in {seconds} seconds."
        )
    question = ask.format(seconds=t.number(LEAVE_CONFIRM_SECONDS))
    text = f"{hand_text(table, v, t)}\n\n{question}"
    out = discord.ui.View(timeout=None)
    tid, seq = table.id, table.seq
    out.add_item(
        HandButton(tid, seq, "refresh", label(t.gettext("Keep playing")), discord.ButtonStyle.success)
    )
    until = int(now) + LEAVE_CONFIRM_SECONDS
    out.add_item(
        HandButton(
            tid, seq, "leaveok", label(t.gettext("Yes, leave")), discord.ButtonStyle.danger, until=until
        )
    )
    return Screen(content=text, view=out)


def _hand_controls(table: Table, v: PlayerView, t: Texts) -> discord.ui.View:
    out = discord.ui.View(timeout=None)
    tid, seq = table.id, table.seq
    if v.can_act:
        for a in v.legal:
            if isinstance(a, Draw) and a.source == "stock":
                out.add_item(
                    HandButton(
                        tid,
                        seq,
                        "stock",
                        label(t.gettext("Draw from stock")),
                        discord.ButtonStyle.primary,
                        "🂠",
                    )
                )
            elif isinstance(a, Draw):
                top = v.top_discard
                take = (
                    label(t.gettext("Take {card}").format(card=plain(top)))
                    if top
                    else label(t.gettext("Take the discard"))
                )
                out.add_item(HandButton(tid, seq, "take", take, discord.ButtonStyle.primary))
            elif isinstance(a, Drop):
                drop = label(t.gettext("Drop ({value})").format(value=t.number(v.hand_value)))
                out.add_item(HandButton(tid, seq, "drop", drop, discord.ButtonStyle.danger, "✋"))
        _menus(out, table, v, t)
    # Refresh and Leave live on the last row, so they never move into the place
    # of a move just clicked; Leave only asks (see ``leave_confirm_screen``).
    out.add_item(
        HandButton(
            tid, seq, "refresh", label(t.gettext("Refresh")), discord.ButtonStyle.secondary, "🔄", row=4
        )
    )
    if table.practice and v.still_playing:
        out.add_item(
            HandButton(tid, seq, "hint", label(t.gettext("Hint")), discord.ButtonStyle.success, "💡", row=4)
        )
    if (review := practice_review_button(table, int(v.player), t)) is not None:
        out.add_item(review)
    if any(isinstance(a, Leave) for a in v.legal):
        out.add_item(
            HandButton(
                tid, seq, "leave", label(t.gettext("Leave game…")), discord.ButtonStyle.secondary, row=4
            )
        )
    return out


def _spread_kind(s: Spread, t: Texts) -> str:
    run = PlayerView.spread_kind(s.cards) == "run"
    text = (
        t.gettext("Run · lowers your hand by {value}")
        if run
        else t.gettext("Set · lowers your hand by {value}")
    )
    return fit(text.format(value=t.number(sum(c.value for c in s.cards))), OPTION_CHARS)


def _menus(out: discord.ui.View, table: Table, v: PlayerView, t: Texts) -> None:
    tid, seq = table.id, table.seq
    tonks = [a for a in v.legal if isinstance(a, TonkOut)]
    spreads = [a for a in v.legal if isinstance(a, Spread)]
    layoffs = [a for a in v.legal if isinstance(a, LayOff)]
    discards = [a for a in v.legal if isinstance(a, Discard)]
    if tonks:
        options = [
            discord.SelectOption(
                label=f"{plain_cards(t.first)} + {plain_cards(t.second)}",
                value=f"{code(t.first)}|{code(t.second)}",
            )
            for t in tonks[:25]
        ]
        out.add_item(
            HandSelect(tid, seq, "tonk", label(t.gettext("🎉 Tonk out! Lay down your whole hand…")), options)
        )
    if spreads:
        options = [
            discord.SelectOption(
                label=plain_cards(s.cards), description=_spread_kind(s, t), value=code(s.cards)
            )
            for s in spreads[:25]
        ]
        out.add_item(HandSelect(tid, seq, "spread", label(t.gettext("Lay down a spread…")), options))
    if layoffs:
        on = {s.index: s.cards for s in v.spreads}
        options = [
            discord.SelectOption(
                label=f"{plain(lo.card)} → #{lo.target + 1} " + plain_cards(on.get(lo.target, ())),
                value=f"{lo.card.code}@{lo.target}",
            )
            for lo in layoffs[:25]
        ]
        out.add_item(HandSelect(tid, seq, "layoff", label(t.gettext("Lay off a card on a spread…")), options))
    if discards:
        options = [
            discord.SelectOption(
                label=plain(d.card),
                value=d.card.code,
                description=fit(
                    t.gettext("value {value}").format(value=t.number(d.card.value)), OPTION_CHARS
                ),
            )
            for d in sorted(discards, key=lambda d: (-d.card.value, d.card.suit))[:25]
        ]
        out.add_item(
            HandSelect(tid, seq, "discard", label(t.gettext("Discard a card (ends your turn)…")), options)
        )


def rules_screen(page: int, t: Texts) -> Screen:
    """Page ``page`` (from 1) of the rules in the member's language, with buttons to the pages around it."""
    pages = rules_pages(t)
    page = min(max(page, 1), len(pages))
    shown = pages[page - 1]
    embed = discord.Embed(title=f"📖 {shown.title}", description=shown.body, colour=discord.Colour.blurple())
    embed.set_footer(text=shown.footer)
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(page - 1, "prev", label(t.gettext("◀ Back")), disabled=page == 1))
    view.add_item(RulesButton(page + 1, "next", label(t.gettext("Next ▶")), disabled=page == len(pages)))
    return Screen(embed=embed, view=view)
