"""Build games with chosen hands, so each rule can be shown with a small deal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from engine import DECK, Card, Game, IllegalAction, Seat
from engine.events import Event


@contextmanager
def refusal(code: str) -> Iterator[None]:
    """The block is refused with ``IllegalAction`` coded ``code`` (never its English words)."""
    with pytest.raises(IllegalAction) as refused:
        yield
    assert refused.value.code == code, refused.value.code


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def deck_for(players: list[str], dealer: str, hands: dict[str, str], stock: str = "") -> list[Card]:
    """A deck that deals ``hands`` (5 cards each, the dealer's last is the upcard, R3.2-R3.3)
    and puts ``stock`` on top of the stock; the other cards follow in a fixed order."""
    n = len(players)
    d = players.index(dealer)
    queues = {p: cards(h) for p, h in hands.items()}
    assert all(len(q) == 5 for q in queues.values()), "five cards each"
    deck: list[Card] = []
    for i in range(5 * n):
        deck.append(queues[players[(d + 1 + i) % n]].pop(0))
    deck += cards(stock)
    deck += [c for c in DECK if c not in deck]
    assert len(set(deck)) == 52
    return deck


def make_game(
    hands: dict[str, str],
    dealer: str,
    stock: str = "",
    stacks: dict[str, int] | None = None,
    stake: int = 5,
) -> tuple[Game, list[Event]]:
    players = list(hands)
    stacks = stacks or {}
    game = Game([Seat(p, stacks.get(p, 200), p.capitalize()) for p in players], stake)
    events = game.start_round(deck=deck_for(players, dealer, hands, stock), dealer=dealer)
    return game, events


def of(events: list[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]
