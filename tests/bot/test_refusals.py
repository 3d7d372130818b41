"""The bot's refusals are codes + parameters; the words come from one catalog."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bot.ledger import (
    BadAmount,
    DailyNotReady,
    GuildSettings,
    InsufficientChips,
    LedgerError,
    buy_in_for,
    check_amount,
    check_stakes,
)
from bot.presentation.refusals import MESSAGES, Refusal, render
from bot.runtime.runtime import StaleControl
from bot.table.model import TableError, TableMoved
from engine.catalog import english

BOT = Path(__file__).resolve().parents[2] / "bot"
REFUSALS = {
    "Refusal",
    "TableError",
    "TableMoved",
    "StaleControl",
    "LedgerError",
    "BadAmount",
    "SignInRefused",
    "TournamentError",
}
"""Errors raised as ``Name("code", **params)``."""
FIXED = {"InsufficientChips", "DailyNotReady"}
"""Errors whose own ``__init__`` passes the code to ``super().__init__``."""


def placeholders(template: str) -> set[str]:
    """The names a template fills (``{needed:,}`` and ``{name!r}`` count as ``needed``, ``name``)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def raised_codes() -> list[tuple[str, str, set[str]]]:
    """Every refusal constructed in ``bot/``: (where, code, parameter names), found by reading the source."""
    found: list[tuple[str, str, set[str]]] = []
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            if cls.name in FIXED:
                for call in [n for n in ast.walk(cls) if isinstance(n, ast.Call)]:
                    if isinstance(call.func, ast.Attribute) and call.func.attr == "__init__":
                        found.append(described(path, call))
        for call in [n for n in ast.walk(tree) if isinstance(n, ast.Call)]:
            if isinstance(call.func, ast.Name) and call.func.id in REFUSALS:
                found.append(described(path, call))
    return found


def described(path: Path, call: ast.Call) -> tuple[str, str, set[str]]:
    """One construction's code and keyword names; a code that is not a literal fails the test."""
    where = f"{path.relative_to(BOT.parent)}:{call.lineno}"
    assert call.args and isinstance(call.args[0], ast.Constant), f"{where}: the code must be a literal"
    code = call.args[0].value
    assert isinstance(code, str), where
    assert len(call.args) == 1, f"{where}: parameters are passed by name"
    assert all(k.arg is not None for k in call.keywords), f"{where}: no **params"
    return where, code, {k.arg for k in call.keywords if k.arg is not None}


def test_every_refusal_raised_in_bot_has_a_catalog_entry_with_matching_placeholders() -> None:
    found = raised_codes()
    assert len(found) >= 40  # the source really was read: tables, runtime and ledger
    for where, code, params in found:
        assert code in MESSAGES, f"{where}: {code!r} has no entry in bot.presentation.refusals.MESSAGES"
        words = english()[MESSAGES[code]]
        assert placeholders(words) == params, f"{where}: {code!r} is given {sorted(params)}"


def test_every_catalog_entry_is_raised_somewhere() -> None:
    assert set(MESSAGES) == {code for _, code, _ in raised_codes()}


def test_rendering_is_a_plain_lookup() -> None:
    error = TableError("table_full", seats=5)
    assert (error.code, error.params) == ("table_full", {"seats": 5})
    assert MESSAGES["table_full"] == "refusal.table_full"  # a message id, worded in the catalogs
    assert str(error) == english()["refusal.table_full"].format(seats=5) == "The table is full (5 players)."
    assert render("house_short", {"balance": 1200, "buy_in": 2000}) == (
        "The house has only 1,200 chips, not enough for a 2,000-chip buy-in. "
        "An admin can top it up with `/chips grant` to the bot."
    )


def test_an_unknown_code_shows_itself_instead_of_failing() -> None:
    assert str(TableError("no_such_code", seats=5)) == "no_such_code {'seats': 5}"
    assert str(TableError("no_such_code")) == "no_such_code"


def test_the_error_classes_keep_their_family() -> None:
    assert issubclass(TableMoved, TableError) and issubclass(StaleControl, TableError)
    assert issubclass(TableError, Refusal) and issubclass(LedgerError, Refusal)
    assert not issubclass(TableError, LedgerError) and not issubclass(LedgerError, TableError)
    assert str(TableMoved("table_moved")).endswith("nothing was done. Look at the table again.")


def test_ledger_refusals_carry_code_params_and_the_same_words() -> None:
    short = InsufficientChips(1000, 1001)
    assert (short.code, short.params, short.balance, short.needed) == (
        "insufficient_chips",
        {"balance": 1000, "needed": 1001},
        1000,
        1001,
    )
    assert str(short) == "That needs 1,001 chips, but the balance is 1,000."
    daily = DailyNotReady(86_400.0)
    assert (daily.code, daily.next_at, str(daily)) == (
        "daily_not_ready",
        86_400.0,
        "The daily chips are not ready yet.",
    )
    with pytest.raises(BadAmount) as amount:
        check_amount(0)
    assert (amount.value.code, str(amount.value)) == (
        "bad_amount",
        "The amount must be a whole number from 1 to 1,000,000,000.",
    )


@pytest.mark.parametrize(
    ("stake", "buy_in", "code", "text"),
    [
        (0, 100, "stake_too_small", "The stake must be at least 1 chip."),
        (500, 1000, "buy_in_too_small", "The buy-in must be at least four stakes (2,000 chips) (R2.1)."),
        (1000, 4500, "buy_in_not_multiple", "The buy-in must be a multiple of the stake (1,000) (R2.1)."),
        (1, 1_000_000_001, "buy_in_too_large", "That buy-in is too large: the most is 1,000,000,000 chips."),
    ],
)
def test_stake_refusals(stake: int, buy_in: int, code: str, text: str) -> None:
    with pytest.raises(LedgerError) as refused:
        check_stakes(stake, buy_in)
    assert (refused.value.code, str(refused.value)) == (code, text)


def test_a_new_tables_buy_in_is_the_hosts_or_the_servers_in_stakes() -> None:
    assert buy_in_for(10, None, 5, 100) == 200 and buy_in_for(10, 40, 5, 100) == 40
    assert buy_in_for(50_000_000, None, 5, 100) == 1_000_000_000  # 20 stakes: the largest buy-in
    with pytest.raises(LedgerError) as refused:
        buy_in_for(50_000_001, None, 5, 100)
    assert refused.value.code == "stake_too_large"
    assert refused.value.params == {"stakes": 20, "most": 50_000_000}


def test_settings_refusals_keep_their_code_through_validation() -> None:
    with pytest.raises(LedgerError) as playable:
        GuildSettings.build(default_stake=1000, default_buy_in=4500)
    assert (playable.value.code, playable.value.params) == ("buy_in_not_multiple", {"stake": 1000})
    with pytest.raises(LedgerError) as ranged:
        GuildSettings.build(turn_seconds=5)
    assert ranged.value.code == "turn_seconds_out_of_range"
    assert str(ranged.value) == "The turn timer must be a whole number between 15 and 3,600 seconds."
    with pytest.raises(LedgerError) as unknown:
        GuildSettings.build(colour=3)
    assert (unknown.value.code, str(unknown.value)) == (
        "no_such_setting",
        "There is no setting called 'colour'.",
    )
