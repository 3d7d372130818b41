"""What a player's private hand says of their place in the game: playing, left, out, over."""

from __future__ import annotations

import random

from bot.i18n import texts
from bot.presentation.table_render import hand_text
from bot.table import transitions
from bot.table.model import Table
from engine import Drop, Leave

EN = texts("en")
ANN, BEN, CAT, DAN = 11, 12, 13, 14
NOW = 1000.0


def four_playing(buy_in: int = 200) -> Table:
    """Four members at a table, its first round dealt."""
    table = transitions.open_lobby("t1", 1, 2, ANN, 5, buy_in, 60, NOW)
    for member in (ANN, BEN, CAT, DAN):
        transitions.join(table, member, f"m{member}", NOW)
    transitions.start(table, ANN, False, NOW, 8.0)
    return table


def play_out(table: Table, rng: random.Random, drop: bool = True) -> None:
    """The round in play to its end: whoever may drops (``drop``), else a random move; no one leaves."""
    game = table.game
    assert game is not None
    while game.in_round:
        moves = [a for a in game.legal_actions() if not isinstance(a, Leave)]
        dropping = [a for a in moves if isinstance(a, Drop)] if drop else []
        transitions.apply(table, dropping[0] if dropping else rng.choice(moves), NOW, 8.0)


def test_a_member_who_left_reads_so_until_the_game_is_over_then_that_it_is() -> None:
    table = four_playing()
    game = table.game
    assert game is not None and game.round is not None
    leaver = next(p for p in game.round.players if p != game.to_act)
    transitions.apply(table, Leave(leaver), NOW, 8.0)

    def says() -> str:
        assert table.game is not None
        return hand_text(table, table.game.view(leaver), EN)

    assert "You left this round; your stack comes back when it ends." in says()
    rng = random.Random(2)
    play_out(table, rng)
    assert "You're no longer playing at this table." in says()  # between rounds
    transitions.next_round(table, NOW, 8.0)
    assert game.in_round and "You're no longer playing at this table." in says()  # the next round
    transitions.stop(table, table.host_id, False, NOW, 8.0)  # the host (handed on if ANN left)
    play_out(table, rng)
    transitions.next_round(table, NOW, 8.0)  # the stop takes the game's end
    assert game.over and "The game is over" in says()
    assert "no longer playing" not in says() and "You left" not in says()


def test_a_member_out_between_rounds_is_not_told_the_next_deal_comes() -> None:
    """Left at once between rounds (R8.4): no "the next deal starts by itself" for them."""
    table = four_playing(buy_in=20)
    game = table.game
    assert game is not None
    play_out(table, random.Random(5), drop=False)
    leaver = next(p for p in game.seated if int(p) != table.host_id)
    transitions.leave_after_round(table, int(leaver), NOW, 8.0)  # between rounds: at once
    text = hand_text(table, game.view(leaver), EN)
    assert "You're no longer playing at this table." in text and "next deal" not in text, text
    for p in game.public_view().players:  # whoever else is still seated reads the usual line
        if p in game.seated and p != leaver:
            assert "The next deal starts by itself." in hand_text(table, game.view(p), EN)


def test_an_away_members_turn_says_the_computer_plays_it_not_a_timer() -> None:
    """Seen in a playtest: an away member's hand said "Your turn … time runs out" while the computer
    was about to play it. It says the computer plays the turn unless they move first."""
    table = four_playing()
    game = table.game
    assert game is not None and game.to_act is not None
    table.turn_deadline = NOW + 60
    actor = game.to_act
    here = hand_text(table, game.view(actor), EN)
    assert "Time runs out" in here and "You're away" not in here
    transitions.away(table, int(actor))
    away = hand_text(table, game.view(actor), EN)
    assert "▶️ **Your turn.**" in away and "Time runs out" not in away
    assert "💤 You're away: the computer plays this turn for you, unless you move first." in away
    waiting = next(p for p in game.public_view().players if p != actor)  # seen in a playtest: between
    transitions.away(table, int(waiting))  # turns the hand said only "Not your turn yet"
    between = hand_text(table, game.view(waiting), EN)
    assert "Not your turn yet" in between and "until you click **I'm back**" in between, between
    assert "until you click" not in hand_text(table, game.view(next(
        p for p in game.public_view().players if p not in (actor, waiting))), EN)


def test_at_a_tournament_table_the_stack_stays_in_the_tournament() -> None:
    """A tournament table plays one round: its hands never say a stack comes back (to a balance) or
    that the game is over while the tournament goes on."""
    seats = [(m, 1000, f"m{m}", 0) for m in (ANN, BEN, CAT, DAN)]
    table, players = transitions.tournament_table(1, 2, 10, seats, [], 60, NOW, "abc123:1:1")
    transitions.tournament_round(table, players, {}, NOW)
    game = table.game
    assert game is not None and game.round is not None
    leaver = next(p for p in game.round.players if p != game.to_act)
    transitions.apply(table, Leave(leaver), NOW, 8.0)
    left = hand_text(table, game.view(leaver), EN)
    assert "your stack stays in the tournament" in left and "**I'm back**" in left
    assert "comes back when it ends" not in left
    player = next(p for p in game.round.players if p != leaver)
    play_out(table, random.Random(3))
    transitions.next_round(table, NOW, 8.0)  # its one round is over: the table's game ends
    over = hand_text(table, game.view(player), EN)
    assert game.over and "This table's round is over: your stack went back to the tournament" in over
    assert "The game is over" not in over
