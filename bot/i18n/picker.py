"""The words of the ``/flipflop language`` picker, ready for whoever builds the command.

The options themselves are CLDR language names (``languages.picker_label``); these are the
sentences around them, in every catalog.
"""

from __future__ import annotations

from bot.i18n.catalogs import N_, Texts
from bot.i18n.languages import LANGUAGES, picker_label

PLACEHOLDER = N_("Choose your language")
"""The select menu's placeholder (≤ 150 characters in every language)."""

SERVER_DEFAULT = N_("The server's language")
"""The option that clears a member's own choice and follows the server again."""

SAVED = N_("From now on I write to you in {language}.")
"""Said (in the new language) after a member picks one; ``{language}`` is its name."""

CLEARED = N_("You now follow the server's language: {language}.")
"""Said after a member goes back to the server's language."""

NOT_A_LANGUAGE = N_("I don't speak that language. Please choose one from the list.")
"""The refusal for a code that is not one of ``LANGUAGES`` (e.g. a stale menu)."""


def options(reader: Texts) -> list[tuple[str, str]]:
    """(value, label) for each select option, the server-default option first (value "")."""
    return [("", reader.gettext(SERVER_DEFAULT))] + [
        (code, picker_label(code, reader.language)) for code in LANGUAGES
    ]
