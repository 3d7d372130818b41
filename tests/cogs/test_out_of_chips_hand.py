"""A move that loses a player's last chips says so in their hand, and takes the hand's picture away.

The hand the player clicked in said "You left the game." (a leave they never chose) and kept the
picture of their cards under it. It now says they are out of chips, with nothing else.
"""

from __future__ import annotations

from tests.cogs.helpers import buttons, conserved, my_hand, open_table
from tests.conftest import World

OUT = "💀 You're out of chips and leave the game."


async def test_the_drop_that_takes_the_last_chips_says_so(world: World) -> None:
    table = await open_table(world, world.members[:3], stake=1, buy_in=4)
    g = table.game
    assert g is not None
    by_pid = {str(m.id): m for m in world.members}
    knocked = None
    for _ in range(200):  # at a stake of 1 and a buy-in of 4, a few rounds of drops knock one out
        if g.over or knocked:
            break
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        member = by_pid[g.to_act or ""]
        hand = await my_hand(world, member)
        labels = buttons(hand)
        drop = next(label for label in labels if label.startswith("Drop ("))
        clicked = await member.click(hand.message, custom_id=labels[drop])
        if str(member.id) not in g.seated and not g.over:
            knocked = clicked
    assert knocked is not None and knocked.response is not None, "no drop took its player's last chips"
    assert knocked.response.content == OUT
    assert buttons(knocked.response) == {}
    assert not knocked.response.attachments
    await conserved(world)
