"""``make play`` with ``--threads`` in headless Chromium: what simcord's preview shows of a game in a thread.

The preview presents one channel; a thread is the line under the lobby message (its name and
message count) and can not be opened. The player follows the game from the channel: the lobby
says where it went, and ``/flipflop hand`` typed there opens their seat's hand.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ROOT, START_TIMEOUT, wait_for_url
from tests.browser.test_playground import EPHEMERAL, Seat


@pytest.fixture(scope="module")
def playground_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The playground with ``--threads`` and two computer players seated at ann's table."""
    tmp = tmp_path_factory.mktemp("playground-threads")
    stderr = open(tmp / "stderr.log", "w")  # noqa: SIM115 - closed below, after the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.playground", "--members", "3", "--cards", "plain", "--threads"]
        + ["--computers", "2", "--db", str(tmp / "play.sqlite3")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        yield wait_for_url(proc, START_TIMEOUT, tmp / "stderr.log")
        alive = proc.poll() is None
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        stderr.close()
        if proc.stdout is not None:
            proc.stdout.close()
    log = (tmp / "stderr.log").read_text()
    assert alive, f"the playground died during the test:\n{log}"
    assert "Traceback" not in log, f"the bot raised while it was played:\n{log}"


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
