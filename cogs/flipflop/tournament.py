"""``/flipflop tournament``: a sit-and-go opened in a channel, with Join, Leave, Start and Cancel.

A mixin of the ``/flipflop`` group cog (``commands.FlipFlop``). The work is
``bot.tournament``'s (entries, fees, seating, prizes) and the words
``bot.presentation.tournament_page``'s; this layer only turns clicks into
store calls and draws the one tournament message (in the server's language).
Every refusal is a private answer in the member's language, and changes
nothing: no fee is taken twice, late, or without the balance to pay it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.client import send_ephemeral
from bot.guards import TableCooldown
from bot.i18n import Texts
from bot.ledger import HOUSE_ID, MAX_AMOUNT
from bot.presentation.refusals import NOTHING_CHANGED, Refusal, explain
from bot.storage import StoreError
from bot.table.model import TableError
from bot.tournament.model import (
    MAX_LEVEL_ROUNDS,
    MAX_SEATS,
    MIN_LEVEL_ROUNDS,
    MIN_SEATS,
    Tournament,
    TournamentError,
    TournamentSettings,
    check_place,
)
from cogs.flipflop.control_answers import OUR_SIDE
from cogs.flipflop.tournament_play import TournamentPlay
from cogs.flipflop.tournament_view import (
    NO_PINGS,
    TournamentButton,
    bind_clicks,
    tournament_view,
    unbind_clicks,
)
from cogs.newcomers import newcomer_wait

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

Fee = app_commands.Range[int, 1, MAX_AMOUNT]
Seats = app_commands.Range[int, MIN_SEATS, MAX_SEATS]
LevelRounds = app_commands.Range[int, MIN_LEVEL_ROUNDS, MAX_LEVEL_ROUNDS]
StartIn = app_commands.Range[int, 1, 1440]
PAYOUT_CHOICES = [
    app_commands.Choice(name="Winner takes all", value="winner"),
    app_commands.Choice(name="65 / 35", value="65_35"),
    app_commands.Choice(name="50 / 30 / 20", value="50_30_20"),
]
Op = Literal["join", "leave", "start", "cancel"]
log = logging.getLogger("flipflop.tournament")


class TournamentCommands(TournamentPlay):
    """``/flipflop tournament`` and its buttons (mixed into the group cog)."""

    bot: FlipFlopBot

    def bind_tournaments(self) -> None:
        """Answer the tournament buttons (persistent: they work after a restart)."""
        bind_clicks(self.bot, self)
        self.bot.add_dynamic_items(TournamentButton)
        self.hear_tournament_tables()

    def unbind_tournaments(self) -> None:
        self.bot.remove_dynamic_items(TournamentButton)
        self.stop_tournament_timers()
        unbind_clicks(self.bot)

    @app_commands.command(name="tournament", description="Open a sit-and-go tournament in this channel.")
    @app_commands.describe(
        fee="Entry fee in chips (the prizes are the fees)",
        seats="Seats, 6 to 25 (tables of 3 to 5)",
        start_in="Minutes until it starts (empty: when every seat is taken)",
        level_rounds="The stake rises every this many rounds",
        computers="Computer players fill the empty seats at the start",
        payout="How the prizes are split",
    )
    @app_commands.choices(payout=PAYOUT_CHOICES)
    async def tournament(
        self,
        interaction: discord.Interaction,
        fee: Fee,
        seats: Seats = 9,
        start_in: StartIn | None = None,
        level_rounds: LevelRounds = 5,
        computers: bool = True,
        payout: str = "50_30_20",
    ) -> None:
        assert interaction.guild is not None and interaction.channel is not None
        t = await self.bot.languages.reader(interaction)
        start_at = _now() + 60 * start_in if start_in is not None else None
        settings = TournamentSettings(
            fee=fee,
            seats=seats,
            start="time" if start_at is not None else "full",
            start_at=start_at,
            level_rounds=level_rounds,
            computers=computers,
            payout=payout,
        )
        tid = f"{self.bot.rng.getrandbits(48):012x}"
        tour = Tournament(tid, interaction.guild.id, interaction.channel.id, interaction.user.id, settings)
        perms = interaction.app_permissions
        threads = perms.create_public_threads and perms.send_messages_in_threads
        guild, host, now = interaction.guild.id, interaction.user.id, _now()
        try:
            check_place(isinstance(interaction.channel, discord.TextChannel) and threads)
            uncount = self.tournament_cooldown.claim(guild, host, now)  # before the await: one at a time
            try:
                tour = await self.tournaments.open(tour)
            except BaseException:
                uncount()  # nothing was opened
                raise
        except (TournamentError, TableError, StoreError) as e:
            await send_ephemeral(interaction, self._refusal(e, t))
            return
        server = await self.bot.languages.server_texts(interaction.guild.id)
        await interaction.response.send_message(view=tournament_view(tour, server), allowed_mentions=NO_PINGS)
        message = await interaction.original_response()
        try:
            await self.tournaments.update(tid, lambda tr: setattr(tr, "message_id", message.id))
        except (TournamentError, StoreError):
            log.warning("Tournament %s: its message id was not saved", tid)
        tour.message_id = message.id
        self.tournament_messages.add(message.id)
        self.arm_start(tour)
        if (short := await self._house_warning(tour, t)) is not None:
            await interaction.followup.send(short, ephemeral=True)

    async def _house_warning(self, tour: Tournament, t: Texts) -> str | None:
        """A private word to the host when the house can't pay every computer the start may need.

        Computers fill the seats still empty at the start, their fees paid by the house; if the
        house can't pay them all, the start is refused (at its time, the tournament is cancelled and
        the fees go back). Warned at the opening when it can't pay for all seats but one (the host's):
        a tournament nobody enters is one to cancel anyway.
        """
        fee = tour.settings.fee
        if not tour.settings.computers:
            return None
        try:
            house = await self.bot.ledger.balance(tour.guild_id, HOUSE_ID)
        except StoreError:
            return None  # a database fault: the start says it, as before
        if (paid := house // fee) >= tour.settings.seats - 1:
            return None
        return t.ngettext(
            "⚠️ The house has {balance}: enough for {count} computer player's entry fee ({fee} each). "
            "If more seats than that are still empty at the start, the tournament can't start (at its "
            "time it is cancelled and every fee goes back). Fill the seats, or an admin can top up the "
            "house with `/chips grant` to the bot.",
            "⚠️ The house has {balance}: enough for {count} computer players' entry fees ({fee} each). "
            "If more seats than that are still empty at the start, the tournament can't start (at its "
            "time it is cancelled and every fee goes back). Fill the seats, or an admin can top up the "
            "house with `/chips grant` to the bot.",
            paid,
        ).format(balance=t.chips(house), count=t.number(paid), fee=t.chips(fee))

    @property
    def tournament_cooldown(self) -> TableCooldown:
        """A member waits ``TABLE_COOLDOWN_SECONDS`` between opening two tournaments (any channel).

        Its own clock, apart from the tables': one table and one tournament may be opened together.
        """
        cooldown: TableCooldown | None = getattr(self, "_tournament_cooldown", None)
        if cooldown is None:
            cooldown = TableCooldown(self.bot.settings.table_cooldown_seconds, tournaments=True)
            self._tournament_cooldown = cooldown
        return cooldown

    def _refusal(self, error: BaseException, t: Texts) -> str:
        if isinstance(error, StoreError):
            log.warning("A tournament click was refused for a database fault: %s", error)
            return t.gettext(OUR_SIDE)
        if isinstance(error, TableError):  # the cooldown: said as every command's refusal is
            return t.gettext(NOTHING_CHANGED).format(refusal=explain(error, t))
        return explain(error, t)

    async def on_tournament(self, interaction: discord.Interaction, tid: str, op: str) -> None:
        """A button: the message shows the change, or the member reads why not (privately)."""
        user = interaction.user
        manages = bool(interaction.permissions and interaction.permissions.manage_guild)
        store = self.tournaments
        try:
            if (here := await store.load(tid)) is not None:  # a button passed on or forged elsewhere?
                message = interaction.message.id if interaction.message is not None else None
                here.check_clicked_at(interaction.guild_id, interaction.channel_id, message)
            if op == "join":
                if (wait := newcomer_wait(self.bot, interaction)) is not None:
                    raise wait  # an entry fee is chips: a new account or member waits, as at a table
                tour = await store.join(tid, user.id, user.display_name, start_when_full=self.bot.rng)
            elif op == "leave":
                tour = await store.leave(tid, user.id)
            else:
                current = await store.load(tid)
                if current is None or current.status not in ("open", "running"):
                    raise TournamentError("tournament_gone")
                if op == "stop":

                    def stop(tr: Tournament) -> None:  # checked on the row it changes
                        tr.check_stopper(user.id, manages)
                        tr.stop()

                    tour = await store.update(tid, stop)
                    await self.close_tournament_tables(tour, user.id)
                else:
                    current.check_manager(user.id, manages)
                    tour = await (store.start(tid, self.bot.rng) if op == "start" else store.cancel(tid))
        except (Refusal, StoreError) as e:
            t = await self.bot.languages.reader(interaction)
            await send_ephemeral(interaction, self._refusal(e, t))
            return
        server = await self.bot.languages.server_texts(tour.guild_id)
        await interaction.response.edit_message(view=tournament_view(tour, server), allowed_mentions=NO_PINGS)
        if tour.status == "running":
            await self.deal_tournament(tour)


def _now() -> float:
    return discord.utils.utcnow().timestamp()
