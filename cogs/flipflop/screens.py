"""Each screen a member sees, its text and its controls built together: lobby, table, hand, closed.

Screens read only the table's views (``public_view``, ``view(player)``);
the words come from ``bot.table_render`` and the controls from ``controls``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.coach_render import PRACTICE_BANNER, practice_dress, practice_text
from bot.i18n import N_, texts
from bot.render import plain, plain_cards
from bot.rules_pages import rules_pages
from bot.runtime import LEVEL_LABEL, LEVELS
from bot.table_render import closed_embed, hand_text, lobby_embed, table_embed
from bot.tables import Table
from cogs.flipflop.coach import practice_review_button
from cogs.flipflop.controls import (
    HandButton,
    HandSelect,
    LobbyButton,
    LobbySelect,
    RulesButton,
    TableButton,
    code,
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


def lobby_screen(table: Table) -> Screen:
    """Who is seated; Join, Leave, Start, Cancel and the host's computer players."""
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(table.id, "join", "Join", discord.ButtonStyle.success, "🪑"))
    view.add_item(LobbyButton(table.id, "leave", "Leave", discord.ButtonStyle.secondary))
    view.add_item(LobbyButton(table.id, "start", "Start", discord.ButtonStyle.primary, "▶️"))
    view.add_item(LobbyButton(table.id, "cancel", "Cancel", discord.ButtonStyle.danger))
    options = [
        discord.SelectOption(label=f"{LEVEL_LABEL[k]} computer", value=k, description=d)
        for k, d in LEVELS.items()
    ]
    view.add_item(LobbySelect(table.id, "🤖 Add a computer player (host)…", options))
    if table.computers:
        view.add_item(
            LobbyButton(table.id, "removecpu", "Remove computer", discord.ButtonStyle.secondary, "🤖")
        )
    return Screen(embed=practice_embed(table, lobby_embed(table)), view=view)


def table_screen(table: Table, last_line: str = "", log: Sequence[str] = ()) -> Screen:
    """The public table: the game as everyone sees it; My hand, Leave after this round (or stay)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table.id, "hand", "My hand", discord.ButtonStyle.primary, "🂠"))
    view.add_item(
        TableButton(table.id, "leave_next", "Leave after this round", discord.ButtonStyle.secondary)
    )
    if table.leave_after_round:
        view.add_item(TableButton(table.id, "stay", "Stay after all", discord.ButtonStyle.secondary))
    return Screen(embed=practice_embed(table, table_embed(table, last_line, log)), view=view)


def practice_embed(table: Table, embed: discord.Embed) -> discord.Embed:
    """A practice table's embed says so everywhere: title, banner, footer and every chip amount (issue 16)."""
    if not table.practice:
        return embed
    t = texts("en")
    if embed.description and t.gettext(PRACTICE_BANNER) in embed.description:
        return embed
    title, description, footer = practice_dress(t, embed.title or "", embed.description, embed.footer.text)
    if table.status == "lobby":
        description = description.replace(
            "Your buy-in moves from your balance to the table and comes back when you leave.",
            t.gettext("Your buy-in is practice chips; your balance is never touched."),
        )
    embed.title, embed.description = title, description
    embed.set_footer(text=footer)
    for i, f in enumerate(embed.fields):
        embed.set_field_at(i, name=f.name or "", value=practice_text(t, f.value or ""), inline=bool(f.inline))
    return embed


def current_screen(table: Table, last_line: str = "", log: Sequence[str] = ()) -> Screen:
    """The table message as it should read now, whatever the table's state."""
    if table.status == "lobby":
        return lobby_screen(table)
    if table.status == "playing":
        return table_screen(table, last_line, log)
    embed = table_embed(table, last_line, log) if table.game is not None else lobby_embed(table)
    embed.title = "🃏 Flip Flop — table closed"
    embed.set_footer(text=f"Table {table.id} · this table is closed; open a new one with /flipflop start")
    return Screen(embed=practice_embed(table, embed))


def closed_screen(title: str, text: str) -> Screen:
    """A lobby that was cancelled or emptied: no controls."""
    return Screen(embed=closed_embed(title, text))


LEAVE_CONFIRM_SECONDS = 30
"""How long a "Yes, leave" button stays good: a confirmation is a decision of the moment."""

PRACTICE_HAND = N_(
    "-# 🎓 Practice table: practice chips only. **Hint** shows what the strong player would do."
)
HAND_ENDED = "🏁 This game is over; this hand is finished. The results are in the channel."


def hand_screen(table: Table, user_id: int, note: str = "", drawn: Card | None = None) -> Screen:
    """A player's private hand with controls for exactly their legal actions now.

    A finished game (or closed table) offers nothing to click.
    """
    assert table.game is not None
    view = table.game.view(table.pid(user_id))
    text = hand_text(table, view, note, drawn)
    if table.practice:
        text = practice_text(texts("en"), text) + "\n" + texts("en").gettext(PRACTICE_HAND)
    if view.over or table.status != "playing":
        return Screen(content=text, view=None)
    return Screen(content=text, view=_hand_controls(table, view))


def leave_confirm_screen(table: Table, user_id: int, now: float) -> Screen:
    """Asks before leaving: "Keep playing" takes the place of the Leave button just clicked.

    The confirming button comes second, expires after ``LEAVE_CONFIRM_SECONDS``
    and only holds for the table's current state (``seq``), so a double
    click, or a click much later, never leaves the game (R8.4: leaving mid-round
    forfeits the round).
    """
    assert table.game is not None
    v = table.game.view(table.pid(user_id))
    cost = (
        "Leaving now forfeits this round (your hand is dead); your stack goes back to your balance "
        "when the round ends."
        if v.in_round and v.player in v.players and v.player not in v.dead
        else "Your stack goes back to your balance."
    )
    text = f"{hand_text(table, v)}\n\n🚪 **Leave the game?** {cost} This question expires in 30 seconds."
    out = discord.ui.View(timeout=None)
    tid, seq = table.id, table.seq
    out.add_item(HandButton(tid, seq, "refresh", "Keep playing", discord.ButtonStyle.success))
    until = int(now) + LEAVE_CONFIRM_SECONDS
    out.add_item(HandButton(tid, seq, "leaveok", "Yes, leave", discord.ButtonStyle.danger, until=until))
    return Screen(content=text, view=out)


def _hand_controls(table: Table, v: PlayerView) -> discord.ui.View:
    out = discord.ui.View(timeout=None)
    tid, seq = table.id, table.seq
    if v.to_act == v.player:
        for a in v.legal:
            if isinstance(a, Draw) and a.source == "stock":
                out.add_item(
                    HandButton(tid, seq, "stock", "Draw from stock", discord.ButtonStyle.primary, "🂠")
                )
            elif isinstance(a, Draw):
                top = v.top_discard
                label = f"Take {plain(top)}" if top else "Take the discard"
                out.add_item(HandButton(tid, seq, "take", label, discord.ButtonStyle.primary))
            elif isinstance(a, Drop):
                out.add_item(
                    HandButton(tid, seq, "drop", f"Drop ({v.hand_value})", discord.ButtonStyle.danger, "✋")
                )
        _menus(out, table, v)
    # Refresh and Leave live on the last row, so they never move into the place
    # of a move just clicked; Leave only asks (see ``leave_confirm_screen``).
    out.add_item(HandButton(tid, seq, "refresh", "Refresh", discord.ButtonStyle.secondary, "🔄", row=4))
    if table.practice and v.in_round and v.player in v.players and v.player not in v.dead:
        label = texts("en").gettext("Hint")
        out.add_item(HandButton(tid, seq, "hint", label, discord.ButtonStyle.success, "💡", row=4))
    if (review := practice_review_button(table, int(v.player))) is not None:
        out.add_item(review)
    if any(isinstance(a, Leave) for a in v.legal):
        out.add_item(HandButton(tid, seq, "leave", "Leave game…", discord.ButtonStyle.secondary, row=4))
    return out


def _menus(out: discord.ui.View, table: Table, v: PlayerView) -> None:
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
        out.add_item(HandSelect(tid, seq, "tonk", "🎉 Tonk out! Lay down your whole hand…", options))
    if spreads:
        options = [
            discord.SelectOption(
                label=plain_cards(s.cards),
                description=(
                    "Run"
                    if len({c.suit for c in s.cards}) == 1 and len({c.rank for c in s.cards}) > 1
                    else "Set"
                )
                + f" · lowers your hand by {sum(c.value for c in s.cards)}",
                value=code(s.cards),
            )
            for s in spreads[:25]
        ]
        out.add_item(HandSelect(tid, seq, "spread", "Lay down a spread…", options))
    if layoffs:
        on = {s.index: s.cards for s in v.spreads}
        options = [
            discord.SelectOption(
                label=f"{plain(lo.card)} → #{lo.target + 1} " + plain_cards(on.get(lo.target, ())),
                value=f"{lo.card.code}@{lo.target}",
            )
            for lo in layoffs[:25]
        ]
        out.add_item(HandSelect(tid, seq, "layoff", "Lay off a card on a spread…", options))
    if discards:
        options = [
            discord.SelectOption(label=plain(d.card), value=d.card.code, description=f"value {d.card.value}")
            for d in sorted(discards, key=lambda d: (-d.card.value, d.card.suit))[:25]
        ]
        out.add_item(HandSelect(tid, seq, "discard", "Discard a card (ends your turn)…", options))


def rules_screen(page: int) -> Screen:
    """Page ``page`` (from 1) of the rules, with buttons to the pages before and after."""
    pages = rules_pages(texts("en"))
    page = min(max(page, 1), len(pages))
    shown = pages[page - 1]
    embed = discord.Embed(title=f"📖 {shown.title}", description=shown.body, colour=discord.Colour.blurple())
    embed.set_footer(text=shown.footer)
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(page - 1, "prev", "◀ Back", disabled=page == 1))
    view.add_item(RulesButton(page + 1, "next", "Next ▶", disabled=page == len(pages)))
    return Screen(embed=embed, view=view)
