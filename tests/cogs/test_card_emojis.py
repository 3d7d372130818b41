"""The card faces as application emojis: synced once at start-up, and text whenever they are missing."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cards import CardFaces, Look, all_faces
from bot.client import FlipFlopBot
from bot.i18n import texts
from bot.metrics.registry import REGISTRY
from bot.presentation.limits import V2_TEXT
from bot.presentation.table_layout import table_page
from cogs.flipflop import emojis
from cogs.flipflop.emojis import CardEmojis, SyncReport, sync
from engine import Card
from engine.view import SpreadView
from tests.cogs.helpers import ShowingView, displayed, my_hand, open_table, picture, table_message
from tests.conftest import World, make_bot

EMOJI_PATH = "/applications/*/emojis"


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[FlipFlopBot]:
    """A bot that syncs its card emojis when it starts, as in production."""
    bot = make_bot(db_path, card_emojis=True)
    yield bot
    await bot.db.close()


def gauge(name: str, **labels: str) -> float:
    """An operator's gauge as the metrics endpoint would serve it."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def started_sync(world: World) -> SyncReport:
    cog = world.bot.get_cog("CardEmojis")
    assert isinstance(cog, CardEmojis) and cog.task is not None
    return await cog.task


async def test_the_first_start_uploads_106_faces_and_a_restart_none(world: World, db_path: Path) -> None:
    first = await started_sync(world)
    assert (first.created, first.found, first.calls, first.failed) == (106, 0, 107, [])
    assert first.ready == ["classic", "four"]
    assert (
        gauge("flipflop_emoji_sync", state="synced") == 1
        and gauge("flipflop_emoji_sync", state="syncing") == 0
    )
    assert gauge("flipflop_emojis", state="present") == gauge("flipflop_emojis", state="wanted") == 106
    stored = {e.name for e in world.env.backend.application_emojis.values()}
    assert stored == {f.name for f in all_faces()} and len(stored) == 106
    old = world.bot
    await world.env.restart_bot(make_bot(db_path, card_emojis=True))
    await old.db.close()
    await world.env.settle()
    again = await started_sync(world)
    assert (again.created, again.found, again.calls) == (0, 106, 1)
    assert len(world.env.backend.application_emojis) == 106
    ks = world.bot.card_faces.emoji(Card.parse("KS"), "four")
    assert ks is not None and ks.name is not None and ks.name.startswith("ff_KS_f_")


async def test_a_rate_limit_is_waited_out_and_the_upload_tried_again(world: World) -> None:
    await started_sync(world)
    world.env.backend.application_emojis.clear()
    world.env.inject_error("POST", EMOJI_PATH, status=429, message="You are being rate limited.", times=3)
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    faces = CardFaces()
    report = await sync(world.bot, faces, sleep=sleep)
    assert waits == [1.0, 2.0, 4.0]  # no retry_after in the answer: a doubling pause
    assert (report.created, report.rate_limited, report.calls) == (106, 3, 1 + 106 + 3)
    assert len(faces) == 106


async def test_a_lasting_rate_limit_leaves_every_card_as_text(world: World) -> None:
    await started_sync(world)
    world.env.backend.application_emojis.clear()
    world.env.inject_error("POST", EMOJI_PATH, status=429, times=None)

    async def sleep(seconds: float) -> None:
        return None

    faces = CardFaces()
    report = await sync(world.bot, faces, sleep=sleep)
    assert report.created == 0 and report.ready == [] and len(report.failed) == 1
    assert (
        gauge("flipflop_emoji_sync", state="fallback") == 1 and gauge("flipflop_emojis", state="present") == 0
    )
    assert report.calls == 1 + 5  # the read, then one upload tried five times: it gives up
    assert faces.emoji(Card.parse("AH"), "classic") is None
    assert faces.markdown(Card.parse("AH"), "classic") == "`A♡`"


async def test_a_failed_upload_keeps_its_set_as_text_and_the_other_set_works(world: World) -> None:
    await started_sync(world)
    world.env.backend.application_emojis.clear()
    world.env.inject_error("POST", EMOJI_PATH, status=400, code=50035, message="Invalid Form Body", times=1)
    faces = CardFaces()
    report = await sync(world.bot, faces)
    assert report.ready == ["four"] and len(report.failed) == 1 and report.created == 105
    assert faces.emoji(Card.parse("2C"), "classic") is None  # never half a set of pictures
    assert faces.emoji(Card.parse("2C"), "four") is not None


async def test_an_unreadable_emoji_list_leaves_cards_as_text(world: World) -> None:
    await started_sync(world)
    world.env.inject_error("GET", EMOJI_PATH, status=500)
    faces = CardFaces()
    report = await sync(world.bot, faces)
    assert report.failed == ["fetch"] and report.calls == 1 and len(faces) == 0


async def test_hands_and_the_table_show_the_card_emojis_once_synced(world: World) -> None:
    await started_sync(world)
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    upcard = table.game.public_view().upcard
    assert upcard is not None
    upcard_emoji = str(world.bot.card_faces.emoji(upcard, "classic"))
    assert upcard_emoji.startswith("<:ff_")
    assert upcard_emoji in displayed(table_message(world))
    backs = str(world.bot.card_faces.emoji(None, "classic"))
    assert backs not in displayed(table_message(world))  # the cards face down are in the picture now
    assert picture(table_message(world))[1].count(" chips, 5 cards") == 3
    hand = await my_hand(world, world.members[0])
    assert hand.content.count("<:ff_") >= 5


async def test_card_buttons_carry_the_card_picture(world: World) -> None:
    await started_sync(world)
    table = await open_table(world, world.members[:3])
    assert table.game is not None
    actor = next(m for m in world.members if str(m.id) == table.game.to_act)
    hand = await my_hand(world, actor)
    drawn = (await actor.click(hand.message, label="Draw from stock")).response
    assert drawn is not None
    cards = [
        c
        for row in drawn.components
        for c in (row if isinstance(row, dict) else row.to_dict()).get("components", [])
        if c.get("type") == 2 and ":discard:" in c["custom_id"]
    ]
    assert len(cards) == 6
    for c in cards:
        code = c["custom_id"].rsplit(":", 1)[1]
        face = world.bot.card_faces.emoji(Card.parse(code), "classic")
        assert face is not None and int(c["emoji"]["id"]) == face.id
        assert not c.get("label") and not c.get("disabled")  # the picture is the card; a click discards it


async def test_a_table_too_long_for_emojis_shows_its_cards_as_text(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started_sync(world)
    table = await open_table(world, world.members[:3])
    game = table.game
    assert game is not None
    view = game.public_view()
    owner = view.players[0]
    many = tuple(SpreadView(r - 1, owner, "set", tuple(Card(r, s) for s in "CDH")) for r in range(1, 14))
    monkeypatch.setattr(table, "game", ShowingView(game, dataclasses.replace(view, spreads=many)))
    t = texts("en").with_faces(Look(world.bot.card_faces, "classic"))
    page = table_page(table, t, "ann discarded K♧", ["a line of the round's story"] * 8, picture=False)
    spreads = next(b for b in page.blocks if b.startswith("**Spreads**"))
    assert "<:ff_" not in spreads and "`K♧`" in spreads
    assert page.length <= V2_TEXT and "a line of the round's story" in "\n".join(page.displays())
    few = dataclasses.replace(view, spreads=many[:2])
    monkeypatch.setattr(table, "game", ShowingView(game, few))
    shown = next(b for b in table_page(table, t, picture=False).blocks if b.startswith("**Spreads**"))
    assert "<:ff_" in shown  # what fits keeps its pictures


async def test_a_sync_that_breaks_leaves_cards_as_text_and_the_bot_running(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started_sync(world)

    async def broken(*args: object, **kwargs: object) -> SyncReport:
        raise RuntimeError("boom")

    monkeypatch.setattr(emojis, "sync", broken)
    cog = world.bot.get_cog("CardEmojis")
    assert isinstance(cog, CardEmojis)
    report = await cog.run()
    assert report.failed == ["sync"] and report.ready == []


async def test_a_members_four_colour_hand_beside_the_servers_classic_table(world: World) -> None:
    await started_sync(world)
    ann = world.members[0]
    chosen = await ann.slash(world.channel, "flipflop cards", style="four")
    assert chosen.response is not None and "<:ff_AS_f_" in chosen.response.content  # the sample, as pictures
    await open_table(world, world.members[:3])
    hand = await my_hand(world, ann)
    assert hand.content.count("_f_") >= 5 and "_c_" not in hand.content
    public = displayed(table_message(world))
    assert "_c_" in public and "_f_" not in public
