"""What a table shows is table data: a restart (a new process on the same database) shows the same
table message and round records, line for line, fair-deal line included — on SQLite and PostgreSQL."""

from __future__ import annotations

import random

import pytest

from bot.i18n import texts
from bot.presentation.table_layout import table_page
from bot.presentation.table_render import ending_of, last_move_line, log_lines
from bot.table.log import Entry, RoundLog, decode, encode
from bot.table.model import Table
from bot.table.notices import (
    CameBack,
    ComputersOnly,
    GameStarted,
    LeavingAfterRound,
    Released,
    Stopped,
    StopRequested,
    TimedOut,
    WentAway,
)
from engine import Card
from engine import events as ev
from engine.ai.strategies import BasicStrategy
from tests.bot.runtime.fakes import ANN, BEN, CAT, CH, NAMES, FakeClock, G, Harness


def shown(table: Table, language: str = "en") -> dict[str, object]:
    """Everything of the table's log a player reads: the table message's page, the log, the record."""
    t = texts(language)
    last, log = last_move_line(table, t), log_lines(table, table.log.lines, t)
    return {
        "page": table_page(table, t, last, log),
        "last": last,
        "log": log,
        "finished": log_lines(table, table.log.finished, t),
        "ending": ending_of(table, table.log.finished, t),
    }


async def play_until(h: Harness, table: Table, *, round_number: int, moves: int) -> None:
    """Basic play until ``moves`` moves into round ``round_number`` (the pause between rounds fired)."""
    basic, rng = BasicStrategy(), random.Random(7)
    for _ in range(5_000):
        game = table.game
        assert game is not None and not game.over
        v = game.public_view()
        if v.round_number == round_number and v.in_round and moves == 0:
            return
        if not game.in_round:
            await h.advance(60)
            await h.run_due()
            continue
        player = game.to_act
        assert player is not None
        await h.runtime.act(table.id, int(player), table.seq, basic.choose(game.view(player), rng))
        if v.round_number == round_number:
            moves -= 1
    raise AssertionError("the game did not get there")


async def test_a_restart_mid_round_shows_the_same_table_and_records(store: object) -> None:
    clock = FakeClock()
    h = Harness(store, clock)  # type: ignore[arg-type]
    for user in (ANN, BEN, CAT):
        await h.ledger.grant(G, user, 100_000, actor_id=ANN)
    table = await h.runtime.open(G, CH, ANN, NAMES[ANN], 10, 1_000, 60)
    for user in (BEN, CAT):
        await h.runtime.join(table.id, user, NAMES[user])
    await h.runtime.start(table.id, ANN, may_manage=False)
    await play_until(h, table, round_number=2, moves=3)
    before = shown(table)

    restarted = Harness(store, clock)  # type: ignore[arg-type]  # a new process on the same database
    await restarted.runtime.load()
    again = restarted.runtime.get(table.id)
    assert again is not None and again is not table
    assert shown(again) == before  # every line, character by character
    assert shown(again, "ko") == shown(table, "ko")  # worded when shown, in any language

    log = before["log"]
    assert isinstance(log, list) and log
    in_play = table.fair.to_public()["in_play"]
    assert f"🔒 Fair deal: commitment `{in_play['commitment']}`" in log[0]  # the fair-deal line
    assert before["finished"] and before["ending"] is not None  # round 1's record and picture
    assert before["last"]  # the last move


def every_fact() -> list[object]:
    c = Card.parse
    return [
        ev.RoundStarted(
            2,
            "11",
            ("11", "12"),
            {"11": ("game",), "12": ("game", "flip")},
            c("AS"),
            "H",
            "C",
            {"game": 4, "flip": 2, "flop": 0},
        ),
        ev.TurnStarted("11"),
        ev.CardShown("11", "flip", c("2H")),
        ev.Drew("11", "stock", None, 30),
        ev.Drew("12", "discard", c("KD"), 30),
        ev.SpreadLaid("11", (c("2C"), c("3C"), c("4C")), 0, "run"),
        ev.LaidOff("12", c("5C"), 0),
        ev.Discarded("11", c("TH")),
        ev.Dropped("12", 7),
        ev.PlayerLeft("13", True),
        ev.RoundEnded("drop", "12", {"11": (c("AS"),), "12": ()}, {"11": 1, "12": 0}, ("12",)),
        ev.SideStakePaid("11", 2, None, "12", "caught"),
        ev.PotPaid("game", 6, {"12": 6}),
        ev.PotCarried("flop", 3),
        ev.SeatClosed("13", 0, "eliminated"),
        ev.NextDealer("12"),
        ev.GameOver({"11": 5, "12": 20}, ("12", "11")),
        GameStarted(3),
        TimedOut(11, 1, 3, False),
        WentAway(11, True, 3),
        CameBack(11),
        Released(12, 3),
        LeavingAfterRound(13, staying=True),
        StopRequested(11),
        Stopped(11),
        ComputersOnly(),
        "#text that starts with the card mark",
    ]


@pytest.mark.parametrize("fact", every_fact(), ids=lambda f: type(f).__name__)
def test_every_fact_reads_back_equal(fact: object) -> None:
    assert decode(encode(fact)) == fact


def test_a_saved_log_reads_back_equal() -> None:
    log = RoundLog()
    facts = every_fact()
    log.add(
        (GameStarted(3),),
        [f for f in facts if isinstance(f, ev.RoundStarted)],
        stacks={"11": 0},
        ends=False,
        round_number=2,
        spreads=(),
    )
    log.add(
        (WentAway(11, False, 3),),
        [ev.Discarded("11", Card.parse("TH"))],
        stacks={},
        ends=True,
        round_number=2,
        spreads=(),
    )
    ended = [f for f in facts if isinstance(f, ev.RoundEnded | ev.NextDealer)]
    log.add((), ended, stacks={}, ends=True, round_number=2, spreads=(("11", (Card.parse("2C"),)),))
    again = RoundLog.from_json(log.to_json())
    assert again == log
    assert again.lines[-1] == Entry((), tuple(ended), {}, True, 2, (("11", (Card.parse("2C"),)),))
    assert again.last == (ev.Discarded("11", Card.parse("TH")),)


def test_a_new_deal_starts_a_new_log_and_keeps_the_finished_one() -> None:
    log = RoundLog()
    deal = ev.RoundStarted(
        1, "11", ("11", "12"), {}, Card.parse("AS"), "H", "C", {"game": 0, "flip": 0, "flop": 0}
    )
    log.add((), [deal], stacks={}, ends=False, round_number=1, spreads=())
    log.add((), [ev.Dropped("11", 3)], stacks={}, ends=False, round_number=1, spreads=())
    first = list(log.lines)
    log.add(
        (),
        [
            ev.RoundStarted(
                2, "12", ("11", "12"), {}, Card.parse("2S"), "D", "S", {"game": 0, "flip": 0, "flop": 0}
            )
        ],
        stacks={},
        ends=False,
        round_number=2,
        spreads=(),
    )
    assert log.finished == first and len(log.lines) == 1 and log.last == ()


def test_a_finished_round_keeps_its_own_fair_deal_lines_whatever_the_table_reads_later() -> None:
    """A round that ends at its deal (49 or 50) moves the round before to ``finished`` and reveals at once:
    the finished round's record still says its own commitment and server seed, not the next round's."""
    t = texts("en")
    table = Table(
        id="ab12",
        guild_id=1,
        channel_id=2,
        host_id=11,
        stake=5,
        buy_in=40,
        status="playing",
        seats=[11, 12],
        names={11: "ann", 12: "ben"},
    )
    pots = {"game": 0, "flip": 0, "flop": 0}
    dealt = ev.RoundStarted(6, "11", ("11", "12"), {}, Card.parse("AS"), "H", "C", pots)
    ended = ev.RoundEnded("drop", "11", {"11": (Card.parse("2C"),), "12": ()}, {"11": 2, "12": 0}, ("11",))
    six = {"round": 6, "server_seed": "66" * 32, "commitment": "c6" * 32}
    table.log.add(
        (), [dealt], stacks={}, ends=False, round_number=6, spreads=(), fair=("c6" * 32, None, None)
    )
    table.log.add((), [ended], stacks={}, ends=False, round_number=6, spreads=(), fair=(None, six, 41))
    seven = ev.RoundStarted(7, "12", ("11", "12"), {}, Card.parse("KD"), "S", "D", pots)
    table.log.add(
        (),
        [seven, ended],
        stacks={},
        ends=False,
        round_number=7,
        spreads=(),
        fair=("c7" * 32, {"round": 7, "server_seed": "77" * 32, "commitment": "c7" * 32}, 42),
    )
    table.last_reveal, table.last_round_id = (
        {"round": 7, "server_seed": "77" * 32, "commitment": "c7" * 32},
        42,
    )
    record = "\n".join(log_lines(table, table.log.finished, t))
    assert f"🔒 Fair deal: commitment `{'c6' * 32}`" in record
    assert (
        f"🔓 Round 6 server seed: `{'66' * 32}` — check the deal with `/flipflop verify round:41`." in record
    )
    assert "77" * 32 not in record and "c7" * 32 not in record
    assert RoundLog.from_json(table.log.to_json()) == table.log
