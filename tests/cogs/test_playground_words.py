"""The playground's words: the right opening line, a quiet start-up."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest

from bot.playground import opening_line, playground, quiet_start
from cogs.flipflop import pacing


@pytest.fixture(autouse=True)
def keep_budget() -> object:
    saved = pacing.BUDGET
    yield
    pacing.BUDGET = saved


async def test_the_opening_line_fits_what_is_in_the_channel(tmp_path: Path) -> None:
    async with playground(tmp_path / "a.sqlite3", members=3, preview=False) as world:
        assert "Type /flipflop start" in opening_line(world) and "Send arrow" in opening_line(world)
    async with playground(tmp_path / "b.sqlite3", members=3, preview=False, computers=2) as world:
        line = opening_line(world)
        assert "Type /flipflop start" not in line and "2 computer player(s) seated" in line


def test_start_up_says_nothing_about_voice_or_the_probe_clients_intents(
    caplog: pytest.LogCaptureFixture,
) -> None:
    quiet_start()
    assert not discord.VoiceClient.warn_nacl and not discord.VoiceClient.warn_dave
    with caplog.at_level(logging.WARNING):
        logging.getLogger("discord.state").warning("Guilds intent seems to be disabled. This may cause…")
        logging.getLogger("discord.client").warning("PyNaCl is not installed, voice will NOT be supported")
        logging.getLogger("discord.client").warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"]
