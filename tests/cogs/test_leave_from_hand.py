"""Leaving from the private hand between rounds: the hand says so and closes, the seat is gone."""

from __future__ import annotations

from tests.cogs.helpers import Hands, buttons, conserved, my_hand, open_table, play_simple_turn
from tests.conftest import World


async def test_leaving_between_rounds_from_the_hand_closes_it(world: World) -> None:
    table = await open_table(world, world.members[:4])
    g = table.game
    assert g is not None
    hands = Hands(world)
    by_pid = {str(m.id): m for m in world.members}
    while g.in_round:
        await play_simple_turn(world, by_pid[g.to_act or ""], drop_below=60, hands=hands)
    assert not g.over and len(g.seated) == 4
    leaver = g.seated[0]
    member = by_pid[leaver]
    hand = await my_hand(world, member)
    asked = await member.click(hand.message, custom_id=buttons(hand)["Leave game…"])
    assert list(buttons(asked.response)) == ["Keep playing", "Yes, leave"]
    result = await member.click(asked.response.message, custom_id=buttons(asked.response)["Yes, leave"])
    assert leaver not in g.seated
    assert result.response.content == "You left the game." and buttons(result.response) == {}
    assert not result.response.attachments  # the picture of the cards goes with the controls
    await conserved(world)
