"""Playing the playground by clicks, in-process: the page in headless Chromium, the bot beside it.

The bot runs in this test's event loop (``bot.playground.playground``), so a test can
check the page against the bot's own state and ledger. Buttons are found by what a
member reads on them, in the member's language (the labels come from the bot's own
catalogs), never by the shape of the message around them: the table and the hand may be
one embed or a layout of components.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Locator, Page, async_playwright, expect

from bot.i18n import LANGUAGES, Texts
from bot.i18n.catalogs import texts
from bot.playground import Playground, playground
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS

expect.set_options(timeout=WAIT_MS)

EPHEMERAL = "Only you can see this"  # how the page marks a reply only its viewer sees
CARD = re.compile(r"^\s*(?:✓\s*)?(10|[2-9AJQK])([♤♡♢♧])\s*$")
"""A card button's label in text cards ("K♤", "10♡"; "✓ K♤" once picked): the same in every language."""
CARDS = re.compile(r"(?:10|[2-9AJQK])[♤♡♢♧]")
"""Cards in a label ("Lay down 3♢ 3♡ 3♧")."""
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
LOST_CLICK_TRIES, LOST_CLICK_SECONDS = 2, 8.0
"""How often, and after how long, a Drop click the page lost is made again (see ``Room.drop``)."""
BUSY = re.compile(r"…\s*$")
"""The page's status while an action is under way ("Switching viewer…", "Completing action…")."""
SHOTS = Path(os.environ.get("SCREENSHOTS") or Path(tempfile.gettempdir()) / "flipflop-browser-shots")
"""Where each step's screenshot goes ($SCREENSHOTS, as for the other browser tests)."""


def value(card: str) -> int:
    """A card's points (ace 1, faces 10)."""
    return min(RANKS[card[:-1]], 10)


def label_pattern(text: str) -> re.Pattern[str]:
    """A translated label with its ``{placeholders}`` as wildcards: "Lay down {cards}" -> /Lay down .+/."""
    parts = [re.escape(p) for p in re.split(r"\{\w+\}", text)]
    return re.compile(r"^\s*" + ".+?".join(parts) + r"\s*$", re.S)


@contextlib.asynccontextmanager
async def played(
    db: Path, shot: str, width: int = 1100, height: int = 900, **options: Any
) -> AsyncIterator[tuple[Playground, Page]]:
    """The playground (``options`` as ``bot.playground.playground`` takes them) and its page.

    The page's last state is saved as ``last-<shot>.png`` under ``SHOTS``.
    """
    async with playground(db, **options) as pg, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(WAIT_MS)
            SHOTS.mkdir(parents=True, exist_ok=True)
            await page.goto(pg.url)
            await expect(page.locator("#channel-composer-input")).to_be_visible()
            try:
                yield pg, page
            finally:  # the page as it was last (what a failure looked like)
                await page.screenshot(path=SHOTS / f"last-{shot}.png")
        finally:
            await browser.close()


@dataclass
class Room:
    """The playground's ``#flipflop`` as one member at a time sees it ("Viewing as")."""

    pg: Playground
    page: Page
    shots: Path = SHOTS
    viewer: str = ""
    t: Texts = field(default_factory=lambda: texts("en"))
    moves: list[str] = field(default_factory=list)
    """What was played by clicks, in order ("ann draws", "ben lays down 3♢ 3♡ 3♧", …)."""

    def __post_init__(self) -> None:
        self.shots.mkdir(parents=True, exist_ok=True)
        self.timeline = self.page.locator("#channel-message-list")
        self.status = self.page.locator("#action-status")
        self.viewer = self.pg.members[0].name

    # ---------------------------------------------------------------- the page

    def gettext(self, msgid: str) -> str:
        return self.t.gettext(msgid)

    def button(
        self, msgid: str, within: Locator | None = None, enabled: bool = False, any_language: bool = False
    ) -> Locator:
        """Buttons whose label reads ``msgid`` in the viewer's language (placeholders match anything).

        Without ``within``, relative to whatever it is used in (``has=``) or the whole page. With
        ``any_language``, in whichever language the bot speaks (a public message stays in the
        language it was last drawn in until it is edited).
        """
        if any_language:
            words = "|".join(label_pattern(texts(code).gettext(msgid)).pattern for code in LANGUAGES)
            pattern = re.compile(words, re.S)
        else:
            pattern = label_pattern(self.gettext(msgid))
        name = self.page.locator(".button-label", has_text=pattern)
        css = "button.component-button" + (":not([disabled])" if enabled else "")
        return (within or self.page).locator(css, has=name)

    @property
    def public(self) -> Locator:
        """Messages everyone sees."""
        return self.timeline.locator("article.channel-message").filter(has_not_text=EPHEMERAL)

    @property
    def private(self) -> Locator:
        """Messages only the viewer sees."""
        return self.timeline.locator("article.channel-message", has_text=EPHEMERAL)

    @property
    def table(self) -> Locator:
        """The table: the latest public message offering **My hand** (or, in the lobby, **Join**)."""
        offers = self.button("My hand", any_language=True).or_(self.button("Join", any_language=True))
        return self.public.filter(has=offers).last

    @property
    def hand(self) -> Locator:
        """The viewer's open hand: their latest private message with **Refresh**."""
        return self.private.filter(has=self.button("Refresh")).last

    def cards(self, enabled: bool = True) -> Locator:
        """The card buttons of the open hand (only those that can be clicked now, unless ``enabled``).

        Cards are words ("K♤") with ``--cards plain``, else the bot's card faces (emoji pictures).
        """
        css = "button.component-button" + (":not([disabled])" if enabled else "")
        words = self.hand.locator(css, has=self.page.locator(".button-label", has_text=CARD))
        # with the bot's card faces a card is a picture and no words (Take and Lay off have words too)
        picture = self.page.locator("img.custom-emoji")
        faces = self.hand.locator(css + ":not(:has(.button-label))", has=picture)
        return words.or_(faces)

    async def card_labels(self, enabled: bool = True) -> list[str]:
        return [re.sub(r"[\s✓]", "", text) for text in await self.cards(enabled).all_inner_texts()]

    async def view_as(self, name: str) -> None:
        """Switch the viewer and wait until the page shows the channel as they see it."""
        member = next(m for m in self.pg.members if m.name == name)
        language = await self.pg.bot.languages.member(self.pg.channel.guild.id, member.id, None)
        self.t = texts(language)
        if name != self.viewer:
            await self.settled()  # the page takes no new action while one is under way
            await self.page.select_option("#viewer-picker", label=name)
            await expect(self.page.locator("#viewer-picker option:checked")).to_have_text(name)
            await self.settled()
        self.viewer = name

    async def settled(self) -> None:
        """Wait until the page has no action under way and shows what the bot last said."""
        await expect(self.status).not_to_have_text(BUSY)
        await expect(self.page.locator("#preview-app")).to_have_attribute("aria-busy", "false")

    async def slash(self, command: str) -> None:
        """Type a slash command: Enter picks it; Send runs it."""
        box = self.page.locator("#channel-composer-input")
        await box.click()
        await box.press_sequentially(command)
        await box.press("Enter")
        await self.page.get_by_role("button", name="Send").click()

    async def answered(self, answer: Locator, timeout: float = 60.0) -> None:
        """Wait for an answer the bot sends after the click has settled (a hint, a look back).

        The page shows what the bot said by the time a click settles; an answer that comes
        later (a search in a worker process, slow on a loaded machine) shows once the page is
        refreshed, so this clicks **Refresh preview** as a player would until it is there.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            try:
                await expect(answer).to_have_count(1, timeout=2_000)
                return
            except AssertionError:
                if loop.time() > deadline:
                    raise
            await self.settled()
            await self.page.get_by_role("button", name="Refresh preview").click()
            await self.settled()

    async def shot(self, name: str) -> None:
        await self.page.screenshot(path=self.shots / f"{name}.png")

    # ---------------------------------------------------------------- the bot

    @property
    def runtime(self) -> Any:
        assert self.pg.bot.runtime is not None
        return self.pg.bot.runtime

    def game_table(self) -> Any:
        """The bot's table in ``#flipflop`` (None once closed)."""
        return self.runtime.in_channel(self.pg.channel.id)

    def to_act(self) -> str | None:
        """The name of the member whose turn it is, or None (between rounds, over)."""
        table = self.game_table()
        if table is None or table.status != "playing" or table.game is None:
            return None
        view = table.game.public_view()
        if not view.in_round or view.over or view.to_act is None:
            return None
        return next((m.name for m in self.pg.members if str(m.id) == view.to_act), None)

    # ---------------------------------------------------------------- a turn

    async def open_hand(self) -> None:
        """Click **My hand** on the table; wait for the new hand (the older one says where it went)."""
        before = await self.private.filter(has=self.button("Refresh")).count()
        await self.button("My hand", self.table, any_language=True).click()
        if before:
            await expect(self.private.filter(has=self.button("Refresh"))).to_have_count(1)
        else:
            await expect(self.hand).to_be_visible()
        # The page drops a click made while it still waits for the last action's result
        # ("Updating preview…"): the hand's first click must wait until it is ready.
        await self.settled()

    async def draw(self) -> str:
        """Take the top discard when it makes a pair or better with the hand, else draw from the stock.

        Returns the source clicked; waits until the cards can be clicked (to discard).
        """
        hand = await self.card_labels(enabled=False)
        draw = self.page.locator(".button-label", has_text=label_pattern(self.gettext("Draw from stock")))
        # ("Take {card}" may begin as "Draw from stock" does: Belarusian "Узяць …")
        take = self.button("Take {card}", self.hand, enabled=True).filter(has_not=draw)
        source = "stock"
        if await take.count():
            top = CARDS.findall(await take.inner_text())
            if top and any(c[:-1] == top[0][:-1] for c in hand):
                source = "discard"
        if source == "discard":
            await take.click()
        else:
            await self.button("Draw from stock", self.hand).click()
        self.moves.append(f"{self.viewer} draws from the {source}")
        await expect(self.button("Draw from stock", self.hand)).to_have_count(0)
        if self.to_act() == self.viewer:  # (drawing the stock's last card ends the round instead)
            await expect(self.cards()).not_to_have_count(0)
        return source

    async def lay_down(self) -> bool:
        """If the hand offers a spread: pick its cards one by one (**Select cards…**) and lay it down."""
        offered = self.button("Lay down {cards}", self.hand)
        if not await offered.count():
            return False
        text = await offered.first.locator(".button-label").inner_text()
        spread = CARDS.findall(text)
        await self.button("Select cards…", self.hand).click()
        for card in spread:
            await self.card(card).click()
            await expect(self.card(card)).to_contain_text("✓")
        lay = self.button("Lay down {cards}", self.hand, enabled=True)
        await expect(lay).to_have_count(1)
        await lay.click()
        self.moves.append(f"{self.viewer} lays down {' '.join(spread)}")
        for card in spread:
            await expect(self.card(card)).to_have_count(0)
        return True

    async def lay_off(self) -> bool:
        """If the hand offers a lay-off as one click, lay it off."""
        offered = self.button("Lay off {card} on #{spread}", self.hand)
        if not await offered.count():
            return False
        text = await offered.first.locator(".button-label").inner_text()
        held = await self.cards().count()
        await offered.first.click()
        self.moves.append(f"{self.viewer}: {text}")
        await expect(self.cards()).to_have_count(held - 1)
        return True

    def card(self, card: str) -> Locator:
        """The open hand's button for ``card``."""
        exact = re.compile(rf"^\s*(?:✓\s*)?{re.escape(card)}\s*$")
        name = self.page.locator(".button-label", has_text=exact)
        return self.hand.locator("button.component-button", has=name)

    async def discard(self) -> str:
        """Click the card to throw away: the highest one that pairs with nothing."""
        labels = await self.card_labels()
        ranks = [c[:-1] for c in labels]
        loose = [c for c in labels if ranks.count(c[:-1]) == 1] or labels
        card = max(loose, key=value)
        await self.card(card).click()
        self.moves.append(f"{self.viewer} discards {card}")
        await expect(self.cards()).to_have_count(0)  # the turn is over: nothing more to click
        return card

    async def drop(self) -> None:
        """Drop: the round ends (the next deal may come at once and offer Drop again)."""
        seq = self.game_table().seq
        await self.settled()  # a click the page is not ready for is dropped, not queued
        drop = self.button("Drop ({value})", self.hand)
        await drop.click()
        self.moves.append(f"{self.viewer} drops")
        # Now and then the preview page loses the click (its status still names the action before,
        # the bot says nothing and the hand is unchanged): the same button, clicked again, is taken.
        # A click the bot did take is never repeated: the table's number has moved on by then.
        for _ in range(LOST_CLICK_TRIES):
            if await self.moves_on(seq, LOST_CLICK_SECONDS) or not await drop.count():
                break
            print(f"the page lost {self.moves[-1]!r}: clicked again")
            await self.settled()
            await drop.click()
        await self.bot_moved(seq)
        await self.settled()

    async def moves_on(self, seq: int, seconds: float) -> bool:
        """Whether the bot takes a click within ``seconds``: the table's number moves on (or it closes)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (table := self.game_table()) is not None and table.seq == seq:
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def bot_moved(self, seq: int, timeout: float = WAIT_MS / 1000) -> None:
        """Wait until the bot has taken the click: the table's sequence number moved on (or it closed)."""
        if await self.moves_on(seq, timeout):
            return
        # say what the viewer was last told, what the page and the table show
        table = self.game_table()
        told = await self.private.last.inner_text() if await self.private.count() else ""
        shown = await self.table.inner_text() if await self.table.count() else ""
        status = await self.status.inner_text()
        state = f"{table.status} {table.game and table.game.public_view()}" if table else "closed"
        raise AssertionError(
            f"the bot did not take {self.moves[-1]!r}; page status: {status!r}; "
            f"last private message: {told!r}; table: {shown!r}; state: {state}"
        )
