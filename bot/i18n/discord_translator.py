"""Discord's own command picker in the member's language (discord.py ``app_commands.Translator``).

Discord localizes slash commands only for the locales it knows. Of ours that is Korean
(English is the source), so names, descriptions and option descriptions are translated for
``discord.Locale.korean`` from the same catalogs as every other message. Option *names* stay
English: they are typed, and the descriptions already say what they are.
"""

from __future__ import annotations

import unicodedata

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.catalogs import texts

COMMAND_NAME = "slash command name"
"""The msgctxt of command and group names: a name is a word typed after "/", not a sentence."""

DISCORD_LOCALES: dict[discord.Locale, str] = {discord.Locale.korean: "ko"}
"""Discord locales we translate into; English locales get the source text (no translation)."""

_NAMES = {Where.command_name, Where.group_name}
_TEXTS = {Where.command_description, Where.group_description, Where.parameter_description, Where.choice_name}


def is_valid_command_name(name: str) -> bool:
    r"""Discord's rule for command names: 1–32 characters, letters/digits/-/_, lower case.

    Discord's pattern is ``^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``: Hangul syllables
    are letters, but the vowel signs of scripts such as Gujarati are marks and are refused.
    """

    def allowed(ch: str) -> bool:
        category = unicodedata.category(ch)
        script_ok = "DEVANAGARI" in unicodedata.name(ch, "") or "THAI" in unicodedata.name(ch, "")
        return ch in "-_" or category[0] in "LN" or script_ok

    return 1 <= len(name) <= 32 and name == name.lower() and all(allowed(ch) for ch in name)


class CommandTranslator(app_commands.Translator):
    """Translates command strings for the Discord locales we support (set it with ``tree.set_translator``)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The string in ``locale``'s language, or None to let Discord show the English source."""
        language = DISCORD_LOCALES.get(locale)
        if language is None:
            return None
        t = texts(language)
        if context.location in _NAMES:
            translated = t.pgettext(COMMAND_NAME, string.message)
            return translated if is_valid_command_name(translated) else None
        if context.location in _TEXTS:
            return t.gettext(string.message)
        return None
