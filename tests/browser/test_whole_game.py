"""A whole game in the playground, played by clicks as three members would, to its final standings.

Stake 1 and a buy-in of 8 so players run out of chips in a few rounds (rounds of up to 30
turns until a spread or lay-off is played, so one is all but certain before the game ends).
Every turn is opened from **My hand** and played with the hand's buttons:
draw (or take the discard), lay down a spread by picking its cards, lay off, then click a
card to discard it; a player drops once the round has gone on a while. At the end the
page shows the final standings, and the chips add up: on the page and in the ledger.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.browser.clicks import Room, played

STAKE, BUY_IN, START = 1, 8, 1000  # START: a new member's balance (the default)
DROP_AFTER = 0
"""Turns in a round before its next player drops, once a spread or lay-off has been played (the
rest of the game is dropped to its end quickly)."""
LONGEST_ROUND = 30
"""Turns in a round after which its next player drops anyway, before any spread or lay-off was played
(keeping pairs and taking matching discards makes one likely well before)."""


async def next_turn(room: Room, timeout: float = 30.0) -> str | None:
    """The member to act once the bot has moved on (a new deal comes by itself); None once over."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        table = room.game_table()
        if table is None or table.status != "playing" or (table.game and table.game.public_view().over):
            return None
        if (name := room.to_act()) is not None:
            return name
        await asyncio.sleep(0.05)
    raise AssertionError(f"nobody was to act after {timeout} s: {room.moves[-5:]}")


async def test_a_whole_game_by_clicks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUND_PAUSE_SECONDS", "1")  # the next deal comes a second after a round's result
    async with played(tmp_path / "play.sqlite3", "game", members=3, cards="plain") as (pg, page):
        guild = pg.channel.guild.id
        await pg.bot.ledger.update_settings(guild, default_stake=STAKE, default_buy_in=BUY_IN)
        room = Room(pg, page)
        names = [m.name for m in pg.members]

        # The lobby: ann opens the table, ben and cat join, ann starts.
        await room.slash("/flipflop start")
        await expect(room.table).to_contain_text("ann")
        for name in names[1:]:
            await room.view_as(name)
            await room.button("Join", room.table).click()
            await expect(room.table).to_contain_text(name)
        await room.view_as(names[0])
        await room.shot("game-1-lobby")
        await room.button("Start", room.table).click()
        await expect(room.button("My hand")).to_be_visible()
        # the table is a picture of itself (its alt text says the stock, the pile and the upcard)
        await expect(room.table.locator("img[alt*='discard pile']")).to_be_visible()
        balances = {m.name: await pg.bot.ledger.balance(guild, m.id) for m in pg.members}

        turns_in_round, round_number, spreads = 0, 0, 0
        while (actor := await next_turn(room)) is not None:
            table = room.game_table()
            number = table.game.public_view().round_number
            if number != round_number:
                round_number, turns_in_round = number, 0
            await room.view_as(actor)
            await room.open_hand()
            turns_in_round += 1
            if turns_in_round > (DROP_AFTER if spreads else LONGEST_ROUND):
                await room.drop()
                await room.shot(f"game-r{round_number}-drop")
                continue
            await room.draw()
            while room.to_act() == actor and (await room.lay_down() or await room.lay_off()):
                spreads += 1
                await room.shot(f"game-r{round_number}-spread-{spreads}")
            if room.to_act() == actor and await room.cards().count():
                await room.discard()
        await room.shot("game-9-over")

        # Every round ended with its record: its picture and Watch the replay, the last round's too.
        assert round_number >= 1
        for number in range(1, round_number + 1):
            record = room.public.filter(has_text=re.compile(rf"Flip Flop — round {number}(?!\d)")).filter(
                has_text="Watch the replay"
            )
            await expect(record).to_have_count(1)
            await expect(record.locator("img").first).to_be_visible()

        # The final standings, as everyone sees them, and the chips in them add up.
        standings = room.public.filter(has_text="Final standings").last
        await room.answered(standings)
        for name in names:
            await room.view_as(name)
            await expect(standings).to_be_visible()
        text = await standings.inner_text()
        # "1. cat — 12 chips" (the page may draw the numbers as a list's markers)
        lines = re.findall(r"^\s*(?:\d+\.\s*)?(\w+) — (\d+)", text.split("Final standings")[-1], re.M)
        stacks = {name: int(amount) for name, amount in lines}
        assert set(stacks) == set(names), text
        assert sum(stacks.values()) == len(names) * BUY_IN, text
        assert spreads, room.moves
        assert any("drops" in m for m in room.moves) and any("discards" in m for m in room.moves)
        for m in pg.members:  # each stack went back to its owner's balance
            assert await pg.bot.ledger.balance(guild, m.id) == balances[m.name] + stacks[m.name]
        assert await pg.bot.ledger.audit(guild) == []
        assert await pg.bot.ledger.chips_at_tables(guild) == 0
        # nothing was made or lost: every chip in the server is one that came in
        assert await pg.bot.ledger.total_balances(guild) == await pg.bot.ledger.minted(guild)
        assert sum(balances.values()) + sum(stacks.values()) == len(names) * START
