"""The live page's words as it puts them together (``web/replay/js/table.js``)."""

from __future__ import annotations

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
