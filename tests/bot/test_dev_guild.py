"""``DEV_GUILD_ID`` (README "Settings"): slash commands are synced to that one server, where they
appear at once, instead of globally; without it they are synced globally."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import FlipFlopBot
from tests.conftest import make_bot


async def synced_to(bot: FlipFlopBot, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[str]]:
    """What ``setup_hook`` asked Discord to sync (``guild`` of each call), and the commands per guild."""
    calls: list[Any] = []

    async def sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        calls.append(guild)
        return []

    monkeypatch.setattr(bot.tree, "sync", sync)
    try:
        await bot.setup_hook()
        guild = calls[-1] if calls else None
        names = sorted(c.name for c in bot.tree.get_commands(guild=guild))
    finally:
        # Not bot.close(): discord.py's close unloads the extensions, which drops cogs.* from
        # sys.modules, and every later test in this process would import a second copy of them.
        await bot.db.close()
    return calls, names


async def test_dev_guild_id_syncs_every_command_to_that_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot(tmp_path / "db.sqlite3", settings={"dev_guild_id": 424242})
    calls, names = await synced_to(bot, monkeypatch)
    assert [getattr(g, "id", None) for g in calls] == [424242]
    assert {"flipflop", "balance", "daily", "leaderboard", "chips"} <= set(names)


async def test_without_dev_guild_id_commands_sync_globally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot(tmp_path / "db.sqlite3")
    calls, names = await synced_to(bot, monkeypatch)
    assert calls == [None]
    assert {"flipflop", "balance", "daily", "leaderboard", "chips"} <= set(names)
