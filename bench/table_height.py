"""The table message's height on a phone: how much of a 390-pixel-wide screen a round takes.

    python -m bench.table_height [--players 3 5] [--width 390] [--between]

Opens a table with that many members in the playground, plays two ordinary turns (draw,
discard), then shows the channel in simcord's preview page in Debian's Chromium (Playwright
with ``executable_path="/usr/bin/chromium"``; never ``playwright install``) at a phone's width
and measures the table message (``.channel-message[data-message-id]``) as laid out there.
The figures go in the README (before and after the table's picture, issue 33).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

from bot.playground import playground
from scripts.screenshot import buttons, card_buttons, find_chromium


async def measure(players: int, width: int, between: bool = False) -> float:
    """The table message's height in CSS pixels, ``players`` at the table, seen ``width`` wide.

    ``between``: after the round has ended (each player drops when it can, else draws and
    discards), as the table reads between rounds: how the round ended and who won each pot.
    """
    with tempfile.TemporaryDirectory() as tmp:
        async with playground(Path(tmp) / "h.sqlite3", members=players, preview=False) as world:
            host, *others = world.members
            lobby = (await host.slash(world.channel, "flipflop start")).response.message
            for m in others:
                await m.click(lobby, custom_id=buttons(lobby)["join"])
            await host.click(lobby, custom_id=buttons(lobby)["start"])
            assert world.bot.runtime is not None
            table = world.bot.runtime.in_channel(world.channel.id)
            assert table is not None and table.game is not None
            by_id = {str(m.id): m for m in world.members}

            def message() -> object:
                return next(m for m in world.channel.history() if m.id == table.message_id)

            for turn in range(60 if between else 2):
                if not table.game.to_act or not table.game.in_round:  # the round ended (maybe at the deal)
                    break
                actor = by_id[table.game.to_act]
                hand = (await actor.click(message(), custom_id=buttons(message())["hand"])).response
                if between and turn >= players and "drop" in buttons(hand):  # after a cycle: flip, flop paid
                    await actor.click(hand.message, custom_id=buttons(hand)["drop"])
                    continue
                drawn = (await actor.click(hand.message, custom_id=buttons(hand)["stock"])).response
                if card_buttons(drawn):
                    await actor.click(drawn.message, custom_id=card_buttons(drawn)[-1])
            await world.env.settle()
            async with (
                world.env.preview(
                    world.channel, viewers=[world.admin], layout="channel", width=width, height=844
                ) as pv,
                async_playwright() as pw,
            ):
                browser = await pw.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
                try:
                    page = await browser.new_page(
                        viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True
                    )
                    await page.goto(pv.url)
                    found = page.locator(f'.channel-message[data-message-id="{table.message_id}"]')
                    await found.wait_for(timeout=20_000)
                    await page.wait_for_timeout(1500)  # the picture loads and takes its height
                    box = await found.bounding_box()
                finally:
                    await browser.close()
            assert box is not None
            return float(box["height"])


def main() -> None:
    """Measure and print the table message's height for each number of players."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--between", action="store_true", help="measure between rounds (the round's ending)")
    args = parser.parse_args()
    for n in args.players:
        tall = asyncio.run(measure(n, args.width, args.between))
        when = " between rounds" if args.between else ""
        print(f"{n} players at {args.width} px{when}: table message {tall:.0f} px tall")


if __name__ == "__main__":
    main()
