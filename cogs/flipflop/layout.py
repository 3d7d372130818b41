"""A ``Page`` (``bot.presentation.table_layout``) and its controls as one Components V2 message.

One container in the page's accent colour: the title, the page's picture if it has one (a
media gallery showing the attachment ``files`` makes), each block of text with a thin
separator between them, then the controls in action rows. The controls keep the custom
ids ``controls`` makes, so a table message posted before (an embed) or after answers alike.
Discord's limits (40 components, 5 per row) hold: a page has at most six text displays and
five separators, and each row here is at most five buttons or one menu.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import Texts
from bot.presentation.limits import shorten
from bot.presentation.replay_link import WATCH, replay_link
from bot.presentation.table_layout import TEXT_ROOM, Page
from bot.presentation.table_render import OVER

Row = Sequence[discord.ui.Item[Any]]


def layout(page: Page, rows: Sequence[Row] = ()) -> discord.ui.LayoutView:
    """The message for ``page`` with ``rows`` of controls (empty rows are left out)."""
    view = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=page.colour)
    for i, text in enumerate(page.displays()):
        if i > (page.picture is not None) and not text.startswith(
            "-# "
        ):  # small print follows without a line
            box.add_item(discord.ui.Separator(visible=True))
        box.add_item(discord.ui.TextDisplay(text))
        if i == 0 and page.picture is not None:  # the table's picture, under its title
            item = discord.MediaGalleryItem(f"attachment://{page.picture.name}", description=page.picture.alt)
            box.add_item(discord.ui.MediaGallery(item))
    for row in rows:
        if row:
            box.add_item(discord.ui.ActionRow(*row))
    view.add_item(box)
    return view


def files(page: Page) -> list[discord.File]:
    """The attachment the page's media gallery shows (sent or edited with the message), or none."""
    if page.picture is None:
        return []
    return [discord.File(io.BytesIO(page.picture.data), filename=page.picture.name)]


def note(text: str, row: Row = ()) -> discord.ui.LayoutView:
    """A message left behind as a plain grey note (a table that moved, a game that ended in its thread).

    A table message is a V2 message, and stays one: a note replaces it in the same form.
    """
    page = Page("", (shorten(text, TEXT_ROOM),), "", OVER)
    return layout(page, [row])


def watch_button(base_url: str, data: Mapping[str, Any], t: Texts) -> discord.ui.Button[discord.ui.View]:
    """**Watch the replay**: a link button to the page, carrying the round when it fits (``replay_link``).

    The page speaks ``t``'s language: the server's under a public record or ``/flipflop verify``,
    the reader's under ``/flipflop round`` (their own answer).
    """
    url = replay_link(base_url, data, language=t.language)
    return discord.ui.Button(style=discord.ButtonStyle.link, label=t.gettext(WATCH), url=url)
