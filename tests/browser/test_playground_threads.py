"""``make play`` with ``--threads`` in headless Chromium: what simcord's preview shows of a game in a thread.

The preview presents one channel; a thread is the line under the lobby message (its name and
message count) and can not be opened. The player follows the game from the channel: the lobby
says where it went, and ``/flipflop hand`` typed there opens their seat's hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import playground_process
from tests.browser.test_playground import EPHEMERAL, Seat


@pytest.fixture(scope="module")
def playground_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The playground with ``--threads`` and two computer players seated at ann's table."""
    tmp = tmp_path_factory.mktemp("playground-threads")
    options = ("--members", "3", "--cards", "plain", "--threads", "--computers", "2")
    with playground_process(tmp, *options) as url:
        yield url


def test_the_game_goes_to_a_thread_and_the_seat_is_played_from_the_channel(page: Page, shots: Path) -> None:
    seat = Seat(page, shots)
    expect(seat.button("Start")).to_be_visible()
    seat.button("Start").click()
    summary = page.locator(".thread-summary")
    expect(summary).to_contain_text("Flip Flop")  # the thread: a line under the lobby, not a link
    expect(seat.timeline).to_contain_text("The game is played in")
    assert page.locator(".thread-summary a, a.thread-summary").count() == 0
    seat.shot("threads-1-lobby")
    seat.slash("/flipflop hand")
    hand = seat.timeline.locator("article.channel-message", has_text=EPHEMERAL).last
    expect(hand).to_contain_text("Your hand")
    expect(seat.button("Away", within=hand)).to_be_visible()
    seat.shot("threads-2-hand-from-the-channel")
