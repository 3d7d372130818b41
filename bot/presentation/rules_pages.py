"""``/flipflop rules`` in short pages, and the one-line tip on a player's first hand.

The texts are catalog messages (so every language has them), in our own words from RULES.md; each page
fits one embed (title ≤ 256, description ≤ 4096 characters) in every language. They name no
slash command: commands are localized in Discord's picker, so a page shows words that match
what each player sees. The tip's ``{rules}`` is filled in with a mention of ``/flipflop rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n.catalogs import N_, Texts, texts
from bot.i18n.languages import LANGUAGES, language_name
from bot.presentation.first_game import HELP_TITLE, help_parts


@dataclass(frozen=True)
class RulesPage:
    """One page: an embed's title and description, as English msgids."""

    title: str
    body: str


PAGES: tuple[RulesPage, ...] = (
    RulesPage(  # R2.3, R8.1
        N_("The goal and the three pots"),
        N_(
            "Flip Flop is a rummy card game for 3 to 5 players, close to Tonk, played for chips.\n\n"
            "Every round has three pots: the **game** pot, the **flip** pot and the **flop** pot. "
            "Before each deal every player pays one stake into each pot.\n\n"
            "Win pots, and keep enough chips to stay in the game."
        ),
    ),
    RulesPage(  # R1.3, R3.2, R3.3, R5.1-R5.6
        N_("The deal: upcard, flip and flop"),
        N_(
            "The dealer deals 5 cards to each player. The dealer's last card is dealt face up: "
            "the **upcard**. It stays in the dealer's hand.\n\n"
            "The **flip suit** is the upcard's suit; "
            "the **flop suit** is the other suit of the same colour.\n\n"
            "On your first turn you show your lowest flip card and your lowest flop card when they beat "
            "the ones shown before. The lowest flip card wins the flip pot (the upcard counts, so the "
            "dealer wins it if nobody shows a lower one); the lowest flop card wins the flop pot. "
            "If nobody holds the flop suit, the flop pot waits for the next round.\n\n"
            "Card values: ace 1, 2 to 10 as printed, jack, queen and king 10."
        ),
    ),
    RulesPage(  # R6.2-R6.7, R7.1, R7.3
        N_("Your turn"),
        N_(
            "1. **Draw** the top card of the stock or of the discard pile.\n"
            "2. **Spread**: lay down runs (3 or more cards of one suit in order, ace low) "
            "and sets (3 or 4 cards of one rank).\n"
            "3. **Lay off**: add cards to any spread on the table, yours or another player's.\n"
            "4. **Discard** one card face up (not the one you just took from the discard pile).\n\n"
            "Empty your hand and you are **out**: you win the game pot. If you draw the last card "
            "of the stock, the round ends and the lowest hand wins the game pot."
        ),
    ),
    RulesPage(  # R6.1, R7.2
        N_("Drop and caught drops"),
        N_(
            "At the start of your turn, instead of drawing, you may **drop**: you show your hand "
            "and claim it is the lowest. Then everyone shows.\n\n"
            "If every other hand is higher, you win the game pot.\n\n"
            "If another hand is as low as yours or lower, you are **caught**: you pay one extra "
            "stake into the game pot, and the lowest hand takes the pot (a tie shares it)."
        ),
    ),
    RulesPage(  # R7.4, R4.1-R4.3
        N_("Tonk out, 49 and 50"),
        N_(
            "**Tonk out**: with six cards after your draw, lay down your whole hand as two new "
            "spreads of three cards, with no lay-off and no discard. You win the game pot and "
            "every other player pays you one extra stake.\n\n"
            "**50 and 49**: a dealt hand worth exactly 50 wins the game pot at once, and every other "
            "player pays one extra stake into it. Otherwise a dealt hand worth 49 wins the game pot. "
            "The flip and flop are settled from the dealt cards and the round ends."
        ),
    ),
    RulesPage(  # R2.1-R2.7, R8.1-R8.4
        N_("Chips, stakes and leaving"),
        N_(
            "You sit down with a **buy-in** of chips from your balance. The table's **stake** is "
            "what one pot costs.\n\n"
            "With 4 stakes or more you pay into all three pots; with 3, into the game and flip pots; "
            "with 2, into the game pot only; with 1 you go **all in** for the game pot. "
            "With less than one stake you are out of the game.\n\n"
            "You may leave between rounds; leaving during a round gives that round up. "
            "When you leave or the game ends, your chips go back to your balance.\n\n"
            "A game starts with 3 to 5 players and goes on while at least two have chips to play: "
            "when others leave, run out of chips or are removed, the last rounds may be played by two. "
            "The game ends when only one player can still pay, or when the host stops it between rounds."
        ),
    ),
    RulesPage(
        N_("Turn pings and seasons"),
        N_(
            "**Turn pings**: when your turn starts and your hand is not open, the bot mentions you "
            "once in the table's channel, and removes that message as soon as you play. Computers are "
            "never mentioned. The notify command turns your pings off, or on again.\n\n"
            "**Seasons**: besides all time, the leaderboard shows the current season and the previous "
            "one: chips won, rounds won and rating change in that time. A season is a calendar month "
            "(UTC), or 2, 3, 4, 6 or 12 months counted from January if the server chose so. Nothing "
            "resets when a season ends: your balance and your rating carry on, and a finished season's "
            "standings stay there for good."
        ),
    ),
    RulesPage(
        N_("Threads, away and playing again"),
        N_(
            "Need a moment? Click **Away** in your hand: the basic computer player plays your seat "
            "with your own chips until you click **I'm back**, in your hand or on the table. "
            "If your turn runs out, you are put in away mode the same way; nobody is removed for "
            "being slow. Everyone sees who is away.\n\n"
            "After 3 rounds away your seat is released and your stack goes back to your balance. "
            "A server manager may choose from 1 to 10 rounds instead; the table always says how many.\n\n"
            "When a game ends, **Play again** under the final standings opens a new table with the same "
            "stake and buy-in, naming the last game's players: each joins with one click and pays the "
            "buy-in again.\n\n"
            "When the host starts, the game moves to a thread of its own, opened from the lobby, so the "
            "channel stays free for talk; when it ends, the lobby shows the final standings with a link "
            "to the thread. In a forum, each table is a post of its own. A server manager may have "
            "games played in the channel instead."
        ),
    ),
    RulesPage(
        N_("Tournaments"),
        N_(
            "A **sit-and-go tournament** is opened in a channel with an entry fee, 6 to 25 seats, a start "
            "(when every seat is taken, or at a set time), how often the stake rises and how the prizes "
            "are split: winner takes all, 65/35 or 50/30/20. **Join** pays the entry fee from your "
            "balance; **Leave** gives it back before the start, and so does a cancelled tournament. "
            "If the host allows computer players, they fill the empty seats at the start; the house "
            "pays their fees and takes their prizes.\n\n"
            "Everyone starts with 1,000 tournament chips, which are not server chips, at tables of 3 "
            "to 5, each in a thread of its own. Every table plays one round, then the next round is "
            "dealt at all of them. The stake starts at 10 and rises every few rounds; a stack that "
            "can't pay the stake is out, and players out in the same round are placed by what they "
            "had left. Between rounds, tables are broken and evened out: a seat moves with its "
            "stack, and the move is announced. The last table plays until fewer than three are left; "
            "the bigger stack finishes higher.\n\n"
            "If your turn runs out, the computer plays your seat until you're back; a seat that stays "
            "away is blinded out as the stake rises. If the tournament can't go on (no member left "
            "in it, or the host or an admin stops it), the players still in are placed by their "
            "stacks. The prizes are the entry fees, paid to balances by those places."
        ),
    ),
)

PAGE_FOOTER = N_("Page {page} of {pages}")
"""The footer of each rules page; ``{page}`` and ``{pages}`` are numbers."""

FIRST_HAND_TIP = N_(
    "Tip: on your turn draw a card, lay down or lay off what you can, then discard one. "
    "{rules} explains it all."
)
"""Shown once, on a player's first hand ever: enough to play by, with the way to the rest."""

IN_SHORT = N_(
    "Flip Flop is a rummy card game for 3 to 5 players, played for chips, with three pots: "
    "game, flip and flop. Each player gets 5 cards; the dealer's last card, the upcard, is dealt "
    "face up. The flip pot goes to the lowest card shown of the upcard's suit, the flop pot to the "
    "lowest card of the other suit of the same colour. On your turn: drop (claim the lowest hand), "
    "or draw, lay down runs and sets, lay off, and discard. Go out, tonk out (two spreads of three "
    "in one turn), win a drop, or hold the lowest hand when the stock runs out to take the game pot."
)
"""The README's short "How to play" (``python -m bot.presentation.rules_pages --readme``)."""
TOURNAMENTS_IN_SHORT = N_(
    "Tournaments: a host opens a sit-and-go for 6 to 25 players with an entry fee. Everyone plays "
    "with 1,000 tournament chips at tables of 3 to 5, the stake rises every few rounds, tables are "
    "evened out as players go out, and the entry fees are the prizes (winner takes all, 65/35 or "
    "50/30/20)."
)
"""The README's short word on tournaments, under ``IN_SHORT``."""
WHOLE_RULES = N_("All the rules: {link}")
"""The line under the short text that links to the language's full pages."""


@dataclass(frozen=True)
class ShownPage:
    """A page in one language: the embed's title, description and footer."""

    title: str
    body: str
    footer: str


def rules_pages(t: Texts) -> list[ShownPage]:
    """The pages in ``t``'s language, each with its "Page 2 of 6" footer."""
    count = t.number(len(PAGES))
    return [
        ShownPage(
            t.gettext(page.title),
            t.gettext(page.body),
            t.gettext(PAGE_FOOTER).format(page=t.number(number), pages=count),
        )
        for number, page in enumerate(PAGES, start=1)
    ]


def how_to_play() -> str:
    """docs/HOW_TO_PLAY.md: the rules pages in every language, one section each.

    Made from the catalogs, so the README's "How to play" says exactly what ``/flipflop rules``
    says; ``python -m bot.presentation.rules_pages > docs/HOW_TO_PLAY.md`` rewrites it and a test keeps it so.
    """
    lines = [
        "# How to play Flip Flop",
        "",
        "<!-- Made by `python -m bot.presentation.rules_pages > docs/HOW_TO_PLAY.md` from locales/; "
        "do not edit. -->",
        "",
        "A first game as `/flipflop help` explains it, then the rules as `/flipflop rules` shows them, "
        "in every language the bot speaks: "
        + " · ".join(f"[{language_name(code)}](#{code})" for code in LANGUAGES)
        + ".",
    ]
    for code in LANGUAGES:
        lines += ["", f'<a id="{code}"></a>', "", f"## {language_name(code)}"]
        lines += ["", f"### {texts(code).gettext(HELP_TITLE)}", "", "\n\n".join(help_parts(texts(code)))]
        for page in rules_pages(texts(code)):
            lines += ["", f"### {page.title}", "", page.body]
    return "\n".join(lines) + "\n"


def readme_section() -> str:
    """The README's short "How to play" in every language, from the catalogs.

    Each language gets its name, the short text and a link to its full pages in
    docs/HOW_TO_PLAY.md; ``python -m bot.presentation.rules_pages --readme`` prints it.
    """
    lines = ["<!-- Made by `python -m bot.presentation.rules_pages --readme` from locales/; do not edit. -->"]
    for code in LANGUAGES:
        t = texts(code)
        link = f"[docs/HOW_TO_PLAY.md#{code}](docs/HOW_TO_PLAY.md#{code})"
        lines += [
            "",
            f"#### {language_name(code)}",
            "",
            t.gettext(IN_SHORT),
            "",
            t.gettext(TOURNAMENTS_IN_SHORT),
            "",
            t.gettext(WHOLE_RULES).format(link=link),
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> str:
    """``python -m bot.presentation.rules_pages``: docs/HOW_TO_PLAY.md (``--readme``: a README section)."""
    return readme_section() if "--readme" in argv else how_to_play()


if __name__ == "__main__":
    import sys

    print(main(sys.argv[1:]), end="")
