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
    ("changes", "message"),
    [
        (
            {"starting_balance": -1},
            "The starting balance must be a whole number between 0 and 1,000,000,000.",
        ),
        (
            {"daily_amount": MAX_AMOUNT + 1},
            "The daily amount must be a whole number between 0 and 1,000,000,000.",
        ),
        ({"turn_seconds": 14}, "The turn timer must be a whole number between 15 and 3,600 seconds."),
        ({"default_stake": 0}, "The stake must be a whole number between 1 and 250,000,000."),
        (
            {"default_stake": 10, "default_buy_in": 30},
            "The buy-in must be at least four stakes (40 chips) (R2.1).",
        ),
        (
            {"default_stake": 10, "default_buy_in": 45},
            "The buy-in must be a multiple of the stake (10) (R2.1).",
        ),
        ({"turn_seconds": 60.5}, "The turn timer must be a whole number between 15 and 3,600 seconds."),
        ({"turn_seconds": True}, "The turn timer must be a whole number between 15 and 3,600 seconds."),
        ({"stake": 5}, "There is no setting called 'stake'."),
    ],
)
def test_bad_settings_are_refused_in_words(changes: dict[str, object], message: str) -> None:
    with pytest.raises(LedgerError) as info:
        GuildSettings.build(**changes)
    assert str(info.value) == message


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
