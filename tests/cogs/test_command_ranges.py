"""Slash-command ranges read the guild settings model: one source for every bound."""

from __future__ import annotations

from bot.ledger import setting_range
from cogs.flipflop.commands import FlipFlop

SETTING_OF = {
    "stake": "default_stake",
    "buy_in": "default_buy_in",
    "starting_balance": "starting_balance",
    "daily_amount": "daily_amount",
    "turn_seconds": "turn_seconds",
}


def test_start_and_config_options_take_their_bounds_from_guild_settings() -> None:
    commands = {c.name: c for c in FlipFlop.__cog_app_commands__}
    checked = 0
    for name in ("start", "config"):
        for option in commands[name].parameters:  # type: ignore[union-attr]
            if option.name in SETTING_OF:
                assert (option.min_value, option.max_value) == setting_range(SETTING_OF[option.name])
                checked += 1
    assert checked == 7
