"""/leaderboard season: through simcord, with simcord's clock (it starts at 2026-01-01 00:00 UTC)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from discord import app_commands

from cogs.economy import NOT_A_SEASON
from tests.cogs.test_pings import Answer
from tests.conftest import World
from tests.storage.test_seasons import ANN, BEN, CAT, at, play_game


async def test_the_current_and_previous_seasons_across_a_year_and_a_month_boundary(world: World) -> None:
    g = world.guild.id
    december = await play_game(world.bot.db, 1, at(2025, 12, 15), guild=g)
    january = await play_game(world.bot.db, 2, at(2026, 1, 1), guild=g)
    ann = world.members[0]

    current = await ann.slash(world.channel, "leaderboard", season="current")
    assert not current.ephemeral
    embed = current.response.embeds[0]
    assert embed.title.startswith("🏆 Season January 2026")
    lines = embed.description.splitlines()
    assert len(lines) == 3 and lines[0].startswith("🥇")
    first = int(re.findall(r"<@(\d+)>", lines[0])[0])
    assert january.chips[first] == max(january.chips[m] for m in (ANN, BEN, CAT))
    assert f"net **{january.chips[first]} chips**" in lines[0]
    for member in (ANN, BEN, CAT):
        line = next(line for line in lines if f"<@{member}>" in line)
        assert f"{january.won[member]} round" in line
    [podium] = embed.fields
    assert podium.name == "Last season's top three (December 2025)"
    assert podium.value.count("<@") == 3 and "🥉" in podium.value
    assert "A season lasts 1 calendar month (UTC)" in embed.footer.text

    previous = await ann.slash(world.channel, "leaderboard", season="previous")
    embed = previous.response.embeds[0]
    assert embed.title.startswith("🏆 Season December 2025")
    assert embed.description.startswith("This season is over")
    assert sum(f"{december.won[m]} round" in embed.description for m in (ANN, BEN, CAT)) >= 1

    await world.env.advance_time(31 * 24 * 3600)  # February 1st: January is the previous season now
    empty = await ann.slash(world.channel, "leaderboard", season="current")
    assert empty.ephemeral
    assert empty.response.content == (
        "No rounds have ended here this season (February 2026) yet."
    )
    previous = await ann.slash(world.channel, "leaderboard", season="previous")
    assert previous.response.embeds[0].title.startswith("🏆 Season January 2026")
    by_rating = await ann.slash(world.channel, "leaderboard", season="previous", by="rating")
    assert by_rating.response.embeds[0].title.startswith("🏆 Season January 2026")
    assert "rating +" in by_rating.response.embeds[0].description.splitlines()[1]  # the top gained most

    all_time = await ann.slash(world.channel, "leaderboard", season="all")
    assert "Flip Flop leaderboard" in all_time.response.embeds[0].title  # balances, as always


async def test_a_longer_season_length_is_a_server_setting(world: World) -> None:
    g = world.guild.id
    await play_game(world.bot.db, 3, at(2025, 11, 2), guild=g)
    changed = await world.admin.slash(world.channel, "flipflop config", season_months=3)
    assert changed.ephemeral and "Season length: **3 months**" in changed.response.content
    assert (await world.bot.ledger.settings(g)).season_months == 3
    ann = world.members[0]
    quarter = await ann.slash(world.channel, "leaderboard", season="previous")
    assert quarter.response.embeds[0].title.startswith("🏆 Season October\u2009–\u2009December 2025")
    assert "A season lasts 3 calendar months" in quarter.response.embeds[0].footer.text
    empty = await ann.slash(world.channel, "leaderboard", season="current")
    assert empty.ephemeral and "(January\u2009–\u2009March 2026)" in empty.response.content


async def test_a_season_with_no_rounds_is_answered_privately_and_changes_nothing(world: World) -> None:
    ann = world.members[0]
    before = await world.bot.db.fetchone("SELECT COUNT(*) FROM accounts")
    empty = await ann.slash(world.channel, "leaderboard", season="previous")
    assert empty.ephemeral
    assert (
        empty.response.content
        == "No rounds ended here last season (December 2025), so it has no leaderboard."
    )
    assert await world.bot.db.fetchone("SELECT COUNT(*) FROM accounts") == before
    assert "flipflop notify" not in world.env.create_user("loner").available_commands()


async def test_a_season_that_is_not_one_of_the_three_is_refused_privately(world: World) -> None:
    """Discord offers only the three choices; anything else (an old client, a forged call) is refused."""
    cog: Any = world.bot.get_cog("Economy")
    answer = Answer()
    interaction = SimpleNamespace(
        guild=SimpleNamespace(id=world.guild.id, name="Card Club"),
        guild_id=world.guild.id,
        user=SimpleNamespace(id=world.members[0].id),
        locale="en-US",
        response=answer,
    )
    before = await world.bot.db.fetchone("SELECT COUNT(*) FROM accounts")
    bogus = app_commands.Choice(name="next", value="next")
    await cog.leaderboard.callback(cog, interaction, None, bogus)
    assert answer.sent == [(NOT_A_SEASON, True)]
    assert await world.bot.db.fetchone("SELECT COUNT(*) FROM accounts") == before
