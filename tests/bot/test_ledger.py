"""The ledger's pure parts: server settings and amounts. Its storage contract is tests/storage."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.ledger import MAX_AMOUNT, BadAmount, GuildSettings, LedgerError, check_amount, setting_range


def test_defaults_are_playable() -> None:
    s = GuildSettings()
    assert (s.starting_balance, s.daily_amount, s.default_stake, s.default_buy_in, s.turn_seconds) == (
        1000,
        200,
        5,
        200,
        60,
    )
    s.check()


def test_the_field_bounds_are_the_ranges() -> None:
    assert setting_range("starting_balance") == (0, MAX_AMOUNT)
    assert setting_range("daily_amount") == (0, MAX_AMOUNT)
    assert setting_range("default_stake") == (1, MAX_AMOUNT // 4)
    assert setting_range("default_buy_in") == (4, MAX_AMOUNT)
    assert setting_range("turn_seconds") == (15, 3600)


@pytest.mark.parametrize(
    ("changes", "code", "params"),
    [
        ({"starting_balance": -1}, "starting_balance_out_of_range", {"low": 0, "high": MAX_AMOUNT}),
        ({"daily_amount": MAX_AMOUNT + 1}, "daily_amount_out_of_range", {"low": 0, "high": MAX_AMOUNT}),
        ({"turn_seconds": 14}, "turn_seconds_out_of_range", {"low": 15, "high": 3600}),
        ({"default_stake": 0}, "stake_out_of_range", {"low": 1, "high": MAX_AMOUNT // 4}),
        ({"default_stake": 10, "default_buy_in": 30}, "buy_in_too_small", {"minimum": 40}),
        ({"default_stake": 10, "default_buy_in": 45}, "buy_in_not_multiple", {"stake": 10}),
        ({"turn_seconds": 60.5}, "turn_seconds_out_of_range", {"low": 15, "high": 3600}),
        ({"turn_seconds": True}, "turn_seconds_out_of_range", {"low": 15, "high": 3600}),
        ({"stake": 5}, "no_such_setting", {"name": "stake"}),
    ],
)
def test_bad_settings_are_refused_by_code(changes: dict[str, object], code: str, params: object) -> None:
    """Each bad setting is refused with its code and parameters (their words: tests/bot/test_refusals.py)."""
    with pytest.raises(LedgerError) as info:
        GuildSettings.build(**changes)
    assert (info.value.code, info.value.params) == (code, params)


def test_settings_are_frozen_and_validated_on_construction() -> None:
    with pytest.raises(ValidationError):
        GuildSettings(default_stake=0)
    s = GuildSettings()
    with pytest.raises(ValidationError):
        s.default_stake = 7


@pytest.mark.parametrize("amount", [0, -1, MAX_AMOUNT + 1, True, 1.5])
def test_bad_amounts(amount: int) -> None:
    with pytest.raises(BadAmount):
        check_amount(amount)
    check_amount(1)
    check_amount(MAX_AMOUNT)
