"""``/flipflop seed``, ``verify``, ``history``, ``round`` and ``stats`` (deals checkable, rounds kept).

A mixin of the ``/flipflop`` group cog (``commands.FlipFlop``): the fair
deal's one player command, and the read-only commands over stored history.
Every refusal is a private answer that changes nothing; a round id that is
unknown, of another server, or of a round still in play (never stored, its
seed still secret) all get the same clear word.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import as_written, send_ephemeral
from bot.fair_deal import Reveal
from bot.history import RoundStory, history, known_here, round_story, stats
from bot.i18n import N_, Texts
from bot.presentation.limits import CONTENT, shorten
from bot.presentation.refusals import explain
from bot.presentation.replay_link import story_file
from bot.presentation.replay_words import WORDS
from bot.table.model import TableError
from cogs.flipflop.coach import analyse_view
from cogs.flipflop.layout import watch_button
from cogs.flipflop.story import history_line, players_line, stats_text, story_lines, who
from cogs.member_names import NO_RECORDS, departed, named
from engine.events import PotCarried, PotPaid
from engine.fairness import Verification

if TYPE_CHECKING:
    from bot.client import FlipFlopBot
    from bot.runtime import TableRuntime

NO_ROUND = N_(
    "There's no finished round #{id} in this server: check the id with `/flipflop history`. "
    "A round still in play has no id yet, and its seed stays secret until it ends."
)
NO_SEED = N_("Round #{id} was dealt before this bot published its shuffles, so it has no seed to check.")
NO_BOTS = N_("Bots don't play Flip Flop here: pick a person.")
SHOWN_LINES = 40
"""Story lines shown in the answer (the attachment always has the whole round)."""
NONE = discord.AllowedMentions.none()
CLIENT_SEED_FILE = "client_seed.txt"
SEEDS_INLINE = N_(
    "Server seed `{server_seed}`\nCommitment `{commitment}`\n"
    "Round {number}; its client seed is written out in the command below."
)
SEEDS_IN_FILE = N_(
    "Server seed `{server_seed}`\nCommitment `{commitment}`\n"
    "Round {number}; its client seed ({length} characters) is the attached file {file}.\n"
    "Check it yourself where you saved the file:"
)
"""``/flipflop verify``: the seeds, the client seed shown once (in the command, or as a file when long)."""


def _round_id(value: int) -> int | None:
    """A round id as typed: a positive whole number that fits the store, else None (no such round)."""
    return value if 0 < value < 2**63 else None


def _checks(result: Verification, t: Texts) -> list[str]:
    """``Verification.lines`` in the reader's language: the commitment, then the deck."""
    out = [
        t.gettext("commitment: OK, SHA-256(server seed) matches")
        if result.commitment_matches
        else t.gettext("commitment: MISMATCH, SHA-256(server seed) is not the published commitment")
    ]
    if result.deck_matches is not None:
        out.append(
            t.gettext("deck: OK, the seeds give exactly this deck")
            if result.deck_matches
            else t.gettext("deck: MISMATCH, the seeds give another deck: {cards}").format(
                cards=" ".join(result.expected_deck or ())
            )
        )
    return out


def first_round_seats(found: RoundStory, reveal: Reveal) -> int | None:
    """How many sat at a table's first round, whose dealer the seeds draw (R3.1); None for a later one."""
    return len(found.transcript["seats"]) if reveal.round == 1 else None


def dealer_check(found: RoundStory, result: Verification, t: Texts) -> tuple[bool, str] | None:
    """A table's first round: is who dealt the dealer the seeds draw (R3.1)? None for a later round.

    In the replay page's words (its **Verify this deal** makes the same check): the index counts
    from 0 as docs/FAIRNESS.md and its checkers do.
    """
    drawn = result.first_dealer
    if drawn is None:
        return None
    seats = [str(seat["id"]) for seat in found.transcript["seats"]]
    dealt = str(found.transcript["rounds"][0].get("dealer"))

    def name(seat: str) -> str:
        return who(found.named.get(seat) or found.members.get(seat) or seat, t)

    ok = seats[drawn] == dealt
    words = t.gettext(WORDS["dealerOk"] if ok else WORDS["dealerBad"])
    return ok, words.format(index=drawn, name=name(seats[drawn]), dealer=name(dealt))


def fit_lines(lines: list[str], room: int, cut: str, keep_first: int = 2) -> str:
    """``lines`` joined within ``room`` characters: whole lines from the middle give way to ``cut``.

    The first lines (the deal) and the last (how the round ended, the hands) stay; a line is
    never cut in half, so no mention or card is left broken.
    """
    text = "\n".join(lines)
    if len(text) <= room:
        return text
    head, tail = lines[:keep_first], lines[keep_first:]
    while tail and len("\n".join([*head, cut, *tail])) > room:
        tail = tail[1:]
    if len("\n".join([*head, cut, *tail])) > room:  # even the deal is too long: the end first
        head, tail = [], lines[-1:] if len(lines[-1]) + len(cut) < room else []
    return "\n".join([*head, cut, *tail])


def shown_story(lines: list[str], pots: list[str], room: int, t: Texts) -> str:
    """A round's story as ``/flipflop round`` shows it, within ``room`` characters, whole lines only.

    Its first lines (the deal) and its end stay; a long middle gives way to "… in the file".
    The lines saying who won (or carried) each pot always stay, after the deal: flip and flop
    are paid after the first cycle of turns (R5.5), in the middle a long story loses.
    """
    if len(lines) > SHOWN_LINES:
        more = len(lines) - SHOWN_LINES + 5
        lines = [
            *lines[:5],
            t.ngettext("… {count} more in the file …", "… {count} more in the file …", more).format(
                count=t.number(more)
            ),
            *lines[5 - SHOWN_LINES :],
        ]
    cut = t.gettext("… (the whole round is in the file)")
    body = fit_lines(lines, room, cut)
    missing = [line for line in pots if line not in body.split("\n")]
    if not missing:
        return body
    return fit_lines([*lines[:2], *missing, *lines[2:]], room, cut, keep_first=2 + len(missing))


class HistoryCommands(commands.Cog):
    """The fair-deal and history commands of ``/flipflop`` (mixed into the group cog)."""

    bot: FlipFlopBot
    runtime: TableRuntime

    @app_commands.command(name="seed", description="Add your own text to the next deal's shuffle seed.")
    @app_commands.describe(text="Up to 64 letters, digits, symbols or spaces")
    async def seed(self, interaction: discord.Interaction, text: str) -> None:
        """Docs/FAIRNESS.md, "The client seed": a seated player's text goes into the next deal."""
        assert interaction.channel is not None
        t = await self.bot.languages.reader(interaction)
        table = self.runtime.in_channel(interaction.channel.id)
        if table is None:
            await send_ephemeral(interaction, t.gettext("There's no table in this channel to add a seed to."))
            return
        try:
            number = await self.runtime.seed(
                table.id, interaction.user.id, text, interaction_id=interaction.id
            )
        except TableError as e:
            await send_ephemeral(interaction, explain(e, t))
            return
        await send_ephemeral(
            interaction,
            t.gettext(
                "🔒 Your text goes into round {number}'s client seed. It is published with that deal, "
                "and anyone can check the deal once the round ends (`/flipflop verify`)."
            ).format(number=t.number(number)),
        )

    async def _story(self, interaction: discord.Interaction, round_id: int) -> RoundStory | None:
        """The stored round of this server, or None after a clear private answer."""
        assert interaction.guild is not None
        checked = _round_id(round_id)
        found = None if checked is None else await round_story(self.bot.db, interaction.guild.id, checked)
        if found is None:
            t = await self.bot.languages.reader(interaction)
            await send_ephemeral(interaction, t.gettext(NO_ROUND).format(id=round_id))
        return found

    @app_commands.command(name="verify", description="Check a finished round's deal against its seeds.")
    @app_commands.rename(round_id="round")
    @app_commands.describe(round_id="The round's id (see /flipflop history)")
    async def verify(self, interaction: discord.Interaction, round_id: int) -> None:
        """Recompute the deck from the revealed seed; check the commitment and the deck dealt."""
        found = await self._story(interaction, round_id)
        if found is None:
            return
        if found.reveal is None:
            t = await self.bot.languages.reader(interaction)
            await send_ephemeral(interaction, t.gettext(NO_SEED).format(id=round_id))
            return
        t = await self.bot.languages.public(interaction)
        reveal = Reveal(**found.reveal)
        dealt = found.transcript["rounds"][0]["deck"]
        seats = first_round_seats(found, reveal)
        result = reveal.check(dealt, seats)
        lines = _checks(result, t)
        dealer = dealer_check(found, result, t)
        if dealer is not None:
            lines.append(dealer[1])
        head = (
            t.gettext("✅ Round #{id} (round {number} at table `{table}`) was dealt fairly:").format(
                id=found.round_id, number=t.number(found.number), table=found.table_id
            )
            if result.ok and (dealer is None or dealer[0])
            else t.gettext("❌ Round #{id} does NOT check out:").format(id=found.round_id)
        )
        checks = "\n".join(f"• {line}" for line in lines)
        values = {
            "server_seed": reveal.server_seed,
            "commitment": reveal.commitment,
            "number": t.number(reveal.round),
        }
        browser = ""
        view: discord.ui.View = discord.utils.MISSING
        replay_url = self.bot.settings.replay_url
        if replay_url:  # something to open from Discord: the page recomputes the deck in the browser
            browser = "\n" + t.gettext(
                "Check it yourself in your browser: **Watch the replay** (below) → **Verify this deal** "
                "recomputes this deck from the seeds."
            )
            view = discord.ui.View(timeout=None)
            view.add_item(watch_button(replay_url, story_file(found, interaction.guild, t, {}), t))
        if replay_url:  # the page checks it: the seeds shown once, no command to type
            inline = t.gettext(
                "Server seed `{server_seed}`\nCommitment `{commitment}`\n"
                "Client seed `{client_seed}` · round {number}"
            ).format(**values, client_seed=reveal.client_seed)
            text = f"{head}\n{checks}\n{inline}{browser}"
        else:
            inline = t.gettext(SEEDS_INLINE).format(**values)
            how = t.gettext(
                "Check it yourself: anyone can recompute this deck from the seeds with the bot's open-source "
                "checker (`/flipflop round id:{id}` gives the whole round as a file):"
            ).format(id=found.round_id)
            text = f"{head}\n{checks}\n{inline}\n{how}\n```\n{reveal.command(dealt, seats=seats)}\n```"
        if len(text) <= CONTENT:  # the client seed once, in the command that checks it
            await interaction.response.send_message(text, allowed_mentions=NONE, view=view)
            return
        seeds = t.gettext(SEEDS_IN_FILE).format(
            **values, length=t.number(len(reveal.client_seed)), file=f"`{CLIENT_SEED_FILE}`"
        )
        tail = f"\n{seeds}\n```\n{reveal.command(dealt, CLIENT_SEED_FILE, seats)}\n```{browser}"
        # the command whole, the checks' lines giving way if need be (the verdict is in the head)
        checks = fit_lines(checks.split("\n"), CONTENT - len(head) - 1 - len(tail), "…", keep_first=1)
        text = f"{head}\n{checks}{tail}"
        whole = discord.File(io.BytesIO(reveal.client_seed.encode()), filename=CLIENT_SEED_FILE)
        await interaction.response.send_message(
            shorten(text, CONTENT), file=whole, allowed_mentions=NONE, view=view
        )

    @app_commands.command(name="history", description="The last rounds played here (or by a member).")
    @app_commands.describe(member="Only rounds this member played (someone who left the server too)")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        assert interaction.guild is not None
        t = await self.bot.languages.reader(interaction)
        if member is not None and member.bot:
            await send_ephemeral(interaction, t.gettext(NO_BOTS))
            return
        if member is not None and not await self._known(interaction.guild.id, member, t, interaction):
            return
        rounds = await history(self.bot.db, interaction.guild.id, None if member is None else member.id, 10)
        shown = "" if member is None else named(member, t) if departed(member) else member.mention
        if not rounds:
            none = (
                t.gettext("No finished rounds in this server yet.")
                if member is None
                else t.gettext("No finished rounds with {member} yet.").format(member=shown)
            )
            await send_ephemeral(interaction, none, allowed_mentions=NONE)
            return
        text = (
            t.gettext("📜 **Last rounds in this server** (newest first; `/flipflop round id:` tells one):")
            if member is None
            else t.gettext(
                "📜 **Last rounds with {member}** (newest first; `/flipflop round id:` tells one):"
            ).format(member=shown)
        )
        for summary in rounds:  # whole lines only, within Discord's 2,000 characters
            line = history_line(summary, t)
            if len(text) + 1 + len(line) > 2000:
                break
            text += "\n" + line
        await send_ephemeral(interaction, text, allowed_mentions=NONE)

    @app_commands.command(name="round", description="A finished round turn by turn, and its transcript.")
    @app_commands.rename(round_id="id")
    @app_commands.describe(round_id="The round's id (see /flipflop history)")
    async def round_(self, interaction: discord.Interaction, round_id: int) -> None:
        """The story in short lines with the hands at the end; the transcript replays with engine.replay."""
        found = await self._story(interaction, round_id)
        if found is None:
            return
        t = await self.bot.languages.reader(interaction)
        lines = story_lines(found, t)
        pots = story_lines(found, t, only=(PotPaid, PotCarried))
        seed = (
            t.gettext("Seed revealed: `{seed}` (`/flipflop verify round:{id}`)").format(
                seed=found.reveal["server_seed"], id=found.round_id
            )
            if found.reveal
            else t.gettext("No seed: dealt before this bot published its shuffles.")
        )
        players = players_line(found, t)  # "🤖 Basic 2"; a seat away for some of the round: 💤
        title = t.gettext("📖 **Round #{id}** — round {number} at table `{table}` {when} · {players}").format(
            id=found.round_id,
            number=t.number(found.number),
            table=found.table_id,
            when=f"<t:{int(found.ended_at)}:f>",
            players=players,
        )
        head = f"{title}\n{seed}\n"
        body = shown_story(lines, pots, 1990 - len(head), t)
        filename = f"round-{found.round_id}.json"
        open_table = self.runtime.in_channel(interaction.channel_id or 0)
        known = dict(open_table.names) if open_table is not None and open_table.id == found.table_id else {}
        known[interaction.user.id] = interaction.user.display_name
        data = story_file(found, interaction.guild, t, known)
        attachment = discord.File(
            io.BytesIO(json.dumps(data, indent=1, ensure_ascii=False).encode()),
            filename=filename,
            description=t.gettext("Replay: {command}").format(command=f"python -m engine.replay {filename}"),
        )
        played = interaction.user.id in found.members.values()  # one may only analyse one's own play
        view = analyse_view(found.round_id, t) if played else None
        replay_url = self.bot.settings.replay_url
        if replay_url:
            view = view if view is not None else discord.ui.View(timeout=None)
            view.add_item(watch_button(replay_url, data, t))
        await interaction.response.send_message(
            head + body,
            file=attachment,
            ephemeral=True,
            allowed_mentions=NONE,
            view=view if view is not None else discord.utils.MISSING,
        )

    @app_commands.command(name="stats", description="A member's Flip Flop record and skill rating here.")
    @app_commands.describe(member="Whose stats (default: yours); someone who left the server too")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        assert interaction.guild is not None
        target = member or interaction.user
        t = await self.bot.languages.reader(interaction)
        if target.bot:
            await send_ephemeral(interaction, t.gettext(NO_BOTS))
            return
        if not await self._known(interaction.guild.id, target, t, interaction):
            return
        found = await stats(self.bot.db, interaction.guild.id, target.id)
        name = named(target, t) if departed(target) else None  # a mention for a member
        await send_ephemeral(interaction, stats_text(target.id, found, t, name), allowed_mentions=NONE)

    async def _known(
        self, guild_id: int, user: discord.abc.User, t: Texts, interaction: discord.Interaction
    ) -> bool:
        """A member, or one who left with records here; else "no records" is said (and False)."""
        if not departed(user) or await known_here(self.bot.db, guild_id, user.id):
            return True
        await send_ephemeral(interaction, t.gettext(NO_RECORDS).format(name=as_written(user.display_name)))
        return False
