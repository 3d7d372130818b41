"""``make run``'s quiet case: exit 0 when the bot has no token yet, 1 otherwise.

``python -m bot`` exits 2 both without a token (it has said how to get one: nothing is
wrong, ``make run`` succeeds) and for a malformed setting or a port in use (``make run``
fails). This tells the two apart; a setting that can not be read counts as malformed.
"""

from __future__ import annotations

import sys

from bot.settings import SettingsError, load_settings


def main() -> int:
    """0: no DISCORD_TOKEN is set; 1: one is (or the settings can not be read)."""
    try:
        return 1 if load_settings().discord_token else 0
    except SettingsError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
