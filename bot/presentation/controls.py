"""The controls of the lobby and the table message, as plain data: what each offers, in whose words.

A screen model is a ``Page`` (its words and picture) and rows of these controls. Each
control names its family (the message it belongs on), its operation (what a click asks
for: the handler's ``op``), its label in the reader's language, a style and an emoji; a
menu carries its options. Nothing here knows Discord: the Discord side
(``cogs.flipflop.screens``) turns each into the item that carries its custom id, and the
ids' templates are made from the operations listed here. So a new button on the table is
an operation in ``TABLE_OPS``, a ``Button`` in ``table_controls``, its words in the catalogs,
and one branch in the handler (``cogs.flipflop.play.Controls.on_table``).

A hand's controls (cards, spreads, lay-offs: one player's view of one turn) are made in
``bot.presentation.hand_controls``, the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.cards import CardEmoji
from bot.i18n import N_, Texts
from bot.presentation.table_layout import Page
from bot.table.model import Table

Style = Literal["primary", "secondary", "success", "danger"]
Family = Literal["lobby", "table", "hand", "review", "rules", "again"]
"""The message a control belongs on: ``review`` is **Analyse my play** (a stored round, ``r``; a
practice hand's last round, ``p``), ``rules`` a page of ``/flipflop rules``, ``again`` **Play
again** on a game's final standings."""

LABEL_CHARS = 80
"""A button's label and a menu's placeholder are kept within 80 characters (Discord allows 80 and 150)."""
OPTION_CHARS = 100
"""Discord's limit for a menu option's label and description."""

LOBBY_OPS = ("join", "leave", "start", "cancel", "removecpu")
"""What the lobby's buttons ask for (their custom ids' template lists exactly these)."""
TABLE_OPS = ("hand", "leave_next", "stay", "back", "fair", "activity")
"""What the table message's buttons ask for (``fair`` is on the lobby too: it answers privately)."""
COMPUTER_LEVEL = {
    "basic": (N_("Basic computer"), N_("Sound play: spreads, lays off, drops when low")),
    "strong": (N_("Strong computer"), N_("Thinks ahead by playing out possible hands")),
    "random": (N_("Random computer"), N_("Plays any legal move (for fun)")),
}
"""The lobby menu's option for each level (``bot.runtime.LEVELS``, in order): its label and what it does.

The menu offers the levels the table seats (``Table.computer_levels``): no Random where chips are real."""


def fit(text: str, room: int) -> str:
    """``text`` cut to ``room`` characters with "…" when a translation runs longer (never an error)."""
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"


@dataclass(frozen=True)
class Button:
    """A button: ``op`` on the message of its ``family``.

    ``value``: what its code carries after the operation (a hand's card, cards or selection);
    ``row``: its row where the message places controls by row (a hand).
    """

    family: Family
    op: str
    label: str
    style: Style = "secondary"
    emoji: str | CardEmoji | None = None
    value: str | None = None
    row: int | None = None
    disabled: bool = False


@dataclass(frozen=True)
class Option:
    """One choice of a menu."""

    value: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Menu:
    """A menu: the lobby's computer players (``addcpu``), a hand's tonk out or lay-off target."""

    family: Family
    op: str
    placeholder: str
    options: tuple[Option, ...]
    row: int | None = None


Control = Button | Menu
Rows = tuple[tuple[Control, ...], ...]


def _button(
    family: Family, op: str, text: str, style: Style = "secondary", emoji: str | None = None
) -> Button:
    return Button(family, op, fit(text, LABEL_CHARS), style, emoji)


def lobby_controls(table: Table, page: Page, t: Texts) -> Rows:
    """Join, Leave, Start, Cancel (Remove computer once one is seated); the host's menu; Fair deal.

    The menu offers the levels this table seats: Random at a practice table only.
    """
    seats = [
        _button("lobby", "join", t.gettext("Join"), "success", "🪑"),
        _button("lobby", "leave", t.gettext("Leave")),
        _button("lobby", "start", t.gettext("Start"), "primary", "▶️"),
        _button("lobby", "cancel", t.gettext("Cancel"), "danger"),
    ]
    if table.computers:
        seats.append(_button("lobby", "removecpu", t.gettext("Remove computer"), emoji="🤖"))
    options = tuple(_computer_option(level, t) for level in table.computer_levels)
    menu = Menu("lobby", "addcpu", fit(t.gettext("🤖 Host: add a computer player…"), LABEL_CHARS), options)
    return _rows(seats, [menu], _fair_row(page, t))


def table_controls(table: Table, page: Page, t: Texts, activity: bool = False) -> Rows:
    """My hand, Leave after this round, Stay after all, I'm back, Fair deal; Open table (an Activity)."""
    row: list[Control] = [
        _button("table", "hand", t.gettext("My hand"), "primary", "🂠"),
        _button("table", "leave_next", t.gettext("Leave after this round")),
    ]
    if table.leave_after_round:
        row.append(_button("table", "stay", t.gettext("Stay after all")))
    if table.away:
        row.append(_button("table", "back", t.gettext("I'm back"), "success", "👋"))
    row += _fair_row(page, t)
    opens = [_button("table", "activity", t.gettext("Open table"), "success", "🌐")] if activity else []
    return _rows(row, opens)


def _fair_row(page: Page, t: Texts) -> list[Control]:
    """**Fair deal** when a commitment is out: it answers privately with the whole of it."""
    return [_button("table", "fair", t.gettext("🔒 Fair deal"))] if page.fair else []


def _computer_option(level: str, t: Texts) -> Option:
    name, what = COMPUTER_LEVEL.get(level, (level, level))
    return Option(level, fit(t.gettext(name), OPTION_CHARS), fit(t.gettext(what), OPTION_CHARS))


def _rows(*rows: Sequence[Control]) -> Rows:
    return tuple(tuple(row) for row in rows if row)


def rules_controls(page: int, pages: int, t: Texts) -> Rows:
    """◀ Back and Next ▶ on page ``page`` (from 1) of ``pages``: each carries the page it leads to."""
    back, ahead = fit(t.gettext("◀ Back"), LABEL_CHARS), fit(t.gettext("Next ▶"), LABEL_CHARS)
    return (
        (
            Button("rules", "prev", back, value=str(page - 1), disabled=page == 1),
            Button("rules", "next", ahead, value=str(page + 1), disabled=page == pages),
        ),
    )


def play_again_control(t: Texts) -> Button:
    """**Play again** under a game's final standings: a new lobby with the same stake and buy-in."""
    return _button("again", "again", t.gettext("Play again"), "success", "🔁")


def stored_review(round_id: int, t: Texts) -> Button:
    """**Analyse my play** under ``/flipflop round id:``: the stored round's id in hex is its value."""
    text = fit(t.gettext("Analyse my play"), LABEL_CHARS)
    return Button("review", "r", text, "secondary", "🔍", f"{round_id:x}")
