"""The saved table stays small and flat: ≤ 8 KB at round 1 and at round 200.

The engine's ``snapshot()`` carries only the current round's log, and the bot side
keeps nothing that grows with rounds (finished rounds go to the append-only
``rounds`` table).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from bot.storage import open_store
from engine.ai.strategies import BasicStrategy
from tests.bot.runtime.fakes import bare_runtime

G, CH = 1, 2
PLAYERS = (11, 12, 13, 14)
LIMIT = 8 * 1024


async def test_saved_state_is_small_and_flat_in_rounds_played(tmp_path: Path) -> None:
    db = open_store(tmp_path / "t.sqlite3")
    await db.open()
    try:
        runtime = bare_runtime(db)
        ledger = runtime.ledger
        for user in PLAYERS:
            await ledger.grant(G, user, 10_000_000, actor_id=PLAYERS[0])
        table = await runtime.open(G, CH, PLAYERS[0], "p0", 1, 1_000_000, 60)
        for user in PLAYERS[1:]:
            await runtime.join(table.id, user, f"p{user}")
        rng = random.Random(5)
        await runtime.start(table.id, PLAYERS[0], may_manage=False)
        basic = BasicStrategy()
        sizes: dict[int, int] = {}
        assert table.game is not None
        while True:
            game = table.game
            number = game.public_view().round_number
            if number in (1, 200):
                sizes[number] = len(json.dumps(table.to_json()))
            while game.in_round:
                player = game.to_act
                assert player is not None
                await runtime.apply_action(table, basic.choose(game.view(player), rng))
                if number in (1, 200):
                    sizes[number] = max(sizes[number], len(json.dumps(table.to_json())))
            if number >= 200 or game.over:
                break
            await runtime.fire(table.id)  # the pause between rounds is 0: the next deal is due
        assert set(sizes) == {1, 200}
        assert sizes[1] <= LIMIT and sizes[200] <= LIMIT, sizes
        assert sizes[200] <= sizes[1] * 1.5, sizes  # flat, not growing with rounds
        rows = await db.fetchone("SELECT COUNT(*) FROM rounds WHERE table_id = ?", (table.id,))
        assert rows is not None and rows[0] == 200
    finally:
        await db.close()
