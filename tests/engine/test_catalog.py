"""Refusals are codes with parameters; every word a player reads comes from the catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import Card, Draw, IllegalAction, MalformedInput
from engine.catalog import MESSAGES, render
from tests.engine.helpers import make_game

ENGINE = Path(__file__).resolve().parents[2] / "engine"
RAISED = re.compile(r'(?:IllegalAction|MalformedInput|InvalidTranscript)\(\s*"([a-z_0-9]+)"')
RENDERED = re.compile(r'(?:render\(|_after_draw\(r, )\s*"([a-z_0-9]+)"')
QUIET = {"ann": "2C 9D KS 5H 2S", "ben": "3C TD QS 7H 3S", "cat": "4C JD 8S 6H 2H"}


def codes_in_engine() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        text = path.read_text()
        found |= set(RAISED.findall(text)) | set(RENDERED.findall(text))
    return found


def test_every_code_the_engine_raises_has_a_message() -> None:
    used = codes_in_engine()
    assert len(used) > 40
    assert used <= set(MESSAGES), sorted(used - set(MESSAGES))


def test_no_message_in_the_catalog_is_unused() -> None:
    assert set(MESSAGES) <= codes_in_engine(), sorted(set(MESSAGES) - codes_in_engine())


def test_no_sentence_is_raised_outside_the_catalog() -> None:
    sentence = re.compile(r'(?:IllegalAction|MalformedInput|InvalidTranscript|Exception)\(\s*f?"[A-Z ]')
    for path in ENGINE.rglob("*.py"):
        assert not sentence.search(path.read_text()), path.name


def test_a_refusal_carries_its_code_and_parameters() -> None:
    game, _ = make_game(QUIET, dealer="cat")
    with pytest.raises(IllegalAction) as refused:
        game.apply(Draw("ben", "stock"))
    assert refused.value.code == "not_your_turn"
    assert refused.value.params == {"player": "Ann"}
    assert str(refused.value) == "It's Ann's turn."


def test_render_is_a_plain_lookup() -> None:
    assert render("not_held", {"card": "10♥"}) == "You don't hold 10♥."
    assert render("no_such_code", {}) == "no_such_code"


def test_malformed_card_text_is_not_an_illegal_action() -> None:
    with pytest.raises(MalformedInput) as bad:
        Card.parse("ZZ")
    assert isinstance(bad.value, ValueError) and not isinstance(bad.value, IllegalAction)
    assert bad.value.code == "not_a_card" and bad.value.params == {"text": "'ZZ'"}
