"""Practice tables, hints and "Analyse my play" in Discord: learning without risking chips.

``/flipflop practice`` opens a table whose chips are practice chips (``Table.practice``:
no ledger, no history, no ratings; the commands are in ``cogs/flipflop/practice.py``);
``/flipflop hint`` and the **Hint** button of a practice hand show the strong player's
move with one reason; **Analyse my play** (under ``/flipflop round id:``, and in a
practice hand after a round) looks back at the clicker's own decisions in a finished
round: not the moves the computer made for them while they were away (kept beside the round,
``RoundStory.away``, a practice round's ``away``), which it counts instead. Searches run in the
runtime's worker processes (``ComputerPlayers.run``), never on the event loop, each within a
bounded time. Every refusal is a private answer that changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.client import send_ephemeral, token_alive
from bot.history import round_story
from bot.i18n import N_, Texts
from bot.metrics.hooks import count_coach_queue
from bot.presentation.coach_render import analysis_pages, hint_text, watch_text
from bot.presentation.controls import stored_review
from bot.presentation.refusals import explain
from bot.presentation.table_render import seat_name
from bot.runtime import TableRuntime, clicked_at
from bot.table.model import Table, TableError
from cogs.flipflop.controls import label
from engine.ai.coach import HINT_BUDGET, hint_worker, watch
from engine.ai.review import REVIEW_BUDGET, REVIEW_TOTAL, Analysis, NotAPlayer, analyse_worker, seats_of
from engine.view import PlayerView

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.coach")


@dataclass
class Budgets:
    """Seconds the coach may search: a hint, each decision of a look back, a whole look back."""

    hint: float = HINT_BUDGET
    review: float = REVIEW_BUDGET
    review_total: float = REVIEW_TOTAL
    grace: float = 20.0
    """Extra seconds to wait for a worker (a busy pool, its first start) before giving up."""


BUDGETS = Budgets()
"""The coach's budgets (tests make them small)."""

COACH_SLOTS = 1
"""Coach searches running at once: the worker pool's other worker stays free for computer players."""
ONE_AT_A_TIME = N_("The coach is still working on your last question; wait for its answer, then ask again.")
MOVED_ON = N_("⏩ The table moved on while the coach was thinking: click **Hint** again for your move now.")

_coaches: weakref.WeakValueDictionary[int, Coach] = weakref.WeakValueDictionary()


def coach_of(interaction: discord.Interaction) -> Coach:
    """The coach bound to the client that received ``interaction``."""
    return _coaches[id(interaction.client)]


class AnalyseButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ff:y:(?P<kind>[rp]):(?P<ref>[0-9a-f]+)(?::(?P<number>\d+))?",
):
    """**Analyse my play**: ``r:<round id>`` a stored round, ``p:<table>:<number>`` a practice round.

    It analyses the clicker's own decisions, whoever clicks; anyone who did not
    play the round is told so and nothing runs.
    """

    def __init__(self, kind: str, ref: str, number: int | None = None, label: str = "") -> None:
        custom_id = f"ff:y:{kind}:{ref}" + (f":{number}" if number is not None else "")
        super().__init__(
            discord.ui.Button(
                label=label or "🔍",
                style=discord.ButtonStyle.secondary,
                emoji="🔍",
                custom_id=custom_id,
                row=4 if kind == "p" else None,
            )
        )
        self.kind, self.ref, self.number = kind, ref, number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> AnalyseButton:
        number = int(match["number"]) if match["number"] else None
        return cls(match["kind"], match["ref"], number)

    async def callback(self, interaction: discord.Interaction) -> None:
        coach = coach_of(interaction)
        if self.kind == "r":
            await coach.analyse_stored(interaction, int(self.ref, 16))
        else:
            await coach.analyse_practice(interaction, self.ref, self.number or 0)


def analyse_view(round_id: int, t: Texts) -> discord.ui.View:
    """The **Analyse my play** control under ``/flipflop round id:`` (the id in hex in its custom id)."""
    control = stored_review(round_id, t)
    view = discord.ui.View(timeout=None)
    view.add_item(AnalyseButton(control.op, str(control.value), label=control.label))
    return view


def practice_view(table_id: str, number: int, t: Texts) -> discord.ui.View:
    """**Analyse my last round** for practice round ``number`` of a table, on its own."""
    view = discord.ui.View(timeout=None)
    view.add_item(AnalyseButton("p", table_id, number, label(t.gettext("Analyse my last round"))))
    return view


class Coach:
    """Hints and look backs for one bot: searches in the runtime's worker processes."""

    def __init__(self, bot: FlipFlopBot, runtime: TableRuntime) -> None:
        self.bot = bot
        self.runtime = runtime
        self._asking: set[int] = set()
        """Members with a search running: one each, so no one can queue up the workers."""
        self._hints: dict[tuple[str, int], discord.Interaction] = {}
        """Each member's last hint at a practice table (its private answer), replaced by their next."""
        self._slots = asyncio.Semaphore(COACH_SLOTS)
        self._clearing: set[asyncio.Future[None]] = set()

    def round_dealt(self, table: Table) -> None:
        """A new round at the table: its members' hints were for the last one, so they go.

        Deleted as a newer hint deletes them (``_replace_hint``), while Discord still lets the bot.
        """
        for key in [k for k in self._hints if k[0] == table.id]:
            interaction = self._hints.pop(key)
            if token_alive(interaction):
                task = asyncio.ensure_future(self._delete_hint(interaction))
                self._clearing.add(task)
                task.add_done_callback(self._clearing.discard)

    @staticmethod
    async def _delete_hint(interaction: discord.Interaction) -> None:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as e:  # dismissed already, or a passing fault: it stays
            log.info("Could not delete an earlier hint (%s %s)", e.status, e.code)

    async def _search(
        self, interaction: discord.Interaction, t: Texts, failed: str, wait: float, fn: Any, *args: Any
    ) -> Any:
        """Run one search off the event loop for the member who asked, within ``wait`` seconds.

        One search per member at a time and ``COACH_SLOTS`` in all, so hints and look backs
        never hold up computer players' moves for long. Returns the result, or None after
        telling the member privately why there is none (nothing changed). ``NotAPlayer``
        is left to the caller.
        """
        user = interaction.user.id
        if user in self._asking:
            await send_ephemeral(interaction, t.gettext(ONE_AT_A_TIME))
            return None
        self._asking.add(user)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)

            async def run() -> Any:
                async with self._slots:
                    return await self.runtime.computers.run(fn, *args)

            return await asyncio.wait_for(run(), wait)
        except NotAPlayer:
            raise
        except Exception as e:  # noqa: BLE001 - a timeout, a lost worker, a stored round it can't read
            log.warning("Coach search %s failed: %r", getattr(fn, "__name__", fn), e)
            await interaction.followup.send(failed, ephemeral=True)
            return None
        finally:
            self._asking.discard(user)

    def bind(self) -> None:
        """Answer the **Analyse my play** controls of this bot."""
        _coaches[id(self.bot)] = self
        self.bot.add_dynamic_items(AnalyseButton)

    def unbind(self) -> None:
        """Stop answering them (the cog is unloading)."""
        self.bot.remove_dynamic_items(AnalyseButton)
        _coaches.pop(id(self.bot), None)

    # ------------------------------------------------------------------ hints

    async def hint(self, interaction: discord.Interaction, table: Table) -> None:
        """The strong player's move for the member to act, privately; or what to watch for."""
        t = await self.bot.languages.reader(interaction)
        user_id = interaction.user.id
        if not table.practice:
            await send_ephemeral(
                interaction,
                t.gettext(
                    "💡 Hints are for practice tables only: at a table played for real chips, "
                    "every decision is yours. Open one with `/flipflop practice`."
                ),
            )
            return
        game = table.game
        pid = table.pid(user_id)
        if game is None or pid not in game.order:
            await send_ephemeral(
                interaction,
                t.gettext("You're not playing at this table.")
                if table.status != "lobby" or not table.is_seated(user_id)
                else t.gettext("The game hasn't started yet: the host clicks **Start**."),
            )
            return
        view = game.view(pid)
        if not view.still_playing:
            await send_ephemeral(interaction, t.gettext("There's no round in play for you right now."))
            return
        if view.to_act != pid:
            await send_ephemeral(
                interaction, watch_text(t, watch(view), seat_name(table, t, view.to_act or ""))
            )
            await self._replace_hint(table.id, interaction)
            return
        seed = self.runtime.rng.random()
        busy = t.gettext("The coach is busy right now; try **Hint** again in a moment.")
        found = await self._search(
            interaction, t, busy, BUDGETS.hint + BUDGETS.grace, hint_worker, view, seed, BUDGETS.hint
        )
        if found is None:
            return
        now = self._view_now(table.id, pid)
        if now is None or now.round_number != view.round_number:  # the table closed, or the next round
            await self._delete_hint(interaction)  # is dealt: no move to ask again for, or a hint a round
            return
        text = hint_text(t, found) if now == view else t.gettext(MOVED_ON)
        await interaction.followup.send(text, ephemeral=True)
        await self._replace_hint(table.id, interaction)

    def _view_now(self, table_id: str, pid: str) -> PlayerView | None:
        """The member's view of the table as it is now; None once they no longer play at it (it closed)."""
        table = self.runtime.get(table_id)
        game = table.game if table is not None else None
        return game.view(pid) if game is not None and pid in game.order else None

    async def _replace_hint(self, table_id: str, interaction: discord.Interaction) -> None:
        """The member's new hint has shown: their last one at this table goes (it was for an earlier turn).

        One hint message at a time, as one hand message: Discord lets the bot delete a private
        answer through its interaction for 15 minutes; an older hint (or one the member dismissed)
        stays as it is. Hints whose tokens ran out are forgotten here too.
        """
        key = (table_id, interaction.user.id)
        older = self._hints.pop(key, None)
        self._hints = {k: i for k, i in self._hints.items() if token_alive(i)}
        if older is not None and older.id > interaction.id:  # a later click answered first (a search is
            older, interaction = interaction, older  # slower than "not your turn"): this one goes
        self._hints[key] = interaction
        if older is not None and token_alive(older):
            await self._delete_hint(older)

    # ------------------------------------------------------------------ look backs

    async def analyse_stored(self, interaction: discord.Interaction, round_id: int) -> None:
        """**Analyse my play** under ``/flipflop round``: the clicker's decisions in a stored round."""
        t = await self.bot.languages.reader(interaction)
        assert interaction.guild is not None
        found = await round_story(self.bot.db, interaction.guild.id, round_id)
        if found is None:
            await send_ephemeral(
                interaction,
                t.gettext(
                    "There's no finished round #{id} in this server. A round still in play can't be "
                    "looked back at: wait for it to end."
                ).format(id=round_id),
            )
            return
        seat = next((s for s, m in found.members.items() if m == interaction.user.id), None)
        title = t.gettext("🔍 **Your play in round #{id}** (round {number} at table `{table}`)").format(
            id=found.round_id, number=found.number, table=found.table_id
        )
        by_computer = tuple(sorted(found.by_computer(seat))) if seat is not None else ()
        await self._analyse(interaction, found.transcript, seat, title, found.round_id, by_computer)

    async def analyse_practice(self, interaction: discord.Interaction, table_id: str, number: int) -> None:
        """**Analyse my last round** in a practice hand: a round the table keeps (never one in play)."""
        t = await self.bot.languages.reader(interaction)
        table = self.runtime.get(table_id)
        if table is not None and not clicked_at(table, interaction.guild_id, interaction.channel_id):
            await send_ephemeral(interaction, explain(TableError("other_place"), t))  # passed on or forged
            return
        kept = (
            next((r for r in table.practice_rounds if int(r["number"]) == number), None)
            if table is not None and table.practice
            else None
        )
        if table is None or kept is None:
            await send_ephemeral(
                interaction,
                t.gettext(
                    "That practice round isn't kept any more (a practice table keeps its last few "
                    "finished rounds while it is open), or it hasn't finished yet."
                ),
            )
            return
        transcript = kept["transcript"]
        pid = table.pid(interaction.user.id)
        seat = pid if pid in seats_of(transcript) else None
        title = t.gettext("🔍 **Your play in practice round {number}** (practice chips)")
        title = title.format(number=number)
        by_computer = tuple(sorted(kept.get("away", {}).get(seat, ()))) if seat is not None else ()
        await self._analyse(interaction, transcript, seat, title, number, by_computer)

    async def _analyse(
        self,
        interaction: discord.Interaction,
        transcript: dict[str, Any],
        seat: str | None,
        title: str,
        seed: int,
        by_computer: tuple[int, ...] = (),
    ) -> None:
        """Look back at ``seat``'s decisions, not the moves the computer made for it (``by_computer``)."""
        t = await self.bot.languages.reader(interaction)
        not_yours = t.gettext(
            "You didn't play in this round: a look back covers only your own decisions, "
            "and only for the player who made them."
        )
        if seat is None:
            await send_ephemeral(interaction, not_yours)
            return
        failed = t.gettext("The look back couldn't finish in time. Try again later.")
        wait = BUDGETS.review_total + BUDGETS.grace
        args = (transcript, seat, seed, BUDGETS.review, BUDGETS.review_total, by_computer)
        try:
            analysis: Analysis | None = await self._search(
                interaction, t, failed, wait, analyse_worker, *args
            )
        except NotAPlayer:
            await interaction.followup.send(not_yours, ephemeral=True)
            return
        if analysis is None:
            return
        for page in analysis_pages(t, analysis, title):
            await interaction.followup.send(
                page, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )


count_coach_queue(Coach, "_search")  # the metrics count members waiting for or in a search
