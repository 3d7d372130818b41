"""The deal and the opening 49 / 50 (R3, R4), with the stakes paid before it (R2.3)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import DECK, SISTER_SUIT, Card, hand_value, shuffled
from engine.ending import close_short_stacks
from engine.errors import IllegalAction, MalformedInput
from engine.events import Event, RoundStarted
from engine.pots import pay_stakes
from engine.showing import find_candidates
from engine.state import GameState, Round, RoundRecord
from engine.turns import begin_turn, end_round

_DECK_SET = frozenset(DECK)


def choose_dealer(t: GameState, rng: random.Random | None, dealer: str | None) -> str:
    """R3.1: the first dealer at random (or as given); after that the next player still seated."""
    if t.dealer is None:
        if dealer is None:
            if rng is None:
                raise IllegalAction("need_rng_for_dealer")
            return t.seated[rng.randrange(len(t.seated))]
        if dealer not in t.seated:
            raise IllegalAction("dealer_not_seated", player=t.name(dealer))
        return dealer
    expected = t.next_dealer()
    if dealer is not None and dealer != expected:
        raise IllegalAction("not_your_deal", player=t.name(dealer), dealer=t.name(expected))
    return expected


def the_deck(rng: random.Random | None, deck: Sequence[Card] | None) -> list[Card]:
    """R1.1, R3.2: the given deck (checked: the 52 cards once each) or a fresh shuffle."""
    if deck is None:
        if rng is None:
            raise IllegalAction("need_deck")
        return shuffled(rng)
    cards = list(deck)
    if len(cards) != 52 or len(set(cards)) != 52 or not _DECK_SET.issuperset(cards):
        raise MalformedInput("bad_deck")
    return cards


def start_round(
    t: GameState,
    rng: random.Random | None = None,
    deck: Sequence[Card] | None = None,
    dealer: str | None = None,
) -> list[Event]:
    """Pay stakes, deal, turn the upcard, settle an opening 49/50 (R2.3, R3, R4).

    Give either ``rng`` (a seeded ``random.Random``) or ``deck`` (top card
    first). ``dealer`` may name the dealer; after the first round it must be
    the one R3.1 makes dealer.
    """
    if t.over:
        raise IllegalAction("game_over")
    if t.round is not None and t.round.end is None:
        raise IllegalAction("round_in_play")
    cards = the_deck(rng, deck)
    dealer = choose_dealer(t, rng, dealer)
    events: list[Event] = []
    # Where this round began, so that it can be replayed on its own (``round_transcript``).
    start_stacks = {p: t.stacks[p] for p in t.seated}
    start_pots = dict(t.pots)
    close_short_stacks(t, events)  # R2.3
    if t.over:
        return events
    if dealer not in t.seated:  # the dealer was just eliminated: the deal passes on (R3.1)
        t.dealer = dealer
        dealer = t.next_dealer()
    t.dealer = dealer
    t.rounds_played += 1
    players = tuple(t.seated)
    r = Round(t.rounds_played, dealer, players, dealt_hands(t, players, dealer, cards))
    t.round = r
    t.in_round = True
    t.history.append(RoundRecord(dealer, cards, start_stacks, start_pots, t.left_between_rounds))
    t.left_between_rounds = []
    pay_stakes(t, r)
    deal(t, r, cards)
    up = r.upcard
    # ``paid`` is made for this round and not changed after the deal.
    events.append(
        RoundStarted(r.number, dealer, players, r.paid, up, up.suit, SISTER_SUIT[up.suit], dict(t.pots))
    )
    opening(t, r, events)
    return events


def dealt_hands(
    t: GameState, players: Sequence[str], dealer: str, cards: list[Card]
) -> dict[str, list[Card]]:
    """R3.2: card i goes to seat (dealer + 1 + i) mod n, one at a time; hands in seat order."""
    n = len(players)
    d = players.index(dealer)
    size = t.rules.hand_size * n
    return {p: cards[(i - d - 1) % n : size : n] for i, p in enumerate(players)}


def deal(t: GameState, r: Round, cards: list[Card]) -> None:
    """R3.3: the dealer's last card is the upcard, and the first turn is the dealer's left.

    The flip and flop candidates (R5.4) and who leads each pot are found here,
    once: the deal fixes them.
    """
    players = r.players
    n = len(players)
    d = players.index(r.dealer)
    size = t.rules.hand_size * n
    r.dealt = {p: tuple(h) for p, h in r.hands.items()}
    r.upcard = cards[size - 1]
    r.stock = cards[: size - 1 : -1]  # R3.4: the rest is the stock (top card last); no discard yet
    find_candidates(r)
    r.best["flip"] = (r.upcard, r.dealer)  # R5.2: the upcard is the first flip card shown
    r.showings.append((r.dealer, "flip", r.upcard))
    r.turn = (d + 1) % n


def opening(t: GameState, r: Round, events: list[Event]) -> None:
    """R4: a dealt 50 wins at once with side stakes from all; else a dealt 49 wins the game pot.

    R4.3, R7.5: the reveal is automatic and ends the round before any turn;
    flip and flop are settled from the dealt hands (``end_round``).
    """
    rules = t.rules
    win, near_win = rules.opening_win, rules.opening_near_win
    for hand in r.hands.values():  # a plain loop: cheaper than ``map`` over a Python function
        value = hand_value(hand)
        if value == win or value == near_win:
            break
    else:
        begin_turn(r, events)
        return
    values = {p: hand_value(h) for p, h in r.hands.items()}
    fifty = [p for p in r.players if values[p] == t.rules.opening_win]
    if fifty:
        side = [(p, "R4.1") for p in r.players if p not in fifty]
        end_round(t, r, events, "fifty", None, fifty, side_to_pot=side)
        return
    forty_nine = [p for p in r.players if values[p] == t.rules.opening_near_win]
    end_round(t, r, events, "forty_nine", None, forty_nine)
