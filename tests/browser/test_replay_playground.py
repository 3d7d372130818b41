"""A round played in the playground (``make play``) opens from its **Watch the replay** link,
plays back and verifies: the playground serves the replay page beside the simulated Discord."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright, expect

from bot.playground import Playground, playground
from engine.replay import replay
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

# The cog tests' game driver, imported by name: those modules are not written for mypy, which
# `make test-browser` runs over this folder.
fair_history: Any = importlib.import_module("tests.cogs.test_fair_history")
replay_button: Any = importlib.import_module("tests.cogs.test_replay_button")


class PlaygroundWorld:
    """The playground seen as the cog tests' ``World`` (the same simcord server, channel, members)."""

    def __init__(self, pg: Playground) -> None:
        self.env, self.bot, self.channel = pg.env, pg.bot, pg.channel
        self.members, self.admin, self.guild = pg.members, pg.admin, pg.channel.guild


async def test_a_playground_round_opens_from_its_link_plays_back_and_verifies(tmp_path: Path) -> None:
    async with playground(tmp_path / "play.sqlite3", members=3, preview=False) as pg:
        assert pg.replay_url is not None and pg.replay_url.startswith("http://127.0.0.1:")
        world: Any = PlaygroundWorld(pg)
        ann, ben, cat = pg.members[:3]
        await fair_history.play_game(world, [ann, ben, cat], seed_text="replay me")
        row = await pg.bot.db.fetchone("SELECT MIN(id) FROM rounds")
        assert row is not None
        first = int(row[0])
        answer = await ann.slash(pg.channel, "flipflop round", id=first)
        [button] = replay_button.link_buttons(answer.response)
        url = button["url"]
        assert url.startswith(pg.replay_url) and "#b=" in url
        data = await fair_history.round_file(world, ann, first)
        assert data["reveal"]["client_seed"].endswith(":replay me")
        result, status = replay(data)
        assert status == 0
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = await browser.new_page(viewport={"width": 1200, "height": 900})
            await page.goto(url)
            await expect(page.locator("#round-title")).to_have_text(f"Round 1 · #{first}")
            await expect(page.locator("#table .seat-name").first).to_have_text("ann")
            await page.keyboard.press("End")
            await expect(page.locator("#table")).to_have_attribute("data-last", "true")
            figures = "els => els.map(e => +(e.dataset.stack ?? e.dataset.amount))"
            stacks = await page.locator("#table .seat .stack").evaluate_all(figures)
            assert stacks == [result["stacks"][s["id"]] for s in data["seats"]]
            pots = await page.locator("#table .pot-amount").evaluate_all(figures)
            assert pots == [result["pots"][p] for p in ("game", "flip", "flop")]
            await page.locator("#verify").click()
            await expect(page.locator("#verdict")).to_have_attribute("data-ok", "true")
            await expect(page.locator("#verdict")).to_contain_text("replay me")
            await browser.close()
