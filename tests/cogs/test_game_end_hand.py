"""The click that ends the game answers with the player's final hand, not "You left the game."

A drop that takes a player's last chips (or wins the last pot) ends the game; the hand the
player clicked in must say the game is over, as every other hand does, with nothing to click.
"""

from __future__ import annotations

from tests.cogs.helpers import buttons, conserved, every_turn_drops, open_table
from tests.conftest import World


async def test_the_drop_that_ends_the_game_shows_the_final_hand(world: World) -> None:
    table = await open_table(world, world.members[:3], stake=1, buy_in=4)
    g = table.game
    assert g is not None
    last = None
    async for _, clicked in every_turn_drops(world, table):  # at a stake of 1 and a buy-in of 4, a few rounds
        last = clicked
    assert g.over and last is not None and last.response is not None
    content = last.response.content or ""
    assert "You left the game." not in content
    assert "Your hand" in content and "The game is over; this hand is finished." in content, content
    assert buttons(last.response) == {}
    await conserved(world)
