"""Every control of a Flip Flop table: its custom-id codec, its ``DynamicItem`` and one guard.

Custom ids are made and read here only. Each id names the kind of message
its control belongs on — ``l``/``c`` the lobby, ``t`` the table message,
``a``/``s`` a player's private hand — and the guard (``interaction_check``)
refuses a control delivered on the wrong kind of message, for a table that
has closed, from another server or channel than its table's, or (in a hand)
from someone not playing, before any handler runs.
Hand controls carry the table's ``seq`` so a control from an earlier turn
does nothing. Ids are stable, so controls keep working after a restart.
Who answers the controls (``Handler``), and the answers to a control no item
takes, are in ``control_answers.py``.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Self

import discord

from bot.cards import CardEmoji
from bot.client import send_ephemeral
from bot.i18n.mentions import mention
from bot.presentation.controls import LABEL_CHARS, LOBBY_OPS, TABLE_OPS, Style, fit
from bot.presentation.hand_controls import HAND_MENU_OPS, HAND_OPS
from bot.presentation.refusals import MESSAGES as REFUSALS
from bot.runtime import clicked_at
from bot.table.model import Table
from cogs.flipflop.control_answers import Handler, answered, handler_of, handlers
from engine import Card
from engine.actions import Action
from engine.codec import parse_control
from engine.errors import MalformedInput


def label(text: str) -> str:
    """A control's label (already in the reader's language) within Discord's 80 characters."""
    return fit(text, LABEL_CHARS)


class Kind(enum.Enum):
    """The message a control belongs on."""

    LOBBY = "lobby"
    TABLE = "table"
    HAND = "hand"


def bind(client: discord.Client, handler: Handler) -> None:
    """Register the persistent controls on ``client`` and who answers them."""
    handlers[id(client)] = handler
    client.add_dynamic_items(
        LobbyButton, LobbySelect, TableButton, HandButton, HandSelect, RulesButton, PlayAgainButton
    )


def unbind(client: discord.Client) -> None:
    """Stop answering the controls (the cog is unloading)."""
    client.remove_dynamic_items(
        LobbyButton, LobbySelect, TableButton, HandButton, HandSelect, RulesButton, PlayAgainButton
    )
    handlers.pop(id(client), None)


def in_tournament_channel(interaction: discord.Interaction, table: Table) -> bool:
    """The click was made in the channel whose thread is ``table``, a tournament's table.

    An entrant plays their hand from the tournament's channel too (``/flipflop hand``, README).
    """
    if not table.tournament or interaction.guild_id != table.guild_id:
        return False
    thread = interaction.client.get_channel(table.channel_id)
    return isinstance(thread, discord.Thread) and thread.parent_id == interaction.channel_id


class _Guarded:
    """The one guard every control passes: right message kind, open table, a player for hands."""

    kind: ClassVar[Kind]
    tid: str

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        message = interaction.message
        on_hand = message is not None and message.flags.ephemeral
        handler = handler_of(interaction)
        if on_hand != (self.kind is Kind.HAND):
            t = await handler.member_texts(interaction)
            await send_ephemeral(
                interaction, t.gettext("That control doesn't belong on this message; nothing was done.")
            )
            return False
        table = handler.runtime.get(self.tid)
        if table is None:
            t = await handler.member_texts(interaction)
            if self.kind is Kind.HAND:
                await interaction.response.edit_message(
                    content=t.gettext("This table has closed."), view=None
                )
            else:
                await send_ephemeral(
                    interaction,
                    t.gettext("This table has closed. Open a new one with {command}.").format(
                        command=mention("flipflop start")
                    ),
                )
            return False
        here = clicked_at(table, interaction.guild_id, interaction.channel_id)
        if not here and not (self.kind is Kind.HAND and in_tournament_channel(interaction, table)):
            t = await handler.member_texts(interaction)
            await send_ephemeral(interaction, t.gettext(REFUSALS["other_place"]))
            return False
        if self.kind is Kind.HAND and (
            table.game is None or table.pid(interaction.user.id) not in table.game.order
        ):
            t = await handler.member_texts(interaction)
            await send_ephemeral(interaction, t.gettext("You're not playing at this table."))
            return False
        return True


class OpButton:
    """A button coded ``ff:<CODE>:<table>:<op>``: made from the two, read back from its custom id.

    Mixed in before ``discord.ui.DynamicItem`` (whose template matches the code), so each kind of
    button states only its code, its template and what a click does.
    """

    CODE: ClassVar[str]

    def __init__(
        self,
        tid: str,
        op: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | discord.PartialEmoji | None = None,
    ) -> None:
        custom_id = f"ff:{self.CODE}:{tid}:{op}"
        button = discord.ui.Button[Any](label=label, style=style, emoji=emoji, custom_id=custom_id)
        super().__init__(button)  # type: ignore[call-arg]  # the DynamicItem's, next in a button's order
        self.tid, self.op = tid, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["tid"], match["op"])


class LobbyButton(
    OpButton,
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"ff:l:(?P<tid>[0-9a-f]+):(?P<op>{'|'.join(LOBBY_OPS)})",
):
    """A button on the lobby message."""

    CODE = "l"
    kind = Kind.LOBBY

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, handler_of(interaction).on_lobby(interaction, self.tid, self.op, ""))


class LobbySelect(
    _Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ff:c:(?P<tid>[0-9a-f]+):addcpu"
):
    """The lobby's menu of computer players to seat."""

    kind = Kind.LOBBY

    def __init__(
        self, tid: str, placeholder: str = "", options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="—")],
                custom_id=f"ff:c:{tid}:addcpu",
            )
        )
        self.tid = tid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> LobbySelect:
        control = cls(match["tid"])
        assert isinstance(item, discord.ui.Select)
        control.item = item
        return control

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await answered(interaction, handler_of(interaction).on_lobby(interaction, self.tid, "addcpu", value))


class TableButton(
    OpButton,
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"ff:t:(?P<tid>[0-9a-f]+):(?P<op>{'|'.join(TABLE_OPS)})",
):
    """A button on the public table message (``fair`` also on the lobby: it only answers privately)."""

    CODE = "t"
    kind = Kind.TABLE

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, handler_of(interaction).on_table(interaction, self.tid, self.op))


STYLES: dict[Style, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def button_emoji(emoji: str | CardEmoji | None) -> str | discord.PartialEmoji | None:
    """A button's emoji: a card face (an application emoji, plain data in ``bot.cards``) as discord.py's."""
    return discord.PartialEmoji(name=emoji.name, id=emoji.id) if isinstance(emoji, CardEmoji) else emoji


class HandButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"ff:a:(?P<tid>[0-9a-f]+):(?P<seq>\d+)"
        rf":(?P<op>{'|'.join(HAND_OPS)})"
        r"(?::(?P<until>[0-9A-Z.@~]*))?"
    ),
):
    """A button in a private hand: draw, take the discard, drop, refresh, leave (asks), leaveok (confirms).

    A card's button discards it, or (``pick``) carries the selection it makes; a spread or a
    lay-off offered as a button carries its cards (``until`` holds the value).

    ``leaveok`` carries ``until``, the second its confirmation expires: a
    confirmation is only good for a moment, and only for the state it was
    asked in (``seq``), so no stray click can cost a round.
    """

    kind = Kind.HAND

    def __init__(
        self,
        tid: str,
        seq: int,
        op: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | CardEmoji | None = None,
        until: int | str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        custom_id = f"ff:a:{tid}:{seq}:{op}" + (f":{until}" if until is not None else "")
        super().__init__(
            discord.ui.Button(
                label=label or None,
                style=style,
                emoji=button_emoji(emoji),
                custom_id=custom_id,
                row=row,
                disabled=disabled,
            )
        )
        self.tid, self.seq, self.op, self.until = tid, seq, op, until

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> HandButton:
        return cls(match["tid"], int(match["seq"]), match["op"], until=match["until"])

    async def callback(self, interaction: discord.Interaction) -> None:
        value = str(self.until) if self.until is not None else None
        await answered(
            interaction, handler_of(interaction).on_hand(interaction, self.tid, self.seq, self.op, value)
        )


class HandSelect(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"ff:s:(?P<tid>[0-9a-f]+):(?P<seq>\d+):(?P<op>{'|'.join(HAND_MENU_OPS)})",
):
    """A select menu in a private hand: spread, lay off, discard, tonk out."""

    kind = Kind.HAND

    def __init__(
        self,
        tid: str,
        seq: int,
        op: str,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="—")],
                custom_id=f"ff:s:{tid}:{seq}:{op}",
            )
        )
        self.tid, self.seq, self.op = tid, seq, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> HandSelect:
        control = cls(match["tid"], int(match["seq"]), match["op"])
        assert isinstance(item, discord.ui.Select)
        control.item = item
        return control

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await answered(
            interaction, handler_of(interaction).on_hand(interaction, self.tid, self.seq, self.op, value)
        )


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ff:r:(?P<page>\d+):(?P<op>prev|next)"
):
    """Turns a page of ``/flipflop rules``: it names the page it leads to; no table involved."""

    def __init__(self, page: int, op: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"ff:r:{page}:{op}",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> RulesButton:
        return cls(int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, handler_of(interaction).on_rules(interaction, self.page))


class PlayAgainButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ff:p:(?P<tid>[0-9a-f]+):again"
):
    """**Play again** on a game's final standings: it names the ended table (closed, so no guard)."""

    def __init__(self, tid: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, emoji="🔁", custom_id=f"ff:p:{tid}:again"
            )
        )
        self.tid = tid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> PlayAgainButton:
        return cls(match["tid"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, handler_of(interaction).on_play_again(interaction, self.tid))


# ---------------------------------------------------------------------- select values


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split(".") if c)


def parse_action(player: str, op: str, value: str | None) -> Action | None:
    """Turn a hand control into an engine action (the engine checks it); None if it is malformed.

    ``leave`` only asks (``leave_confirm_screen``); its confirmation ``leaveok`` is the action.
    """
    if op == "leave":
        return None
    try:
        return parse_control(player, "leave" if op == "leaveok" else op, value)
    except MalformedInput:
        return None
