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
    """One page: an embed's title and description, as message ids (``rules.goal.title``)."""

    title: str
    body: str


PAGES: tuple[RulesPage, ...] = (
    RulesPage(  # R2.3, R8.1
        N_("rules.goal.title"),
        N_("rules.goal.body"),
    ),
    RulesPage(  # R1.3, R3.2, R3.3, R5.1-R5.6
        N_("rules.deal.title"),
        N_("rules.deal.body"),
    ),
    RulesPage(  # R6.2-R6.7, R7.1, R7.3
        N_("rules.turn.title"),
        N_("rules.turn.body"),
    ),
    RulesPage(  # R6.1, R7.2
        N_("rules.drop.title"),
        N_("rules.drop.body"),
    ),
    RulesPage(  # R7.4, R4.1-R4.3
        N_("rules.tonk.title"),
        N_("rules.tonk.body"),
    ),
    RulesPage(  # R2.1-R2.7, R8.1-R8.4
        N_("rules.chips.title"),
        N_("rules.chips.body"),
    ),
    RulesPage(
        N_("rules.pings.title"),
        N_("rules.pings.body"),
    ),
    RulesPage(
        N_("rules.away.title"),
        N_("rules.away.body"),
    ),
    RulesPage(
        N_("rules.tournaments.title"),
        N_("rules.tournaments.body"),
    ),
)

PAGE_FOOTER = N_("rules.page_footer")
"""The footer of each rules page; ``{page}`` and ``{pages}`` are numbers."""

FIRST_HAND_TIP = N_("rules.first_hand_tip")
"""Shown once, on a player's first hand ever: enough to play by, with the way to the rest."""

IN_SHORT = N_("rules.in_short")
"""The README's short "How to play" (``python -m bot.presentation.rules_pages --readme``)."""
TOURNAMENTS_IN_SHORT = N_("rules.tournaments_in_short")
"""The README's short word on tournaments, under ``IN_SHORT``."""
WHOLE_RULES = N_("rules.whole_rules")
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
