"""The click that ends the game answers with the player's final hand, not "You left the game."

A drop that takes a player's last chips (or wins the last pot) ends the game; the hand the
player clicked in must say the game is over, as every other hand does, with nothing to click.
"""

from __future__ import annotations

from tests.cogs.helpers import buttons, conserved, my_hand, open_table
from tests.conftest import World


async def test_the_drop_that_ends_the_game_shows_the_final_hand(world: World) -> None:
    table = await open_table(world, world.members[:3], stake=1, buy_in=4)
    g = table.game
    assert g is not None
    by_pid = {str(m.id): m for m in world.members}
    last = None
    for _ in range(200):  # at a stake of 1 and a buy-in of 4, a few rounds of drops end it
        if g.over:
            break
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        member = by_pid[g.to_act or ""]
        hand = await my_hand(world, member)
        labels = buttons(hand)
        drop = next(label for label in labels if label.startswith("Drop ("))
        last = await member.click(hand.message, custom_id=labels[drop])
    assert g.over and last is not None and last.response is not None
    content = last.response.content or ""
    assert "You left the game." not in content
    assert "Your hand" in content and "The game is over; this hand is finished." in content, content
    assert buttons(last.response) == {}
    await conserved(world)
