"""What the table shows is table data: a restart keeps the table message and every round record line for
line; every round (the last included) ends with its record, picture and replay; the next round's
commitment is in the table message as it is created."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.cogs.helpers import Hands, displayed, message, open_table, play_step, table_in, table_message, walk
from tests.cogs.test_replay_button import PAGE, link_buttons
from tests.cogs.test_restart import restart
from tests.conftest import World


def round_number(world: World) -> int:
    table = table_in(world)
    assert table is not None and table.game is not None
    return table.game.public_view().round_number


def log_of(text: str) -> list[str]:
    """The round log's lines of a table message or a record: what follows the log's heading."""
    return text.split("📜", 1)[1].split("\n")[1:] if "📜" in text else text.split("\n")[1:]


def picture(msg: Any) -> list[dict[str, Any]]:
    """The media gallery items of a message (a round's picture)."""
    return [item for c in walk(msg) if c.get("type") == 12 for item in c["items"]]


async def play_until_round(world: World, hands: Hands, number: int, moves: int = 0) -> None:
    """Play (members only) until ``moves`` turns into round ``number``."""
    for _ in range(2_000):
        table = table_in(world)
        assert table is not None and table.game is not None
        v = table.game.public_view()
        if v.round_number == number and v.in_round:
            if moves == 0:
                return
            moves -= 1
        assert await play_step(world, hands, drop_below=0)
    raise AssertionError(f"round {number} never came")


async def test_a_restart_mid_round_keeps_the_table_and_every_record_line_for_line(
    world: World, db_path: Path
) -> None:
    table = await open_table(world, world.members[:3], stake=5, buy_in=200)
    hands = Hands(world)
    await play_until_round(world, hands, 2, moves=2)
    table = table_in(world)
    assert table is not None
    records = [m for m in world.channel.history() if "round 1" in displayed(m) and m.id != table.message_id]
    [record] = records
    record_before = displayed(message(world, world.channel.id, record.id))
    shown_before = displayed(table_message(world))
    assert "🔒 Fair deal: commitment" in shown_before

    await restart(world, db_path)

    assert displayed(table_message(world)) == shown_before
    assert displayed(message(world, world.channel.id, record.id)) == record_before
    # round 2's record, made after the restart, still tells every line the table showed before it
    hands = Hands(world)
    await play_until_round(world, hands, 3)
    round_two = [m for m in world.channel.history() if displayed(m).startswith("### 🃏 Flip Flop — round 2")]
    assert len(round_two) == 1
    told = displayed(round_two[0])
    for line in log_of(shown_before):
        if line and not line.startswith("-#"):
            assert line in told, line


async def test_the_next_commitment_is_in_the_table_message_as_created(world: World) -> None:
    """docs/FAIRNESS.md: round 2's commitment, drawn at round 1's deal, is public in a message *created*
    for that deal (an edit proves nothing)."""
    table = await open_table(world, world.members[:3])
    pending = table.fair.to_public()["pending"]
    in_play = table.fair.to_public()["in_play"]
    assert pending is not None and pending["round"] == 2 and in_play is not None
    carrying = [r for r in world.env.backend.http_requests if pending["commitment"] in json.dumps(r.json)]
    assert carrying and carrying[0].method == "POST", [(r.method, r.path) for r in carrying]
    assert in_play["commitment"] in json.dumps(carrying[0].json)  # and the deal's own line, in its log


async def test_the_last_round_ends_with_its_record_picture_and_replay(world: World) -> None:
    world.bot.settings = world.bot.settings.model_copy(update={"replay_url": PAGE})
    table = await open_table(world, world.members[:3], stake=5, buy_in=20)
    hands = Hands(world)
    last_message = table.message_id
    while (current := table_in(world)) is not None:
        last_message = current.message_id
        assert await play_step(world, hands, drop_below=20)
    final = message(world, world.channel.id, last_message)  # type: ignore[arg-type]
    text = displayed(final)
    assert text.startswith("### 🃏 Flip Flop — round"), text
    assert picture(final), "the last round has its picture"
    assert [b["label"] for b in link_buttons(final)] == ["Watch the replay"]
    records = [m for m in world.channel.history() if displayed(m).startswith("### 🃏 Flip Flop — round")]
    assert all(picture(m) and link_buttons(m) for m in records), "every round has its picture and replay"


async def test_the_old_table_message_is_never_drawn_as_the_next_round(world: World, monkeypatch: Any) -> None:
    """A new round posts the table anew; an edit asked for while that post is on its way waits for
    it, so the old message goes from the finished round straight to its record (no flicker, no call)."""
    table = await open_table(world, world.members[:3], stake=5, buy_in=200)
    first = table.message_id
    notifier = world.bot.get_cog("FlipFlop").notifier  # type: ignore[union-attr]
    posting, release = asyncio.Event(), asyncio.Event()
    post_again = notifier._post_again

    async def slow_post(table: Any, old_id: int | None) -> int | None:  # Discord slow to answer the post
        posting.set()
        await world.env.external_wait(release.wait(), reason="the test holds Discord's answer to the post")
        return await post_again(table, old_id)

    monkeypatch.setattr(notifier, "_post_again", slow_post)
    await play_until_round(world, Hands(world), 2)
    assert posting.is_set() and table.message_id == first
    notifier.refresh_soon(table)  # another change while the post is on its way
    await notifier.pacer.flush()
    assert "round 2" not in displayed(message(world, world.channel.id, first))
    assert notifier.moving[table.id] is True  # the edit was not made; it is owed
    release.set()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if table.message_id != first and table.id not in notifier.moving:
            break
    await notifier.pacer.flush()
    assert table.message_id != first and "— round 2" in displayed(table_message(world))
    assert displayed(message(world, world.channel.id, first)).startswith("### 🃏 Flip Flop — round 1")
    requests = world.env.backend.http_requests
    edits = [r for r in requests if r.method == "PATCH" and f"/messages/{first}" in r.path]
    assert edits and not any("round 2" in json.dumps(r.json, ensure_ascii=False) for r in edits)
