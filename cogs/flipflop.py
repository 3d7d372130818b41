"""The /flipflop commands and the table's buttons and select menus.

A cog never decides a rule: it asks the engine what is legal, offers exactly
that, applies what the player chose through the ``TableService`` and posts
the events that came back. Every control has a stable ``custom_id`` parsed by
a ``DynamicItem``, so controls keep working after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import send_ephemeral
from bot.ledger import InsufficientChips, LedgerError
from bot.render import chips, plain, plain_cards
from bot.table_render import (
    closed_embed,
    event_lines,
    hand_text,
    last_move,
    lobby_embed,
    table_embed,
)
from bot.tables import LOBBY_IDLE_SECONDS, TIMEOUTS_BEFORE_REMOVAL, Table, TableError, TableService
from engine import Card, Discard, Draw, Drop, IllegalAction, LayOff, Leave, Spread, TonkOut, hand_value
from engine.actions import Action
from engine.events import Event
from engine.strategies import STRATEGIES, BasicStrategy, Strategy, StrongStrategy


def make_strategy(level: str) -> Strategy:
    """A computer player of this level (strong searches for 200 ms a move)."""
    return STRATEGIES.get(level, BasicStrategy)()


if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.cog")
MAX_MESSAGE = 1900
LEVELS = {
    "basic": "Sound play: spreads, lays off, drops when low",
    "strong": "Thinks ahead by playing out possible hands",
    "random": "Plays any legal move (for fun)",
}
LEVEL_LABEL = {"basic": "Basic", "strong": "Strong", "random": "Random"}
HAND_TOKEN_SECONDS = 14 * 60
"""An interaction can edit its message for 15 minutes; we stop a minute early."""


def now() -> float:
    """Wall-clock seconds (virtual under simcord)."""
    return discord.utils.utcnow().timestamp()


# ---------------------------------------------------------------------- controls


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ff:t:(?P<tid>[0-9a-f]+):(?P<op>\w+)"
):
    """A button on the public lobby or table message: join, leave, start, cancel, hand, leave_next."""

    def __init__(
        self,
        tid: str,
        op: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, emoji=emoji, custom_id=f"ff:t:{tid}:{op}")
        )
        self.tid = tid
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: Any
    ) -> TableButton:
        return cls(match["tid"], match["op"], item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_table_button(interaction, self.tid, self.op)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ff:a:(?P<tid>[0-9a-f]+):(?P<seq>\d+):(?P<op>\w+)",
):
    """A button in a private hand: draw, take the discard, drop, refresh, leave."""

    def __init__(
        self,
        tid: str,
        seq: int,
        op: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, emoji=emoji, custom_id=f"ff:a:{tid}:{seq}:{op}")
        )
        self.tid = tid
        self.seq = seq
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: Any
    ) -> ActionButton:
        return cls(match["tid"], int(match["seq"]), match["op"], item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_action(interaction, self.tid, self.seq, self.op, None)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ff:s:(?P<tid>[0-9a-f]+):(?P<seq>\d+):(?P<op>\w+)",
):
    """A select menu in a private hand: spread, lay off, discard, tonk out."""

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
        self.tid = tid
        self.seq = seq
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: Any
    ) -> ActionSelect:
        sel = cls(match["tid"], int(match["seq"]), match["op"])
        sel.item = item
        return sel

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        if self.op == "addcpu":
            await cog_of(interaction).on_add_computer(interaction, self.tid, value)
            return
        await cog_of(interaction).on_action(interaction, self.tid, self.seq, self.op, value)


def cog_of(interaction: discord.Interaction) -> FlipFlop:
    """The Flip Flop cog of the bot that received ``interaction``."""
    cog = interaction.client.get_cog("FlipFlop")  # type: ignore[attr-defined]
    assert isinstance(cog, FlipFlop)
    return cog


def _code(cards: Sequence[Card]) -> str:
    return ".".join(c.code for c in cards)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split(".") if c)


def lobby_view(table: Table) -> discord.ui.View:
    """Join, Leave, Start, Cancel."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table.id, "join", "Join", discord.ButtonStyle.success, "🪑"))
    view.add_item(TableButton(table.id, "leave", "Leave", discord.ButtonStyle.secondary))
    view.add_item(TableButton(table.id, "start", "Start", discord.ButtonStyle.primary, "▶️"))
    view.add_item(TableButton(table.id, "cancel", "Cancel", discord.ButtonStyle.danger))
    view.add_item(
        ActionSelect(
            table.id,
            0,
            "addcpu",
            "🤖 Add a computer player (host)…",
            [
                discord.SelectOption(label=f"{LEVEL_LABEL[k]} computer", value=k, description=d)
                for k, d in LEVELS.items()
            ],
        )
    )
    if table.computers:
        view.add_item(
            TableButton(table.id, "removecpu", "Remove computer", discord.ButtonStyle.secondary, "🤖")
        )
    return view


def table_view(table: Table) -> discord.ui.View:
    """My hand, Leave after this round."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table.id, "hand", "My hand", discord.ButtonStyle.primary, "🂠"))
    view.add_item(
        TableButton(table.id, "leave_next", "Leave after this round", discord.ButtonStyle.secondary)
    )
    return view


def hand_view(table: Table, player: str) -> discord.ui.View:
    """Controls for exactly the legal actions now, built from the engine's list."""
    assert table.game is not None
    g = table.game
    view = discord.ui.View(timeout=None)
    tid, seq = table.id, table.seq
    legal = g.legal_actions(player) if player in g.seated else []
    mine = g.to_act == player
    if mine:
        for a in legal:
            if isinstance(a, Draw) and a.source == "stock":
                view.add_item(
                    ActionButton(tid, seq, "stock", "Draw from stock", discord.ButtonStyle.primary, "🂠")
                )
            elif isinstance(a, Draw):
                top = g.round.discard[-1] if g.round and g.round.discard else None
                label = f"Take {plain(top)}" if top else "Take the discard"
                view.add_item(ActionButton(tid, seq, "take", label, discord.ButtonStyle.primary))
            elif isinstance(a, Drop):
                value = hand_value(g.round.hands[player]) if g.round else 0
                view.add_item(
                    ActionButton(tid, seq, "drop", f"Drop ({value})", discord.ButtonStyle.danger, "✋")
                )
        spreads = [a for a in legal if isinstance(a, Spread)]
        layoffs = [a for a in legal if isinstance(a, LayOff)]
        discards = [a for a in legal if isinstance(a, Discard)]
        tonks = [a for a in legal if isinstance(a, TonkOut)]
        if tonks:
            view.add_item(
                ActionSelect(
                    tid,
                    seq,
                    "tonk",
                    "🎉 Tonk out! Lay down your whole hand…",
                    [
                        discord.SelectOption(
                            label=f"{plain_cards(t.first)} + {plain_cards(t.second)}",
                            value=f"{_code(t.first)}|{_code(t.second)}",
                        )
                        for t in tonks[:25]
                    ],
                )
            )
        if spreads:
            view.add_item(
                ActionSelect(
                    tid,
                    seq,
                    "spread",
                    "Lay down a spread…",
                    [
                        discord.SelectOption(
                            label=plain_cards(s.cards),
                            description=(
                                "Run"
                                if len({c.suit for c in s.cards}) == 1 and len({c.rank for c in s.cards}) > 1
                                else "Set"
                            )
                            + f" · lowers your hand by {sum(c.value for c in s.cards)}",
                            value=_code(s.cards),
                        )
                        for s in spreads[:25]
                    ],
                )
            )
        if layoffs and g.round is not None:
            r = g.round
            view.add_item(
                ActionSelect(
                    tid,
                    seq,
                    "layoff",
                    "Lay off a card on a spread…",
                    [
                        discord.SelectOption(
                            label=f"{plain(lo.card)} → #{lo.target} "
                            + plain_cards(r.spreads[lo.target].cards),
                            value=f"{lo.card.code}@{lo.target}",
                        )
                        for lo in layoffs[:25]
                    ],
                )
            )
        if discards:
            view.add_item(
                ActionSelect(
                    tid,
                    seq,
                    "discard",
                    "Discard a card (ends your turn)…",
                    [
                        discord.SelectOption(
                            label=plain(d.card), value=d.card.code, description=f"value {d.card.value}"
                        )
                        for d in sorted(discards, key=lambda d: (-d.card.value, d.card.suit))[:25]
                    ],
                )
            )
    view.add_item(ActionButton(tid, seq, "refresh", "Refresh", discord.ButtonStyle.secondary, "🔄"))
    if any(isinstance(a, Leave) for a in legal):
        view.add_item(ActionButton(tid, seq, "leave", "Leave game", discord.ButtonStyle.danger))
    return view


def parse_action(player: str, op: str, value: str | None) -> Action | None:
    """Turn a control into an engine action (the engine checks it)."""
    try:
        if op == "stock":
            return Draw(player, "stock")
        if op == "take":
            return Draw(player, "discard")
        if op == "drop":
            return Drop(player)
        if op == "leave":
            return Leave(player)
        if op == "discard" and value:
            return Discard(player, Card.parse(value))
        if op == "spread" and value:
            return Spread(player, _cards(value))
        if op == "layoff" and value and "@" in value:
            code, target = value.split("@", 1)
            return LayOff(player, Card.parse(code), int(target))
        if op == "tonk" and value and "|" in value:
            first, second = value.split("|", 1)
            return TonkOut(player, _cards(first), _cards(second))
    except (IllegalAction, ValueError):
        return None
    return None


def split_message(lines: Sequence[str]) -> list[str]:
    """Join lines into messages under Discord's 2,000-character limit."""
    out: list[str] = []
    buf = ""
    for line in lines:
        if buf and len(buf) + len(line) + 1 > MAX_MESSAGE:
            out.append(buf)
            buf = ""
        buf = f"{buf}\n{line}" if buf else line[:MAX_MESSAGE]
    if buf:
        out.append(buf)
    return out


# ---------------------------------------------------------------------- the cog


@app_commands.guild_only()
class FlipFlop(commands.GroupCog, group_name="flipflop", group_description="Play Flip Flop."):
    """Tables of Flip Flop in this server's channels."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot
        self.service = TableService(bot.db, bot.ledger, clock=now, round_pause=bot.pause_between_rounds)
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.open_hands: dict[tuple[str, int], discord.Interaction] = {}
        """The latest interaction behind each player's private hand message (valid 15 minutes)."""
        super().__init__()

    async def cog_load(self) -> None:
        """Register the persistent controls; reload saved tables (they resume when ready)."""
        self.bot.add_dynamic_items(TableButton, ActionButton, ActionSelect)
        await self.resume_tables()

    async def cog_unload(self) -> None:
        for task in self.timers.values():
            task.cancel()
        self.timers.clear()

    async def shutdown(self) -> None:
        """Stop the timers and wait for every action in flight to finish (graceful SIGTERM)."""
        await self.cog_unload()
        for lock in list(self.service._locks.values()):
            async with lock:
                pass

    # ------------------------------------------------------------------ helpers

    def channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def post(self, table: Table, lines: Sequence[str]) -> None:
        """Public event messages in the table's channel."""
        for text in split_message(lines):
            await self.channel(table).send(text, allowed_mentions=discord.AllowedMentions.none())

    async def refresh_table_message(self, table: Table) -> None:
        """The one edit of the table message that follows a change."""
        if table.message_id is None:
            return
        message = self.channel(table).get_partial_message(table.message_id)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            if table.status == "lobby":
                await message.edit(embed=lobby_embed(table), view=lobby_view(table))
            elif table.status == "playing":
                await message.edit(embed=table_embed(table), view=table_view(table))
            else:
                embed = table_embed(table) if table.game is not None else lobby_embed(table)
                embed.title = "🃏 Flip Flop — table closed"
                await message.edit(embed=embed, view=None)

    @staticmethod
    def may_manage(interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        return bool(perms and perms.manage_guild)

    async def reply(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        await send_ephemeral(interaction, text, **kwargs)

    def hand_payload(self, table: Table, user_id: int, note: str = "") -> dict[str, Any]:
        assert table.game is not None
        pid = table.pid(user_id)
        view = table.game.view(pid)
        return {"content": hand_text(table, view, note), "view": hand_view(table, pid)}

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="start", description="Open a Flip Flop table in this channel.")
    @app_commands.describe(stake="Chips per stake (default: the server's)", buy_in="Chips to sit down with")
    async def start(
        self,
        interaction: discord.Interaction,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        buy_in: app_commands.Range[int, 4, 1_000_000_000] | None = None,
    ) -> None:
        assert interaction.guild is not None and interaction.channel is not None
        existing = self.service.in_channel(interaction.channel.id)
        if existing is not None:
            link = (
                f"https://discord.com/channels/{existing.guild_id}/{existing.channel_id}/{existing.message_id}"
                if existing.message_id
                else "above"
            )
            await self.reply(
                interaction,
                f"There's already a table in this channel: {link}. Join it, or start one in another channel.",
            )
            return
        settings = await self.bot.ledger.settings(interaction.guild.id)
        stake = stake or settings.default_stake
        buy_in = buy_in or (settings.default_buy_in if stake == settings.default_stake else 40 * stake)
        user = interaction.user
        try:
            table = await self.service.create(
                interaction.guild.id,
                interaction.channel.id,
                user.id,
                user.display_name,
                stake,
                buy_in,
                settings.turn_seconds,
            )
        except InsufficientChips as e:
            await self.reply(interaction, self.not_enough(e.balance, buy_in))
            return
        except (LedgerError, TableError) as e:
            await self.reply(interaction, f"{e} Nothing was changed.")
            return
        await interaction.response.send_message(embed=lobby_embed(table), view=lobby_view(table))
        message = await interaction.original_response()
        await self.service.set_flag(table, lambda t: setattr(t, "message_id", message.id))
        self.arm(table)

    @app_commands.command(
        name="hand", description="See your cards at this channel's table (only you see them)."
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.channel is not None
        table = self.service.in_channel(interaction.channel.id)
        if table is None:
            await self.reply(
                interaction, "There's no table in this channel. Open one with `/flipflop start`."
            )
            return
        await self.show_hand(interaction, table)

    @app_commands.command(name="table", description="Show the table again at the bottom of the channel.")
    async def table(self, interaction: discord.Interaction) -> None:
        assert interaction.channel is not None
        table = self.service.in_channel(interaction.channel.id)
        if table is None:
            await self.reply(
                interaction, "There's no table in this channel. Open one with `/flipflop start`."
            )
            return
        async with self.service.lock(table.id):
            old = table.message_id
            if table.status == "lobby":
                await interaction.response.send_message(embed=lobby_embed(table), view=lobby_view(table))
            else:
                await interaction.response.send_message(embed=table_embed(table), view=table_view(table))
            message = await interaction.original_response()
            await self.service.set_flag(table, lambda t: setattr(t, "message_id", message.id))
            if old is not None:
                with contextlib.suppress(discord.HTTPException):
                    await (
                        self.channel(table)
                        .get_partial_message(old)
                        .edit(content="The table moved to the bottom of the channel ⬇️", embed=None, view=None)
                    )

    @app_commands.command(
        name="stop", description="End the game at this channel's table (host or Manage Server)."
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        assert interaction.channel is not None
        table = self.service.in_channel(interaction.channel.id)
        if table is None:
            await self.reply(interaction, "There's no table in this channel.")
            return
        if interaction.user.id != table.host_id and not self.may_manage(interaction):
            await self.reply(
                interaction, "Only the host or a member with **Manage Server** can stop the game."
            )
            return
        async with self.service.lock(table.id):
            if table.status == "lobby":
                await self.reply(interaction, "The game hasn't started: use **Cancel** on the lobby instead.")
                return
            assert table.game is not None
            if table.game.in_round:
                await self.service.set_flag(table, lambda t: setattr(t, "stop_after_round", True))
                await interaction.response.send_message(
                    f"⏹️ {interaction.user.mention} will stop the game when this round ends."
                )
                return
            events = await self.service.stop(table)
            await interaction.response.send_message(f"⏹️ {interaction.user.mention} stopped the game.")
            await self.after_change(table, events)

    @app_commands.command(name="config", description="View or change this server's Flip Flop settings.")
    @app_commands.describe(
        starting_balance="Chips a member starts with",
        daily_amount="Chips /daily gives",
        stake="Default stake for new tables",
        buy_in="Default buy-in for new tables (a multiple of the stake, at least 4 stakes)",
        turn_seconds="Seconds a player has for each turn",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction,
        starting_balance: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_amount: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        buy_in: app_commands.Range[int, 4, 1_000_000_000] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        assert interaction.guild is not None
        changes = {
            k: v
            for k, v in {
                "starting_balance": starting_balance,
                "daily_amount": daily_amount,
                "default_stake": stake,
                "default_buy_in": buy_in,
                "turn_seconds": turn_seconds,
            }.items()
            if v is not None
        }
        ledger = self.bot.ledger
        if changes:
            try:
                s = await ledger.update_settings(interaction.guild.id, **changes)
            except LedgerError as e:
                await self.reply(interaction, f"{e} Nothing was changed.")
                return
            head = "Settings saved. New tables use them; tables already open keep theirs."
        else:
            s = await ledger.settings(interaction.guild.id)
            head = "This server's Flip Flop settings:"
        await self.reply(
            interaction,
            f"{head}\n"
            f"• Starting balance: **{chips(s.starting_balance)}**\n"
            f"• Daily chips: **{chips(s.daily_amount)}**\n"
            f"• Default stake: **{chips(s.default_stake)}**, buy-in: **{chips(s.default_buy_in)}**\n"
            f"• Turn timer: **{s.turn_seconds} s**\n"
            "Change any of them with `/flipflop config` and its options.",
        )

    # ------------------------------------------------------------------ table buttons

    async def on_table_button(self, interaction: discord.Interaction, tid: str, op: str) -> None:
        table = self.service.get(tid)
        if table is None:
            await self.reply(interaction, "This table has closed. Open a new one with `/flipflop start`.")
            return
        user = interaction.user
        if op == "hand":
            await self.show_hand(interaction, table)
            return
        async with self.service.lock(tid):
            table = self.service.get(tid)
            if table is None:
                await self.reply(interaction, "This table has closed.")
                return
            try:
                if op == "join":
                    await self.service.join(table, user.id, user.display_name)
                elif op == "leave":
                    await self.service.leave_lobby(table, user.id)
                elif op == "start":
                    events = await self.service.start(
                        table, user.id, self.bot.rng, self.may_manage(interaction)
                    )
                    await interaction.response.defer()
                    await self.post(table, [f"🎲 The game begins with {len(table.seats)} players!"])
                    await self.after_change(table, events)
                    return
                elif op == "cancel":
                    if user.id != table.host_id and not self.may_manage(interaction):
                        raise TableError("Only the host or a member with Manage Server can cancel the table.")
                    if table.status != "lobby":
                        raise TableError(
                            "The game has started: the host can use `/flipflop stop` between rounds."
                        )
                    refunds = await self.service.cancel(table)
                    await interaction.response.edit_message(
                        embed=closed_embed(
                            "🃏 Flip Flop — table cancelled",
                            f"{user.display_name} cancelled the table. "
                            + ", ".join(f"{table.name(u)} got {chips(a)} back" for u, a in refunds.items())
                            + ".",
                        ),
                        view=None,
                    )
                    self.disarm(table.id)
                    return
                elif op == "leave_next":
                    await self.leave_next(interaction, table)
                    return
                elif op == "removecpu":
                    if user.id != table.host_id and not self.may_manage(interaction):
                        raise TableError("Only the host can remove computer players.")
                    await self.service.remove_computer(table)
                else:
                    raise TableError("That button doesn't do anything any more.")
            except InsufficientChips as e:
                await self.reply(interaction, self.not_enough(e.balance, table.buy_in))
                return
            except (TableError, LedgerError, IllegalAction) as e:
                await self.reply(interaction, str(e))
                return
            if table.status == "closed":
                await interaction.response.edit_message(
                    embed=closed_embed("🃏 Flip Flop — table closed", "Everyone left, so the table closed."),
                    view=None,
                )
                self.disarm(table.id)
                return
            await interaction.response.edit_message(embed=lobby_embed(table), view=lobby_view(table))
            self.arm(table)

    async def on_add_computer(self, interaction: discord.Interaction, tid: str, level: str) -> None:
        table = self.service.get(tid)
        if table is None:
            await self.reply(interaction, "This table has closed.")
            return
        if interaction.user.id != table.host_id and not self.may_manage(interaction):
            await self.reply(interaction, "Only the host can add computer players.")
            return
        if level not in LEVELS:
            await self.reply(interaction, "Pick one of the levels in the menu.")
            return
        async with self.service.lock(tid):
            try:
                await self.service.add_computer(table, level, LEVEL_LABEL[level])
            except (TableError, LedgerError) as e:
                await self.reply(interaction, str(e))
                return
            await interaction.response.edit_message(embed=lobby_embed(table), view=lobby_view(table))
            self.arm(table)

    @staticmethod
    def not_enough(balance: int, buy_in: int) -> str:
        return (
            f"You have {chips(balance)}, but the buy-in is {chips(buy_in)}. "
            "Claim your free chips with `/daily`, or ask an admin."
        )

    async def leave_next(self, interaction: discord.Interaction, table: Table) -> None:
        user = interaction.user
        if not table.is_seated(user.id) or table.game is None:
            await self.reply(interaction, "You're not playing at this table.")
            return
        if user.id in table.leave_after_round:
            await self.reply(
                interaction, "You'll leave when this round ends; your stack goes back to your balance."
            )
            return
        if not table.game.in_round:
            events = await self.service.apply(table, Leave(table.pid(user.id)))
            await self.reply(interaction, "You left the table; your stack went back to your balance.")
            await self.after_change(table, events)
            return
        await self.service.set_flag(table, lambda t: t.leave_after_round.append(user.id))
        await self.reply(
            interaction,
            "Got it: you'll leave when this round ends, and your stack goes back to your balance.",
        )
        await self.post(table, [f"👋 {table.name(user.id)} will leave after this round."])

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        if table.status == "lobby":
            msg = (
                "The game hasn't started yet."
                if table.is_seated(interaction.user.id)
                else ("You're not at this table yet: click **Join**.")
            )
            await self.reply(interaction, msg)
            return
        if table.game is None or table.pid(interaction.user.id) not in table.game.order:
            await self.reply(interaction, "You're not playing at this table.")
            return
        await interaction.response.send_message(
            ephemeral=True, **self.hand_payload(table, interaction.user.id)
        )

    # ------------------------------------------------------------------ playing

    async def on_action(
        self, interaction: discord.Interaction, tid: str, seq: int, op: str, value: str | None
    ) -> None:
        table = self.service.get(tid)
        user_id = interaction.user.id
        if table is None:
            await interaction.response.edit_message(content="This table has closed.", view=None)
            return
        if table.game is None or table.pid(user_id) not in table.game.order:
            await self.reply(interaction, "You're not playing at this table.")
            return
        async with self.service.lock(tid):
            table = self.service.get(tid)
            if table is None or table.game is None:
                await interaction.response.edit_message(content="This table has closed.", view=None)
                return
            self.open_hands[(tid, user_id)] = interaction
            if op == "refresh":
                await interaction.response.edit_message(**self.hand_payload(table, user_id))
                return
            if seq != table.seq:
                await interaction.response.edit_message(
                    **self.hand_payload(
                        table,
                        user_id,
                        "⚠️ That control was from an earlier turn; nothing was done. Here is your hand now:",
                    )
                )
                return
            action = parse_action(table.pid(user_id), op, value)
            if action is None:
                await self.reply(interaction, "That choice isn't something you can do; nothing was done.")
                return
            try:
                events = await self.service.apply(table, action, describe=last_move)
            except IllegalAction as e:
                await self.reply(interaction, f"{e} Nothing was done.")
                return
            if table.status == "closed" or table.pid(user_id) not in table.game.seated and op == "leave":
                await interaction.response.edit_message(content="You left the game.", view=None)
            else:
                await interaction.response.edit_message(**self.hand_payload(table, user_id))
            await self.after_change(table, events)

    async def after_change(self, table: Table, events: list[Event]) -> None:
        """Post what everyone should see, edit the table message once, re-arm the timers."""
        await self.post(table, event_lines(table, events))
        await self.refresh_table_message(table)
        await self.update_hand_of_player_to_act(table)
        if table.status == "closed":
            self.disarm(table.id)
            for key in [k for k in self.open_hands if k[0] == table.id]:
                del self.open_hands[key]
        else:
            self.arm(table)

    async def update_hand_of_player_to_act(self, table: Table) -> None:
        """Put the controls in the open hand message of the player whose turn it is now."""
        if table.game is None or table.game.to_act is None:
            return
        user_id = int(table.game.to_act)
        interaction = self.open_hands.get((table.id, user_id))
        if interaction is None:
            return
        if (discord.utils.utcnow() - interaction.created_at).total_seconds() > HAND_TOKEN_SECONDS:
            del self.open_hands[(table.id, user_id)]
            return
        try:
            await interaction.edit_original_response(**self.hand_payload(table, user_id))
        except discord.HTTPException:
            self.open_hands.pop((table.id, user_id), None)

    # ------------------------------------------------------------------ timers

    def disarm(self, tid: str) -> None:
        task = self.timers.pop(tid, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def arm(self, table: Table) -> None:
        """One timer per table: the turn timer, the pause between rounds, or lobby expiry."""
        self.disarm(table.id)
        job: Callable[[str, int], Any] | None = None
        at: float | None = None
        if table.status == "lobby":
            job, at = self.expire_lobby, table.last_activity + LOBBY_IDLE_SECONDS
        elif table.status == "playing" and table.game is not None:
            to_act = table.game.to_act
            if to_act is not None and table.is_computer(to_act):
                job, at = self.computer_move, now() + self.bot.rng.uniform(*self.bot.computer_pause)
            elif table.game.in_round and table.turn_deadline is not None:
                job, at = self.turn_timeout, table.turn_deadline
            elif not table.game.in_round and table.next_round_at is not None:
                job, at = self.deal_next, table.next_round_at
        if job is None or at is None:
            return
        self.timers[table.id] = asyncio.create_task(self._wait_then(at, job, table.id, table.seq))

    async def _wait_then(self, at: float, job: Callable[[str, int], Any], tid: str, seq: int) -> None:
        await asyncio.sleep(max(0.0, at - now()))
        if self.timers.get(tid) is asyncio.current_task():
            self.timers.pop(tid, None)
        try:
            await job(tid, seq)
        except Exception:
            log.exception("Timer for table %s failed", tid)

    async def turn_timeout(self, tid: str, seq: int) -> None:
        """The turn ran out: play for the absent player (R8.4 after three in a row)."""
        async with self.service.lock(tid):
            table = self.service.get(tid)
            if table is None or table.seq != seq or table.game is None or not table.game.in_round:
                return
            g = table.game
            player = g.to_act
            assert player is not None and g.round is not None
            user_id = int(player)
            count = table.timeouts.get(user_id, 0) + 1
            events: list[Event] = []
            if count >= TIMEOUTS_BEFORE_REMOVAL:
                events += await self.service.apply(table, Leave(player), by_timer=True)
                lines = [
                    f"⏰ {table.name(user_id)} ran out of time {count} turns in a row and is removed "
                    "from the game (their hand is dead; their stack goes back at the end of the round)."
                ]
            else:
                basic = BasicStrategy()
                rng = random.Random(self.bot.rng.random())
                while g.in_round and g.to_act == player:
                    action = basic.choose(g.view(player), rng)
                    events += await self.service.apply(table, action, by_timer=True, describe=last_move)
                await self.service.set_flag(table, lambda t: t.timeouts.__setitem__(user_id, count))
                lines = [
                    f"⏰ {table.name(user_id)} ran out of time, so the bot played their turn with the basic "
                    f"computer strategy (timeout {count} of {TIMEOUTS_BEFORE_REMOVAL - 1} allowed in a row)."
                ]
            await self.post(table, lines)
            await self.after_change(table, events)

    async def computer_move(self, tid: str, seq: int) -> None:
        """A computer player's move: its strategy sees only its view (in a worker thread)."""
        async with self.service.lock(tid):
            table = self.service.get(tid)
            if table is None or table.seq != seq or table.game is None or not table.game.in_round:
                return
            player = table.game.to_act
            if player is None or not table.is_computer(player):
                return
            strategy = make_strategy(table.computers[int(player)])
            view = table.game.view(player)
            rng = random.Random(self.bot.rng.random())
            if isinstance(strategy, StrongStrategy):  # a 200 ms search must not block other tables
                action = await asyncio.to_thread(strategy.choose, view, rng)
            else:
                action = strategy.choose(view, rng)
            events = await self.service.apply(table, action, by_timer=True, describe=last_move)
            await self.after_change(table, events)

    async def deal_next(self, tid: str, seq: int) -> None:
        async with self.service.lock(tid):
            table = self.service.get(tid)
            if table is None or table.seq != seq or table.game is None or table.game.in_round:
                return
            events = await self.service.next_round(table, self.bot.rng)
            g = table.game
            if g.over and not table.stop_after_round and all(table.is_computer(p) for p in g.seated):
                await self.post(table, ["🤖 Only computer players are left at the table, so the game ends."])
            await self.after_change(table, events)

    async def expire_lobby(self, tid: str, seq: int) -> None:
        async with self.service.lock(tid):
            table = self.service.get(tid)
            if table is None or table.seq != seq or table.status != "lobby":
                return
            refunds = await self.service.cancel(table)
            await self.post(
                table,
                [
                    "⌛ The Flip Flop table closed after 10 minutes without enough players; "
                    + ", ".join(f"{table.name(u)} got {chips(a)} back" for u, a in refunds.items())
                    + "."
                ],
            )
            await self.refresh_table_message(table)

    # ------------------------------------------------------------------ restarts

    async def resume_tables(self) -> None:
        """Reload saved tables at start-up; ``resume_when_ready`` finishes once connected."""
        self._loaded, self._unreadable = await self.service.load_open()
        self._resumed = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.bot.resume_on_ready:
            await self.resume_when_ready()

    async def resume_when_ready(self) -> None:
        """Carry on every saved table: check its channel and message, say so, re-arm its timer.

        A table whose channel or message is gone, or that this version can not
        read, is closed and every chip it held goes back (never stuck).
        """
        if self._resumed:
            return
        self._resumed = True
        for bad in self._unreadable:
            await self.service.close_unreadable(bad)
            log.warning("Closed unreadable table %s (%s); refunded %s", bad.table_id, bad.why, bad.refunds)
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(bad.channel_id, guild_id=bad.guild_id).send(
                    "♻️ The bot was updated and could not carry on the Flip Flop table here, so it closed it: "
                    + ", ".join(f"<@{u}> got {chips(a)} back" for u, a in bad.refunds.items() if a)
                    + ".",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        for table in list(self._loaded):
            async with self.service.lock(table.id):
                try:
                    await self._resume_one(table)
                except Exception:
                    log.exception("Could not resume table %s", table.id)
        if self._loaded or self._unreadable:
            log.info("Resumed %d table(s); closed %d unreadable.", len(self._loaded), len(self._unreadable))

    async def _resume_one(self, table: Table) -> None:
        channel: Any = self.bot.get_channel(table.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(table.channel_id)
            except (discord.NotFound, discord.Forbidden):
                await self._close_lost(table, "its channel is gone", post=False)
                return
        message_ok = False
        if table.message_id is not None:
            try:
                await channel.fetch_message(table.message_id)
                message_ok = True
            except (discord.NotFound, discord.Forbidden):
                message_ok = False
        note = "♻️ The bot restarted; the game carries on."
        if table.status == "lobby":
            note = "♻️ The bot restarted; the table is still open."
        if not message_ok:
            if not self.bot.repost_missing_messages:
                await self._close_lost(table, "its table message was deleted", post=True)
                return
            embed = lobby_embed(table) if table.status == "lobby" else table_embed(table)
            view = lobby_view(table) if table.status == "lobby" else table_view(table)
            sent = await channel.send(embed=embed, view=view)
            await self.service.set_flag(table, lambda t: setattr(t, "message_id", sent.id))
        if table.status == "playing":
            await self.service.set_flag(table, lambda t: setattr(t, "last_line", note))
        await self.refresh_table_message(table)
        await self.post(table, [note + self._whose_turn(table)])
        self.arm(table)

    @staticmethod
    def _whose_turn(table: Table) -> str:
        g = table.game
        if g is None or g.to_act is None:
            return ""
        return f" It's **{table.name(g.to_act)}**'s turn."

    async def _close_lost(self, table: Table, why: str, post: bool) -> None:
        refunds = await self.service.cancel(table)
        log.warning("Closed table %s: %s; refunded %s", table.id, why, refunds)
        if post:
            with contextlib.suppress(discord.HTTPException):
                await self.post(
                    table,
                    [
                        f"♻️ While the bot was away {why}, so the Flip Flop table closed: "
                        + ", ".join(f"{table.name(u)} got {chips(a)} back" for u, a in refunds.items() if a)
                        + "."
                    ],
                )


async def setup(bot: FlipFlopBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(FlipFlop(bot))
