"""``make play`` with ``--threads``: games go to a thread; the page's one channel still lets each seat play.

simcord's preview presents one channel, and a thread only as a line under its starting message
(its name and message count), which can not be opened. So the playground plays in the channel
by default, and with ``--threads`` tells the player to open their hand with ``/flipflop hand``
in the channel (the table is found from the lobby's channel too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.playground import THREADS_LINE, main, opening_line, playground
from cogs.flipflop import pacing
from tests.cogs.helpers import buttons


@pytest.fixture(autouse=True)
def keep_budget() -> object:
    saved = pacing.BUDGET
    yield
    pacing.BUDGET = saved


async def test_by_default_the_playground_plays_in_its_channel(tmp_path: Path) -> None:
    async with playground(tmp_path / "a.sqlite3", members=3, preview=False, computers=2) as world:
        assert not world.bot.tables_in_threads and THREADS_LINE not in opening_line(world)
        await world.members[0].click(world.channel.history()[-1], label="Start")
        assert world.channel.threads == []


async def test_with_threads_the_game_opens_a_thread_and_a_seat_is_played_from_the_channel(
    tmp_path: Path,
) -> None:
    async with playground(
        tmp_path / "b.sqlite3", members=3, preview=False, computers=2, threads=True
    ) as world:
        assert THREADS_LINE in opening_line(world)
        ann = world.members[0]
        await ann.click(world.channel.history()[-1], label="Start")
        await world.env.settle()
        (thread,) = world.channel.threads
        runtime = world.bot.runtime
        assert runtime is not None
        table = runtime.in_channel(world.channel.id)
        assert table is not None and table.thread_id == thread.id
        hand = await ann.slash(world.channel, "flipflop hand")
        assert hand.ephemeral and "Your hand" in hand.response.content
        assert "Away" in buttons(hand.response)


def test_the_threads_option_is_offered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--threads" in capsys.readouterr().out


async def test_a_move_on_the_playgrounds_live_page_edits_the_open_discord_hands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The live server runs in simcord's scope: a page's move edits each open hand (they stayed as they
    were, the notifier failing on a webhook outside it) and the page's turn clock is the playground's."""
    import aiohttp

    from tests.cogs.helpers import message, my_hand, open_table
    from tests.cogs.test_live_page import signed_in

    async with playground(tmp_path / "c.sqlite3", members=3, preview=False) as world:
        table = await open_table(world, world.members[:3])  # type: ignore[arg-type]
        assert table.game is not None
        hands = {m.id: await my_hand(world, m) for m in world.members}  # type: ignore[arg-type]
        actor = next(m for m in world.members if str(m.id) == table.game.to_act)
        async with aiohttp.ClientSession() as http:
            page = await signed_in(world, http, actor)  # type: ignore[arg-type]
            state = await page.latest()
            deadline = table.turn_deadline
            assert deadline is not None and 0 < deadline - world.env.now().timestamp() <= table.turn_seconds
            assert (await page.move("stock", None, state["you"]["seq"]))["ok"]
            you = (await page.latest())["you"]
            discard = max(you["hand"], key=lambda c: ("A23456789TJQK".index(c[0]), c))
            assert (await page.move("discard", discard, you["seq"]))["ok"]
        await world.env.settle()
        deadline = table.turn_deadline  # set by the page's move: on the playground's clock
        assert deadline is not None and 0 < deadline - world.env.now().timestamp() <= table.turn_seconds
        for uid, hand in hands.items():
            now = message(world, table.channel_id, hand.id).content
            assert ("Your turn" in now) == (str(uid) == table.game.to_act), now
        assert "Notifier failed" not in caplog.text


async def test_config_says_the_playgrounds_games_are_in_the_channel_unless_it_opens_threads(
    tmp_path: Path,
) -> None:
    """The server's saved ``thread`` setting stays, but the admin is told where games really go."""
    async with playground(tmp_path / "c.sqlite3", members=1, preview=False) as world:
        shown = (await world.admin.slash(world.channel, "flipflop config")).response.content
        assert (await world.bot.ledger.settings(world.channel.guild.id)).tables == "thread"
        assert "• Games are played: **in the channel** (I am set up to open no threads)" in shown
        assert "in a thread of their own" not in shown
    async with playground(tmp_path / "d.sqlite3", members=1, preview=False, threads=True) as world:
        shown = (await world.admin.slash(world.channel, "flipflop config")).response.content
        assert "• Games are played: **in a thread of their own** (where I may open threads)" in shown
