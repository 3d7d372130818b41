"""The live page's words as it puts them together (``web/replay/js/table.js``)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import texts
from bot.live.words import page_words


def test_belarusian_pot_names_read_after_won_and_plays_for() -> None:
    """The page writes a pot's name into "won {pot}" and "plays for {pots}": in Belarusian "plays for" takes
    the accusative, so the game pot is "банк гульні" (the same in either case), never "гуляе за гульня";
    "won" is a noun before it ("выйгрыш: …", whoever sits there), never a man's past tense."""
    words = page_words(texts("be"))
    pots = ", ".join(words[p] for p in ("potGame", "potFlip", "potFlop"))
    assert words["won"].format(pot=words["potGame"]) == "выйгрыш: банк гульні"
    assert words["playsFor"].format(pots=pots) == "гуляе за банк гульні, фліп, флоп"


def test_a_tournament_tables_end_is_not_game_over_on_the_page() -> None:
    """A tournament table's game is its one round: the page's turn line at its end (``over`` for any
    other table) has words of its own in every language, which ``web/live/js/live.js`` shows there, and
    the state tells the page that the game over is a tournament table's."""
    import random

    from bot.i18n import LANGUAGES
    from bot.live.state import viewer_state
    from bot.table import transitions
    from bot.tournament.rounds import basic
    from engine import Game

    for language in LANGUAGES:
        words = page_words(texts(language))
        assert words["tournamentOver"] and words["tournamentOver"] != words["over"], language
    en = page_words(texts("en"))
    assert en["over"] == "Game over."
    assert en["tournamentOver"] == "This table's round is over: its stacks went back to the tournament."
    script = (Path(__file__).resolve().parents[2] / "web" / "live" / "js" / "live.js").read_text()
    assert 'say("tournamentOver"' in script
    seats = [(1, 1000, "ann", 0), (2, 1000, "ben", 0), (3, 1000, "cat", 0)]
    table, players = transitions.tournament_table(1, 2, 10, seats, [], 60, 0.0, "t1:1:0")
    table.game, table.status = Game(players, 10), "playing"
    rng = random.Random(44)
    table.game.start_round(rng, dealer="1")
    while table.game.in_round:
        p = table.game.public_view().to_act
        assert p is not None
        transitions.apply(table, basic(table.game.view(p), rng), 0.0, 0.0)
    transitions.next_round(table, 0.0, 0.0)  # the table's one round is over
    info = viewer_state(table, 1, texts("en"), 0.0)["info"]
    assert info["over"] and info["tournament"]


def test_the_live_pages_heading_names_the_game_as_its_title_does() -> None:
    """The page's heading said "Flip Flop" in Latin letters in every language while its tab title said
    플립플롭 / ફ્લિપ ફ્લોપ, as the Korean and Gujarati rule sheets name the game: the heading's name is a
    word of the page, filled in by ``web/live/js/live.js`` as the title is."""
    from bot.i18n import LANGUAGES

    for language in LANGUAGES:
        words = page_words(texts(language))
        assert words["gameName"] in words["pageTitle"], language
    assert page_words(texts("ko"))["gameName"] == "플립플롭"
    assert page_words(texts("gu"))["gameName"] == "ફ્લિપ ફ્લોપ"
    web = Path(__file__).resolve().parents[2] / "web" / "live"
    assert 'byId("game-name").textContent = say("gameName"' in (web / "js" / "live.js").read_text()
    assert '<h1><span id="game-name">' in (web / "index.html").read_text()
