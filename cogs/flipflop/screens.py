"""Each screen a member sees, its text and its controls built together: lobby, table, hand, closed.

Screens read only the table's views (``public_view``, ``view(player)``);
the words come from ``bot.presentation.table_render`` and the controls from ``controls``.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import N_, Texts
from bot.presentation.coach_render import practice_dress
from bot.presentation.controls import (
    Button,
    Control,
    Menu,
    fit,
    lobby_controls,
    play_again_control,
    rules_controls,
    table_controls,
)
from bot.presentation.hand_controls import hand_controls, leave_confirm_controls, picked
from bot.presentation.render import look
from bot.presentation.round_picture import MAX_BYTES as PICTURE_BYTES
from bot.presentation.round_picture import Ending, legend, picture_alt
from bot.presentation.round_picture import file_name as picture_file
from bot.presentation.round_picture import render as render_round
from bot.presentation.rules_pages import rules_pages
from bot.presentation.table_layout import IN_PICTURE, closed_page, lobby_page, note_page, table_page
from bot.presentation.table_picture import HAND_FILE, render_hand
from bot.presentation.table_render import hand_finished, hand_text, log_text
from bot.table.model import Table
from cogs.flipflop.coach import AnalyseButton
from cogs.flipflop.controls import (
    STYLES,
    HandButton,
    HandSelect,
    LobbyButton,
    LobbySelect,
    PlayAgainButton,
    RulesButton,
    TableButton,
    button_emoji,
)
from cogs.flipflop.layout import files, layout
from engine import Card
from engine.cards import sort_key
from engine.view import PlayerView


@dataclass(frozen=True)
class Screen:
    """A message's embed (or text) and its controls, ready to send or edit.

    The lobby and the table are Components V2 messages: their ``view`` is a layout that
    holds the words too, with no content and no embed (an edit clears both).
    ``attachments``: the files the layout shows (the table's picture), sent and edited with the
    message in the same call; None leaves a message's files alone, ``()`` clears them (a table
    that closed). A file is rewound each time it is handed out, so a screen can be sent again.
    """

    embed: discord.Embed | None = None
    content: str | None = None
    view: discord.ui.View | discord.ui.LayoutView | None = None
    attachments: Sequence[discord.File] | None = None

    def _files(self) -> list[discord.File]:
        for f in self.attachments or ():
            f.reset()
        return list(self.attachments or ())

    def send(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``send_message``.

        A screen never pings: the names in it are members' own (a nickname may read ``<@id>``);
        a turn's ping is a message of its own (``cogs/flipflop/pings.py``).
        """
        out: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if self.embed is not None:
            out["embed"] = self.embed
        if self.content is not None:
            out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        if self.attachments:
            out["files"] = self._files()
        return out

    def edit(self) -> dict[str, Any]:
        """Keyword arguments for ``edit``/``edit_message`` (clearing what the screen lacks)."""
        out: dict[str, Any] = {"embed": self.embed, "content": self.content, "view": self.view}
        out["allowed_mentions"] = discord.AllowedMentions.none()  # as ``send``: an edit marks none either
        if self.attachments is not None:
            out["attachments"] = self._files()
        return out


def lobby_screen(table: Table, t: Texts) -> Screen:
    """Who is seated; Join, Leave, Start, Cancel and the host's computer players (server's language)."""
    page = lobby_page(table, t.at(table.practice))
    return Screen(view=layout(page, rows(table, lobby_controls(table, page, t))))


def table_screen(
    table: Table, t: Texts, last_line: str = "", log: Sequence[str] = (), activity: bool = False
) -> Screen:
    """The public table as everyone sees it: My hand, Leave after this round (or stay), Fair deal.

    With ``activity`` (the application has an Activity and the live table is on), **Open table**
    under them launches the live table as a Discord Activity (docs/ACTIVITY.md).
    """
    page = table_page(table, t.at(table.practice), last_line, log)
    controls = rows(table, table_controls(table, page, t, activity))
    return Screen(view=layout(page, controls), attachments=files(page))


def practice_title(table: Table, title: str, t: Texts) -> str:
    """A title as a practice table dresses it (a real table's stays as it is)."""
    return practice_dress(t, title, None, None)[0] if table.practice else title


def current_screen(
    table: Table, t: Texts, last_line: str = "", log: Sequence[str] = (), activity: bool = False
) -> Screen:
    """The table message as it should read now, whatever the table's state (server's language)."""
    if table.status == "lobby":
        return lobby_screen(table, t)
    if table.status == "playing":
        return table_screen(table, t, last_line, log, activity)
    return Screen(view=layout(closed_page(table, t.at(table.practice), last_line, log)), attachments=())


@dataclass(frozen=True)
class RoundRecord:
    """A finished round as the channel keeps it: its story and, when known, a picture of its end.

    A Components V2 message: a container with the title and the round's log, the picture
    (every hand and spread, ``bot.presentation.round_picture``) in a media gallery with its alt text, and
    **Watch the replay** when there is one. It replaces the table message the round was played
    in, once, and is never edited again (a V2 message can not go back to an embed).
    """

    title: str
    lines: tuple[str, ...]
    ending: Ending | None = None
    style: str = "classic"

    async def edit(self, t: Texts, replay: discord.ui.View | None = None) -> dict[str, Any]:
        """Keyword arguments for the message's one edit; the picture is drawn off the event loop."""
        layout = discord.ui.LayoutView(timeout=None)
        box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
            accent_colour=discord.Colour.dark_grey()
        )
        box.add_item(discord.ui.TextDisplay(fit(f"### {self.title}", 300)))
        box.add_item(discord.ui.TextDisplay(log_text(self.lines, RECORD_CHARS) or "—"))
        files: list[discord.File] = []
        if self.ending is not None:
            data = await asyncio.to_thread(render_round, self.ending, self.style)
            if len(data) <= PICTURE_BYTES:
                name = picture_file(self.ending.number)
                files.append(discord.File(io.BytesIO(data), filename=name))
                item = discord.MediaGalleryItem(
                    f"attachment://{name}", description=picture_alt(self.ending, t)
                )
                box.add_item(discord.ui.MediaGallery(item))
                if who := legend(self.ending):  # names the picture's fonts can not draw, in words
                    pairs = ", ".join(f"{shown} = {name}" for shown, name in who)
                    box.add_item(
                        discord.ui.TextDisplay(fit("-# " + t.gettext(IN_PICTURE).format(names=pairs), 400))
                    )
        buttons = [
            c for c in (replay.children if replay is not None else []) if isinstance(c, discord.ui.Button)
        ]
        if buttons:
            box.add_item(discord.ui.ActionRow(*buttons))
        layout.add_item(box)
        return {"content": None, "embed": None, "view": layout, "attachments": files}


RECORD_CHARS = 3000
"""Room for a finished round's log in its record (the text of a V2 message holds 4,000)."""


def closed_screen(title: str, text: str, table: Table | None = None, t: Texts | None = None) -> Screen:
    """A lobby that was cancelled, emptied or went to a thread: no controls (a practice one says so)."""
    return Screen(view=layout(note_page(title, text, table, t)))


LEAVE_CONFIRM_SECONDS = 30
"""How long a "Yes, leave" button stays good: a confirmation is a decision of the moment."""

PRACTICE_HAND = N_(
    "-# 🎓 Practice table: practice chips only. **Hint** shows what the Strong computer would do."
)


def hand_screen(
    table: Table,
    user_id: int,
    t: Texts,
    note: str = "",
    drawn: Card | None = None,
    selection: str | None = None,
    away_said: bool = False,
) -> Screen:
    """A player's private hand in their language ``t``, with controls for exactly their legal actions now.

    The cards are buttons (see ``bot.presentation.hand_controls``); ``selection`` is what the player has
    picked to lay down (``~`` and card codes), or None. A finished game (or closed table)
    offers nothing to click. The card the turn's draw brought is marked however the hand comes to
    be shown (the draw's answer, Refresh, **My hand** again, a draw made on the live page): the
    engine's ``just_drawn``, unless ``drawn`` names it. ``away_said``: the ``note`` says the member is
    away (the answer to **Away**), so the hand does not say it again.
    """
    assert table.game is not None
    view = table.game.view(table.pid(user_id))
    drawn = drawn or view.just_drawn
    text = hand_text(table, view, t.at(table.practice), note, drawn, away_said)
    if table.practice:
        text += "\n" + t.gettext(PRACTICE_HAND)
    shown = hand_files(view, t, drawn)
    if hand_finished(table, view):
        return Screen(content=text, view=None, attachments=shown)
    return Screen(
        content=text,
        view=hand_view(table, hand_controls(table, view, t, picked(view, selection), drawn)),
        attachments=shown,
    )


def item(table: Table, control: Control) -> discord.ui.Item[Any]:
    """A screen model's control (``bot.presentation.controls``) as the Discord item carrying its code.

    The custom id is made by the item's class (``cogs.flipflop.controls``) from the table, the
    control's operation and value, and for a hand the table's ``seq``.
    """
    if isinstance(control, Menu):
        options = [
            discord.SelectOption(label=o.label, value=o.value, description=o.description or None)
            for o in control.options
        ]
        if control.family == "lobby":
            return LobbySelect(table.id, control.placeholder, options)
        select = HandSelect(table.id, table.seq, control.op, control.placeholder, options)
        select.item.row = control.row
        return select
    assert isinstance(control, Button)
    style = STYLES[control.style]
    if control.family == "hand":
        return HandButton(
            table.id, table.seq, control.op, control.label, style, control.emoji,
            until=control.value, row=control.row, disabled=control.disabled,
        )  # fmt: skip
    if control.family == "review":  # its look is the coach's button's own, wherever it is offered
        return review_item(control, table.id)
    if control.family == "again":
        return PlayAgainButton(table.id, control.label)
    kind = LobbyButton if control.family == "lobby" else TableButton
    return kind(table.id, control.op, control.label, style, button_emoji(control.emoji))


def review_item(control: Button, table_id: str = "") -> AnalyseButton:
    """**Analyse my play**: a stored round's (``r``, its hex id the value) or a practice round's (``p``)."""
    if control.op == "r":
        return AnalyseButton("r", str(control.value), None, control.label)
    return AnalyseButton("p", table_id, int(control.value or 0), control.label)


def rules_view(controls: Sequence[Sequence[Control]]) -> discord.ui.View:
    """The rules' page buttons (``bot.presentation.controls.rules_controls``): no table involved."""
    view = discord.ui.View(timeout=None)
    for control in (c for row in controls for c in row):
        assert isinstance(control, Button)
        view.add_item(RulesButton(int(control.value or 0), control.op, control.label, control.disabled))
    return view


def rows(table: Table, controls: Sequence[Sequence[Control]]) -> list[list[discord.ui.Item[Any]]]:
    """A screen model's rows of controls as rows of Discord items."""
    return [[item(table, control) for control in row] for row in controls]


def hand_view(table: Table, controls: Sequence[Control]) -> discord.ui.View:
    """A hand's controls (``bot.presentation.hand_controls``), each in its row, as a message's view."""
    out = discord.ui.View(timeout=None)
    for control in controls:
        out.add_item(item(table, control))
    return out


def hand_files(view: PlayerView, t: Texts, drawn: Card | None = None) -> list[discord.File]:
    """The hand's cards as one picture, three times an emoji's size (the card just drawn raised).

    Card emojis in a line of text and on buttons are ~20 pixels: 8♣ and 9♣ look alike. A reader
    of words (the ``text`` style) gets none; a hand with no cards clears the last one.
    """
    hand = view.hand if view.player in view.players and view.in_round else ()
    if not hand or look(t).words:
        return []
    data = render_hand(tuple(sorted(hand, key=sort_key)), look(t).style, drawn if drawn in hand else None)
    return [discord.File(io.BytesIO(data), filename=HAND_FILE)]


HAND_MOVED = N_("↪️ This hand moved to your newer hand message below; nothing to click here.")


def moved_hand_screen(t: Texts) -> Screen:
    """An older hand message once the player opened a newer one: where the hand went, no controls."""
    return Screen(content=t.gettext(HAND_MOVED), view=None)


def leave_confirm_screen(table: Table, user_id: int, now: float, t: Texts) -> Screen:
    """Asks before leaving: **Keep playing**, and **Yes, leave** alone on the row below.

    The cards stay where they were (not clickable). **Leave game…** always follows **Refresh**
    in its row, and both answers are first in theirs, so a double click lands on nothing that
    leaves; **Keep playing** leads back to the hand, where Draw or Refresh sits in its place,
    and an expired **Yes, leave** to Refresh or nothing (Drop is never first in a row).
    The confirming button expires after ``LEAVE_CONFIRM_SECONDS``
    and only holds for the table's current state (``seq``), so a click much later never
    leaves the game (R8.4: leaving mid-round forfeits the round).
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
    elif table.tournament:  # the stack stays in the tournament; its next rounds play the seat
        ask = (
            t.gettext(
                "🚪 **Leave this table?** Leaving now forfeits this round (your hand is dead); your stack "
                "stays in the tournament, and the computer plays your seat in its next rounds until you "
                "click **I'm back**. This question expires in {seconds} seconds."
            )
            if v.still_playing
            else t.gettext(
                "🚪 **Leave this table?** Your stack stays in the tournament, and the computer plays your "
                "seat in its next rounds until you click **I'm back**. "
                "This question expires in {seconds} seconds."
            )
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
    controls = leave_confirm_controls(table, v, t, now, LEAVE_CONFIRM_SECONDS)
    return Screen(content=text, view=hand_view(table, controls))


def play_again_view(table: Table, t: Texts) -> discord.ui.View:
    """The final standings' one control: **Play again** (a new lobby with the same stake and buy-in)."""
    view = discord.ui.View(timeout=None)
    view.add_item(item(table, play_again_control(t)))
    return view


def rules_screen(page: int, t: Texts) -> Screen:
    """Page ``page`` (from 1) of the rules in the member's language, with buttons to the pages around it."""
    pages = rules_pages(t)
    page = min(max(page, 1), len(pages))
    shown = pages[page - 1]
    embed = discord.Embed(title=f"📖 {shown.title}", description=shown.body, colour=discord.Colour.blurple())
    embed.set_footer(text=shown.footer)
    return Screen(embed=embed, view=rules_view(rules_controls(page, len(pages), t)))
