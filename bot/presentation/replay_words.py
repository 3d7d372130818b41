"""The replay page's words (``web/replay/``), in every language the bot speaks, as files beside it.

The page is static (any host serves it; it never calls the bot), so its words go with it:
``web/replay/words/<language>.json``, made from the catalogs by ``--write`` and committed
(``tests/bot/test_replay_words.py`` fails when they differ from what the catalogs give now).
Each word is a message id of the catalogs (``N_``), so ``tests/bot/test_catalogs.py`` keeps
all six languages whole. Where the page says what the bot already says, it says it with the
bot's message: the table's small print is the live page's (``bot.live.words``), a move's
caption the sentence of the bot's round log (``bot.presentation.event_words``), so one
translation serves both. The page fills the ``{name}``-style blanks itself, shows the bot's
``**bold**`` as plain text, and falls back to its English where a word is missing.

    python -m bot.presentation.replay_words --write    # after changing a word or a translation
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from babel import Locale

from bot.i18n import LANGUAGES, N_, Texts
from bot.i18n.catalogs import texts
from bot.live import words as live
from bot.presentation import event_words as said
from bot.presentation.replay_link import WATCH
from engine.assets import asset

FOLDER = asset("web", "replay", "words")
"""Where the page reads its words: ``words/<language>.json`` beside its ``index.html``."""

SHARED = (
    "round", "over", "faceDown", "stock", "discardPile", "upcard", "noSpreads", "dealer", "toAct", "left",
    "out", "won", "chips", "handValue", "playsFor", "showed", "potGame", "potFlip", "potFlop", "upcardMark",
    "suitTitle", "suitH", "suitD", "suitS", "suitC",
)  # fmt: skip
"""The live page's words the replay page shows too (the table's small print, "round {number}")."""

WORDS: dict[str, str] = {
    **{key: live.WORDS[key] for key in SHARED},
    # the page (web/replay/index.html, js/app.js)
    "pageTitle": N_("Flip Flop replay"),
    "tagline": N_(
        "A finished round, played back and checked in your browser. Nothing you open here is sent anywhere."
    ),
    "openRound": N_(
        "Open a round: follow a {watch} link from Discord, or drop the JSON file that {command} attaches"
        " here. Several files at once are stepped through round by round."
    ),
    "watch": WATCH,
    "pickFiles": N_("Pick files"),
    "language": N_("Language"),
    "previousRound": N_("« Round"),
    "previousRoundKey": N_("Previous round (Page Up)"),
    "nextRound": N_("Round »"),
    "nextRoundKey": N_("Next round (Page Down)"),
    "share": N_("Link to these rounds"),
    "shareTitle": N_("Put what is open into this page's address, to share it"),
    "stepThrough": N_("Step through the round"),
    "firstStep": N_("First step (Home)"),
    "back": N_("◀ Back"),
    "backKey": N_("Step back (←)"),
    "play": N_("▶ Play"),
    "pause": N_("⏸ Pause"),
    "playKey": N_("Play or pause (space)"),
    "forward": N_("Forward ▶"),
    "forwardKey": N_("Step forward (→)"),
    "lastStep": N_("Last step (End)"),
    "verify": N_("Verify this deal"),
    "moves": N_("Moves"),
    "howChecked": N_(
        "How the deal is checked: the commitment is SHA-256 of the revealed server seed; the deck comes"
        ' from HMAC-SHA256(server seed, "client seed:round:counter") and a Fisher–Yates shuffle, as'
        " docs/FAIRNESS.md in the bot's repository describes. This page computes both itself, with your"
        " browser's Web Crypto."
    ),
    "roundTitle": N_("Round {number}"),
    "roundIndex": N_("({index} of {count})"),
    "step": N_("step {number} of {count}"),
    "shared": N_("The address bar now links to these rounds ({count} characters)."),
    "copied": N_("Copied: the address bar now links to these rounds ({count} characters)."),
    # Verify this deal (js/app.js)
    "noSeeds": N_(
        "This round carries no seeds to check: it was dealt before the bot published its shuffles,"
        " or it was saved without them."
    ),
    "checksOut": N_("✔ This deal checks out"),
    "doesNotCheckOut": N_("✘ This deal does NOT check out"),
    "badSeed": N_("✘ the server seed is not 64 hex digits: {seed}"),
    "commitmentOk": N_(
        "✔ commitment: SHA-256(server seed) = {found}, the commitment published before the round"
    ),
    "commitmentBad": N_(
        "✘ commitment: SHA-256(server seed) is {found}, but the published commitment is {expected}:"
        " this is not the seed the bot committed to"
    ),
    "deckOk": N_("✔ deck: server seed + client seed + round number give exactly the deck dealt"),
    "deckBad": N_(
        "✘ deck: the seeds give another deck; the first difference is card {number}: the seeds give"
        " {found}, the round dealt {dealt}"
    ),
    "deckGiven": N_("the seeds give: {cards}"),
    # {index} counts seats from 0 as docs/FAIRNESS.md and docs/verify_deal.py do; {name} may be the
    # page's "seat {number}", which counts from 1, so the index is never called a seat here
    "dealerOk": N_(
        "✔ first dealer: the seeds draw {index} (0 is the first player who joined), that is {name}, who dealt"
    ),
    "dealerBad": N_(
        "✘ first dealer: the seeds draw {index} (0 is the first player who joined), that is {name},"
        " but {dealer} dealt"
    ),
    "seeds": N_("server seed {seed} · commitment {commitment} · client seed “{client}” · round {number}"),
    "checkFailed": N_("The check could not run: {error}"),
    "noCrypto": N_(
        "this browser has no Web Crypto (crypto.subtle): open the page over https or from localhost"
    ),
    # what can't be opened (js/app.js, js/codec.js, js/rules.js); the details of a broken file stay English
    "notOpened": N_("This round could not be opened: {error}"),
    "tooLong": N_(
        "This round is too long for a link. Open the JSON file that {command} attaches: drop it here"
        " or pick it below."
    ),
    "damaged": N_(
        "This link is damaged ({why}). Was it cut short when it was copied?"
        " Open the round's JSON file instead."
    ),
    "theLink": N_("The link"),
    "notJson": N_("{source} is not JSON (was it cut short or edited?)"),
    "newer": N_(
        "{source} was written in replay format {version}, newer than this page (it reads format {page}"
        " and older): open it with a newer copy of the replay page"
    ),
    "noRound": N_("{source} holds no round"),
    "notARound": N_("{source} is not a Flip Flop round: {why}"),
    "breaks": N_("{at} ({name}) breaks the rules: {why}"),
    "move": N_("{round}, move {number}"),
    # the moves and the captions (js/rules.js): the bot's round log says the same
    "seat": N_("seat {number}"),
    "dealMove": N_("Deal: upcard {card}"),
    "deals": said.DEALS,
    "playsForGame": said.PLAYS_FOR[("game",)],
    "playsForGameFlip": said.PLAYS_FOR[("game", "flip")],
    "playsAllIn": said.ALL_IN,
    "showsFlip": said.SHOWS["flip"],
    "showsFlop": said.SHOWS["flop"],
    **{f"wins{pot.title()}": said.WINS[pot] for pot in ("game", "flip", "flop")},
    **{f"split{pot.title()}": said.SPLIT[pot] for pot in ("game", "flip", "flop")},
    **{f"carried{pot.title()}": said.CARRIED[pot] for pot in ("game", "flip", "flop")},
    "sideStakeTo": said.SIDE_STAKE_TO,
    "sideStakeIn": said.SIDE_STAKE_IN,
    "endOut": said.END_TEXT["out"],
    "endTonk": said.END_TEXT["tonk"],
    "endDrop": said.END_TEXT["drop"],
    "endCaught": said.END_TEXT["caught"],
    "endStock": said.END_TEXT["stock"],
    "endFifty": said.END_TEXT["fifty"],
    "endFortyNine": said.END_TEXT["forty_nine"],
    "endEveryoneLeft": said.EVERYONE_LEFT,
    "and": said.AND,
    "drops": said.DROPS,
    "leftRound": said.LEFT_ROUND,
    "drewCard": said.DREW_CARD,
    "took": said.TOOK,
    "laidDown": said.LAID_DOWN,
    "laidOff": said.LAID_OFF,
    "discarded": said.DISCARDED,
}
"""Each word's key on the page, and its message id (English)."""

PLURALS: dict[str, tuple[str, str]] = {"chipCount": ("{count} chip", "{count} chips")}
"""Words with plural forms (``bot.i18n.Texts.chips``'s): the page picks one by ``Intl.PluralRules``."""

SAMPLE = range(1000)
"""The amounts each plural category is matched to a catalog form on (every rule looks at n % 100)."""


def plain(text: str) -> str:
    """The bot's Discord markdown as the page's plain text: ``**bold**`` loses its stars."""
    return text.replace("**", "")


def plural_forms(t: Texts, one: str, other: str) -> dict[str, str]:
    """Each CLDR plural category of ``t``'s language (the browser's ``Intl.PluralRules``) and its form."""
    locale = Locale.parse(t.language)
    forms: dict[str, str] = {}
    for n in SAMPLE:
        category = locale.plural_form(n)
        form = t.ngettext(one, other, n)
        if forms.setdefault(category, form) != form:
            raise ValueError(f"{t.language}: the catalog's plural forms split CLDR's {category!r} ({n})")
    return forms


def page_words(language: str) -> dict[str, object]:
    """The page's words in ``language`` (``lang``: its code, for ``<html lang>``), blanks left to fill."""
    t = texts(language)
    out: dict[str, object] = {"lang": language}
    out.update({key: plain(t.gettext(message)) for key, message in WORDS.items()})
    out.update({key: plural_forms(t, *forms) for key, forms in PLURALS.items()})
    return out


def word_file(language: str) -> str:
    """``words/<language>.json`` as committed: sorted keys, one a line, a newline at the end."""
    return json.dumps(page_words(language), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def stale(folder: Path = FOLDER) -> list[str]:
    """The languages whose committed file is missing or differs from what the catalogs give now."""
    return [
        lang
        for lang in LANGUAGES
        if not (folder / f"{lang}.json").exists()
        or (folder / f"{lang}.json").read_text(encoding="utf-8") != word_file(lang)
    ]


def main(argv: list[str] | None = None) -> int:
    """``--write``: (re)write every language's file; without it, say which are stale (status 1)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", action="store_true", help="write web/replay/words/<language>.json")
    args = parser.parse_args(argv)
    if args.write:
        FOLDER.mkdir(parents=True, exist_ok=True)
        for lang in LANGUAGES:
            (FOLDER / f"{lang}.json").write_text(word_file(lang), encoding="utf-8")
        return 0
    old = stale()
    if old:
        print(
            f"stale: {', '.join(old)}; run: python -m bot.presentation.replay_words --write", file=sys.stderr
        )
    return 1 if old else 0


if __name__ == "__main__":
    raise SystemExit(main())
