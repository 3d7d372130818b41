"""A new table's id is one no saved table has: 32 random bits meet an old id now and then.

Before: a new table drawn with the id of a closed table failed its first save ("the table moved")
and the member's Start did nothing; with the id of another server's open table, that table was
taken into this one's memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.runtime import runtime as runtime_module
from tests.bot.runtime.fakes import ANN, BEN, CH, NAMES, G, harness


async def test_a_new_table_never_takes_a_saved_tables_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with harness(tmp_path / "t.db") as h:
        await h.fund_house()
        first = await h.lobby((ANN,))
        await h.runtime.leave_lobby(first.id, ANN)  # closes the empty lobby: its row stays, closed
        assert h.runtime.get(first.id) is None
        drawn = [first.id, first.id, "0badc0de"]
        real = runtime_module.secrets.token_hex
        monkeypatch.setattr(  # the ids drawn for tables first; any other caller gets real ones
            runtime_module.secrets, "token_hex", lambda n=None: drawn.pop(0) if drawn and n == 4 else real(n)
        )
        second = await h.runtime.open(G, CH, BEN, NAMES[BEN], 5, 200, 60)
        assert second.id == "0badc0de" and h.runtime.get("0badc0de") is second
        assert second.seats == [BEN]
        await h.conserved()
