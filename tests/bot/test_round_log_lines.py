"""Lines of a round's log that must not say what did not happen (issue 33)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.history import history, round_story
from bot.history.queries import WAYS, Stats
from bot.i18n import texts
from bot.presentation.replay_link import seat_names
from bot.presentation.table_layout import table_page
from bot.presentation.table_render import event_lines, last_move_line, log_lines, round_ending, seat_name
from bot.table.model import ComputerSeat, Table
from cogs.flipflop.story import stats_text, story_lines
from engine import Card, Drop, Leave
from engine.events import GameOver, PotCarried, PotPaid, SideStakePaid
from tests.bot.runtime.fakes import ANN, BEN, CAT, DAN, harness

EN = texts("en")


def table(**fields: object) -> Table:
    return Table(
        id="ab12",
        guild_id=1,
        channel_id=2,
        host_id=11,
        stake=5,
        buy_in=40,
        status="playing",
        seats=[11, 12, 13],
        names={11: "ann", 12: "ben", 13: "cat"},
        **fields,  # type: ignore[arg-type]
    )


def test_a_carried_pot_is_said_while_the_game_goes_on() -> None:
    lines = event_lines(table(), [PotCarried("flip", 5)], EN)
    assert lines == [
        "↪️ No one can win the flip pot this round: it keeps its 5 chips for the next round or the game's end."
    ]


def test_no_carry_is_said_when_the_game_ends_and_pays_the_pot() -> None:
    events = [
        PotCarried("flip", 5),
        PotPaid("flip", 5, {"11": 5}),
        GameOver({"11": 120, "12": 0, "13": 0}, ("11", "12", "13")),
    ]
    lines = event_lines(table(), events, EN)
    assert not any("carry" in line for line in lines)
    assert "💰 **ann** wins the **flip pot** (5 chips)." in lines
    stopping = event_lines(table(stop_after_round=True), [PotCarried("flop", 10)], EN)
    assert stopping == []  # the host stopped the game: this was its last round


def test_an_all_in_player_pays_no_side_stake_of_0() -> None:
    events = [SideStakePaid("12", 0, "game", None, "R7.3"), SideStakePaid("13", 5, "game", None, "R7.3")]
    lines = event_lines(table(), events, EN)
    assert lines == ["↳ cat pays a side stake of 5 into the game pot."]
    to_player = event_lines(table(), [SideStakePaid("12", 0, None, "11", "R7.4")], EN)
    assert to_player == []


def test_computers_keep_their_numbers_in_a_replay() -> None:
    members = {"11": 11, "-1": -2, "-2": -2, "-3": -3}
    names = seat_names(members, None, EN, {11: "ann"})
    assert names == {"11": "ann", "-1": "🤖 Basic 1", "-2": "🤖 Basic 2", "-3": "🤖 Strong 3"}
    seated = table(computers={-1: ComputerSeat("basic", 1), -2: ComputerSeat("basic", 2)})
    assert seat_name(seated, EN, "-2") == names["-2"]  # the table and its replay name a seat alike


async def test_a_round_record_names_each_computer_by_its_number(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.lobby((ANN,))
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        await h.runtime.add_computer(table.id, ANN, False, "basic")
        await h.runtime.start(table.id, ANN, may_manage=False)
        g = table.game
        assert g is not None
        while not await history(h.db, table.guild_id):
            if g.in_round and g.to_act == str(ANN):
                await h.runtime.act(table.id, ANN, table.seq, Drop(str(ANN)))
            else:
                await h.advance(3)
        (row, *_) = await history(h.db, table.guild_id)
        story = await round_story(h.db, table.guild_id, row.round_id)
        assert story is not None
        text = "\n".join(story_lines(story, EN))
        assert "🤖 Basic 1" in text and "🤖 Basic 2" in text, text
        assert "Next deal" not in text  # a stored round can't tell who left after it
        names = seat_names(story.members, None, EN, {})
        assert sorted(names.values()) == ["🤖 Basic 1", "🤖 Basic 2"]  # the replay's names agree


async def test_between_rounds_the_table_says_how_the_round_ended_and_who_won_each_pot(tmp_path: Path) -> None:
    """Under the picture a table shows the round's last few lines; between rounds it shows the ending
    instead (how it ended, each pot's winner, the next dealer), never the showings' lines alone."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.game((ANN, BEN, CAT, DAN))
        g = table.game
        assert g is not None
        for _ in range(50):  # whoever's turn it is drops: the round ends at once
            if not g.in_round:
                break
            assert g.to_act is not None
            await h.runtime.act(table.id, int(g.to_act), table.seq, Drop(g.to_act))
        assert not g.in_round and table.next_round_at is not None
        log = log_lines(table, table.log.lines, EN)
        assert sum("shows" in line for line in log) >= 2  # four players show for the flip and flop pots
        text = "\n".join(table_page(table, EN, last_move_line(table, EN), log).displays())
        story = text[text.index("This round") :]
        assert "🏁" in story and "wins the **game pot**" in story and "Next deal" in story, story
        assert "shows" not in story  # the picture and the record show the cards
        ending = round_ending(table, table.log.lines, EN)
        assert ending and all(line in story for line in ending)
        await h.advance(table.next_round_at - h.clock() + 1)  # the next deal: the last lines again
        assert g.in_round or table.game is not g
        assert round_ending(table, table.log.lines, EN) == []


async def test_between_rounds_the_table_names_the_flip_and_flop_pots_paid_during_the_round(
    tmp_path: Path,
) -> None:
    """R5.5 pays flip and flop after one cycle of turns, long before most rounds end: the ending
    names them too (the README's "who won each pot"), and leaves the deal's seed to the record."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.game((ANN, BEN, CAT))
        g = table.game
        assert g is not None
        rng = random.Random(3)

        def settled_before_the_end() -> bool:
            return any(isinstance(e, PotPaid | PotCarried) for entry in table.log.lines for e in entry.events)

        while g.in_round and not settled_before_the_end():  # a cycle of turns: draws and discards
            assert g.to_act is not None
            moves = [a for a in g.legal_actions() if not isinstance(a, Drop | Leave)]
            await h.runtime.act(table.id, int(g.to_act), table.seq, rng.choice(moves))
        for _ in range(50):  # then whoever may drops (or goes on) until the round ends
            if not g.in_round:
                break
            assert g.to_act is not None
            moves = [a for a in g.legal_actions() if not isinstance(a, Leave)]
            drop = [a for a in moves if isinstance(a, Drop)]
            await h.runtime.act(table.id, int(g.to_act), table.seq, (drop or [rng.choice(moves)])[0])
        assert not g.in_round
        ended = next(e for e in table.log.lines if e.ended is not None)
        assert not any(isinstance(e, PotPaid | PotCarried) and e.pot != "game" for e in ended.events)
        ending = "\n".join(round_ending(table, table.log.lines, EN))
        assert "flip pot" in ending and "flop pot" in ending and "game pot" in ending, ending
        assert "server seed" not in ending and "verify" not in ending, ending
        log = log_lines(table, table.log.lines, EN)
        story = "\n".join(table_page(table, EN, last_move_line(table, EN), log).displays())
        assert all(line in story for line in ending.split("\n")), story


def test_history_names_each_computer_as_its_table_did() -> None:
    from bot.history.queries import RoundSummary, SeatLine
    from cogs.flipflop.story import history_line

    def seat(member: int, seat: str, game: int | None = None) -> SeatLine:
        won: dict[str, int | None] = {"game": game, "flip": None, "flop": None}
        return SeatLine(member=member, seat=seat, net=0, won=won, way=None, dropped=False, caught=False)

    summary = RoundSummary(  # two basic computers are one pseudo-member (-2), seats -1 and -2
        round_id=7,
        table_id="ab12",
        number=3,
        ended_at=0.0,
        end="out",
        seats=(seat(11, "11"), seat(-2, "-1", game=30), seat(-2, "-2"), seat(-3, "-3")),
    )
    line = history_line(summary, EN)
    assert "· game pot: 🤖 Basic 1 · flip pot: carried ·" in line, line
    assert line.endswith("<@11> 🤖 Basic 1 🤖 Basic 2 🤖 Strong 3"), line


def ended_round() -> tuple[Table, dict[str, tuple[Card, ...]]]:
    """A table whose round 1 just ended (its seed revealed, stored as round 7), and two hands."""
    ended = table()
    ended.last_reveal = {"round": 1, "server_seed": "ab" * 32}
    ended.last_round_id = 7
    return ended, {"11": (Card.parse("2S"),), "12": (Card.parse("AS"),)}


def test_a_rounds_server_seed_follows_what_the_round_paid() -> None:
    """A caught drop's extra stake belongs with the hands; the seed line comes after all the round paid."""
    from engine.events import RoundEnded

    ended, hands = ended_round()
    events = [
        RoundEnded("caught", "11", hands, {"11": 2, "12": 1}, ("12",)),
        SideStakePaid("11", 5, "game", None, "R7.2"),
        PotPaid("game", 20, {"12": 20}),
    ]
    lines = event_lines(ended, events, EN)
    assert lines[0].startswith("🏁") and "server seed" not in lines[0]
    # a glance at the ending says both hands' values (between rounds the hands themselves are not shown)
    caught = "🏁 **ann** dropped with **2** but was **caught** by **ben** with **1**."
    assert lines[0].splitlines()[0] == caught
    assert lines[1] == "↳ ann pays a side stake of 5 into the game pot."
    (dropped,) = event_lines(ended, [RoundEnded("drop", "12", hands, {"11": 2, "12": 1}, ("12",))], EN)[:1]
    assert dropped.splitlines()[0] == "🏁 **ben** dropped with **1**, and no other hand is as low."
    assert lines[-1].startswith("🔓 Round 1 server seed") and "/flipflop verify round:7" in lines[-1], lines


def test_a_rounds_server_seed_comes_before_who_leaves_and_who_deals_next() -> None:
    """The seed closes the round's own lines: a leaver's stack going home and the next dealer follow it."""
    from engine.events import NextDealer, RoundEnded, SeatClosed

    ended, hands = ended_round()
    events = [
        RoundEnded("out", "12", hands, {"11": 2, "12": 1}, ("12",)),
        PotPaid("game", 20, {"12": 20}),
        SeatClosed("11", 40, "left"),
        NextDealer("12"),
    ]
    lines = event_lines(ended, events, EN)
    assert [line.split()[0] for line in lines] == ["🏁", "💰", "🔓", "👋", "Next"], lines


def test_a_move_the_computer_made_for_an_away_seat_says_so_in_the_saved_log() -> None:
    """ben was away when his seat dropped: the log says "ben 💤" even once he is back."""
    from bot.table.log import Entry, RoundLog
    from engine.events import Dropped

    at = table()
    log = RoundLog()
    log.add((), [Dropped("12", 9)], stacks={}, ends=False, round_number=1, spreads=(), away=frozenset({"12"}))
    log.add((), [Dropped("11", 4)], stacks={}, ends=False, round_number=1, spreads=(), away=frozenset({"12"}))
    saved = [Entry.from_json(e.to_json()) for e in log.lines]  # as saved with the table
    assert log_lines(at, saved, EN) == ["✋ ben 💤 drops with **9**.", "✋ ann drops with **4**."]


def test_a_closed_tournament_tables_stacks_stay_in_the_tournament() -> None:
    """A tournament table's message deleted while the bot was away: its stacks go back to the tournament."""
    from bot.presentation.table_render import notice_line
    from bot.table.notices import TableClosed

    said = notice_line(table(tournament="t1:1:0"), TableClosed("message_gone", {11: 950, 12: 1050}), EN)
    assert said is not None and "ann keeps 950 chips in the tournament" in said and "got" not in said
    plain = notice_line(table(), TableClosed("message_gone", {11: 950}), EN)
    assert plain is not None and "ann got 950 chips back" in plain


def test_a_tournament_tables_away_rule_never_promises_a_balance() -> None:
    from bot.presentation.table_render import away_rule

    rule = away_rule(table(tournament="t1:1:0"), EN)
    assert "with your tournament chips" in rule and "balance" not in rule and "released" not in rule


def test_a_tournament_tables_end_carries_its_pots_and_says_where_the_stacks_go() -> None:
    """A tournament table's one round: a carried pot is said (the tournament carries it on), the seats
    that close are told their chips stay in the tournament, and its end is no "Game over"."""
    from engine.events import GameOver, PotCarried, SeatClosed

    at = table(tournament="t1:1:0", stop_after_round=True)
    events = [
        PotCarried("flop", 30),
        SeatClosed("13", 4, "eliminated"),
        SeatClosed("12", 50, "left"),
        GameOver({"11": 900}, ("11", "12", "13")),
    ]
    lines = event_lines(at, events, EN)
    assert any("flop pot" in line and "30 chips" in line for line in lines), lines
    assert "💀 cat can't pay this table's stake: their 4 chips go back to the tournament." in lines
    assert "👋 ben leaves this table; their 50 chips stay in the tournament." in lines
    assert lines[-1].startswith("🏁 **This table's round is over.**") and "Game over" not in "".join(lines)


@pytest.mark.parametrize("leaving", [False, True])
def test_a_tournament_tables_carried_pot_goes_back_to_the_tournament_unsplit(leaving: bool) -> None:
    """R5.6 leaves the flop pot unwon: the tournament gets it back with the stacks (for the table's next
    round), where the table's end used to split it among the table (R8.3 is the tournament's end)."""
    import random

    from bot.table import transitions
    from bot.tournament.rounds import basic
    from cogs.flipflop.tournament_play import round_result
    from engine import Game

    players = [(1, 1000, "a", 0), (2, 1000, "b", 0), (3, 1000, "c", 0)]
    table_, seats = transitions.tournament_table(1, 2, 10, players, [], 60, 0.0, "tid:1:0")
    table_.game = Game(seats, 10)  # as transitions.tournament_round, with a deal (seed 44) where
    table_.status = "playing"  # nobody may win the flop (R5.6)
    table_.stop_after_round = True
    rng = random.Random(44)
    table_.game.start_round(rng, dealer="1")
    while table_.game.in_round:
        p = table_.game.public_view().to_act
        assert p is not None
        transitions.apply(table_, basic(table_.game.view(p), rng), 0.0, 0.0)
    assert table_.game.pots["flop"] == 30
    if leaving:  # two of three asked to leave after it: the game must not end at the last seat's
        table_.leave_after_round = [1, 2]
    transitions.next_round(table_, 0.0, 0.0)  # the table's end
    stacks, pots, gone = round_result(table_)
    assert table_.status == "closed" and pots == {"flop": 30}
    assert sum(stacks.values()) + sum(pots.values()) == 3000
    assert gone == ({1, 2} if leaving else set())  # the tournament plays their seats away


def test_final_standings_rank_equal_stacks_by_who_lasted_longer() -> None:
    """cat lasted to round 7, ann and ben went out in rounds 2 and 1 with nothing left: cat ranks
    first of the three, as the ratings rank them (the standings broke the tie by seat)."""
    from engine.events import GameOver

    ended = table(finishes={11: [0, 2], 12: [0, 1], 13: [0, 7]})
    (said,) = event_lines(ended, [GameOver({}, ("11", "12", "13"))], EN)
    assert [line.split("**")[1] for line in said.splitlines()[1:]] == ["cat", "ann", "ben"], said


def test_a_crowded_ending_gives_way_after_its_headline() -> None:
    """Between rounds the log's room keeps how the round ended; the lines after it give way first."""
    from bot.presentation.table_layout import _story

    headline = "🏁 **" + "\\\\" * 30 + "** dropped with **12** but was **caught** by **ben** with **3**."
    ending = [headline, *(f"💰 **{'x' * 32}** wins the **flip pot** ({i:,} chips)." for i in range(30))]
    story = _story("", ending, EN, 700, ending=ending)
    assert len(story) <= 700 and headline in story, story
    assert ending[-1] in story  # the latest lines stay too; the middle gives way


def test_final_standings_name_the_players_without_the_away_mark() -> None:
    """Seen in a playtest: "cat 💤 — 170 chips" in the final standings. A move made for an away seat
    keeps its 💤; the standings name the players."""
    from engine.events import GameOver

    ended = table()
    ended.away = {13: 1}
    (said,) = event_lines(ended, [GameOver({"11": 300, "12": 130, "13": 170}, ("11", "12", "13"))], EN)
    assert "💤" not in said and "**cat** — 170 chips" in said, said


@pytest.mark.parametrize(
    ("net", "said"), [(1, "net **+1** chip"), (-1, "net **-1** chip"), (15, "net **+15** chips")]
)
def test_stats_say_one_chip_won_or_lost_in_the_singular(net: int, said: str) -> None:
    played = Stats(member=ANN, games=1, rounds=1, wins=dict.fromkeys(WAYS, 0), net=net)
    lines = stats_text(ANN, played, texts("en")).splitlines()
    assert lines[1].endswith(said)
