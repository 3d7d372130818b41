"""The fair deal as the channel shows it: every commitment in a message created before the clicks it precedes.

From Discord's data alone (a message's id carries when it was created; an
edit keeps only its last time) anyone can check that each id in a round's
client seed is later than a message that showed the round's commitment; and
a refused ``/flipflop seed`` counts toward the client seed like any refused
interaction (docs/FAIRNESS.md).
"""

from __future__ import annotations

from tests.cogs.helpers import Hands, buttons, play_simple_turn, table_in, table_message
from tests.cogs.test_fair_history import shown
from tests.conftest import World


async def test_each_commitment_is_in_a_message_created_before_the_ids_of_its_client_seed(
    world: World,
) -> None:
    ann, ben, cat = world.members[:3]
    lobby = (await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)).response.message
    for p in (ben, cat):
        await p.click(lobby, label="Join")
    start = await ann.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.game is not None
    dealt = table_message(world)
    assert (
        dealt.id != lobby.id and dealt.id > start._interaction.id
    )  # the Start click's answer: a new message
    round_2 = table.fair.pending_commitment
    assert round_2 is not None and round_2 in shown(dealt)
    assert "moved to the bottom" in (world.channel.history()[0].content or "") or not buttons(
        world.channel.history()[0]
    )  # the lobby says where the table went, with nothing left to click
    hands = Hands(world)
    messages = {round_2: dealt.id}
    checked = 0
    for _ in range(3000):
        t = table_in(world)
        if t is None or checked >= 2:
            break
        g = t.game
        assert g is not None
        in_play = t.fair.to_public()["in_play"]
        if in_play is not None and in_play["commitment"] in messages:
            ids = [int(i) for i in in_play["client_seed"].split(":")[0].split("-") if i]
            assert ids and all(i > messages[in_play["commitment"]] for i in ids)
            del messages[in_play["commitment"]]
            checked += 1
        pending = t.fair.pending_commitment
        if pending is not None and pending not in messages and t.message_id is not None:
            message = table_message(world)
            assert pending in shown(message)  # the new table message of this deal shows the next commitment
            messages[pending] = message.id
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        player = next(m for m in world.members if str(m.id) == g.to_act)
        await play_simple_turn(world, player, drop_below=15, hands=hands)
    assert checked == 2  # rounds 2 and 3


async def test_a_refused_seed_counts_toward_the_client_seed(world: World) -> None:
    ann, ben, dan = world.members[0], world.members[1], world.members[3]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    await ben.click(lobby, label="Join")
    table = table_in(world)
    assert table is not None
    before = table.fair.client_seed()
    refused = await dan.slash(world.channel, "flipflop seed", text="lucky")  # not seated: refused
    assert refused.ephemeral
    assert str(refused._interaction.id) in table.fair.client_seed()
    bad = await ben.slash(world.channel, "flipflop seed", text="x" * 65)  # too long: refused
    assert bad.ephemeral and str(bad._interaction.id) in table.fair.client_seed()
    assert table.fair.client_seed().startswith(before)
