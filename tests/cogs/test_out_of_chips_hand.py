"""A move that loses a player's last chips says so in their hand, and takes the hand's picture away.

The hand the player clicked in said "You left the game." (a leave they never chose) and kept the
picture of their cards under it. It now says they are out of chips, with nothing else.
"""

from __future__ import annotations

from contextlib import aclosing

from tests.cogs.helpers import buttons, conserved, every_turn_drops, open_table
from tests.conftest import World

OUT = "💀 You're out of chips and leave the game."


async def test_the_drop_that_takes_the_last_chips_says_so(world: World) -> None:
    table = await open_table(world, world.members[:3], stake=1, buy_in=4)
    g = table.game
    assert g is not None
    knocked = None
    async with aclosing(every_turn_drops(world, table)) as turns:
        async for member, clicked in turns:
            if str(member.id) not in g.seated and not g.over:
                knocked = clicked
                break
    assert knocked is not None and knocked.response is not None, "no drop took its player's last chips"
    assert knocked.response.content == OUT
    assert buttons(knocked.response) == {}
    assert not knocked.response.attachments
    await conserved(world)
