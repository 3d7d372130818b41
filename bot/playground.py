"""``make play``: the real bot in a simulated Discord, played in your browser.

The same cogs, engine and SQLite ledger as the real bot, on their own database
file (``data/playground.sqlite3``), inside a simcord world with one server, a
``#flipflop`` channel and a few members. simcord's preview serves a
Discord-like page on 127.0.0.1: switch "Viewing as" to play every seat.

Needs the ``play`` extra (``pip install .[play]``); the bot itself does not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.server
import logging
import random
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.cards import STYLE_NAME, STYLES, all_faces
from bot.client import FlipFlopBot, Harness, create_bot
from bot.i18n import LANGUAGES
from bot.settings import Settings
from engine.assets import asset

if TYPE_CHECKING:
    from bot.live.mock_discord import MockDiscord
    from bot.live.server import LiveServer
    from bot.table.model import Table

DEFAULT_DB = Path("data/playground.sqlite3")
NAMES = ["ann", "ben", "cat", "dan", "eve"]
REPLAY_PAGE = asset("web", "replay")
"""The static replay page, served beside the playground so its **Watch the replay** links open."""
COMPUTER_PAUSE = (1.0, 2.0)
"""Real seconds a computer player takes before its move in the playground (as the real bot's default)."""
PARKED = (24 * 3600.0, 24 * 3600.0)
"""The bot's own computer-move timer here: far beyond a click's settlement, so no click waits for it.

simcord settles a click by running every timer due within its settle timeout (5 s), so a
computer pause of 1–2 s made each click at a practice table wait for all the computers'
moves (4.3–4.8 s of "Completing action…"). ``drive_computers`` moves them instead, in
real time, after the click has been answered.
"""


@dataclass
class Playground:
    """A running playground: the simcord env, its channel and members, the preview."""

    env: Any
    bot: FlipFlopBot
    channel: Any
    members: list[Any]
    admin: Any
    preview: Any = None
    replay_url: str | None = None
    live_url: str | None = None
    """The live table's server (``/flipflop web`` links to its page), on 127.0.0.1."""
    mock_discord: MockDiscord | None = None
    """The stand-in for Discord that the live page's Activity sign-in asks (``activity_link``)."""

    @property
    def url(self) -> str:
        """The address to open (it carries the preview's access key)."""
        return str(self.preview.url) if self.preview is not None else ""


def build_bot(
    db_path: Path, replay_url: str | None = None, card_emojis: bool = True, threads: bool = False
) -> FlipFlopBot:
    """The real bot on the playground's own database; lost table messages are posted again.

    Its computer players are moved by ``drive_computers``, not by its own timer (``PARKED``).
    Games stay in the channel unless ``threads``: simcord's preview shows one channel, and a
    game's thread only as a line under the lobby message (its name and message count), which
    can not be opened; so by default the whole game is played where the page can show it.
    """
    harness = Harness(
        repost_missing_messages=True, resume_on_ready=False, edit_limit=1_000_000, draw_settle=False
    )
    return create_bot(
        # The playground's members are created, and join, as it starts: no newcomer wait (bot.guards).
        Settings(
            database_path=db_path,
            shard_count=1,
            replay_url=replay_url,
            min_account_days=0,
            min_member_days=0,
            table_cooldown_seconds=0,
        ),
        card_emojis=card_emojis,
        computer_pause=PARKED,
        tables_in_threads=threads,
        harness=harness,
    )


async def drive_computers(
    bot: FlipFlopBot,
    stop: asyncio.Event,
    pause: tuple[float, float] = COMPUTER_PAUSE,
    tick: float = 0.1,
    rng: random.Random | None = None,
    advance: Callable[[float], Awaitable[None]] | None = None,
) -> None:
    """Move computers and away seats ``pause`` real seconds after their turn, and deal after the pause.

    Each computer player's (and each away member's) seat is moved ``pause`` real seconds after
    its turn came, and the next round is dealt once its pause has passed in real seconds, both
    outside any click. Runs beside the simulated Discord, not as the bot's own work, so a click is answered
    as soon as the bot has answered it (as at a table of people); the computers' moves then
    appear one by one. simcord's clock moves only with clicks, so a round a computer ended
    would wait for its next deal until someone clicked: ``advance`` (the env's
    ``advance_time``) moves the clock on to the deal instead. The timer of the member's turn a
    move gives is the bot's own work all the same (``bot.runtime.scheduler``): simcord runs it
    out in real seconds. Stops once ``stop`` is set, never in the middle of a move (a move cut
    short would leave its database transaction open).
    """
    rng = rng or random.Random()
    loop = asyncio.get_running_loop()
    due: dict[str, tuple[int, float]] = {}
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), tick)
        runtime = bot.runtime
        if runtime is None:
            continue
        for table in list(runtime.tables.values()):
            if stop.is_set():
                return
            driven = _driven(table, runtime.clock())
            if driven is None or (driven[0] == "deal" and advance is None):
                due.pop(table.id, None)
                continue
            kind, left = driven
            seen = due.get(table.id)
            if seen is None or seen[0] != table.seq:
                due[table.id] = (table.seq, loop.time() + (rng.uniform(*pause) if kind == "move" else left))
                continue
            if loop.time() < seen[1]:
                continue
            if kind == "deal" and advance is not None and left > 0:
                try:  # the simulated clock on to the deal: the bot's own timer deals it
                    await advance(left)
                except Exception as e:  # a click being settled now (or a slow settle): again next tick
                    logging.getLogger(__name__).debug("the clock was not moved on (%s); again", e)
                continue
            del due[table.id]
            try:
                await runtime.fire(table.id)
            except Exception:  # one table's failure must not stop the others' computers
                logging.getLogger(__name__).exception("computer move at table %s failed", table.id)


def _driven(table: Table, now: float) -> tuple[str, float] | None:
    """What the playground moves at ``table``, if anything.

    A seat ("move"), or the next deal ("deal", with the simulated seconds left until it);
    None at a member's turn, or with no game.
    """
    if table.status != "playing" or table.game is None:
        return None
    view = table.game.public_view()
    if view.in_round:
        seat = view.to_act
        if seat is not None and (table.is_computer(seat) or table.is_away(seat)):
            return "move", 0.0
        return None
    if table.next_round_at is not None:
        return "deal", max(0.0, table.next_round_at - now)
    return None


class _QuietFiles(http.server.SimpleHTTPRequestHandler):
    """The replay page's files, without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
        """Say nothing."""


@contextlib.contextmanager
def replay_page() -> Iterator[str]:
    """``web/replay/`` on 127.0.0.1 (a static page: any file server does); yields its address."""
    handler = functools.partial(_QuietFiles, directory=str(REPLAY_PAGE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.asynccontextmanager
async def playground(
    db_path: Path = DEFAULT_DB,
    members: int = 3,
    port: int | None = None,
    preview: bool = True,
    computers: int = 0,
    level: str = "basic",
    language: str | None = None,
    cards: str | None = None,
    computer_pause: tuple[float, float] = COMPUTER_PAUSE,
    threads: bool = False,
    live: bool = True,
) -> AsyncIterator[Playground]:
    """Start the bot in a simulated server; with ``preview``, serve the page too.

    With ``computers``, the first member opens a table with that many computer
    players of ``level`` seated (the house gets the chips for their buy-ins; Random: a
    practice table, the only kind that seats it).
    With ``language``, the server and every member read that language (saved as
    ``/flipflop config language:`` and ``/flipflop language`` would save it; the
    simulated clients say ``en-US``, so members need the choice to read it too).
    Computer players move ``computer_pause`` real seconds after their turn comes
    (``drive_computers``), never inside a click.
    """
    try:
        import simcord
    except ImportError:  # pragma: no cover - the play extra is missing
        raise SystemExit(
            "The playground needs the play extra: pip install '.[play]' (make play does it)."
        ) from None
    if not 1 <= members <= len(NAMES):
        raise SystemExit(f"--members must be between 1 and {len(NAMES)}.")
    pages = contextlib.ExitStack()
    replay_url = pages.enter_context(replay_page())
    bot = build_bot(db_path, replay_url, card_emojis=cards != "plain", threads=threads)
    live_server, mock_discord = start_live(bot) if live else (None, None)
    try:
        # The same world every run, so a saved table finds its channel and players again.
        async with simcord.run(bot, check_errors=False) as env:
            import discord

            guild = env.create_guild(name="Flip Flop playground")
            channel = guild.create_text_channel("flipflop")
            admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
            admin = guild.add_member(env.create_user("admin"), roles=[admins])
            people = [guild.add_member(env.create_user(n)) for n in NAMES[:members]]
            await bot.wait_until_ready()
            if live_server is not None:
                # on simcord's clock and webhooks (not as the bot's own work): a page's move then edits the
                # open Discord hands, and its turn clock is the playground's; the turn's timer it arms is
                # the bot's all the same (bot.runtime.scheduler), so simcord runs it out in real seconds
                with env.time_context():
                    await live_server.start()
            await card_emojis_in_preview(env, bot)
            if bot.runtime is not None:
                await bot.runtime.resume()
            await env.settle()
            world = Playground(env, bot, channel, people, admin, replay_url=replay_url)
            world.live_url = live_server.url if live_server is not None else None
            world.mock_discord = mock_discord
            stop = asyncio.Event()
            driving = drive_computers(bot, stop, computer_pause, advance=env.advance_time)
            driver = asyncio.get_running_loop().create_task(driving)
            try:
                if language is not None:
                    await choose_language(world, language)
                if cards in STYLES:
                    await choose_cards(world, cards)
                if computers:
                    await seat_computers(world, computers, level)
                if preview:
                    async with env.preview(
                        channel, viewers=[*people, admin], layout="channel", width=1100, height=800, port=port
                    ) as pv:
                        world.preview = pv
                        yield world
                else:
                    yield world
            finally:
                stop.set()
                await driver
                # as the real bot stops, before simcord cancels whatever bot work is left: no timer
                # left, no move cut short, and what the last moves send and record done (work still
                # under way after simcord's settle timeout is cancelled, as it was before)
                if bot.runtime is not None:
                    await bot.runtime.shutdown()
                with contextlib.suppress(TimeoutError):
                    await env.settle()
    finally:
        if live_server is not None:
            await live_server.stop()
        await bot.db.close()
        pages.close()


PLAYGROUND_APP_ID = "100000000000000001"
"""The playground's made-up application id: its Activity is answered by ``MockDiscord``."""


def start_live(bot: FlipFlopBot) -> tuple[LiveServer, MockDiscord]:
    """The live table's server on a free port of 127.0.0.1, given to the bot (its cog attaches it).

    Its Activity sign-in asks a stand-in for Discord served beside it (``/mock-discord/``):
    the page opened from ``activity_link`` runs with the Embedded App SDK mocked.
    """
    from bot.live.activity import ActivityAuth
    from bot.live.mock_discord import MockDiscord
    from bot.live.server import LiveServer, bind

    sock = bind(0, "127.0.0.1")
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    mock = MockDiscord(PLAYGROUND_APP_ID)
    activity = ActivityAuth(PLAYGROUND_APP_ID, "playground-secret", mock.bot_token, f"{url}mock-discord/api")
    server = LiveServer(sock, url, time.time, activity=activity)
    server.mounted["/mock-discord/"] = mock.app()
    bot.live = server
    return server, mock


def activity_link(world: Playground, member: Any) -> str:
    """The live page as the member would open it from **Open table**: an Activity in #flipflop, SDK mocked."""
    assert world.mock_discord is not None and world.live_url is not None
    people = {m.id for m in world.members} | {world.admin.id}
    instance = world.mock_discord.launch(world.channel.guild.id, world.channel.id, people)
    return f"{world.live_url}mock-discord/launch?user={member.id}&instance={instance}"


async def choose_language(world: Playground, language: str) -> None:
    """The server's language and each member's own choice, as the commands would save them."""
    from bot.i18n.languages import SERVER

    guild_id = world.channel.guild.id
    for who in (SERVER, world.admin.id, *(m.id for m in world.members)):
        await world.bot.languages.choose(guild_id, who, language)


async def card_emojis_in_preview(env: Any, bot: FlipFlopBot) -> None:
    """Wait for the card emojis' sync, and give the simulator's CDN their pictures to draw.

    simcord's upload route keeps an application emoji's name but not its image; the page
    draws an emoji from the CDN, so the faces are put there by name.
    """
    from simcord.backend.cdn import CDN_BASE

    task = getattr(bot.get_cog("CardEmojis"), "task", None)
    if task is not None:
        await task
    faces = {f.name: f for f in all_faces()}
    for emoji in env.backend.application_emojis.values():
        if emoji.name in faces:
            env.backend.cdn._blobs[f"{CDN_BASE}/emojis/{emoji.id}.png"] = faces[emoji.name].image()


async def choose_cards(world: Playground, style: str) -> None:
    """Everyone's card style, as ``/flipflop config cards:`` and ``/flipflop cards`` would save it."""
    from bot.i18n.languages import SERVER

    styles = world.bot.languages.cards
    assert styles is not None
    for who in (SERVER, world.admin.id, *(m.id for m in world.members)):
        await styles.choose(world.channel.guild.id, who, style)


async def seat_computers(world: Playground, count: int, level: str) -> None:
    """Open a table in #flipflop (unless one is there) and seat computer players, as the host would.

    A level seated at practice tables only (Random: ``PRACTICE_ONLY_LEVELS``) opens a practice table.
    """
    from bot.ledger import HOUSE_ID
    from bot.table.model import PRACTICE_ONLY_LEVELS

    runtime = world.bot.runtime
    assert runtime is not None
    if runtime.in_channel(world.channel.id) is not None:
        return  # a saved table resumed: keep it as it was
    if level in PRACTICE_ONLY_LEVELS:
        await world.members[0].slash(world.channel, "flipflop practice", computers=count, level=level)
        await world.env.settle()
        return
    guild_id = world.channel.guild.id
    need = count * (await world.bot.ledger.settings(guild_id)).default_buy_in
    house = await world.bot.ledger.balance(guild_id, HOUSE_ID)
    if house < need:
        await world.bot.ledger.grant(guild_id, HOUSE_ID, need - house, actor_id=world.admin.id)
    host = world.members[0]
    await host.slash(world.channel, "flipflop start")
    table = runtime.in_channel(world.channel.id)
    assert table is not None
    for _ in range(count):
        await runtime.add_computer(table.id, host.id, True, level)
    await world.env.settle()


THREADS_LINE = (
    "Games move to a thread of their own at Start. The preview shows one channel: the thread is"
    " the line under the lobby (its name and message count) and can not be opened, so type"
    " /flipflop hand here to play your seat."
)
"""``--threads``: what the page can and can not show of a game in a thread."""


def opening_line(world: Playground) -> str:
    """What to do first: start a table, or (computers seated, or a table resumed) join and start it."""
    runtime = world.bot.runtime
    table = runtime.in_channel(world.channel.id) if runtime is not None else None
    threads = f" {THREADS_LINE}" if world.bot.tables_in_threads else ""
    if table is None:
        return (
            "Type /flipflop start in the composer and press the Send arrow; "
            "switch 'Viewing as' to play each seat." + threads
        )
    host = table.names.get(table.host_id, str(table.host_id))
    if table.status == "lobby":
        return (
            f"A table is open in #flipflop with {len(table.computers)} computer player(s) seated: "
            f"click Join as the others, then Start as {host}. Switch 'Viewing as' to play each seat."
            + threads
        )
    return (
        "Your saved table carries on in #flipflop: click My hand to play; switch 'Viewing as' for each seat."
    )


class _QuietStart(logging.Filter):
    """Start-up warnings that mean nothing here.

    The simulator's own probe client has no guilds intent (the bot's has it),
    and the playground has no voice.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        return "Guilds intent seems to be disabled" not in text and "voice will NOT be supported" not in text


def quiet_start() -> None:
    """Say nothing about the simulator's probe client or about voice."""
    import discord

    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    for name in ("discord.state", "discord.client"):
        logging.getLogger(name).addFilter(_QuietStart())


async def serve(
    db_path: Path,
    members: int,
    port: int | None,
    computers: int,
    level: str,
    language: str | None = None,
    cards: str | None = None,
    threads: bool = False,
) -> None:
    """Serve until Ctrl-C, then shut down cleanly."""
    async with playground(
        db_path,
        members,
        port,
        computers=computers,
        level=level,
        language=language,
        cards=cards,
        threads=threads,
    ) as world:
        print("\nFlip Flop playground is running (the real bot, in a simulated Discord).")
        print(f"Open this address in your browser:\n\n    {world.url}\n")
        print(opening_line(world))
        print(f"Watch the replay links open the replay page at {world.replay_url}")
        if world.live_url:
            print(f"/flipflop web sends a one-time link to the live table at {world.live_url}live/")
            for member in world.members:
                print(f"  as a Discord Activity (SDK mocked), {member.name}: {activity_link(world, member)}")
        print(f"Chips and tables are kept in {db_path}. Press Ctrl-C to stop.\n", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        open_table = world.bot.runtime is not None and world.bot.runtime.in_channel(world.channel.id)
    print(
        "Playground stopped; your table is saved and resumes next time."
        if open_table
        else "Playground stopped; your chips are saved."
    )


CARDS_HELP = (
    "how everyone sees cards: "
    + ", ".join(s if STYLE_NAME[s] == s else f"{s} ({STYLE_NAME[s]})" for s in STYLES)
    + "; plain: no card emojis"
)
"""``--cards``: each style by the name /flipflop cards gives it ("text (words for screen readers)")."""


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.playground [--members N] [--db PATH] [--port N]``."""
    parser = argparse.ArgumentParser(description="Play Flip Flop in your browser, no Discord needed.")
    parser.add_argument("--members", type=int, default=3, help="simulated members (1-5, default 3)")
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"database file (default {DEFAULT_DB})")
    parser.add_argument("--port", type=int, default=None, help="port on 127.0.0.1 (default: any free one)")
    parser.add_argument("--computers", type=int, default=0, help="seat this many computer players (0-4)")
    parser.add_argument(
        "--level",
        choices=["basic", "strong", "random"],
        default="basic",
        help="the computer players' level (default basic; random: at a practice table)",
    )
    parser.add_argument(
        "--language",
        choices=list(LANGUAGES),
        default=None,
        help="the server's and members' language (default: as saved, else English)",
    )
    parser.add_argument(
        "--cards",
        choices=[*STYLES, "plain"],
        default=None,
        help=CARDS_HELP,
    )
    parser.add_argument(
        "--threads",
        action="store_true",
        help="play each game in a thread of its own, as on a real server (the page shows only the"
        " thread's line under the lobby: play your seat with /flipflop hand)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.computers <= 4:
        parser.error("--computers must be between 0 and 4")
    logging.basicConfig(level=logging.WARNING)
    quiet_start()
    try:
        asyncio.run(
            serve(
                args.db,
                args.members,
                args.port,
                args.computers,
                args.level,
                args.language,
                args.cards,
                args.threads,
            )
        )
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
