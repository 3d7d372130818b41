"""``/flipflop admin tables``, ``close`` and ``audit``: a server manager's tools (Manage Server).

A mixin of the ``/flipflop`` group cog (``commands.FlipFlop``). Every answer
is private; a member without Manage Server is refused privately by the
bot's command error handler, and nothing changes. Closing a table asks
first, then goes through the runtime's own close (every stack and pot goes
back; the refunds' ledger entries name the manager). The audit is
``bot.audit``'s, the same as ``python -m bot.audit`` for the whole database.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.audit import audit_guild
from bot.client import as_written, send_ephemeral
from bot.dumping import Pair, flagged
from bot.history.queries import played_rounds
from bot.i18n import N_, Texts
from bot.ledger import HOUSE_ID, AdminChange
from bot.presentation.refusals import NOTHING_CHANGED, explain
from bot.presentation.table_render import seat_name
from bot.table.model import Table, TableError, TableMoved
from cogs.flipflop.confirm import FAILED, KEPT, Confirm
from cogs.flipflop.control_answers import QUESTION_GONE

if TYPE_CHECKING:
    from bot.client import FlipFlopBot
    from bot.runtime import TableRuntime
    from cogs.flipflop.notifier import DiscordNotifier

log = logging.getLogger("flipflop.admin")

MESSAGE_CHARS = 2000
"""Discord's limit for a message's text."""
AUTOCOMPLETE_CHOICES = 25
"""Discord shows at most this many autocomplete choices."""

NO_TABLES = N_("No Flip Flop table is open in this server.")
TABLES_HEAD = N_("Open Flip Flop tables in this server:")
TABLE_LINE = N_(
    "`{id}` in {channel} · {status} · {players} · {chips} at the table · opened {opened} · last move {active}"
)
STATUS = {
    "lobby": N_("waiting for players"),
    "playing": N_("in play"),
    "practice": N_("practice"),
    "tournament": N_("tournament table"),
}
MORE_TABLES = N_("… and {count} more.")
NO_SUCH_TABLE = N_(
    "There's no open table `{id}` in this server: it may have just ended. See `/flipflop admin tables`."
)
CLOSE_ASK = N_(
    "Close table `{id}` in {channel}? The game ends now and every stack and pot goes back to the players"
    " ({chips} in all). The ledger records that you closed it."
)
CLOSE_TOURNAMENT_ASK = N_(
    "Close tournament table `{id}` in {channel}? Its round is given up: the stacks go back to the"
    " tournament, and its players play on in the next round. Its thread says that you closed it."
)
CLOSE_YES = N_("Close the table")
CLOSED = N_("Table `{id}` is closed; {chips} went back to the players.")
CLOSED_TOURNAMENT = N_("Tournament table `{id}` is closed; its stacks went back to the tournament.")
ALREADY_ENDED = N_("Table `{id}` has already ended; there was nothing to close.")
GUARD_UP = N_(
    "⚠️ Discord refused {count} of the bot's calls in the last 10 minutes, close to the limit at which"
    " it blocks the bot for a while. Until that calms down the bot does not call again the channels and"
    " messages that refused it (it needs View Channel, Send Messages and Embed Links where tables play)."
)
BUDGET_BUSY = N_(
    "⏳ The bot is busy everywhere: table messages wait their turn and may show the latest move up to"
    " {seconds} seconds late."
)
BUSY_AFTER_SECONDS = 5
"""A table stale longer than this (waiting for the bot's channel-call budget) is worth telling a manager."""
AUDIT_OK = N_("✅ The chips balance: {minted} brought in = {balances} in balances + {at_tables} at tables.")
AUDIT_BAD = N_(
    "⚠️ The chips don't balance: {minted} brought in, but {balances} in balances + {at_tables} at tables"
    " (a difference of {difference}). The rows to look at:"
)

AUDIT_CHANGES = N_("Latest grants and takes by managers (who, to whom, why):")
NO_CHANGES = N_("No manager has granted or taken chips here yet.")
GRANT_LINE = N_("{when} {admin} granted {chips} to {member}: {reason}")
TAKE_LINE = N_("{when} {admin} took {chips} from {member}: {reason}")
NO_REASON = N_("(no reason recorded)")
SOMEONE = N_("a manager")
THE_HOUSE = N_("the house")
AUDIT_CHANGES_SHOWN = 10
"""Grants and takes the audit lists, newest first (the ledger keeps them all)."""

DUMPING_HEAD = N_(
    "Possible chip dumping in this server's latest {rounds} rounds: one member keeps dropping with a hand"
    " that is not the lowest, and another takes the pot. Nothing was done to anyone; look at their rounds"
    " (`/flipflop history member:`), then decide. A score of 4 is one chance in 10,000 of honest play."
)
DUMPING_LINE = N_(
    "{giver} → {taker} · games together: {games} · rounds: {rounds} · caught drops of {giver}: {caught}"
    " (chance: {expected}) · pots to {taker}: {dumps}, {chips} · score **{score}**"
)

DUMPING_TOURNAMENTS = N_(
    "Rounds at tournament tables count too, their chips as tournament chips (not server chips); they are"
    " not in `/flipflop history`: look in the tournament's table threads."
)


def dumped_chips(pair: Pair, t: Texts) -> str:
    """What the giver lost in the dumps: server chips, and tournament chips apart (never added up)."""
    if not pair.tournament_chips:
        return t.chips(pair.chips)
    tournament = t.ngettext(
        "{count} tournament chip", "{count} tournament chips", abs(pair.tournament_chips)
    ).format(count=t.number(pair.tournament_chips))
    return f"{t.chips(pair.chips)} + {tournament}" if pair.chips else tournament


def dumping_line(pair: Pair, t: Texts) -> str:
    """One flagged pair and its evidence, as ``/flipflop admin dumping`` lists it."""
    return "• " + t.gettext(DUMPING_LINE).format(
        giver=f"<@{pair.giver}>",
        taker=f"<@{pair.taker}>",
        games=t.number(pair.games),
        rounds=t.number(pair.rounds),
        caught=t.number(pair.caught),
        expected=t.decimal(pair.expected),
        dumps=t.number(pair.dumps),
        chips=dumped_chips(pair, t),
        score=t.decimal(min(pair.score, 99.9)),
    )


def change_line(change: AdminChange, t: Texts) -> str:
    """One grant or take as the audit lists it: when, who, how many, to or from whom, and why."""
    reason = f"“{as_written(change.note)}”" if change.note else t.gettext(NO_REASON)
    shown = {
        "when": f"<t:{int(change.created_at)}:R>",
        "admin": f"<@{change.actor_id}>" if change.actor_id is not None else t.gettext(SOMEONE),
        "chips": f"**{t.chips(abs(change.change))}**",
        "member": f"<@{change.user_id}>" if change.user_id != HOUSE_ID else t.gettext(THE_HOUSE),
        "reason": reason,
    }
    return "• " + t.gettext(GRANT_LINE if change.change > 0 else TAKE_LINE).format(**shown)


def _players(table: Table, t: Texts) -> str:
    """Who is at the table: lobby seats, or the players still seated in the game."""
    if table.game is None:
        ids = list(table.seats)
    else:
        ids = [int(p) for p in table.game.seated]
    return ", ".join(seat_name(table, t, u) for u in ids) or "—"


class AdminCommands(commands.Cog):
    """The ``/flipflop admin`` subgroup (mixed into the group cog)."""

    bot: FlipFlopBot
    runtime: TableRuntime
    notifier: DiscordNotifier

    admin = app_commands.Group(
        name="admin",
        description="Server managers' tools: open tables, closing one, the chips audit, chip dumping.",
    )

    def _guild_tables(self, guild_id: int) -> list[Table]:
        return sorted(
            (t for t in self.runtime.tables.values() if t.guild_id == guild_id and t.status != "closed"),
            key=lambda t: t.last_activity,
        )

    async def _opened(self, table: Table) -> float | None:
        """When the table was opened, as the table keeps it.

        A table saved before that was kept: its first ledger entry (a practice table has none).
        """
        if table.opened_at is not None:
            return table.opened_at
        row = await self.bot.db.fetchone(
            "SELECT MIN(created_at) FROM ledger WHERE reference = ? AND guild_id = ?",
            (table.id, table.guild_id),
        )
        return float(row[0]) if row and row[0] is not None else None

    def _line(self, table: Table, opened: float | None, t: Texts) -> str:
        status = "practice" if table.practice else "tournament" if table.tournament else table.status
        return t.gettext(TABLE_LINE).format(
            id=table.id,
            channel=f"<#{table.channel_id}>",
            status=t.gettext(STATUS.get(status, STATUS["playing"])),
            players=_players(table, t),
            chips=t.at(table.practice).chips(table.chips()),
            opened=f"<t:{int(opened)}:R>" if opened is not None else "—",
            active=f"<t:{int(table.last_activity)}:R>",
        )

    async def _health(self, t: Texts) -> list[str]:
        """What a manager should know of the whole bot: calls stopped near Discord's limit, a long queue."""
        lines = []
        guard = self.bot.invalid_requests
        await guard.refresh()
        if guard.guarding:
            lines.append(t.gettext(GUARD_UP).format(count=t.number(guard.count)))
        stale = self.notifier.budget.oldest_stale()
        if stale > BUSY_AFTER_SECONDS:
            lines.append(t.gettext(BUDGET_BUSY).format(seconds=t.number(math.ceil(stale))))
        return lines

    @admin.command(name="tables", description="List this server's open Flip Flop tables (Manage Server).")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def admin_tables(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        t = await self.bot.languages.reader(interaction)
        tables = self._guild_tables(interaction.guild.id)
        health = await self._health(t)
        if not tables:
            await send_ephemeral(interaction, "\n".join([t.gettext(NO_TABLES), *health]))
            return
        lines = [*health, t.gettext(TABLES_HEAD)]
        for i, table in enumerate(tables):
            line = self._line(table, await self._opened(table), t)
            more = t.gettext(MORE_TABLES).format(count=t.number(len(tables) - i))
            if len("\n".join([*lines, line, more])) > MESSAGE_CHARS:
                lines.append(more)
                break
            lines.append(line)
        await send_ephemeral(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @admin.command(
        name="close", description="Close one open table, giving back every stack and pot (asks first)."
    )
    @app_commands.describe(table="The table's id, as /flipflop admin tables shows it")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def admin_close(self, interaction: discord.Interaction, table: str) -> None:
        assert interaction.guild is not None
        t = await self.bot.languages.reader(interaction)
        table_id = table.strip().strip("`")
        found = self.runtime.get(table_id)
        if found is None or found.guild_id != interaction.guild.id:
            await send_ephemeral(interaction, t.gettext(NO_SUCH_TABLE).format(id=table_id[:40]))
            return
        manager = interaction.user.id

        async def close(_: discord.Interaction) -> str:
            current = self.runtime.get(found.id)
            chips = current.chips() if current is not None else 0  # the server's chips (practice holds none)
            try:
                await self.runtime.close_by_manager(found.id, manager)
            except TableMoved as e:  # another process changed it first: look again, then decide
                return t.gettext(NOTHING_CHANGED).format(refusal=explain(e, t))
            except TableError:
                return t.gettext(ALREADY_ENDED).format(id=found.id)
            if found.tournament:
                return t.gettext(CLOSED_TOURNAMENT).format(id=found.id)
            return t.gettext(CLOSED).format(id=found.id, chips=t.chips(chips))

        ask = CLOSE_TOURNAMENT_ASK if found.tournament else CLOSE_ASK
        question = t.gettext(ask).format(
            id=found.id, channel=f"<#{found.channel_id}>", chips=t.chips(found.chips())
        )
        view = Confirm(
            manager,
            t.gettext(CLOSE_YES),
            t.gettext("Cancel"),
            close,
            t.gettext(KEPT),
            t.gettext(FAILED),
            t.gettext(QUESTION_GONE),
        )
        view.asked = interaction
        await interaction.response.send_message(question, view=view, ephemeral=True)

    @admin_close.autocomplete("table")
    async def _tables_here(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild is None:
            return []
        out = []
        for table in self._guild_tables(interaction.guild.id):
            if current.strip().lower() not in table.id:
                continue
            channel = interaction.guild.get_channel_or_thread(table.channel_id)
            where = f"#{channel.name}" if channel is not None else str(table.channel_id)
            out.append(app_commands.Choice(name=f"{table.id} · {where}"[:100], value=table.id))
        return out[:AUTOCOMPLETE_CHOICES]

    @admin.command(name="audit", description="Check this server's chips: brought in = balances + at tables.")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def admin_audit(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        t = await self.bot.languages.reader(interaction)
        result = await audit_guild(self.bot.ledger, interaction.guild.id)
        figures = {
            "minted": t.chips(result.minted),
            "balances": t.chips(result.balances),
            "at_tables": t.chips(result.at_tables),
        }
        changes = await self.bot.ledger.admin_changes(interaction.guild.id, AUDIT_CHANGES_SHOWN)
        lines = [t.gettext(AUDIT_CHANGES), *(change_line(c, t) for c in changes)]
        tail = "\n".join(lines) if changes else t.gettext(NO_CHANGES)
        quiet = discord.AllowedMentions.none()
        if result.ok:
            text = f"{t.gettext(AUDIT_OK).format(**figures)}\n\n{tail}"
            await send_ephemeral(interaction, fit_lines(text), allowed_mentions=quiet)
            return
        head = t.gettext(AUDIT_BAD).format(difference=f"{result.difference:+d}", **figures)
        room = MESSAGE_CHARS - len(head) - 10 - min(len(tail), MESSAGE_CHARS // 2)
        rows = ""
        for line in result.lines():
            if len(rows) + len(line) + 1 > room:
                rows += "…\n"
                break
            rows += line + "\n"
        text = f"{head}\n```\n{rows}```\n{tail}"
        await send_ephemeral(interaction, fit_lines(text), allowed_mentions=quiet)

    @admin.command(
        name="dumping", description="Pairs of members where one loses to the other more than chance explains."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def admin_dumping(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        t = await self.bot.languages.reader(interaction)
        rounds = await played_rounds(self.bot.db, interaction.guild.id)
        found = flagged(rounds)
        if not rounds:  # a new server: "latest 0 rounds" would read as if some had been checked
            text = t.gettext("No round has ended in this server yet, so there is nothing to check.")
            await send_ephemeral(interaction, text)
            return
        if not found:
            none = t.ngettext(
                "No pair of members looks like chip dumping in this server's latest round.",
                "No pair of members looks like chip dumping in this server's latest {rounds} rounds.",
                len(rounds),
            )
            await send_ephemeral(interaction, none.format(rounds=t.number(len(rounds))))
            return
        lines = [t.gettext(DUMPING_HEAD).format(rounds=t.number(len(rounds)))]
        if any(r.tournament for r in rounds):
            lines[0] += " " + t.gettext(DUMPING_TOURNAMENTS)
        for i, pair in enumerate(found):
            line = dumping_line(pair, t)
            more = t.gettext(MORE_TABLES).format(count=t.number(len(found) - i))
            if len("\n".join([*lines, line, more])) > MESSAGE_CHARS:
                lines.append(more)
                break
            lines.append(line)
        await send_ephemeral(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())


def fit_lines(text: str) -> str:
    """The text cut after its last whole line that fits a message (with "…" when something was left)."""
    if len(text) <= MESSAGE_CHARS:
        return text
    cut = text[: MESSAGE_CHARS - 2].rsplit("\n", 1)[0]
    return f"{cut}\n…"
