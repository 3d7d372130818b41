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

from bot.cards import CardEmoji
from bot.i18n import N_, Texts
from bot.presentation.coach_render import practice_dress
from bot.presentation.render import card_emoji, look, plain, plain_cards
from bot.presentation.round_picture import MAX_BYTES as PICTURE_BYTES
from bot.presentation.round_picture import Ending, legend, picture_alt
from bot.presentation.round_picture import file_name as picture_file
from bot.presentation.round_picture import render as render_round
from bot.presentation.rules_pages import rules_pages
from bot.presentation.table_layout import IN_PICTURE, Page, closed_page, lobby_page, note_page, table_page
from bot.presentation.table_picture import HAND_FILE, render_hand
from bot.presentation.table_render import hand_text, log_text
from bot.runtime import LEVELS
from bot.table.model import Table
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
from cogs.flipflop.layout import files, layout
from engine import Card, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
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
        """Keyword arguments for ``send``/``send_message``."""
        out: dict[str, Any] = {}
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
        if self.attachments is not None:
            out["attachments"] = self._files()
        return out


COMPUTER_LEVEL = {
    "basic": (N_("Basic computer"), N_("Sound play: spreads, lays off, drops when low")),
    "strong": (N_("Strong computer"), N_("Thinks ahead by playing out possible hands")),
    "random": (N_("Random computer"), N_("Plays any legal move (for fun)")),
}
"""The lobby menu's option for each level (``bot.runtime.LEVELS``): its label and what it does."""


def _computer_option(level: str, t: Texts) -> discord.SelectOption:
    name, what = COMPUTER_LEVEL.get(level, (level, level))
    return discord.SelectOption(
        label=fit(t.gettext(name), OPTION_CHARS), value=level, description=fit(t.gettext(what), OPTION_CHARS)
    )


def lobby_screen(table: Table, t: Texts) -> Screen:
    """Who is seated; Join, Leave, Start, Cancel and the host's computer players (server's language)."""
    page = lobby_page(table, t.at(table.practice))
    seats = [
        LobbyButton(table.id, "join", label(t.gettext("Join")), discord.ButtonStyle.success, "🪑"),
        LobbyButton(table.id, "leave", label(t.gettext("Leave")), discord.ButtonStyle.secondary),
        LobbyButton(table.id, "start", label(t.gettext("Start")), discord.ButtonStyle.primary, "▶️"),
        LobbyButton(table.id, "cancel", label(t.gettext("Cancel")), discord.ButtonStyle.danger),
    ]
    if table.computers:
        seats.append(
            LobbyButton(
                table.id,
                "removecpu",
                label(t.gettext("Remove computer")),
                discord.ButtonStyle.secondary,
                "🤖",
            )
        )
    options = [_computer_option(k, t) for k in LEVELS]
    menu = LobbySelect(table.id, label(t.gettext("🤖 Add a computer player (host)…")), options)
    return Screen(view=layout(page, [seats, [menu], _fair_row(table, page, t)]))


def _fair_row(table: Table, page: Page, t: Texts) -> list[TableButton]:
    """**Fair deal** when a commitment is out: it answers privately with the whole of it."""
    if not page.fair:
        return []
    return [TableButton(table.id, "fair", label(t.gettext("🔒 Fair deal")), discord.ButtonStyle.secondary)]


def table_screen(
    table: Table, t: Texts, last_line: str = "", log: Sequence[str] = (), activity: bool = False
) -> Screen:
    """The public table as everyone sees it: My hand, Leave after this round (or stay), Fair deal.

    With ``activity`` (the application has an Activity and the live table is on), **Open table**
    under them launches the live table as a Discord Activity (docs/ACTIVITY.md).
    """
    page = table_page(table, t.at(table.practice), last_line, log)
    row = [
        TableButton(table.id, "hand", label(t.gettext("My hand")), discord.ButtonStyle.primary, "🂠"),
        TableButton(
            table.id, "leave_next", label(t.gettext("Leave after this round")), discord.ButtonStyle.secondary
        ),
    ]
    if table.leave_after_round:
        row.append(
            TableButton(table.id, "stay", label(t.gettext("Stay after all")), discord.ButtonStyle.secondary)
        )
    if table.away:
        row.append(
            TableButton(table.id, "back", label(t.gettext("I'm back")), discord.ButtonStyle.success, "👋")
        )
    rows = [row + _fair_row(table, page, t)]
    if activity:
        opens = label(t.gettext("Open table"))
        rows.append([TableButton(table.id, "activity", opens, discord.ButtonStyle.success, "🌐")])
    return Screen(view=layout(page, rows), attachments=files(page))


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
    "-# 🎓 Practice table: practice chips only. **Hint** shows what the strong player would do."
)


def hand_screen(
    table: Table,
    user_id: int,
    t: Texts,
    note: str = "",
    drawn: Card | None = None,
    selection: str | None = None,
) -> Screen:
    """A player's private hand in their language ``t``, with controls for exactly their legal actions now.

    The cards are buttons (see ``_hand_controls``); ``selection`` is what the player has
    picked to lay down (``~`` and card codes), or None. A finished game (or closed table)
    offers nothing to click.
    """
    assert table.game is not None
    view = table.game.view(table.pid(user_id))
    text = hand_text(table, view, t.at(table.practice), note, drawn)
    if table.practice:
        text += "\n" + t.gettext(PRACTICE_HAND)
    shown = hand_files(view, t, drawn)
    if view.over or table.status != "playing":
        return Screen(content=text, view=None, attachments=shown)
    return Screen(
        content=text, view=_hand_controls(table, view, t, picked(view, selection)), attachments=shown
    )


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


def picked(view: PlayerView, selection: str | None) -> tuple[Card, ...] | None:
    """The cards a selection names that are in the hand now, or None when not selecting.

    Selecting only makes sense while the player may lay down (after drawing).
    """
    if selection is None or not selection.startswith("~") or not _playing(view):
        return None
    hand = {c.code: c for c in view.hand}
    return tuple(sorted({hand[code] for code in selection[1:].split(".") if code in hand}, key=sort_key))


def _playing(view: PlayerView) -> bool:
    """The player has drawn and may lay down, lay off and discard now."""
    return view.to_act == view.player and any(isinstance(a, Discard) for a in view.legal)


CARDS_PER_ROW = 5
"""A hand's cards on its first row: a whole hand as dealt (Discord's five buttons a row)."""


def card_rows(hand: Sequence[Card]) -> list[list[Card]]:
    """A hand, sorted: up to five cards on one row; a sixth (after a draw) on a row of its own.

    The sixth card's row comes *below* the moves (see ``_card_buttons``), so the moves stay on
    the row under the first five: a second click on **Draw** lands on **Select cards…**, never
    on a card it would discard.
    """
    cs = sorted(hand, key=sort_key)
    return [cs[i : i + CARDS_PER_ROW] for i in range(0, len(cs), CARDS_PER_ROW)]


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
    rows, below = _card_buttons(out, table, v, t, None, clickable=False)
    until = int(now) + LEAVE_CONFIRM_SECONDS
    out.add_item(
        HandButton(
            tid, seq, "refresh", label(t.gettext("Keep playing")), discord.ButtonStyle.success, row=rows
        )
    )
    out.add_item(
        HandButton(
            tid,
            seq,
            "leaveok",
            label(t.gettext("Yes, leave")),
            discord.ButtonStyle.danger,
            until=until,
            row=below,
        )
    )
    return Screen(content=text, view=out)


def _card_buttons(
    out: discord.ui.View,
    table: Table,
    v: PlayerView,
    t: Texts,
    selection: tuple[Card, ...] | None,
    clickable: bool = True,
) -> tuple[int, int]:
    """The hand as card buttons; returns the moves' row and the row free for a menu below them.

    The first five cards are the first row; a sixth goes on the row after the moves' row (so
    it never takes the place of a move). After drawing a card's button discards it, or, while
    selecting, picks it (green) or puts it back; otherwise the cards are shown, not clickable.
    """
    tid, seq = table.id, table.seq
    playing = clickable and _playing(v)
    discards = {a.card for a in v.legal if isinstance(a, Discard)}
    hand = v.hand if v.player in v.players and v.in_round else ()
    rows = card_rows(hand)
    moves = 1 if rows else 0
    for r, row in enumerate(rows):
        r = r + 1 if r else r  # the sixth card: below the moves
        for c in row:
            face = card_emoji(c, t)
            text = "" if face is not None else plain(c, t)
            if selection is None:
                out.add_item(
                    HandButton(
                        tid,
                        seq,
                        "discard",
                        text,
                        discord.ButtonStyle.secondary,
                        face,
                        until=c.code,
                        row=r,
                        disabled=not (playing and c in discards),
                    )
                )
                continue
            chosen = c in selection
            after = [x for x in selection if x != c] if chosen else sorted([*selection, c], key=sort_key)
            out.add_item(
                HandButton(
                    tid,
                    seq,
                    "pick",
                    ("✓ " + text) if chosen and text else text,
                    discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary,
                    face,
                    until="~" + ".".join(x.code for x in after),
                    row=r,
                    disabled=not playing,
                )
            )
    return moves, moves + len(rows)


QUICK = 4
"""Spreads and lay-offs offered as one-click buttons after a draw (with **Select cards…**, one row)."""


def _hand_controls(
    table: Table, v: PlayerView, t: Texts, selection: tuple[Card, ...] | None = None
) -> discord.ui.View:
    """The hand's controls, in rows that keep their places.

    Rows: the cards (one or two rows), then the moves (Draw, Take, Drop — Take disabled
    rather than missing, so Drop is always third; or after a draw **Select cards…** and
    one-click spreads and lay-offs; or, selecting, what the selection can do), then a menu
    (tonk out, which spread to lay off on), then Refresh, Hint and **Leave game…** (which
    only asks). No control that drops or leaves ever takes the place of the one just
    clicked (``tests/cogs/test_hand_cards.py`` checks every transition).
    """
    out = discord.ui.View(timeout=None)
    moves, menu = _card_buttons(out, table, v, t, selection)
    if v.can_act and selection is not None:
        _selecting(out, table, v, t, selection, moves, menu)
    elif v.can_act:
        for a in _opening_moves(v):
            out.add_item(_opening_button(a, table, v, t, moves))
        if _playing(v):
            _quick(out, table, v, t, moves, menu)
    _last_row(out, table, v, t)
    return out


def _opening_moves(v: PlayerView) -> list[Draw | Drop]:
    """The turn's first moves in their places: Draw from stock, Take, then Drop.

    With an empty pile Take stays in its place, disabled, so Drop never moves to second.
    """
    start = [a for a in v.legal if isinstance(a, Draw)]
    if start and not any(a.source == "discard" for a in start):
        start.append(Draw(v.player, "discard"))
    start.sort(key=lambda a: a.source == "discard")
    return [*start, *(a for a in v.legal if isinstance(a, Drop))]


def _opening_button(a: Draw | Drop, table: Table, v: PlayerView, t: Texts, row: int) -> HandButton:
    """The button for one of the turn's first moves (``_opening_moves``)."""
    tid, seq = table.id, table.seq
    if isinstance(a, Drop):
        drop = label(t.gettext("Drop ({value})").format(value=t.number(v.hand_value)))
        return HandButton(tid, seq, "drop", drop, discord.ButtonStyle.danger, "✋", row=row)
    if a.source == "stock":
        return HandButton(
            tid, seq, "stock", label(t.gettext("Draw from stock")), discord.ButtonStyle.primary, "🂠", row=row
        )
    top = v.top_discard
    take = (
        label(t.gettext("Take {card}").format(card=plain(top, t)))
        if top
        else label(t.gettext("Take the discard"))
    )
    face = card_emoji(top, t) if top else None
    return HandButton(
        tid, seq, "take", take, discord.ButtonStyle.primary, face, row=row, disabled=a not in v.legal
    )


def _last_row(out: discord.ui.View, table: Table, v: PlayerView, t: Texts) -> None:
    """Refresh, Hint, the practice review, **Leave game…** and Away/I'm back, on the last row.

    They live there so they never move into the place of a move just clicked; Leave only
    asks (see ``leave_confirm_screen``).
    """
    tid, seq = table.id, table.seq
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
    if table.is_seated(int(v.player)):
        away = table.is_away(v.player)
        op, text, style = (
            ("back", t.gettext("I'm back"), discord.ButtonStyle.success)
            if away
            else ("away", t.gettext("Away"), discord.ButtonStyle.secondary)
        )
        out.add_item(HandButton(tid, seq, op, label(text), style, "👋" if away else "💤", row=4))


def _spread_kind(s: Spread, t: Texts) -> str:
    run = PlayerView.spread_kind(s.cards) == "run"
    text = (
        t.gettext("Run · lowers your hand by {value}")
        if run
        else t.gettext("Set · lowers your hand by {value}")
    )
    return fit(text.format(value=t.number(sum(c.value for c in s.cards))), OPTION_CHARS)


def _layoff_button(
    table: Table, lo: LayOff, t: Texts, row: int, face: CardEmoji | None = None
) -> HandButton:
    """One lay-off as a button: the card and the spread's number say what it does."""
    text = label(
        t.gettext("Lay off {card} on #{spread}").format(
            card=plain(lo.card, t), spread=t.number(lo.target + 1)
        )
    )
    return HandButton(
        table.id,
        table.seq,
        "layoff",
        text,
        discord.ButtonStyle.primary,
        face,
        until=f"{lo.card.code}@{lo.target}",
        row=row,
    )


def _quick(out: discord.ui.View, table: Table, v: PlayerView, t: Texts, row: int, menu: int) -> None:
    """After a draw: **Select cards…**, the best spreads and lay-offs as one click each, tonk out.

    **Select cards…** is always first (disabled when nothing can be laid down), so the moves'
    row is never empty and a second click on **Draw** never reaches a card below it.
    """
    tid, seq = table.id, table.seq
    spreads = sorted(
        (a for a in v.legal if isinstance(a, Spread)), key=lambda s: -sum(c.value for c in s.cards)
    )
    layoffs = sorted((a for a in v.legal if isinstance(a, LayOff)), key=lambda lo: -lo.card.value)
    tonks = [a for a in v.legal if isinstance(a, TonkOut)]
    out.add_item(
        HandButton(
            tid,
            seq,
            "pick",
            label(t.gettext("Select cards…")),
            discord.ButtonStyle.secondary,
            "☑️",
            until="~",
            row=row,
            disabled=not (spreads or layoffs),
        )
    )
    for s in spreads[:QUICK]:
        text = label(t.gettext("Lay down {cards}").format(cards=plain_cards(s.cards, t)))
        out.add_item(
            HandButton(tid, seq, "spread", text, discord.ButtonStyle.primary, until=code(s.cards), row=row)
        )
    for lo in layoffs[: QUICK - min(len(spreads), QUICK)]:
        out.add_item(_layoff_button(table, lo, t, row, card_emoji(lo.card, t)))
    if tonks:
        options = [
            discord.SelectOption(
                label=fit(f"{plain_cards(tk.first, t)} + {plain_cards(tk.second, t)}", OPTION_CHARS),
                value=f"{code(tk.first)}|{code(tk.second)}",
            )
            for tk in tonks[:25]
        ]
        select = HandSelect(
            tid, seq, "tonk", label(t.gettext("🎉 Tonk out! Lay down your whole hand…")), options
        )
        select.item.row = menu
        out.add_item(select)


def _selecting(
    out: discord.ui.View,
    table: Table,
    v: PlayerView,
    t: Texts,
    selection: tuple[Card, ...],
    row: int,
    menu: int,
) -> None:
    """What the picked cards can do: only what is legal now is enabled, and the labels say what."""
    tid, seq = table.id, table.seq
    chosen = set(selection)
    spread = next((a for a in v.legal if isinstance(a, Spread) and set(a.cards) == chosen), None)
    single = selection[0] if len(selection) == 1 else None
    layoffs = [a for a in v.legal if isinstance(a, LayOff) and a.card == single]
    discard = single is not None and any(isinstance(a, Discard) and a.card == single for a in v.legal)
    lay = (
        label(t.gettext("Lay down {cards}").format(cards=plain_cards(spread.cards, t)))
        if spread
        else label(t.gettext("Lay down (pick a run or a set)"))
    )
    out.add_item(
        HandButton(
            tid,
            seq,
            "spread",
            lay,
            discord.ButtonStyle.primary,
            until=code(spread.cards) if spread else "",
            row=row,
            disabled=spread is None,
        )
    )
    if len(layoffs) == 1:
        out.add_item(_layoff_button(table, layoffs[0], t, row))
    elif layoffs:  # several spreads fit: which one is not a card, so it is a menu
        on = {s.index: s.cards for s in v.spreads}
        options = [
            discord.SelectOption(
                label=fit(f"#{lo.target + 1} " + plain_cards(on.get(lo.target, ()), t), OPTION_CHARS),
                value=f"{lo.card.code}@{lo.target}",
            )
            for lo in layoffs[:25]
        ]
        select = HandSelect(tid, seq, "layoff", label(t.gettext("Lay off on which spread?")), options)
        select.item.row = menu
        out.add_item(select)
    else:
        out.add_item(
            HandButton(
                tid,
                seq,
                "layoff",
                label(t.gettext("Lay off (pick one card that fits a spread)")),
                discord.ButtonStyle.primary,
                until="",
                row=row,
                disabled=True,
            )
        )
    out.add_item(
        HandButton(
            tid,
            seq,
            "discard",
            label(t.gettext("Discard {card}").format(card=plain(single, t)))
            if single
            else label(t.gettext("Discard")),
            discord.ButtonStyle.secondary,
            until=single.code if single else "",
            row=row,
            disabled=not discard,
        )
    )
    out.add_item(
        HandButton(
            tid, seq, "pick", label(t.gettext("Cancel")), discord.ButtonStyle.secondary, until="", row=row
        )
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
