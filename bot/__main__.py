"""``python -m bot`` (and ``flipflop-bot``): start the bot, or explain what is missing."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from bot.settings import SettingsError, load_settings

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
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.client import create_bot
    from bot.metrics import MetricsPortError, serve
    from bot.storage import StoreError
    from bot.testing_api import apply_api_base

    try:
        metrics = serve(settings)  # METRICS_PORT is taken now: a clash is told before anything starts
    except MetricsPortError as e:
        print(f"Setting error: {e}", file=sys.stderr)
        return 2

    if settings.api_base:
        apply_api_base(settings.api_base)
    bot = create_bot(settings)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        async with bot:
            await bot.open_database()  # a database problem is told before logging in
            if metrics is not None:
                await metrics.start(bot)
            running = asyncio.create_task(bot.start(settings.discord_token or ""))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            logging.getLogger("flipflop").info("Shutting down.")
            await bot.close()  # waits for actions in flight, then closes the database
            if metrics is not None:
                await metrics.stop()
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
