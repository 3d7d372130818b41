"""The provably fair shuffle in the runtime (docs/FAIRNESS.md): deals come from the table's FairDeal,
interaction ids seed them, seeds of unfinished rounds stay out of outcomes, computer views and log lines,
and it all survives a restart."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.fair_deal import Reveal
from bot.table.model import Table, TableError
from engine.fairness import commitment, deck_codes, first_dealer, seed_from_hex
from tests.bot.runtime.fakes import ANN, BEN, CAT, NAMES, G, harness


def secrets_of(table: Table) -> set[str]:
    saved = table.fair.to_json()
    return {s["seed"] for s in (saved["pending"], saved["in_play"]) if s is not None}


async def test_round_one_is_dealt_from_the_lobby_commitment_and_the_interactions_after_it(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.runtime.open(G, 2, ANN, NAMES[ANN], 5, 200, 60)
        committed = table.fair.pending_commitment
        assert committed is not None and table.fair.pending_round == 1
        await h.runtime.join(table.id, BEN, NAMES[BEN], interaction_id=1180000000000000001)
        await h.runtime.join(table.id, CAT, NAMES[CAT], interaction_id=1180000000000000002)
        assert await h.runtime.seed(table.id, CAT, "  lucky 7 ", interaction_id=1180000000000000003) == 1
        await h.runtime.start(table.id, ANN, may_manage=False, interaction_id=1180000000000000004)
        public = table.fair.to_public()["in_play"]
        client = "1180000000000000001-1180000000000000002-1180000000000000003-1180000000000000004:lucky 7"
        assert public == {"round": 1, "commitment": committed, "client_seed": client}
        seed = seed_from_hex(table.fair.to_json()["in_play"]["seed"])
        transcript = table.game.round_transcript()  # type: ignore[union-attr]
        assert transcript["rounds"][0]["deck"] == deck_codes(seed, client, 1)  # type: ignore[index]
        dealer = transcript["rounds"][0]["dealer"]  # type: ignore[index]
        assert dealer == str([ANN, BEN, CAT][first_dealer(seed, client, 1, 3)])  # R3.1 from the seeds
        assert table.fair.pending_round == 2 and table.fair.pending_commitment != committed


SEED_CODES = {
    "x" * 65: "seed_too_long",
    "tab\there": "seed_invisible",
    "\u202eevil": "seed_invisible",
    "a```b": "seed_backtick",
    "": "seed_empty",
}


async def test_bad_seed_texts_and_outsiders_change_nothing(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby()
        before = table.fair.to_json()
        for text in SEED_CODES:
            with pytest.raises(TableError) as refused:
                await h.runtime.seed(table.id, BEN, text)
            assert refused.value.code == SEED_CODES[text]
        with pytest.raises(TableError) as refused:
            await h.runtime.seed(table.id, 99, "hello")
        assert refused.value.code == "seed_not_seated"
        assert table.fair.to_json() == before
        saved = await h.db.fetchone("SELECT state FROM tables WHERE table_id = ?", (table.id,))
        assert saved is not None and json.loads(saved[0])["fair"] == before


async def test_no_unfinished_seed_in_outcomes_views_or_logs_and_each_round_is_revealed_and_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="flipflop")
    async with harness(tmp_path / "t.db") as h:
        await h.fund_house()
        table = await h.lobby((ANN,))
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        await h.runtime.start(table.id, ANN, may_manage=False)
        checked = 0
        while h.runtime.get(table.id) is not None:
            hidden = secrets_of(table)
            game = table.game
            assert game is not None
            views = [repr(game.view(p)) for p in game.public_view().seated] + [repr(game.public_view())]
            told = [repr(o) for o in h.notifier.outcomes] + [repr(table.fair), caplog.text] + views
            assert not any(seed in text for seed in hidden for text in told)
            checked += 1
            if checked < 6 and table.is_away(ANN):  # back a few times, so that several turns are checked
                await h.runtime.back(table.id, ANN)
            await h.advance(61.0)
        rows = await h.db.fetchall("SELECT number, transcript, reveal FROM rounds ORDER BY id")
        assert checked > 3 and len(rows) >= 1
        for number, transcript, reveal in rows:
            seeds = Reveal(**json.loads(reveal))
            assert seeds.round == number
            assert seeds.check(json.loads(transcript)["rounds"][0]["deck"]).ok
            assert commitment(seed_from_hex(seeds.server_seed)) == seeds.commitment
        rated = await h.db.fetchall("SELECT user_id, games FROM ratings WHERE guild_id = ?", (G,))
        # one rating entry per computer level (basic is -2): both basic computers are rated as it
        assert {user for user, _ in rated} == {ANN, -2} and all(games == 1 for _, games in rated)


async def test_a_restart_mid_round_keeps_the_commitments_and_reveals_the_same_seed(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        in_play, pending = table.fair.in_play_commitment, table.fair.pending_commitment
    async with harness(tmp_path / "t.db") as h2:
        await h2.runtime.load()
        await h2.runtime.resume()
        again = h2.runtime.get(table.id)
        assert again is not None
        assert (again.fair.in_play_commitment, again.fair.pending_commitment) == (in_play, pending)
        await h2.until(lambda: again.last_reveal is not None)
        assert again.last_reveal is not None and again.last_reveal["commitment"] == in_play


async def test_a_table_saved_before_fair_deals_still_deals_checkably(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby()
        old = table.to_json()
        for key in ("fair", "last_reveal", "last_round_id", "finishes"):
            old.pop(key)
        restored = Table.from_json(old)
        restored.version = table.version  # the row's version lives beside the JSON, as the store loads it
        assert restored.fair.pending_round is None
        h.runtime.tables[table.id] = restored
        await h.runtime.start(table.id, ANN, may_manage=False)
        assert restored.fair.in_play_round == 1 and restored.fair.pending_round == 2
