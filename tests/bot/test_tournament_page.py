"""The tournament message in every language and every state: within Discord's limits, standings right."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.i18n import LANGUAGES, texts
from bot.presentation.limits import V2_TEXT
from bot.presentation.tournament_page import tournament_page
from bot.tournament.model import Tournament, TournamentSettings
from tests.bot.test_tournament_model import play_round


def played(status: str) -> Tournament:
    t = Tournament(
        "abc123", 1, 2, 1, TournamentSettings(fee=10**6, seats=25, level_rounds=1, start="time", start_at=5e9)
    )
    for e in range(1, 26):
        t.join(e if e < 20 else -e, "Ŵ" * 32 if e < 20 else "", paid_by=None if e < 20 else 0)
    if status == "open":
        return t
    if status == "cancelled":
        t.cancel()
        return t
    t.start(list(t.entrants))
    rng = random.Random(1)
    while t.status == "running" and (status == "finished" or t.round < 3):
        play_round(t, rng)
        t.advance()
    return t


@pytest.mark.parametrize("status", ["open", "running", "finished", "cancelled"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_state_fits_in_every_language(status: str, language: str) -> None:
    tour = played(status)
    page = tournament_page(tour, texts(language))
    assert page.length <= V2_TEXT and len(page.displays()) <= 6
    assert "tournament" not in page.title or language == "en"
    if status == "running":
        assert "Ŵ" in "".join(page.displays())


def test_standings_show_table_stack_and_place() -> None:
    tour = played("running")
    text = "\n".join(tournament_page(tour, texts("en")).displays())
    leader = tour.standings()[0][0]
    assert f"1\\. **{'Ŵ' * 32 if leader > 0 else ''}" in text or "1\\. **🤖 Basic" in text
    assert f"table {tour.table_of(leader)} · stack {tour.entrants[leader].stack:,}" in text
    assert "Level 4: stake **50**" in text


def test_a_forgotten_member_is_no_computer_and_no_name() -> None:
    from bot.presentation.tournament_page import entrant_name
    from bot.privacy import PSEUDONYM_FLOOR

    tour = played("finished")
    pseudonym = PSEUDONYM_FLOOR - 123456  # what /flipflop privacy forget leaves in a finished tournament
    assert entrant_name(tour, pseudonym, texts("en")) == f"👤 {str(pseudonym)[-4:]}"
    assert entrant_name(tour, -3, texts("en")) == "🤖 Basic 3"


def test_one_table_and_one_round_a_level_read_in_the_singular() -> None:
    """A stake rising every round reads "every round", and the last table "1 table", never "1 tables"."""
    tour = played("open")  # level_rounds=1
    text = "\n".join(tournament_page(tour, texts("en")).displays())
    assert "rises every round;" in text and "every 1 rounds" not in text
    tour.settings = dataclasses.replace(tour.settings, level_rounds=3)
    assert "rises every 3 rounds;" in "\n".join(tournament_page(tour, texts("en")).displays())
    rng = random.Random(2)
    running = played("running")
    while running.status == "running" and len(running.tables) > 1:
        play_round(running, rng)
        running.advance()
    assert running.status == "running" and len(running.tables) == 1
    level = "\n".join(tournament_page(running, texts("en")).displays())
    assert " · 1 table · " in level and "1 tables" not in level
