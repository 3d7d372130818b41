"""A practice table in the playground, played by clicks: a turn, a hint, a round, its look back.

The computers move a moment after their turn comes, as at a real practice table; the
member clicks **Hint** on their turn (the coach answers, only to them), draws and
discards by clicking a card (the bot's own card faces), drops on their next turn, and
once the round is over opens **Analyse my last round**.

The member's turn runs in real seconds (the playground's turn timer): a hint's search that
waited on a loaded machine once outlasted the default minute, the turn ran out and the answer
said the table had moved on. The server's admin gives the table the longest turn the settings
allow (``LONG_TURN``), far beyond every wait here, so only the test's own waits can end it.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import expect

from bot.ledger import setting_range
from cogs.flipflop import coach
from tests.browser.clicks import Room, played

LONG_TURN = setting_range("turn_seconds")[1]
"""The longest turn ``/flipflop config turn_seconds:`` allows (an hour)."""


async def turn_of(room: Room, name: str, timeout: float = 30.0) -> None:
    """Wait until it is ``name``'s turn (the computers play theirs by themselves)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while room.to_act() != name:
        assert loop.time() < deadline, f"{name}'s turn did not come: {room.moves}"
        await asyncio.sleep(0.05)


async def test_a_practice_round_with_a_hint_and_a_look_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # short searches, and a long grace for a worker on a loaded machine (not "the coach is busy")
    monkeypatch.setattr(coach, "BUDGETS", coach.Budgets(hint=0.2, review=0.05, review_total=3.0, grace=45.0))
    pause = (0.3, 0.6)  # the computers' moves: quick, but after the click that gave them the turn
    async with played(tmp_path / "play.sqlite3", "practice", members=1, computer_pause=pause) as (pg, page):
        room = Room(pg, page)
        me = pg.members[0].name
        # an hour a turn, as the server's admin sets it: no wait below can outlast the member's turn
        config = await pg.admin.slash(pg.channel, "flipflop config", turn_seconds=LONG_TURN)
        assert config.ephemeral
        assert (await pg.bot.ledger.settings(pg.channel.guild.id)).turn_seconds == LONG_TURN
        await room.slash("/flipflop practice")
        await expect(room.button("Start", room.table)).to_be_visible()
        await expect(room.table).to_contain_text(room.gettext("Basic computer").split()[0])
        await room.button("Start", room.table).click()
        await expect(room.button("My hand")).to_be_visible()
        assert room.game_table().turn_seconds == LONG_TURN
        await room.shot("practice-1-started")

        # My turn: the hand says it is a practice table; Hint answers with the strong player's move.
        await turn_of(room, me)
        await room.open_hand()
        await expect(room.hand).to_contain_text("Practice table")
        await room.button("Hint", room.hand).click()
        hint = room.private.filter(has_text=re.compile(r"Hint:"))
        await room.answered(hint)
        await expect(hint).to_contain_text("The Strong computer's choice")
        await room.shot("practice-2-hint")

        # The turn by clicks: draw, then a click on a card (a picture) discards it.
        await room.draw()
        held = await room.cards().count()
        assert held == 6, held
        seq = room.game_table().seq
        await room.cards().last.click()
        room.moves.append(f"{me} discards a card")
        await room.bot_moved(seq)
        await expect(room.cards()).to_have_count(0)
        await room.shot("practice-3-discarded")

        # The next time round, drop (unless the computers ended the round first).
        table = room.game_table()
        number = table.game.public_view().round_number
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while not table.practice_rounds:
            assert loop.time() < deadline, room.moves
            if room.to_act() == me:
                await room.open_hand()
                await room.drop()
                break
            await asyncio.sleep(0.05)
        while not table.practice_rounds:
            assert loop.time() < deadline, room.moves
            await asyncio.sleep(0.05)
        assert int(table.practice_rounds[-1]["number"]) == number

        # The look back: my hand now offers it; the coach answers about my own decisions.
        await room.open_hand()
        await room.button("Analyse my last round", room.hand).click()
        review = room.private.filter(has_text=re.compile(r"Your play in practice round"))
        await room.answered(review)
        await expect(review).to_contain_text(f"Your play in practice round {number}")
        await room.shot("practice-4-look-back")
