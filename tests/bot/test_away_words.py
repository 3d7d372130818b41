"""The away rule counts its rounds as each language counts: "after 1 round away", not "after 1 rounds"."""

from __future__ import annotations

import pytest

from bot.i18n import texts
from bot.i18n.languages import LANGUAGES
from bot.presentation.table_render import away_rule, notice_line
from bot.table.model import Table
from bot.table.notices import WentAway
from cogs.flipflop.hands import away_note
from tests.bot.test_round_log_lines import table as a_table


def table(rounds: int, practice: bool = False) -> Table:
    return a_table(practice=practice, away_rounds=rounds)


def said(lang: str, rounds: int) -> list[str]:
    """Every sentence that names the away rounds, for a table that releases a seat after ``rounds``."""
    t = texts(lang)
    lines = [away_rule(table(rounds), t), away_rule(table(rounds, practice=True), t)]
    lines += [away_note(t, table(rounds)), away_note(t, table(rounds, practice=True))]
    for timed_out in (False, True):
        line = notice_line(table(rounds), WentAway(player=11, timed_out=timed_out, rounds=rounds), t)
        assert line is not None
        lines.append(line)
    return lines


def test_english_says_one_round_and_many_rounds() -> None:
    for line in said("en", 1):
        assert "1 round away" in line and "rounds" not in line, line
    for rounds in (2, 10):
        for line in said("en", rounds):
            assert f"{rounds} rounds away" in line, line


@pytest.mark.parametrize(
    ("rounds", "word"),
    [(1, "1 раўнда "), (21, "21 раўнда "), (2, "2 раўндаў"), (5, "5 раўндаў"), (11, "11 раўндаў")],
)
def test_belarusian_takes_the_form_its_number_asks_for(rounds: int, word: str) -> None:
    for line in said("be", rounds):
        assert word in line, line


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rounds", [1, 3])
def test_every_language_names_the_rounds_in_every_away_sentence(lang: str, rounds: int) -> None:
    t = texts(lang)
    for line in said(lang, rounds):
        assert t.number(rounds) in line and "{" not in line, line


def test_the_hand_that_answers_away_on_its_turn_says_it_once() -> None:
    """The answer to **Away** (its note) says the member is away; on their own turn the hand's line
    "You're away: the computer plays this turn…" said it a second time (a reviewer found it)."""
    from bot.presentation.table_render import hand_text
    from bot.table import transitions
    from engine import Game, Seat

    t = texts("en")
    played = table(3)
    played.game = Game([Seat("11", 40), Seat("12", 40), Seat("13", 40)], 5)
    played.fair.commit(1)
    transitions.deal(played)
    to_act = played.game.public_view().to_act
    assert to_act is not None
    played.away = {int(to_act): 0}
    shown = hand_text(played, played.game.view(to_act), t, away_note(t, played), None, away_said=True)
    assert shown.count("You're away") == 1 and "Your turn" in shown, shown
    again = hand_text(played, played.game.view(to_act), t)  # shown again later: the hand's own line
    assert again.count("You're away") == 1, again
