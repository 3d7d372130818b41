"""A whole round on the live table page: two players in two browsers, a spectator in a third.

The bot runs in this test's event loop inside simcord's Discord (``bot.playground``). ann
and ben get their one-time links from ``/flipflop web`` in the simulated channel and play
every turn of theirs on the page (draw, lay down by picking cards, discard); a computer
player takes the third seat. cat, in the channel but not seated, watches on a phone-sized
page. After every move each page shows the same table as the bot (and as the table message
in Discord); no page ever shows another seat's face-up cards while the round is played; at
the end every hand is shown, and the chips add up in the ledger.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Page, async_playwright, expect
from simcord.results import to_discord_message

from bot.live.state import plain as plain_text
from bot.playground import playground, seat_computers
from engine import Drop, Spread
from tests.browser.clicks import SHOTS
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS

expect.set_options(timeout=WAIT_MS)
LINK = re.compile(r"(http://127\.0\.0\.1:\d+/live/#\S+)")
DROP_AFTER = 14
"""Turns of ann's and ben's after which the next of them drops (the round ends soon after)."""


async def link_for(pg: Any, member: Any) -> str:
    """``/flipflop web`` in the simulated channel: the private answer's one-time link."""
    result = await member.slash(pg.channel, "flipflop web")
    assert result.ephemeral and result.response is not None
    found = LINK.search(result.response.content or "")
    assert found, result.response.content
    return found.group(1)


async def started(pg: Any) -> Any:
    """ann opens the table and a computer player sits down; ben joins and ann starts it: the table."""
    ann, ben = pg.members[:2]
    await seat_computers(pg, 1, "basic")
    table: Any = pg.bot.runtime.in_channel(pg.channel.id)
    lobby = to_discord_message(pg.env, pg.env.backend.get_message(pg.channel.id, table.message_id))
    assert (await ben.click(lobby, label="Join")).acknowledged
    assert (await ann.click(lobby, label="Start")).acknowledged
    return table


def displayed(message: Any) -> str:
    """The text a Components V2 message shows (its text displays, nested ones too)."""
    out: list[str] = []

    def visit(c: dict[str, Any]) -> None:
        if c.get("type") == 10:
            out.append(str(c["content"]))
        for child in c.get("components") or []:
            visit(child)
        if c.get("accessory"):
            visit(c["accessory"])

    for c in message.components or []:
        visit(c if isinstance(c, dict) else c.to_dict())
    return "\n".join(out)


async def same_last_move(pg: Any, table: Any, *pages: Page, seconds: float = 15.0) -> None:
    """The pages' caption and the Discord table message's last move agree (waiting for both to settle)."""
    deadline = time.monotonic() + seconds
    while True:
        captions = {(await p.locator("#table .caption").inner_text()).strip() for p in pages}
        message = pg.env.backend.get_message(table.plays_in, table.message_id)
        shown = plain_text(displayed(to_discord_message(pg.env, message)))
        if len(captions) == 1 and next(iter(captions)) in shown:
            return
        assert time.monotonic() < deadline, (captions, shown)
        await asyncio.sleep(0.1)


async def same_table(page: Page, table: Any) -> None:
    """The page shows the bot's table now: the discard pile, the stock, every stack."""
    view = table.game.public_view()
    await expect(page.locator("body")).to_have_attribute("data-status", "playing")
    pile = f"discard {len(view.discard_pile)}"
    await expect(page.locator("#table .pile.discard .pile-name")).to_have_text(pile)
    await expect(page.locator("#table .pile.stock")).to_have_attribute("data-count", str(view.stock_size))
    for pid in view.seated:
        await expect(page.locator(f'#table .seat[data-seat="{pid}"] .stack')).to_have_attribute(
            "data-stack", str(view.stacks[pid])
        )


async def faces_shown(page: Page, except_seat: str | None) -> int:
    """Face-up cards drawn in seats other than ``except_seat`` (hidden hands are backs)."""
    total = 0
    for seat in await page.locator("#table .seat").all():
        if await seat.get_attribute("data-seat") != except_seat:
            total += await seat.locator(".hand .card:not(.back)").count()
    return total


async def test_a_round_on_the_live_page_two_players_and_a_spectator(tmp_path: Path) -> None:
    async with (
        playground(
            tmp_path / "play.sqlite3", members=3, preview=False, cards="plain", computer_pause=(0.2, 0.4)
        ) as pg,
        async_playwright() as pw,
    ):
        ann, ben, cat = pg.members
        guild = pg.channel.guild.id
        table = await started(pg)
        assert table.status == "playing"
        minted = await pg.bot.ledger.minted(guild)

        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pages: dict[int, Page] = {}
        failed: list[str] = []  # every request the pages make is answered (no 404 for a favicon)
        for member, size in ((ann, (1200, 900)), (ben, (1200, 900)), (cat, (390, 844))):
            context = await browser.new_context(viewport={"width": size[0], "height": size[1]})
            page = await context.new_page()
            page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            page.on("requestfailed", lambda r: failed.append(f"failed {r.url}"))
            page.set_default_timeout(WAIT_MS)
            await page.goto(await link_for(pg, member))
            watching = " · watching (hands stay hidden)" if member is cat else ""  # cat has no seat
            await expect(page.locator("#who")).to_have_text("Signed in" + watching)
            pages[member.id] = page
        watcher = pages[cat.id]
        try:
            await expect(watcher.locator("#mine")).to_be_hidden()  # a spectator has no hand
            players = {str(ann.id): pages[ann.id], str(ben.id): pages[ben.id]}
            turns, spreads, latencies = 0, 0, []
            number = table.game.public_view().round_number
            while table.game.public_view().in_round and table.game.public_view().round_number == number:
                view = table.game.public_view()
                actor = view.to_act
                for pid, page in players.items():  # nobody sees another's hidden hand
                    assert await faces_shown(page, pid) == 0
                assert await faces_shown(watcher, None) == 0
                if actor not in players:  # the computer's turn: it moves by itself
                    seq = table.seq
                    for _ in range(200):
                        if table.seq != seq or not table.game.public_view().in_round:
                            break
                        await asyncio.sleep(0.05)
                    continue
                page = players[actor]
                await expect(page.locator("#turn")).to_have_text("Your turn.")
                value = table.game.view(actor).hand_value  # the Drop button names it, as Discord's does
                await expect(page.locator("#drop")).to_have_text(f"Drop ({value})")
                turns += 1
                before = int(await watcher.locator("body").get_attribute("data-version") or 0)
                clicked = time.perf_counter()
                if turns > DROP_AFTER and await page.locator("#drop").is_enabled():
                    await page.locator("#drop").click()
                    await expect(page.locator("#turn")).not_to_have_text("Your turn.")
                    break
                await page.locator("#draw").click()
                await expect(watcher.locator("body")).not_to_have_attribute("data-version", str(before))
                latencies.append(time.perf_counter() - clicked)
                await expect(page.locator("#discard")).to_have_text("Discard selected")
                mine = table.game.view(actor)
                lay = next((a for a in mine.legal if isinstance(a, Spread)), None)
                if lay is not None:  # pick its cards, then Lay down
                    for card in lay.cards:
                        await page.locator(f'#hand button[data-card="{card.code}"]').click()
                    await page.locator("#spread").click()
                    laid = page.locator(f'#hand button[data-card="{lay.cards[0].code}"]')
                    await expect(laid).to_have_count(0)
                    spreads += 1
                    # numbered as Discord numbers them ("#1"), never from 0
                    await expect(page.locator("#table .spread-name").first).to_contain_text("#1: ")
                    if not table.game.public_view().in_round:
                        break
                hand = table.game.view(actor).hand
                worst = max(hand, key=lambda c: (c.value, c.code))
                await page.locator(f'#hand button[data-card="{worst.code}"]').click()
                await expect(page.locator("#discard")).to_be_enabled()
                # a selected card rises, and stays clear of the "Your hand" heading above it
                risen = await page.locator('#hand button[aria-pressed="true"] .card').bounding_box()
                heading = await page.locator("#mine-title").bounding_box()
                assert risen and heading and risen["y"] >= heading["y"] + heading["height"], (risen, heading)
                await page.locator("#discard").click()
                await expect(page.locator(f'#hand button[data-card="{worst.code}"]')).to_have_count(0)
                for other in (*players.values(), watcher):
                    await same_table(other, table)
                # the table message in simcord's Discord says the same last move as the pages' caption
                # (the page is told first; Discord's edit follows, and a computer may move between)
                await same_last_move(pg, table, watcher, pages[ann.id])
                if turns == 3:
                    await pages[ann.id].screenshot(path=SHOTS / "live-desktop.png")
                    await watcher.screenshot(path=SHOTS / "live-phone.png", full_page=True)
            # the round ended: every page shows every hand now (R7), as the channel does
            assert not table.game.public_view().in_round or table.game.public_view().round_number > number
            await expect(watcher.locator("#table .seat .hand .card.back")).to_have_count(0)
            # the table message in simcord's Discord is the same table (its message, its round)
            shown = to_discord_message(pg.env, pg.env.backend.get_message(table.plays_in, table.message_id))
            assert shown.id == table.message_id
            # chips: nothing made or lost
            assert await pg.bot.ledger.audit(guild) == []
            assert await pg.bot.ledger.minted(guild) == minted
            at_table = table.chips()
            assert await pg.bot.ledger.chips_at_tables(guild) == at_table
            assert await pg.bot.ledger.total_balances(guild) + at_table == minted
            assert turns >= 2 and latencies, (turns, latencies)
            assert not failed, failed
        finally:
            await watcher.screenshot(path=SHOTS / "last-live-watcher.png")
            await browser.close()


async def test_every_page_marks_an_away_seat_as_the_discord_table_does(tmp_path: Path) -> None:
    """Seen in a playtest: only the away member's own page said so. A spectator's page marks the
    seat with the table picture's words ("away 1/3": the round they went away in is their first)."""
    async with (
        playground(tmp_path / "play.sqlite3", members=3, preview=False, cards="plain") as pg,
        async_playwright() as pw,
    ):
        ann, _ben, cat = pg.members
        table = await started(pg)
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await (await browser.new_context(viewport={"width": 390, "height": 844})).new_page()
            page.set_default_timeout(WAIT_MS)
            await page.goto(await link_for(pg, cat))
            await expect(page.locator("#table .badge.away")).to_have_count(0)
            assert pg.bot.runtime is not None
            await pg.bot.runtime.away(table.id, ann.id)
            badge = page.locator("#table .badge.away")
            await expect(badge).to_have_count(1)
            await expect(badge).to_have_text(f"💤 away 1/{table.away_rounds}")
            seat = page.locator("#table .seat").filter(has=page.locator(".badge.away"))
            await expect(seat).to_contain_text(plain_text(table.names[ann.id]))
        finally:
            await browser.close()


async def test_signing_in_by_the_mocked_activity_and_by_links_and_the_refusals(tmp_path: Path) -> None:
    from bot.playground import activity_link

    async with (
        playground(tmp_path / "play.sqlite3", members=3, preview=False, cards="plain") as pg,
        async_playwright() as pw,
    ):
        ann, ben, cat = pg.members
        table = await started(pg)
        guild = pg.channel.guild.id
        before = [await pg.bot.ledger.balance(guild, m.id) for m in pg.members]
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:

            async def fresh() -> Page:
                context = await browser.new_context(viewport={"width": 1000, "height": 800})
                page = await context.new_page()
                page.set_default_timeout(WAIT_MS)
                return page

            # the Activity, its SDK mocked: Discord's stand-in says who and where; ben sees his hand
            page = await fresh()
            await page.goto(activity_link(pg, ben))
            await expect(page.locator("#who")).to_have_text("Signed in")
            await expect(page.locator("#hand button")).to_have_count(len(table.game.view(str(ben.id)).hand))
            # a forged instance id: refused, said plainly
            forged = activity_link(pg, cat).replace("instance=", "instance=9")
            page = await fresh()
            await page.goto(forged)
            await expect(page.locator("#error")).to_contain_text(
                "not started from a channel with a Flip Flop table"
            )
            await expect(page.locator("#live")).to_be_hidden()
            # a one-time link works once; a reused, a forged and an expired one are refused
            link = await link_for(pg, ann)
            page = await fresh()
            await page.goto(link)
            await expect(page.locator("#who")).to_have_text("Signed in")
            again = await fresh()
            await again.goto(link)
            await expect(again.locator("#error")).to_contain_text("already used")
            changed = await fresh()
            await changed.goto(link[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB"))
            await expect(changed.locator("#error")).to_contain_text("not made by the bot")
            late = await link_for(pg, cat)
            live = pg.bot.live
            assert live is not None
            live.links.clock = lambda: time.time() + 11 * 60  # ten minutes and more later
            expired = await fresh()
            await expired.goto(late)
            await expect(expired.locator("#error")).to_contain_text("expired")
            await expired.screenshot(path=SHOTS / "live-expired.png")
        finally:
            await browser.close()
        # nothing changed for anyone (only the computer player may have moved meanwhile)
        assert [await pg.bot.ledger.balance(guild, m.id) for m in pg.members] == before
        assert await pg.bot.ledger.audit(guild) == []


async def tab_to(page: Page, selector: str, presses: int = 60) -> None:
    """Press Tab until the element ``selector`` names has the keyboard's focus (as a keyboard user does)."""
    for _ in range(presses):
        await page.keyboard.press("Tab")
        if await page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"{selector} never took the focus by Tab")


async def test_a_turn_played_with_the_keyboard_alone_and_every_card_named(tmp_path: Path) -> None:
    """Draw, pick a card and discard it with Tab, Enter and Space only; each card is a named button."""
    async with (
        playground(
            tmp_path / "play.sqlite3", members=2, preview=False, cards="plain", computer_pause=(0.2, 0.4)
        ) as pg,
        async_playwright() as pw,
    ):
        ann, ben = pg.members
        table = await started(pg)
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pages: dict[str, Page] = {}
            for member in (ann, ben):
                page = await (await browser.new_context(viewport={"width": 1200, "height": 900})).new_page()
                page.set_default_timeout(WAIT_MS)
                await page.goto(await link_for(pg, member))
                await expect(page.locator("#who")).to_have_text("Signed in")
                pages[str(member.id)] = page
            for _ in range(400):  # the computer may be first: wait for a member's turn
                if table.game.public_view().to_act in pages:
                    break
                await asyncio.sleep(0.05)
            actor = table.game.public_view().to_act
            page = pages[actor]
            await expect(page.locator("#turn")).to_have_text("Your turn.")
            hand = table.game.view(actor).hand
            for card in hand:  # a screen reader reads each card by its name, not by its picture
                named = page.locator(f'#hand button[data-card="{card.code}"]')
                assert (await named.get_attribute("aria-label") or "").strip(), card.code
            stock = table.game.public_view().stock_size
            await tab_to(page, "#draw")
            await page.keyboard.press("Enter")
            await expect(page.locator("#table .pile.stock")).to_have_attribute("data-count", str(stock - 1))
            # drawn, nothing picked: every move is greyed, and the page says what to do next (a playtest
            # found the page silent there, where Discord's hand says to click a card to discard it)
            await expect(page.locator("#discard")).to_be_disabled()
            await expect(page.locator("#hint")).to_have_text(
                "👆 Pick a card, then Discard it; or pick three or more that make a run or a set,"
                " then Lay down."
            )
            worst = max(table.game.view(actor).hand, key=lambda c: (c.value, c.code))
            await tab_to(page, f'#hand button[data-card="{worst.code}"]')
            await page.keyboard.press("Space")
            picked = page.locator(f'#hand button[data-card="{worst.code}"]')
            await expect(picked).to_have_attribute("aria-pressed", "true")
            await expect(page.locator("#hint")).to_be_empty()  # Discard now names the card
            await tab_to(page, "#discard")
            await page.keyboard.press("Enter")
            await expect(page.locator(f'#hand button[data-card="{worst.code}"]')).to_have_count(0)
            assert worst not in table.game.view(actor).hand  # discarded at the table, not only on the page
        finally:
            await browser.close()


async def test_at_the_games_end_the_page_shows_the_last_hand_without_its_moves(tmp_path: Path) -> None:
    """Seen in a playtest: once the game was over, a player's page still showed their hand's moves,
    greyed. As Discord's hand then, it shows the hand's last cards and says the game is over, with no
    move and no card to pick."""
    async with (
        playground(
            tmp_path / "play.sqlite3", members=2, preview=False, cards="plain", computer_pause=(0.2, 0.4)
        ) as pg,
        async_playwright() as pw,
    ):
        ann, ben = pg.members
        table = await started(pg)
        runtime = pg.bot.runtime
        assert runtime is not None
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await (await browser.new_context(viewport={"width": 1200, "height": 900})).new_page()
            page.set_default_timeout(WAIT_MS)
            await page.goto(await link_for(pg, ann))
            await expect(page.locator("#moves-bar")).to_be_visible()
            await runtime.stop(table.id, ann.id, may_manage=False)  # the game ends with this round
            members = (str(ann.id), str(ben.id))
            while table.game.public_view().in_round:  # the members drop; the computer plays its turns
                actor = table.game.public_view().to_act
                if actor in members:
                    await runtime.act(table.id, int(actor), table.seq, Drop(actor))
                else:
                    await asyncio.sleep(0.05)
            await expect(page.locator("#turn")).to_have_text("Game over.")
            await expect(page.locator("#moves-bar")).to_be_hidden()
            await expect(page.locator("#hint")).to_have_text("🏁 The game is over; this hand is finished.")
            last = table.game.view(str(ann.id)).hand
            await expect(page.locator("#hand .card")).to_have_count(len(last))
            await expect(page.locator("#hand button")).to_have_count(0)  # nothing to pick
            await expect(page.locator("#hand")).to_have_attribute("aria-label", "Your hand")
            await page.screenshot(path=SHOTS / "live-game-over.png")
        finally:
            await browser.close()


async def test_at_a_tournament_tables_end_the_page_does_not_say_game_over(tmp_path: Path) -> None:
    """A tournament table's game is its one round: at its end the page said "Game over." while the hand
    beside it said the stack went back to the tournament (which plays on). Its turn line says what
    ended: this table's round, its stacks back with the tournament."""
    async with (
        playground(
            tmp_path / "play.sqlite3", members=2, preview=False, cards="plain", computer_pause=(0.2, 0.4)
        ) as pg,
        async_playwright() as pw,
    ):
        ann, ben = pg.members
        opened = await ann.slash(pg.channel, "flipflop tournament", fee=10, seats=6)
        assert opened.response is not None and not opened.ephemeral, opened
        lobby = opened.response.message
        assert (await ann.click(lobby, label="Join")).acknowledged
        assert (await ben.click(lobby, label="Join")).acknowledged
        assert (await ann.click(lobby, label="Start")).acknowledged
        runtime: Any = pg.bot.runtime
        table = next(t for t in runtime.tables.values() if t.tournament and t.is_seated(ann.id))
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await (await browser.new_context(viewport={"width": 1200, "height": 900})).new_page()
            page.set_default_timeout(WAIT_MS)
            await page.goto(await link_for(pg, ann))  # in the tournament's channel: her table's page
            await expect(page.locator("#moves-bar")).to_be_visible()
            while table.game.public_view().in_round:  # ann drops; the computers play their turns
                if table.game.public_view().to_act == str(ann.id):
                    await runtime.act(table.id, ann.id, table.seq, Drop(str(ann.id)))
                else:
                    await asyncio.sleep(0.05)
            over = "This table's round is over: its stacks went back to the tournament."
            await expect(page.locator("#turn")).to_have_text(over)  # after the round's pause, its end
            hint = "🏁 This table's round is over: your stack went back to the tournament"
            await expect(page.locator("#hint")).to_contain_text(hint)
            await expect(page.locator("#moves-bar")).to_be_hidden()
        finally:
            await browser.close()


async def test_a_member_reads_the_page_in_their_language(tmp_path: Path) -> None:
    """ann chose Korean: her page's labels, buttons and the table's small print are Korean; what the
    table says (its caption, the moves) stays in the server's language, as the Discord table does."""
    async with (
        playground(
            tmp_path / "play.sqlite3", members=2, preview=False, cards="plain", computer_pause=(30, 31)
        ) as pg,
        async_playwright() as pw,
    ):
        ann, ben = pg.members[:2]
        await ann.slash(pg.channel, "flipflop language", language="ko")
        await started(pg)
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await (await browser.new_context(viewport={"width": 390, "height": 844})).new_page()
            await page.goto(await link_for(pg, ann))
            await expect(page.locator("#who")).to_have_text("로그인됨")
            await expect(page.locator("#mine-title")).to_have_text("내 핸드")
            await expect(page.locator("#draw")).to_have_text("비축 더미에서 뽑기")
            await expect(page.locator("#log-title")).to_have_text("최근 수")
            await expect(page.locator("#title")).to_contain_text("스테이크 5 · 1라운드")
            await expect(page.locator("#table .pile.stock .pile-name")).to_contain_text("비축 더미")
            await expect(page.locator("#table .pot-game .pot-name")).to_have_text("게임")  # not "game"
            await expect(page.locator("#table .pot-flip .pot-name")).to_contain_text("플립")
            facts = " ".join(await page.locator("#table .seat .facts").all_inner_texts())
            assert "game" not in facts and "flip" not in facts and "게임" in facts, facts
            await expect(page.locator("html")).to_have_attribute("lang", "ko")  # a screen reader reads Korean
            await expect(page).to_have_title("플립플롭 라이브 테이블")
            await expect(page.locator("#game-name")).to_have_text("플립플롭")  # the heading names it so too
            await expect(page.locator("#live-tag")).to_have_text("라이브")
            named = "내 카드: 카드를 눌러 선택하세요"
            await expect(page.locator("#hand")).to_have_attribute("aria-label", named)
            back = page.locator("#table .seat .card.back").first
            await expect(back).to_have_attribute("aria-label", "뒤집힌 카드")
            # the longest caption, a deal's (its 64-character commitment), wraps: nothing scrolls sideways
            longest = "🔒 Fair deal: commitment " + "0d6b9e5c" * 8
            await page.evaluate(f"document.querySelector('#table .caption').textContent = '{longest}'")
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            await expect(page.locator("#turn")).to_have_text("내 차례예요.")  # ann's turn (the first seat)
            await expect(page.locator("#draw")).to_be_in_viewport()  # on a phone, her moves come into view
            await page.locator("#draw").click()  # the card drawn is marked in her words
            await expect(page.locator("#hand .card .mark")).to_have_text("새 카드")
            # three cards that make no run or set: Lay down stays greyed, and the page says why
            runtime: Any = pg.bot.runtime
            table: Any = runtime.in_channel(pg.channel.id)
            mine = table.game.view(str(ann.id))
            spreads = {frozenset(a.cards) for a in mine.legal if isinstance(a, Spread)}
            three = next(c for c in itertools.combinations(mine.hand, 3) if frozenset(c) not in spreads)
            for card in three:
                await page.locator(f'#hand button[data-card="{card.code}"]').click()
            await expect(page.locator("#spread")).to_be_disabled()
            await expect(page.locator("#hint")).to_contain_text("런")
            for card in three:
                await page.locator(f'#hand button[data-card="{card.code}"]').click()
            await expect(page.locator("#hint")).to_contain_text("버리세요")  # nothing picked: what comes next
            if SHOTS:
                await page.screenshot(path=str(SHOTS / "live-ko.png"), full_page=True)
        finally:
            await browser.close()


async def test_a_turn_drawn_on_the_page_runs_out_when_nobody_clicks(tmp_path: Path) -> None:
    """Seen in a playtest: after a draw on the page the turn never ran out ("⏱ 0 s" for 80 s), where one
    drawn in Discord did. The turn's timer is the bot's own, whoever moved: left idle, the seat times out
    in real seconds and goes away (the computer plays it), and the page says so."""
    turn = 3  # seconds: the timeout comes a few real seconds after the draw
    async with (
        playground(
            tmp_path / "play.sqlite3", members=2, preview=False, cards="plain", computer_pause=(0.2, 0.4)
        ) as pg,
        async_playwright() as pw,
    ):
        table = await started(pg)
        table.turn_seconds = turn  # the table's own timer from the next move on
        members = {str(m.id): m for m in pg.members}
        for _ in range(400):  # the computer may be first: wait for a member's turn
            if table.game.public_view().to_act in members:
                break
            await asyncio.sleep(0.05)
        actor = table.game.public_view().to_act
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await (await browser.new_context(viewport={"width": 1200, "height": 900})).new_page()
            page.set_default_timeout(WAIT_MS)
            await page.goto(await link_for(pg, members[actor]))
            await expect(page.locator("#turn")).to_have_text("Your turn.")
            await page.locator("#draw").click()
            await expect(page.locator("#discard")).to_have_text("Discard selected")  # drawn, then idle
            drawn = time.monotonic()
            await expect(page.locator("#away")).to_be_visible(timeout=(turn + 20) * 1000)
            assert table.is_away(int(actor))
            assert time.monotonic() - drawn >= turn - 1  # ran out on its clock, not at once
            await expect(page.locator("#back")).to_be_visible()  # I'm back, as the Discord hand offers
        finally:
            await browser.close()
