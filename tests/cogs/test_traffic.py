"""What a game asks of Discord (its rate limits), counted in simcord.

REST calls per action by route, table edits per 5 s, new channel messages per round.

Run with ``-s`` to read the numbers: ``pytest -s tests/cogs/test_traffic.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.ledger import HOUSE_ID
from cogs.flipflop import notifier, pacing
from cogs.flipflop.notifier import DRAW_SETTLE
from tests.cogs.helpers import Hands, open_table, play_simple_turn, play_step, select_id, table_in
from tests.cogs.traffic import Traffic, watch
from tests.conftest import World

SCALE = 10
"""simcord's clock stands still while the bot works, and it waits out a short sleep in real
time; so here the window is a tenth of Discord's (5 edits per 0.5 s of real time), the
same rule made ten times faster, and edits are counted in real time."""


@pytest.fixture
def paced(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Discord's budget for message edits in a channel (5 per 5 s), ten times faster.

    A lone draw's edit waits for its discard as in production (a share of the shorter window).
    """
    monkeypatch.setattr(notifier, "DRAW_SETTLE", DRAW_SETTLE)
    saved = pacing.BUDGET
    pacing.BUDGET = (pacing.EDITS_PER_WINDOW, pacing.WINDOW_SECONDS / SCALE)
    yield
    pacing.BUDGET = saved


def report(name: str, traffic: Traffic, rounds: int, window: float = 5.0) -> None:
    actions = max(1, traffic.actions[0])
    print(
        f"\n{name}: {traffic.actions[0]} actions, {rounds} rounds; per action: "
        f"{traffic.channel_calls / actions:.2f} channel-route + {traffic.interaction_calls / actions:.2f} "
        f"interaction-route calls; most table edits in {window:g} s: {traffic.most_edits_in(window)}; "
        f"new channel messages per round: {traffic.posts / max(1, rounds):.1f} "
        f"({traffic.posts - traffic.pings} table messages, {traffic.pings} turn pings)"
    )


async def test_one_human_and_four_fast_computers_stay_within_five_edits_per_five_seconds(
    world: World, paced: None
) -> None:
    ann = world.members[0]
    await world.bot.ledger.grant(world.guild.id, HOUSE_ID, 10_000, actor_id=world.admin.id)
    lobby = (await ann.slash(world.channel, "flipflop start", stake=5, buy_in=100)).response.message
    for level in ["basic", "basic", "basic", "basic"]:  # Random plays at practice tables only
        await ann.select(lobby, [level], custom_id=select_id(lobby, "addcpu"))
        lobby = world.channel.history()[-1]
    traffic = watch(world, real_time=True)
    await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    g = table.game
    hands = Hands(world)
    rounds = 0
    for _ in range(400):
        if table_in(world) is None or g.public_view().round_number > 3:
            break
        rounds = g.public_view().round_number
        if g.in_round and g.to_act == str(ann.id):
            await play_simple_turn(world, ann, drop_below=15, hands=hands)
        elif g.in_round:
            await world.env.advance_time(1)
        else:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
    await world.bot.get_cog("FlipFlop").notifier.pacer.flush()  # type: ignore[union-attr]
    report("1 human + 4 computers, fastest play", traffic, rounds, window=5.0 / SCALE)
    assert traffic.actions[0] > 20
    assert traffic.most_edits_in(5.0 / SCALE) <= 5
    assert traffic.posts - traffic.pings <= rounds  # one table message a round (the last one stays)


async def test_three_people_at_most_two_messages_per_round_and_one_channel_call_per_action(
    world: World, paced: None
) -> None:
    await open_table(world, world.members[:3])
    traffic = watch(world, real_time=True)
    table = table_in(world)
    assert table is not None and table.game is not None
    g = table.game
    hands = Hands(world)
    rounds = 1
    while g.public_view().round_number <= 3 and await play_step(world, hands, drop_below=20):
        rounds = g.public_view().round_number
    await world.bot.get_cog("FlipFlop").notifier.pacer.flush()  # type: ignore[union-attr]
    report("3 people", traffic, rounds, window=5.0 / SCALE)
    assert rounds >= 3 and traffic.posts <= 2 * rounds
    assert traffic.posts - traffic.pings <= rounds  # one table message a round; the rest are pings
    assert traffic.channel_calls <= traffic.actions[0]
    assert traffic.most_edits_in(5.0 / SCALE) <= 5
