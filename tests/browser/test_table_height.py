"""The table message on a phone (390 px): with its picture it takes well under a phone's screen and a
half; before the picture it took 1,439 px with three players and 1,874 with five (issue 33)."""

from __future__ import annotations

import pytest

from bench.table_height import measure

MOST = {3: 1200, 5: 1200}
"""Measured 724–1,009 px with three players and 918–988 with five (``python -m bench.table_height``,
three runs each: the deal and the log differ); before the picture 1,439–1,728 and 1,874–1,987."""


@pytest.mark.parametrize("players", sorted(MOST))
async def test_the_table_message_is_short_on_a_phone(players: int) -> None:
    tall = await measure(players, 390)
    assert 300 < tall <= MOST[players], f"{players} players: {tall:.0f} px tall at 390 px"
