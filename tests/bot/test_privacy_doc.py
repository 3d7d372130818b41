"""docs/PRIVACY.md names every kind of stored row that export hands over and forget rewrites.

``bot.privacy.PERSONAL_DATA`` is the one list of places that hold a member's id; the policy a
bot's operator publishes must tell members about each of them, in what is stored, in what an
export holds and in what a forget rewrites.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.privacy import PERSONAL_DATA

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PRIVACY.md").read_text()

WORDS = {
    "accounts": "account",
    "ledger": "ledger",
    "rounds": "round",
    "round_players": "round",
    "round_seats": "round",
    "ratings": "rating",
    "rating_changes": "rating change",
    "language_choices": "language",
    "card_styles": "card[- ]style",
    "notify_choices": "turn[- ]ping",
    "turn_pings": "turn[- ]ping",
    "tables": "saved table",
    "tournaments": "tournament",
    "tournament_results": "tournament",
    "tournament_round_seats": "rounds at (its|their) tables",
}
"""How the policy names each table of ``PERSONAL_DATA`` (a regular expression, any case)."""


def between(start: str, end: str) -> str:
    """The policy's text from ``start`` to ``end``, its line breaks read as spaces."""
    text = DOC.split(start, 1)[1]
    return re.sub(r"\s+", " ", text.split(end, 1)[0])


SECTIONS = {
    "what is stored": between("## What the bot stores about you", "## How long it is kept"),
    "what an export holds": between("## Getting a copy of your data", "If you can't use Discord"),
    "what a forget rewrites": between("## Having your data deleted", "- the amounts stay as they were"),
}


def test_every_place_that_holds_a_member_id_is_named_in_the_privacy_policy() -> None:
    tables = {stored.table for stored in PERSONAL_DATA}
    assert tables == set(WORDS), "name the new table in docs/PRIVACY.md and here"
    missing = [
        f"{table} in {section}"
        for table in sorted(tables)
        for section, text in SECTIONS.items()
        if not re.search(WORDS[table], text, re.IGNORECASE)
    ]
    assert not missing, missing


def test_the_ledger_reasons_the_policy_lists_are_the_ledgers() -> None:
    """Every reason a member's ledger entry can carry is in the policy's list of reasons."""
    listed = between("the reason (", ")")
    for words in ("starting chips", "daily", "buy-in", "cash-out", "refund", "grant", "take",
                  "tournament fee", "tournament refund", "tournament prize"):  # fmt: skip
        assert words in listed, words
