"""The playground as a subprocess and a headless Chromium driving its page.

Kept out of ``make test`` (pyproject's ``--ignore=tests/browser``): it needs the
``browser`` extra and Debian's ``chromium``; ``make test-browser`` runs it.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
URL = re.compile(r"http://127\.0\.0\.1:\d+/\S+")
START_TIMEOUT = 90.0  # seconds for the playground to print its address (a loaded 2-core machine)
WAIT_MS = 30_000  # every wait on the page: generous, and only as long as the page needs
expect.set_options(timeout=WAIT_MS)


def pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    """Copy the playground's output into ``lines`` until it ends (the pipe never fills up)."""
    for line in stream:
        lines.put(line)


def wait_for_url(proc: subprocess.Popen[str], timeout: float, log: Path) -> str:
    """Read the playground's output until it prints its address (a reader thread: no polling sleeps)."""
    assert proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=pump, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0 and proc.poll() is None:
        try:
            line = lines.get(timeout=min(left, 1.0))
        except queue.Empty:
            continue
        seen.append(line)
        if match := URL.search(line):
            return match.group(0)
    raise AssertionError(f"the playground printed no address:\n{''.join(seen)}\n{log.read_text()}")


@contextmanager
def playground_process(tmp: Path, *options: str) -> Iterator[str]:
    """``python -m bot.playground`` with ``options`` and its own database in ``tmp``: its address.

    Stopped at the end with Ctrl-C, the playground's own clean shutdown; it must not have died
    or raised meanwhile (its standard error is ``tmp/stderr.log``).
    """
    stderr = open(tmp / "stderr.log", "w")  # noqa: SIM115 - closed below, after the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.playground", *options, "--db", str(tmp / "play.sqlite3")],
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


@pytest.fixture(scope="module")
def playground_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The playground on any free port and its own temporary database, stopped at the end."""
    # Cards as text (no emoji pictures): the test reads them in the page's text.
    tmp = tmp_path_factory.mktemp("playground")
    with playground_process(tmp, "--members", "3", "--cards", "plain") as url:
        yield url


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots of each step go: $SCREENSHOTS, or pytest's temporary directory."""
    path = (
        Path(os.environ["SCREENSHOTS"]) if os.environ.get("SCREENSHOTS") else tmp_path_factory.mktemp("shots")
    )
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, through Playwright (no browser download: ``executable_path``)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (or set CHROMIUM=/path/to/chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, playground_url: str, shots: Path) -> Iterator[Page]:
    """The playground's page; its last state is saved as ``last.png`` (what a failure looked like)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(playground_url)
    yield page
    page.screenshot(path=shots / "last.png")
    context.close()
