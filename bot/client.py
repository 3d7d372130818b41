"""The bot object: opens the database, loads the cogs, syncs slash commands.

Its last section is the one place the bot reads discord.py's internals.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.budget import InvalidRequests
from bot.cards import CardFaces
from bot.cards.styles import CardStyles
from bot.i18n import N_, SOURCE_LANGUAGE, CommandTranslator, texts
from bot.i18n.languages import LanguageBook
from bot.i18n.mentions import COMMANDS, name_members_with
from bot.ledger import Ledger, LedgerError
from bot.presentation.limits import (
    BUTTON_LABEL,
    CONTENT,
    DESCRIPTION,
    EMBED_TOTAL,
    EMBEDS,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
    FOOTER,
    OPTION_TEXT,
    OPTIONS,
    PLACEHOLDER,
    TITLE,
    embed_length,
    shorten,
)
from bot.presentation.refusals import explain
from bot.send_gate import SendGate
from bot.settings import Settings
from bot.storage import StoreError, open_store, store_target

log = logging.getLogger("flipflop")

EXTENSIONS = ("cogs.economy", "cogs.flipflop")

if TYPE_CHECKING:
    from bot.live.server import LiveServer
    from bot.runtime import TableRuntime


def command_mentions(commands: Iterable[app_commands.AppCommand]) -> dict[str, str]:
    """Every command path of the synced commands (``"flipflop history"``), each with its mention."""
    out: dict[str, str] = {}

    def walk(prefix: str, options: Iterable[object]) -> None:
        for option in options:
            if isinstance(option, app_commands.AppCommandGroup):
                path = f"{prefix} {option.name}"
                out[path] = option.mention
                walk(path, option.options)

    for command in commands:
        if command.type is not discord.AppCommandType.chat_input:
            continue
        out[command.name] = command.mention
        walk(command.name, command.options)
    return out


def remember_commands(commands: Iterable[app_commands.AppCommand]) -> dict[str, str]:
    """Keep the synced commands' mentions: sentences name them clickably (``bot.i18n.mentions``).

    Into the bot's own mapping when it has one (``FlipFlopBot.setup_hook`` makes it before the
    cogs load): the turn timers' context, taken as the cogs load (``bot.runtime.scheduler``),
    then knows them too.
    """
    mentions = command_mentions(commands)
    known = COMMANDS.get()
    if isinstance(known, dict):
        known.clear()
        known.update(mentions)
    else:
        COMMANDS.set(dict(mentions))
    return mentions


def as_written(text: str) -> str:
    """A member's name or words shown as they wrote them: no Markdown, no mention."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def member_mention(user_id: int) -> str:
    """A member as Discord mentions them (``bot.i18n.mentions.member``; sent with mentions switched off)."""
    return f"<@{user_id}>"


name_members_with(member_mention)


@dataclass(frozen=True, slots=True)
class Harness:
    """What the playground changes about a real bot; production uses the defaults (``PRODUCTION``)."""

    repost_missing_messages: bool = False
    """The playground's world is new each run: post a lost table message again instead of closing."""
    resume_on_ready: bool = True
    """False: the playground builds its world after READY, then resumes tables itself."""
    edit_limit: int | None = None
    """Message edits a channel may have per pacing window (None: the cog's own, ``cogs.flipflop.pacing``).

    simcord's clock stands still between clicks, so a paced edit would wait out real seconds.
    """
    draw_settle: bool = True
    """A lone draw's table edit waits a little for the discard (``cogs.flipflop.notifier.DRAW_SETTLE``).

    False in the playground: its page holds a click on "Completing action…" until the bot's
    work is done, so a Draw would wait out those real seconds (2.5 s) before showing.
    """


PRODUCTION = Harness()


class FlipFlopBot(commands.AutoShardedBot):
    """A discord.py bot that runs Flip Flop tables and keeps each server's chips.

    Sharded from the start (discord.py's ``AutoShardedBot``): one process runs
    every shard by default, or the ``SHARD_IDS`` of ``SHARD_COUNT`` when the
    bot is spread over several processes sharing one PostgreSQL.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        rng: random.Random | None = None,
        pause_between_rounds: float | None = None,
        computer_pause: tuple[float, float] = (1.0, 2.0),
        tables_in_threads: bool = True,
        harness: Harness = PRODUCTION,
        card_emojis: bool = True,
    ) -> None:
        intents = discord.Intents.default()
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        invalid = InvalidRequests(settings.invalid_requests_limit // settings.processes)
        gate = SendGate()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # every request on the wire, 429s retried inside discord.py too: its turn first, then its answer
            http_trace=invalid.trace(gate.trace()),
            **shards,
        )
        self.settings = settings
        self.invalid_requests = invalid
        """401/403/429 answers in Discord's 10-minute window (this process's share of the limit)."""
        self.send_gate = gate
        """Every request's turn in the channel-call budget (the notifier attaches its budget)."""
        self.rng = rng or random.Random()
        self.pause_between_rounds = (
            settings.round_pause if pause_between_rounds is None else pause_between_rounds
        )
        self.computer_pause = computer_pause
        self.tables_in_threads = tables_in_threads
        """At Start, a game moves to a public thread from its lobby where the bot may open one."""
        """Seconds (at least, at most) a computer player waits before each move, to feel human."""
        self.harness = harness
        """How the playground runs this bot differently (``PRODUCTION`` everywhere else)."""
        self.runtime: TableRuntime | None = None
        """The table runtime, set when the Flip Flop cog loads."""
        self.live: LiveServer | None = None
        """The live table's web server (``LIVE_URL``), if it is on; the Flip Flop cog attaches its runtime."""
        self.db = open_store(store_target(settings.database_url, settings.database_path))
        self._db_open = False
        self.ledger = Ledger(self.db, house_float=settings.house_float)
        self.languages = LanguageBook(self.db)
        """Which language each server and member reads (saved, so a choice outlives a restart)."""
        self.card_faces = CardFaces()
        """The card faces as application emojis, once ``cogs.flipflop.emojis`` has synced them."""
        self.card_emojis = card_emojis
        """Whether to sync the card emojis at start-up (tests that read cards as text leave it off)."""
        self.languages.cards = CardStyles(self.db, self.card_faces)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self._closing: asyncio.Future[None] | None = None

    async def setup_hook(self) -> None:
        """Open resources and load cogs before connecting (discord.py's examples)."""
        await self.open_database()
        await self.tree.set_translator(CommandTranslator())
        COMMANDS.set({})  # this bot's mentions, filled in once synced (``remember_commands``)
        for ext in EXTENSIONS:
            try:
                await self.load_extension(ext)
            except Exception:
                log.exception("Could not load %s", ext)
                raise
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        remember_commands(synced)  # sentences name commands as clickable mentions from here on
        log.info("Slash commands synced.")

    async def open_database(self) -> None:
        """Open (and migrate) the store once; ``StoreError``/``SchemaTooNew`` say what the operator must do.

        ``python -m bot`` calls it before logging in, so a database problem is
        reported before anything touches Discord.
        """
        if not self._db_open:
            await self.db.open()
            self._db_open = True

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of that server, and so its tables."""
        return self.settings.owns_guild(guild_id)

    async def on_ready(self) -> None:
        """Log that the gateway is ready."""
        log.info("Logged in as %s (%s servers).", self.user, len(self.guilds))

    async def close(self) -> None:
        """Let actions in flight finish, disconnect, close the database (a clean SIGTERM ends here).

        Tables are saved after every action, so nothing else needs saving. Unloading the
        cogs (the first step of discord.py's own close) makes the pending table edits,
        within a bound, while the HTTP session is still open.
        """
        if self._closing is not None:
            await asyncio.shield(self._closing)
            return
        self._closing = asyncio.get_running_loop().create_future()
        try:
            if self.runtime is not None:
                await self.runtime.shutdown()
            await super().close()
        finally:
            await self.db.close()
            log.info("Database closed.")
            self._closing.set_result(None)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Turn a refused or failed command into a friendly ephemeral message."""
        original = getattr(error, "original", error)
        try:
            t = await self.languages.reader(interaction)
        except Exception:  # the store itself failing must not hide the answer: English then
            log.exception("Could not read a member's language")
            t = texts(SOURCE_LANGUAGE)
        said = READ_ANSWERS if reads_only(interaction) else ACTION_ANSWERS  # "nothing was changed": actions
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t.gettext("Flip Flop commands work in a server channel, not in direct messages.")
        elif isinstance(error, app_commands.TransformerError) and not_a_member(error):
            text = t.gettext(NOT_A_MEMBER).format(name=as_written(error.value.display_name))  # only actions
        elif isinstance(error, app_commands.TransformerError):
            text = t.gettext(said["out_of_range"])
        elif isinstance(error, app_commands.MissingPermissions):
            text = t.gettext("Only members with the **Manage Server** permission can do that.")
        elif isinstance(original, LedgerError):
            text = explain(original, t)
        elif isinstance(error, app_commands.CheckFailure):
            text = t.gettext("You can't use that command here.")
        elif isinstance(original, StoreError):  # a database fault: rolled back, said without a traceback
            log.warning("A command met a database fault: %s: %s", type(original).__name__, original)
            text = t.gettext(said["our_side"])
        else:
            log.error("Command failed", exc_info=original)
            text = t.gettext(said["our_side"])
        await send_ephemeral(interaction, text)


NOT_A_MEMBER = N_(
    "{name} isn't a member of this server (they may have left). Pick a member of this server;"
    " nothing was changed."
)
ACTION_ANSWERS = {
    "out_of_range": N_("One of the values you gave is out of range for that option; nothing was changed."),
    "our_side": N_("Something went wrong on our side; nothing was changed. Please try again."),
}
"""A refused or failed command that could have changed something: it says nothing was."""
READ_ANSWERS = {
    "out_of_range": N_("One of the values you gave is out of range for that option."),
    "our_side": N_("Something went wrong on our side. Please try again."),
}
"""The same for a command that only shows something: nothing could have changed, so it is not said."""
READS_ONLY = frozenset(
    {
        "balance",
        "leaderboard",
        "flipflop help",
        "flipflop rules",
        "flipflop hand",
        "flipflop hint",
        "flipflop history",
        "flipflop round",
        "flipflop stats",
        "flipflop verify",
        "flipflop privacy export",
        "flipflop admin tables",
        "flipflop admin audit",
        "flipflop admin dumping",
    }
)
"""The commands that only show something, by their full names."""
SHOWN_WITHOUT_OPTIONS = frozenset(
    {"flipflop cards", "flipflop config", "flipflop notify", "flipflop language"}
)
"""The commands that show a setting when given no option, and change it when given one."""


def reads_only(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` is a command that could change nothing (a refusal of it says no more)."""
    command = interaction.command
    name = command.qualified_name if command is not None else ""
    if name in READS_ONLY:
        return True
    if name not in SHOWN_WITHOUT_OPTIONS:
        return False
    data: Any = interaction.data or {}
    options = data.get("options", [])
    while len(options) == 1 and options[0].get("type") in (1, 2):  # a subcommand (group): its options
        options = options[0].get("options", [])
    return not options


def not_a_member(error: app_commands.TransformerError) -> bool:
    """A member option given a user who is no member here: Discord sends them without a member."""
    return error.type is discord.AppCommandOptionType.user and isinstance(error.value, discord.User)


INTERACTION_TOKEN_SECONDS = 14 * 60
"""An interaction's token edits and deletes its messages for 15 minutes; the bot stops a minute early."""


def token_left(interaction: discord.Interaction) -> float:
    """Seconds the bot may still edit or delete ``interaction``'s messages (0 or less: none)."""
    return INTERACTION_TOKEN_SECONDS - (discord.utils.utcnow() - interaction.created_at).total_seconds()


def token_alive(interaction: discord.Interaction) -> bool:
    """Whether the bot may still edit or delete ``interaction``'s messages (its token is young enough)."""
    return token_left(interaction) > 0


async def send_ephemeral(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was already answered (within Discord's limits)."""
    fields = fitted({"content": text, **kwargs})
    text, kwargs = fields.pop("content"), fields
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def create_bot(settings: Settings, **kwargs: object) -> FlipFlopBot:
    """Build the bot (tests and the playground pass their own settings)."""
    return FlipFlopBot(settings, **kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------ within Discord's limits


def _fit_embed(embed: discord.Embed) -> discord.Embed:
    data = embed.to_dict()
    if len(data.get("title") or "") > TITLE:
        embed.title = shorten(str(embed.title), TITLE)
    if len(data.get("description") or "") > DESCRIPTION:
        embed.description = shorten(str(embed.description), DESCRIPTION)
    fields = data.get("fields") or []
    if len(fields) > FIELDS:
        for _ in range(len(fields) - FIELDS):
            embed.remove_field(FIELDS)
    for i, f in enumerate(embed.to_dict().get("fields") or []):
        name, value = f.get("name") or "", f.get("value") or ""
        if len(name) > FIELD_NAME or len(value) > FIELD_VALUE:
            embed.set_field_at(
                i,
                name=shorten(name, FIELD_NAME),
                value=shorten(value, FIELD_VALUE),
                inline=bool(f.get("inline")),
            )
    footer = embed.footer.text or ""
    if len(footer) > FOOTER:
        embed.set_footer(text=shorten(footer, FOOTER), icon_url=embed.footer.icon_url)
    over = embed_length(embed.to_dict()) - EMBED_TOTAL
    if over > 0 and embed.description:  # the description gives way first: it is the longest part
        embed.description = shorten(embed.description, max(200, len(embed.description) - over))
    while embed_length(embed.to_dict()) > EMBED_TOTAL and embed.fields:  # then the last fields
        embed.remove_field(len(embed.fields) - 1)
    return embed


def _fit_view(view: discord.ui.View) -> discord.ui.View:
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.label and len(item.label) > BUTTON_LABEL:
            item.label = shorten(item.label, BUTTON_LABEL)
        if isinstance(item, discord.ui.Select):
            if item.placeholder and len(item.placeholder) > PLACEHOLDER:
                item.placeholder = shorten(item.placeholder, PLACEHOLDER)
            item.options = item.options[:OPTIONS]
            for o in item.options:
                o.label = shorten(o.label, OPTION_TEXT)
                if o.description:
                    o.description = shorten(o.description, OPTION_TEXT)
    return view


def fitted(fields: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a send or an edit, shortened wherever Discord's limits would be broken."""
    out = dict(fields)
    content = out.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        out["content"] = shorten(content, CONTENT)
    if isinstance(out.get("embed"), discord.Embed):
        out["embed"] = _fit_embed(out["embed"])
    if isinstance(out.get("embeds"), list):
        out["embeds"] = [_fit_embed(e) for e in out["embeds"][:EMBEDS]]
    if isinstance(out.get("view"), discord.ui.View):
        out["view"] = _fit_view(out["view"])
    return out


# --- discord.py's internals -------------------------------------------------------------
#
# The one place the bot reads discord.py's internals, and why each read has no public way.
#
# Everything else in ``bot/`` and ``cogs/`` uses discord.py's public API only; the
# structure test (tests/test_structure.py) refuses a private attribute of a
# discord.py object anywhere but in this section of the client's module, and
# tests/bot/test_discord_internals.py fails when discord.py changes a shape read below.
#
# - **Which controls the view store will take** (``will_dispatch``): a control under
#   the bot's prefix that no template or view takes (a button from an older version
#   of the bot) must still be answered, or the member sees "This interaction failed".
#   discord.py dispatches a component to a ``DynamicItem`` template or a view's item
#   through its ``ViewStore`` and has no public way to ask whether it will;
#   ``Client.persistent_views`` lists only persistent views, not templates nor views
#   bound to one message. So ``ConnectionState._view_store`` is read (its
#   ``_dynamic_items`` patterns and ``_views`` by message id) exactly as
#   ``ViewStore.dispatch_view`` looks them up.
# - **When an interaction arrived** (``hear_interactions``): the action-latency metric
#   starts when the gateway event is parsed, before discord.py starts the command's or
#   control's task (which copies the current context). The ``on_interaction`` event
#   runs later, in a task of its own, after the control's first steps, so it would
#   hide part of the latency; the parser (``ConnectionState.parsers``) is wrapped.
# - **Which interaction a reply answers** (``answered_interaction``): an
#   ``InteractionResponse`` keeps its interaction as ``_parent`` and exposes no
#   public reference to it.
# - **When the first reply went out** (``hear_replies``): discord.py has no event for
#   an interaction answered, and the answer is not a request ``HTTPClient`` makes
#   (the HTTP trace sees it on the wire, but not under a simulated Discord, and not
#   which of the bot's tasks sent it). So the public methods of
#   ``InteractionResponse`` that answer (``REPLIES``) are wrapped, for every client
#   of the process, once; a method discord.py renames fails the wrapping loudly.

Parser = Callable[[Any], None]
Reply = Callable[..., Awaitable[Any]]
Response = discord.InteractionResponse[Any]
"""What a wrapped reply (``hear_replies``) is called on; a module that wraps one names it by this."""
REPLIES = ("defer", "pong", "send_message", "edit_message", "send_modal", "autocomplete", "launch_activity")
"""The ``InteractionResponse`` methods that answer an interaction (discord.py 2.7)."""


def will_dispatch(client: discord.Client, component_type: int, custom_id: str) -> bool:
    """Whether discord.py will hand this control to one of the bot's items (a template or a view)."""
    store = client._connection._view_store
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (component_type, custom_id)
    return any(key in items for items in store._views.values())


def hear_interactions(client: discord.Client, wrap: Callable[[Parser], Parser]) -> None:
    """Replace ``client``'s ``INTERACTION_CREATE`` parser with ``wrap(parser)``, which sees raw payloads."""
    parsers: dict[str, Parser] = client._connection.parsers
    parsers["INTERACTION_CREATE"] = wrap(parsers["INTERACTION_CREATE"])


def interaction_parser(client: discord.Client) -> Parser:
    """``client``'s ``INTERACTION_CREATE`` parser as it is now (wrapped or not)."""
    parser: Parser = client._connection.parsers["INTERACTION_CREATE"]
    return parser


def answered_interaction(response: discord.InteractionResponse[Any]) -> int:
    """The id of the interaction ``response`` answers."""
    return int(response._parent.id)


def hear_replies(wrap: Callable[[Reply], Reply], mark: str) -> None:
    """Replace each of ``REPLIES`` on ``InteractionResponse`` with ``wrap(method)``, for every client.

    A method already wrapped (it has the attribute ``mark``) is left alone: hearing twice wraps nothing twice.
    """
    for name in REPLIES:
        method = getattr(discord.InteractionResponse, name)  # a renamed method fails here, loudly
        if getattr(method, mark, False):
            continue
        wrapped = wrap(method)
        setattr(wrapped, mark, True)
        setattr(discord.InteractionResponse, name, wrapped)
