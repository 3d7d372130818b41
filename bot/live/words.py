"""The live page's own words, in the member's language: sent once, with the socket's hello.

What the table *says* (its caption, the last moves, the seats' names) comes drawn in the
server's language with every state, as the Discord table reads; the page's labels, buttons
and the table's small print (``web/replay/js/table.js``) are the member's, as their private
hand is. Each is a message id of the catalogs (``N_``), so ``tests/bot/test_catalogs.py``
keeps all six languages whole; the page fills ``{name}``-style blanks itself and falls back to
its English where a word is missing. The replay page shows the table's words too, in its reader's
language (``bot.presentation.replay_words``).
"""

from __future__ import annotations

from bot.i18n import N_, Texts
from bot.presentation.render import SUIT_WORD
from bot.presentation.table_render import (
    GAME_OVER,
    HAND_FINISHED,
    TOURNAMENT_HAND_FINISHED,
    TOURNAMENT_TABLE_OVER,
)

WORDS: dict[str, str] = {
    # the page (web/live/js/live.js)
    "pageTitle": N_("Flip Flop live table"),
    "gameName": N_("Flip Flop"),
    "liveTag": N_("live"),
    "signIn": N_(
        "Sign in with the private link /flipflop web sends you in Discord: it opens this page and works once."
    ),
    "yourCards": N_("Your cards: press a card to select it"),
    "yourMoves": N_("Your moves"),
    "theTable": N_("The table"),
    "faceDown": N_("a face-down card"),
    "clock": N_("⏱ {seconds} s"),
    "signedIn": N_("Signed in"),
    "watching": N_("Signed in · watching (hands stay hidden)"),
    "gone": N_("You're out of this game now: you can still watch the table."),
    "notSignedIn": N_("Not signed in"),
    "reconnecting": N_("Reconnecting… the table below may be behind."),
    "title": N_("Table {id} · stake {stake}"),
    "practiceTitle": N_("Practice table {id} · stake {stake}"),
    "round": N_("round {number}"),
    "yourHand": N_("Your hand"),
    "draw": N_("Draw from stock"),
    "take": N_("Take {card}"),
    "takeDiscard": N_("Take the discard"),
    "drop": N_("Drop"),
    "dropValue": N_("Drop ({value})"),
    "spread": N_("Lay down {cards}"),
    "spreadSelected": N_("Lay down selected"),
    "discard": N_("Discard {card}"),
    "discardSelected": N_("Discard selected"),
    "layoff": N_("Lay {card} off on spread {spread}"),
    "tonk": N_("Tonk out: {cards}"),
    "back": N_("I'm back"),
    "away": N_("💤 You're away: the basic computer plays your seat until you click I'm back."),
    "justDrawn": N_("{card} (just drawn)"),
    "notASpread": N_(
        "Those cards are not a run (3 or more in a row of one suit) or a set (3 or 4 of one rank)."
    ),
    "notThatDiscard": N_("You can't discard the card you took from the discard pile this turn."),
    "pickToDiscard": N_(
        "👆 Pick a card, then Discard it; or pick three or more that make a run or a set, then Lay down."
    ),
    "lastMoves": N_("Last moves"),
    "lobby": N_("Lobby: {names}. The game starts when the host clicks Start in Discord."),
    "closed": N_("This table has closed."),
    "handFinished": HAND_FINISHED,
    "tournamentHandFinished": TOURNAMENT_HAND_FINISHED,
    "over": GAME_OVER,
    "tournamentOver": TOURNAMENT_TABLE_OVER,
    "yourTurn": N_("Your turn."),
    "toActLine": N_("{name} to act."),
    "nextRound": N_("next round in {seconds} s"),
    # the table (web/replay/js/table.js)
    "stock": N_("stock {count}"),
    "discardPile": N_("discard {count}"),
    "upcard": N_("upcard (dealt)"),
    "noSpreads": N_("no spreads yet"),
    "dealer": N_("dealer"),
    "toAct": N_("to act"),
    "left": N_("left"),
    "out": N_("out"),
    "won": N_("won {pot}"),
    "chips": N_("{count} chips"),
    "handValue": N_("hand {value}"),
    "playsFor": N_("plays for {pots}"),
    "showed": N_("showed {cards}"),
    "potGame": N_("game"),
    "potFlip": N_("flip"),
    "potFlop": N_("flop"),
    "upcardMark": N_("upcard"),
    "newMark": N_("new"),
    "suitTitle": N_("{pot} suit: {suit}"),
    **{f"suit{suit}": word for suit, word in SUIT_WORD.items()},
}
"""Each word's key on the page, and its message id (English)."""


def page_words(t: Texts) -> dict[str, str]:
    """Every word of the page in ``t``'s language (its blanks left for the page to fill).

    And ``lang``: the language's code, for the page's ``<html lang>`` (a screen reader reads in it).
    """
    return {"lang": t.language, **{key: t.gettext(message) for key, message in WORDS.items()}}
