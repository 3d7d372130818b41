"""A turn by clicks in each language the bot speaks, in one game in the playground.

Before each turn the server and every member switch to the next language, as
``make play --language`` (and ``/flipflop config language:`` with ``/flipflop language``)
saves it. The member to act opens their hand, draws and clicks a card to discard it, all by
the labels they read in that language; then their hand and the table read that language,
and the English words of the same labels are nowhere in them.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Locator, expect

from bot.i18n import LANGUAGES
from bot.i18n.catalogs import texts
from bot.playground import choose_language
from tests.browser.clicks import Room, played

HAND_WORDS = ("Refresh", "Away", "⏳ Not your turn yet: this hand updates itself when your turn comes.")
"""What a hand says once its turn is over (two button labels, a line of its text)."""
TABLE_WORDS = ("My hand", "Leave after this round")
"""The table's buttons while a round is played."""


async def reads(place: Locator, language: str, msgids: tuple[str, ...]) -> None:
    """``place`` shows each of ``msgids`` in ``language``, and (unless English) none in English."""
    t, en = texts(language), texts("en")
    for msgid in msgids:
        assert language == "en" or t.gettext(msgid) != msgid, f"{msgid!r} is not translated into {language}"
        await expect(place).to_contain_text(t.gettext(msgid))
        if language != "en":
            await expect(place).not_to_contain_text(en.gettext(msgid))


async def test_a_turn_by_clicks_in_each_language(tmp_path: Path) -> None:
    async with played(tmp_path / "play.sqlite3", "languages", members=3, cards="plain") as (pg, page):
        room = Room(pg, page)
        names = [m.name for m in pg.members]
        await room.slash("/flipflop start")
        await expect(room.table).to_contain_text(names[0])
        for name in names[1:]:
            await room.view_as(name)
            await room.button("Join", room.table).click()
            await expect(room.table).to_contain_text(name)
        await room.view_as(names[0])
        await room.button("Start", room.table).click()
        await expect(room.button("My hand")).to_be_visible()

        for language in LANGUAGES:
            await choose_language(pg, language)
            actor = room.to_act()
            assert actor is not None, room.moves
            await room.view_as(actor)
            assert room.t.language == language
            await room.open_hand()
            await room.draw()
            await room.discard()
            await reads(room.hand, language, HAND_WORDS)
            await reads(room.table, language, TABLE_WORDS)
            await room.shot(f"language-{language}")
