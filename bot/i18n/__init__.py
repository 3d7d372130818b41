"""Languages: gettext catalogs managed with Babel, language choice and Discord's command picker.

Every word a player reads comes from ``locales/<lang>/LC_MESSAGES/flipflop.po`` (English is
the source). Use it like this::

    t = texts(resolve_language(saved, str(interaction.locale), server_language(config)))
    t.gettext("Your turn.")  ·  t.chips(25)  ·  t.pgettext(COMMAND_NAME, "start")

Mark module-level messages with ``N_`` and translate them where they are shown.
"""

from bot.i18n.catalogs import LOCALES_DIR, N_, Texts, texts
from bot.i18n.discord_translator import COMMAND_NAME, CommandTranslator, is_valid_command_name
from bot.i18n.languages import (
    LANGUAGES,
    PSEUDO_LANGUAGE,
    SOURCE_LANGUAGE,
    language_name,
    picker_label,
    resolve_language,
    server_language,
)

__all__ = [
    "COMMAND_NAME",
    "LANGUAGES",
    "LOCALES_DIR",
    "N_",
    "PSEUDO_LANGUAGE",
    "SOURCE_LANGUAGE",
    "CommandTranslator",
    "Texts",
    "is_valid_command_name",
    "language_name",
    "picker_label",
    "resolve_language",
    "server_language",
    "texts",
]
