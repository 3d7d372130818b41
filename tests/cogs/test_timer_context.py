"""A turn's timer runs in the bot's own context (``bot.runtime.scheduler``): what the bot learnt at start-up
after its cogs were loaded, the synced commands' mentions, is known there too.

The scheduler takes its context when the Flip Flop cog loads, before the commands are synced: a
timer's message (a round a timeout or a computer ended: "check the deal with /flipflop verify")
would name commands as typed text, not as the clickable mentions every other message has.
"""

from __future__ import annotations

from bot.i18n.mentions import COMMANDS
from tests.cogs.helpers import World, runtime


async def test_a_timer_knows_the_synced_commands(world: World) -> None:
    known = runtime(world).scheduler.context.run(COMMANDS.get)  # type: ignore[attr-defined]
    assert "flipflop verify" in known and known["flipflop verify"].startswith("</flipflop verify:")
