"""The table-edit pacer: a backoff holds through new changes, the latest edit wins, shutdown is bounded."""

from __future__ import annotations

import asyncio

from cogs.flipflop.delivery import RETRY_SECONDS, backoff
from cogs.flipflop.pacing import EditPacer


async def test_a_backoff_holds_and_the_latest_edit_is_made_then() -> None:
    pacer = EditPacer(limit=100, window=5.0)
    loop = asyncio.get_running_loop()
    made: list[tuple[str, float]] = []

    def edit(name: str) -> object:
        async def run() -> None:
            made.append((name, loop.time()))

        return run

    start = loop.time()
    pacer.request(1, edit("retry"), delay=0.3)
    await asyncio.sleep(0.05)
    pacer.request(1, edit("newer"))  # a change during the backoff: made then, rendering the latest
    await pacer.flush()
    assert [name for name, _ in made] == ["newer"]
    assert made[0][1] - start >= 0.29
    pacer.request(1, edit("next"))  # no backoff pending: at once
    await pacer.flush()
    assert made[-1][0] == "next" and made[-1][1] - made[0][1] < 0.2


async def test_another_message_of_the_channel_does_not_wait_for_a_backoff() -> None:
    pacer = EditPacer(limit=100, window=5.0)
    order: list[str] = []

    def edit(name: str) -> object:
        async def run() -> None:
            order.append(name)

        return run

    pacer.request(1, edit("table"), delay=0.3)
    pacer.request(1, edit("record"), key="record:9")
    await pacer.flush()
    assert order == ["record", "table"]


async def test_close_waits_for_pending_edits_within_its_bound() -> None:
    pacer = EditPacer(limit=100, window=5.0)
    done: list[int] = []

    async def quick() -> None:
        await asyncio.sleep(0.05)
        done.append(1)

    pacer.request(1, quick)
    assert await pacer.close(1.0) is True and done == [1]

    async def slow() -> None:
        await asyncio.sleep(5)
        done.append(2)

    pacer.request(2, slow)
    loop = asyncio.get_running_loop()
    start = loop.time()
    assert await pacer.close(0.2) is False  # dropped after the bound, not waited for
    assert loop.time() - start < 1.0 and done == [1]


def test_backoff_doubles_and_stays_under_the_cap() -> None:
    first, cap = RETRY_SECONDS
    waits = [backoff(n) for n in range(1, 9)]
    assert first * 0.8 <= waits[0] <= first
    assert all(w <= cap for w in waits) and waits[-1] >= cap * 0.8
    assert cap < 10.0 / 2  # a retry always comes well within the 10 s a table must converge in


async def test_a_settling_edit_gives_way_to_the_next_and_is_made_alone_when_none_comes() -> None:
    """A lone draw's edit settles: the discard that follows within the moment is one edit showing both."""
    pacer = EditPacer(limit=100, window=5.0)
    loop = asyncio.get_running_loop()
    made: list[tuple[str, float]] = []

    def edit(name: str) -> object:
        async def run() -> None:
            made.append((name, loop.time()))

        return run

    start = loop.time()
    pacer.request(1, edit("draw"), settle=0.5)
    await asyncio.sleep(0.05)
    pacer.request(1, edit("discard"))  # the discard comes at once: made now, in the draw's place
    await pacer.flush()
    assert [name for name, _ in made] == ["discard"] and made[0][1] - start < 0.3
    made.clear()
    start = loop.time()
    pacer.request(1, edit("slow draw"), settle=0.3)  # no discard follows: the draw shows by itself
    await pacer.flush()
    assert [name for name, _ in made] == ["slow draw"] and made[0][1] - start >= 0.29
    made.clear()
    pacer.request(1, edit("retry"), delay=0.3)  # a backoff is not cut short by a settling edit
    pacer.request(1, edit("draw"), settle=0.05)
    start = loop.time()
    await pacer.flush()
    assert [name for name, _ in made] == ["draw"] and made[0][1] - start >= 0.25
