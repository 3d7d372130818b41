"""A table's transitions are pure: a table and a command in, the change and its chips out, no database.

Also: a computer seat is saved as data (level and number), and a table saved in the
earlier format (a computer's English name among the members' names) still loads.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.i18n import texts
from bot.ledger import HOUSE_ID, Posting
from bot.presentation.table_render import seat_name
from bot.table import transitions
from bot.table.model import LOBBY_IDLE_SECONDS, ComputerSeat, Table, TableError
from engine import Leave

ANN, BEN, CAT = 11, 12, 13
NOW = 1000.0

FORMAT_1_LOBBY = (
    '{"format": 1, "id": "ab12cd34", "guild_id": 1, "channel_id": 2, "host_id": 11, "stake": 5,'
    ' "buy_in": 200, "turn_seconds": 60, "status": "lobby", "message_id": null, "seats": [11, 12, -1, -2],'
    ' "names": {"11":'
    ' "Ann", "12": "Ben", "-1": "🤖 Basic 1", "-2": "🤖 Strong 2"}, "lobby_stacks": {"11": 200, "12": 200,'
    ' "-1": 200, "-2": 200}, "game": null, "seq": 0, "turn_deadline": null, "timeouts": {},'
    ' "leave_after_round": [], "stop_after_round": false, "next_round_at": null, "last_activity": 1000.0,'
    ' "computers": {"-1": "basic", "-2": "strong"}, "fair": {"format": 1, "pending": {"round": 1, "seed":'
    ' "29b1832d4501e255268df77f84483a9bd36d0112d72a193d1cd328a1ea4aafa3", "client_seed": ""}, "in_play":'
    ' null, "interactions": [], "player_seeds": [], "shown_in": null}, "last_reveal": null, "last_round_id":'
    ' null, "finishes": {}, "practice": false, "practice_rounds": [], "away": {}, "away_rounds": 3,'
    ' "invited": [], "thread_id": null, "lobby_message_id": null}'
)
"""A lobby as the bot saved it before computer seats were data (format 1)."""


def lobby(*members: int) -> Table:
    table = transitions.open_lobby("t1", 1, 2, members[0], 5, 200, 60, NOW)
    for m in members:
        transitions.join(table, m, f"m{m}", NOW)
    return table


def test_a_lobby_is_made_and_joined_without_a_database() -> None:
    table = transitions.open_lobby("t1", 1, 2, ANN, 5, 200, 60, NOW)
    step = transitions.join(table, ANN, "Ann", NOW)
    assert step.postings == [Posting(ANN, -200, "buy_in")] and step.events == []
    assert table.seats == [ANN] and table.lobby_stacks == {ANN: 200}
    with pytest.raises(TableError) as refused:
        transitions.join(table, ANN, "Ann", NOW)
    assert refused.value.code == "already_seated"
    step = transitions.add_computer(table, ANN, False, "basic", NOW)
    assert step.postings == [Posting(HOUSE_ID, -200, "buy_in")]
    assert table.computers == {-1: ComputerSeat("basic", 1)} and -1 not in table.names


def test_host_checks_are_transitions_and_refuse_before_changing_anything() -> None:
    table = lobby(ANN, BEN, CAT)
    before = table.to_json()
    for refused_code, command in (
        ("host_starts", lambda: transitions.start(table, BEN, False, NOW, 8.0)),
        ("host_adds_computers", lambda: transitions.add_computer(table, BEN, False, "basic", NOW)),
        ("host_removes_computers", lambda: transitions.remove_computer(table, BEN, False, NOW)),
        ("cancel_not_allowed", lambda: transitions.cancel(table, BEN, False)),
        ("stop_not_allowed", lambda: transitions.stop(table, BEN, False, NOW, 8.0)),
        ("stop_before_start", lambda: transitions.stop(table, ANN, False, NOW, 8.0)),
    ):
        with pytest.raises(TableError) as refused:
            command()
        assert refused.value.code == refused_code
    assert table.to_json() == before
    transitions.start(table, BEN, True, NOW, 8.0)  # a manager may start it
    assert table.status == "playing"


def test_a_game_is_played_to_its_end_with_chips_and_deadlines_from_the_transitions() -> None:
    table = lobby(ANN, BEN, CAT)
    step = transitions.start(table, ANN, False, NOW, 8.0)
    game = table.game
    assert game is not None and step.events and step.postings == []
    assert table.turn_deadline == NOW + 60 and transitions.deadline(table) == NOW + 60
    assert transitions.due(table, NOW) is None and transitions.due(table, NOW + 60) == "timeout"
    rng = random.Random(4)
    cashed = 0
    while not game.over:
        if game.in_round:
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)])
            step = transitions.apply(table, action, NOW, 8.0)
        else:
            assert table.next_round_at == NOW + 8.0 and transitions.due(table, NOW + 8.0) == "deal"
            with pytest.raises(TableError):
                transitions.stop(table, BEN, False, NOW, 8.0)
            step = transitions.stop(table, ANN, False, NOW, 8.0)
        cashed += sum(p.change for p in step.postings if p.reason == "cash_out")
    assert table.status == "closed" and cashed == 600 and transitions.deadline(table) is None


def test_a_stop_asked_for_during_a_round_waits_for_its_end() -> None:
    table = lobby(ANN, BEN, CAT)
    transitions.start(table, ANN, False, NOW, 8.0)
    step = transitions.stop(table, ANN, False, NOW, 8.0)
    assert step.later and table.stop_after_round and step.events == []


def play_the_round(table: Table, seed: int = 4) -> None:
    """Random legal moves (no one leaves) until the round in play ends."""
    game = table.game
    assert game is not None
    rng = random.Random(seed)
    while game.in_round:
        action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)])
        transitions.apply(table, action, NOW, 8.0)


def test_a_host_who_leaves_the_game_hands_it_to_a_member_still_seated() -> None:
    """Stop (R8.2) is the host's: once the host has left, the first member still playing holds it."""
    table = lobby(ANN, BEN, CAT)
    transitions.start(table, ANN, False, NOW, 8.0)
    transitions.leave_after_round(table, ANN, NOW, 8.0)  # during the round: still the host until it ends
    assert table.host_id == ANN
    play_the_round(table)
    transitions.next_round(table, NOW, 8.0)
    game = table.game
    assert game is not None and not game.over and str(ANN) not in game.seated
    assert table.host_id == BEN
    with pytest.raises(TableError) as refused:
        transitions.stop(table, ANN, False, NOW, 8.0)
    assert refused.value.code == "stop_not_allowed"
    assert transitions.stop(table, BEN, False, NOW, 8.0).later and table.stop_after_round


def test_a_host_leaving_between_rounds_hands_it_over_at_once() -> None:
    table = lobby(ANN, BEN, CAT)
    transitions.start(table, ANN, False, NOW, 8.0)
    transitions.away(table, BEN)  # away members are still seated, but the one playing on comes first
    play_the_round(table)
    assert table.game is not None and not table.game.over
    transitions.leave_after_round(table, ANN, NOW, 8.0)
    assert table.host_id == CAT


def test_an_invitation_to_play_again_ends_when_the_game_starts() -> None:
    """A member asked to play again who did not join is no part of the game: the table names them no more
    (``/flipflop privacy forget`` waits only for tables that hold a member)."""
    dan = 14
    table = lobby(ANN, BEN, CAT)
    transitions.invite(table, [BEN, CAT, dan])
    assert table.invited == [BEN, CAT, dan]
    transitions.start(table, ANN, False, NOW, 8.0)
    assert table.invited == [] and str(dan) not in json.dumps(table.to_json())


def test_a_lobby_expires_after_its_idle_time() -> None:
    table = lobby(ANN)
    assert transitions.deadline(table) == NOW + LOBBY_IDLE_SECONDS
    assert transitions.due(table, NOW + LOBBY_IDLE_SECONDS) == "expire"
    step = transitions.close(table)
    assert table.status == "closed" and step.postings == [Posting(ANN, 200, "refund")]


def test_a_practice_table_moves_no_chips() -> None:
    table = transitions.open_lobby("t1", 1, 2, ANN, 5, 200, 60, NOW, practice=True)
    assert transitions.join(table, ANN, "Ann", NOW).postings == []
    assert transitions.seat_computer(table, "basic", NOW).postings == []


def test_a_computer_seat_round_trips_as_data() -> None:
    table = lobby(ANN)
    transitions.seat_computer(table, "strong", NOW)
    transitions.seat_computer(table, "basic", NOW)
    saved = json.loads(json.dumps(table.to_json()))
    assert saved["computers"] == {
        "-1": {"level": "strong", "number": 1},
        "-2": {"level": "basic", "number": 2},
    }
    assert "-1" not in saved["names"] and "🤖" not in json.dumps(saved, ensure_ascii=False)
    again = Table.from_json(saved)
    assert again.computers == {-1: ComputerSeat("strong", 1), -2: ComputerSeat("basic", 2)}
    assert again.to_json() == table.to_json()
    assert seat_name(again, texts("en"), -2) == "🤖 Basic 2" and seat_name(again, texts("en"), ANN) == "m11"


def test_a_table_saved_in_the_earlier_format_still_loads() -> None:
    table = Table.from_json(json.loads(FORMAT_1_LOBBY))
    assert table.computers == {-1: ComputerSeat("basic", 1), -2: ComputerSeat("strong", 2)}
    assert table.names == {ANN: "Ann", BEN: "Ben"}
    names = [seat_name(table, texts("en"), s) for s in table.seats]
    assert names == ["Ann", "Ben", "🤖 Basic 1", "🤖 Strong 2"]
    assert table.to_json()["format"] == 2 and Table.from_json(table.to_json()).computers == table.computers
    transitions.start(table, ANN, False, NOW, 8.0)  # and it plays on
    assert table.game is not None and table.game.public_view().round_number == 1


def test_the_moves_the_computer_makes_for_an_away_member_are_kept_with_the_round() -> None:
    """By their index in the round's transcript; the seats away for some of the round kept too
    (one that never had a move while away among them); saved with the table; a new deal starts over."""
    table = lobby(ANN, BEN, CAT)
    transitions.start(table, ANN, False, NOW, 8.0)
    game = table.game
    assert game is not None and game.round is not None and table.away_moves == {}
    rng = random.Random(4)
    first = game.to_act
    assert first is not None
    transitions.timed_out(table, int(first))  # the computer plays the turn that ran out
    other = next(p for p in game.round.players if p != first)
    transitions.away(table, int(other))
    transitions.back(table, int(other), NOW)  # back before their turn: away, with no move of theirs made
    made: list[int] = []
    while game.in_round:
        player = game.to_act
        assert player is not None
        by_timer = player == first
        before = len(game.round_transcript()["rounds"][0]["actions"])  # type: ignore[index]
        action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Leave)])
        transitions.apply(table, action, NOW, 8.0, by_timer=by_timer)
        after = len(game.round_transcript()["rounds"][0]["actions"])  # type: ignore[index]
        made += list(range(before, after)) if by_timer else []
    assert made and table.away_moves == {first: made, other: []}
    actions = game.round_transcript()["rounds"][0]["actions"]  # type: ignore[index]
    assert all(actions[i][0] == first for i in made)
    saved = Table.from_json(json.loads(json.dumps(table.to_json())))  # a restart keeps them
    assert saved.away_moves == table.away_moves
    old = table.to_json()
    del old["away_moves"]  # a table saved before they were kept
    assert Table.from_json(old).away_moves == {}
    if not game.over:
        transitions.next_round(table, NOW + 8.0, 8.0)
        assert game.over or table.away_moves == {first: []}  # still away: from the next deal on
