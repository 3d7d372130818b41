"""The tournament message's controls: Join, Leave, Start and Cancel, and the message they sit on."""

from __future__ import annotations

import weakref
from typing import Any, Protocol

import discord

from bot.i18n import Texts
from bot.presentation.tournament_page import tournament_page
from bot.tournament.model import Tournament
from cogs.flipflop.controls import OpButton, label
from cogs.flipflop.layout import layout


class Clicks(Protocol):
    """Who answers a tournament button (the cog)."""

    async def on_tournament(self, interaction: discord.Interaction, tid: str, op: str) -> None:
        """Join, Leave, Start or Cancel."""
        ...


_handlers: weakref.WeakValueDictionary[int, Clicks] = weakref.WeakValueDictionary()

NO_PINGS = discord.AllowedMentions.none()
"""How the tournament's message is sent and edited: the entrants' names are their own (a nickname may
read ``<@id>``), so nothing in it pings."""


class TournamentButton(
    OpButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ff:tn:(?P<tid>[0-9a-f]+):(?P<op>join|leave|start|cancel|stop)",
):
    """A button on a tournament's message."""

    CODE = "tn"

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = _handlers.get(id(interaction.client))
        if handler is not None:
            await handler.on_tournament(interaction, self.tid, self.op)


def tournament_view(tour: Tournament, t: Texts) -> discord.ui.LayoutView:
    """The tournament's message: its page and, while it takes entries, its buttons."""
    page = tournament_page(tour, t)
    rows: list[list[discord.ui.Item[Any]]] = []
    if tour.status == "open":
        rows.append(
            [
                TournamentButton(tour.id, "join", label(t.gettext("Join")), discord.ButtonStyle.success, "🎟️"),
                TournamentButton(tour.id, "leave", label(t.gettext("Leave")), discord.ButtonStyle.secondary),
                TournamentButton(
                    tour.id, "start", label(t.gettext("Start")), discord.ButtonStyle.primary, "▶️"
                ),
                TournamentButton(tour.id, "cancel", label(t.gettext("Cancel")), discord.ButtonStyle.danger),
            ]
        )
    if tour.status == "running":
        stop = label(t.gettext("Stop (prizes by the stacks)"))
        rows.append([TournamentButton(tour.id, "stop", stop, discord.ButtonStyle.danger)])
    return layout(page, rows)


def bind_clicks(client: discord.Client, handler: Clicks) -> None:
    """Who answers the tournament buttons of ``client``."""
    _handlers[id(client)] = handler


def unbind_clicks(client: discord.Client) -> None:
    """Stop answering them."""
    _handlers.pop(id(client), None)
