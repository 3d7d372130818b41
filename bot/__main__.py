"""``python -m bot`` (and ``flipflop-bot``): start the bot, or explain what is missing."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import socket
import sys
import time
from typing import TYPE_CHECKING

from bot.settings import Settings, SettingsError, load_settings

if TYPE_CHECKING:
    from bot.live.server import LiveServer

MISSING_TOKEN = """\
DISCORD_TOKEN is not set, so the bot can't log in to Discord.

To get a token:
  1. Open the Discord developer portal: https://discord.com/developers/applications
  2. Pick your application (or click "New Application"), then open "Bot".
  3. Click "Reset Token" and copy the token it shows.

Then put it in a file named .env in this folder (copy .env.example):
  DISCORD_TOKEN=your-token-here

The README explains how to invite the bot to your server.
To try Flip Flop right away without Discord, run:  make play
"""


QUIET_DRIVERS = ("aiosqlite", "asyncpg")
"""Database drivers whose DEBUG lines carry each statement's parameters: a saved table (its hands,
its deck, the seeds of the rounds not yet revealed) would reach the log. They log from INFO up."""
_SEED = re.compile(r"""(seed\\?["']\s*:\s*\\?["'])[0-9a-fA-F]{16,}""")


class HideSeeds(logging.Filter):
    """A last guard: a saved fair-deal record's ``"seed": "<hex>"`` is never written to the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Blank any seed in the formatted message (the record itself is kept, redacted)."""
        message = record.getMessage()
        if "seed" in message:
            record.msg, record.args = _SEED.sub(r"\1…", message), None
        return True


def configure_logging(level: str | int) -> None:
    """The log at ``LOG_LEVEL``, with no secret at any level (nothing of a round in play, FAIRNESS.md)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    floor = max(logging.INFO, logging.getLogger().getEffectiveLevel())
    for name in QUIET_DRIVERS:
        logging.getLogger(name).setLevel(floor)
    for handler in logging.getLogger().handlers:
        handler.addFilter(HideSeeds())


def live_server(settings: Settings, sock: socket.socket | None) -> LiveServer:
    """The live table's server for ``LIVE_URL``: its links signed with ``LIVE_KEY`` (blank: a random key).

    The same ``LIVE_KEY`` in the next process keeps the links sent before a restart working.
    """
    from bot.live.server import LiveServer

    key = settings.live_key.encode() if settings.live_key else None
    activity = None
    if settings.activity_client_id and settings.activity_client_secret:
        from bot.live.activity import ActivityAuth

        activity = ActivityAuth(
            settings.activity_client_id,
            settings.activity_client_secret,
            settings.discord_token or "",
            settings.activity_api_url,
        )
    return LiveServer(sock, settings.live_url or "", time.time, key=key, activity=activity)


def main() -> int:
    """Run the bot until it is stopped; return the exit status."""
    try:
        settings = load_settings()
    except SettingsError as e:
        print(f"Setting error: {e}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from bot.client import create_bot
    from bot.metrics import MetricsPortError, serve
    from bot.storage import StoreError
    from bot.testing_api import apply_api_base

    try:
        metrics = serve(settings)  # METRICS_PORT is taken now: a clash is told before anything starts
    except MetricsPortError as e:
        print(f"Setting error: {e}", file=sys.stderr)
        return 2

    live = None
    if settings.live_url:
        from bot.live.server import LivePortError, bind

        try:
            live_sock = bind(settings.live_port)
        except LivePortError as e:
            print(f"Setting error: {e}", file=sys.stderr)
            return 2
        live = live_server(settings, live_sock)

    if settings.api_base:
        apply_api_base(settings.api_base)
    bot = create_bot(settings)
    bot.live = live

    async def run() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        async with bot:
            opening = asyncio.create_task(bot.open_database())  # a database problem is told before logging in
            stopped = asyncio.create_task(stop.wait())  # a SIGTERM meanwhile stops the wait for a database
            await asyncio.wait({opening, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not opening.done():
                opening.cancel()
                await asyncio.gather(opening, return_exceptions=True)  # its connection let go first
                logging.getLogger("flipflop").info("Stopped before the database was open.")
                return
            opening.result()
            if metrics is not None:
                await metrics.start(bot)
            if live is not None:
                await live.start()
            running = asyncio.create_task(bot.start(settings.discord_token or ""))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            logging.getLogger("flipflop").info("Shutting down.")
            await bot.close()  # waits for actions in flight, then closes the database
            if metrics is not None:
                await metrics.stop()
            if live is not None:
                await live.stop()
            stopping.cancel()
            if running.done() and running.exception() is not None:
                raise running.exception()  # type: ignore[misc]

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except StoreError as e:  # the store can not be used (unreachable, newer schema): say what to do
        print(f"Database error: {e}", file=sys.stderr)
        return 3
    except Exception as e:  # a login failure, for example: say it plainly
        logging.getLogger("flipflop").error("The bot stopped: %s", e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
