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
