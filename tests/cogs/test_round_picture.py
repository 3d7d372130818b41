"""A picture of each round's end in its record: every hand and spread, with alt text, within limits."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.round_picture_bench import a_round
from bot.i18n import texts
from bot.presentation import round_picture
from bot.presentation.round_picture import ALT_CHARS, MAX_BYTES, picture_alt, render
from tests.cogs.helpers import Hands, displayed, open_table, play_step, table_in, walk
from tests.conftest import World


def test_the_biggest_picture_is_small_and_said_in_words_in_every_language() -> None:
    ending = a_round(random.Random(3), 4)
    for style in ("classic", "four", "text"):
        data = render(ending, style)
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= MAX_BYTES
    for language in ("en", "fil", "be", "sw", "ko", "gu"):
        alt = picture_alt(ending, texts(language))
        assert len(alt) <= ALT_CHARS
        assert all(name in alt for name, _cards, _value in ending.hands)


def test_each_spread_is_labelled_with_its_number_and_owner(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the live table's picture labels them ("#1 ann"): the round's lines say "on #2"."""
    drawn: list[str] = []
    real = round_picture.fonts.draw

    def draw(canvas: Any, xy: tuple[float, float], text: str, size: int, fill: Any) -> float:
        drawn.append(text)
        return real(canvas, xy, text, size, fill)

    monkeypatch.setattr(round_picture.fonts, "draw", draw)
    ending = a_round(random.Random(3), 4)
    render(ending)
    labels = [f"#{i} {owner}" for i, (owner, _cards) in enumerate(ending.spreads, start=1)]
    assert labels and all(label in drawn for label in labels), drawn


async def test_a_finished_round_keeps_its_picture_in_a_media_gallery(world: World) -> None:
    await open_table(world, world.members[:3], stake=5, buy_in=40)
    hands = Hands(world)
    for _ in range(200):
        table = table_in(world)
        if table is None or (table.game is not None and table.game.rounds_played >= 2):
            break
        await play_step(world, hands, drop_below=15)
    await world.env.settle()
    records = [m for m in world.channel.history() if "### 🃏 Flip Flop — round 1" in displayed(m)]
    assert len(records) == 1
    [record] = records
    galleries = [c for c in walk(record) if c.get("type") == 12]
    assert len(galleries) == 1
    [item] = galleries[0]["items"]
    assert item["media"]["url"].endswith("round-1.png") or "round-1" in item["media"]["url"]
    alt = item["description"]
    assert alt.startswith("Round 1: every hand and spread at the end.")
    assert all(m.name in alt for m in world.members[:3])
    [attachment] = record.attachments
    assert attachment.filename == "round-1.png" and 0 < attachment.size <= MAX_BYTES
    assert len(displayed(record)) <= 4000 and len(walk(record)) <= 40
