"""The game of Flip Flop: one object that answers what is legal and applies actions.

Shaped like python-chess's board and OpenSpiel's state: ``legal_actions()``,
``apply()``, ``view()``, and a JSON snapshot. The rules themselves live in
their chapters (``deal``, ``pots``, ``showing``, ``turns``, ``ending``,
``legal``); this module ties them together. A ``Round`` is built only by
the deal and here (a restored snapshot, a strong player's sampled world).
Rule ids refer to ``docs/RULES.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine import deal, turns
from engine.actions import Action, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.cards import Card
from engine.ending import close_seat, game_over
from engine.errors import IllegalAction
from engine.events import POTS, Event, PlayerLeft, Pot
from engine.legal import can_tonk_out, check, legal_actions
from engine.pots import settlement_if_closed
from engine.settings import HOUSE_RULES, HouseRules
from engine.showing import find_candidates
from engine.snapshot import read_record, read_snapshot, snapshot_table
from engine.spreads import normalise
from engine.state import GameState, Round, RoundRecord, Seat, TableSpread
from engine.view import PlayerView, PublicView, make_public_view, make_view

__all__ = ["Game", "Seat", "TableSpread"]


def _whole(value: object, low: int) -> bool:
    """A whole number of chips of at least ``low`` (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _check_new_game(seats: Sequence[Seat], stake: int, pots: Mapping[Pot, int], rules: HouseRules) -> None:
    """R8.1, R2.1: a game's seats, stake, stacks and carried pots, or the coded refusal."""
    ids = [s.id for s in seats]
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise IllegalAction("player_count", low=rules.min_players, high=rules.max_players)
    if len(set(ids)) != len(ids):
        twice = next(p for p in ids if ids.count(p) > 1)
        raise IllegalAction("seat_twice", player=twice)
    if not _whole(stake, 1):
        raise IllegalAction("bad_stake", stake=repr(stake))
    for s in seats:
        if not _whole(s.stack, 0):
            raise IllegalAction("bad_stack", player=s.name or s.id)
    for pot, amount in pots.items():
        if pot not in POTS or not _whole(amount, 0):
            raise IllegalAction("bad_pot", pot=repr(pot), amount=repr(amount))


class Game(GameState):
    """A table's game of Flip Flop, from its first deal to its end (R8)."""

    def __init__(
        self,
        seats: Sequence[Seat],
        stake: int,
        pots: dict[Pot, int] | None = None,
        rules: HouseRules = HOUSE_RULES,
        *,
        _blank: bool = False,
    ) -> None:
        if _blank:  # ``restore`` and ``sampled_world`` fill the object in themselves
            return
        _check_new_game(seats, stake, pots or {}, rules)
        ids = [s.id for s in seats]
        self._fill(
            rules=rules,
            stake=stake,
            order=ids,
            names={s.id: s.name or s.id for s in seats},
            stacks={s.id: s.stack for s in seats},
            seated=ids,
            pots=pots or {},
            dealer=None,
            rounds_played=0,
        )

    def _fill(
        self,
        *,
        rules: HouseRules,
        stake: int,
        order: Sequence[str],
        names: Mapping[str, str],
        stacks: Mapping[str, int],
        seated: Sequence[str],
        pots: Mapping[Pot, int],
        dealer: str | None,
        rounds_played: int,
        over: bool = False,
        left_between_rounds: Sequence[str] = (),
    ) -> None:
        self.rules = rules
        self.stake = stake
        self.order = tuple(order)
        self.seat_index = {p: i for i, p in enumerate(self.order)}
        self.names = dict(names)
        self.stacks = dict(stacks)
        self.seated = list(seated)
        self.pots = {"game": 0, "flip": 0, "flop": 0}
        self.pots.update(pots)
        self.dealer = dealer
        self.round = None
        self.in_round = False
        self.rounds_played = rounds_played
        self.over = over
        self.history = []
        self.left_between_rounds = list(left_between_rounds)

    # ------------------------------------------------------------------ queries

    @property
    def log(self) -> list[dict[str, object]]:
        """The transcript (``docs/TRANSCRIPT.md``) of the rounds this object has seen.

        Every round since the game was made, or since it was restored (a
        snapshot holds only the current round). Each entry also carries
        ``start`` (seats and pots it began with) and, when someone left
        between rounds, ``left_before``.
        """
        return [record.to_json() for record in self.history]

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Exactly what ``player`` (default: the player to act) may do now: ``engine.legal.legal_actions``."""
        return legal_actions(self, player)

    def can_tonk_out(self) -> bool:
        """R7.4: the player to act can lay their whole hand down as two spreads of three now."""
        return can_tonk_out(self)

    def settlement_if_closed(self) -> dict[str, int]:
        """What each seated player would take home if the table closed now (R8.3, R2.6)."""
        return settlement_if_closed(self)

    # ------------------------------------------------------------------ rounds

    def start_round(
        self, rng: random.Random | None = None, deck: Sequence[Card] | None = None, dealer: str | None = None
    ) -> list[Event]:
        """Pay stakes, deal, turn the upcard, settle an opening 49/50: ``engine.deal.start_round``."""
        return deal.start_round(self, rng, deck, dealer)

    def end_game(self, share_pots: bool = True) -> list[Event]:
        """R8.2: the players choose to stop; only between rounds.

        ``share_pots=False`` keeps the pots as they are instead of splitting them (R8.3): the
        game is one round of something larger that takes them on (a tournament's table).
        """
        if self.over:
            raise IllegalAction("game_over")
        if self.in_round:
            raise IllegalAction("stop_between_rounds")
        events: list[Event] = []
        game_over(self, events, share_pots)
        return events

    def apply(self, action: Action) -> list[Event]:
        """Check and apply one action; return the events it caused, in order.

        Raises ``IllegalAction`` (and changes nothing) if the rules forbid it
        (``engine.legal.check``).
        """
        check(self, action)
        p = action.player
        events: list[Event] = []
        r = self.round
        kind = type(action)  # actions are final classes: one look instead of a chain of isinstance calls
        if kind is Leave and (r is None or r.end is not None):
            events.append(PlayerLeft(p, during_round=False))  # R8.4, between rounds
            self.left_between_rounds.append(p)
            close_seat(self, p, "left", events)
            if len(self.seated) < 2:
                game_over(self, events)
            return events
        assert r is not None
        log = self.history[-1].actions
        if kind is Draw:
            log.append(action)
            turns.draw(self, r, p, action.source, events)  # type: ignore[union-attr]
        elif kind is Discard:
            log.append(action)
            turns.discard(self, r, p, action.card, events)  # type: ignore[union-attr]
        elif kind is Drop:
            log.append(action)
            turns.drop(self, r, p, events)
        elif isinstance(action, LayOff):
            log.append(action)
            turns.lay_off(self, r, p, action.card, action.target, events)
        elif isinstance(action, Spread):
            log.append(Spread(p, normalise(action.cards)))
            turns.lay_down(self, r, p, [action.cards], events)
        elif isinstance(action, TonkOut):
            log.append(TonkOut(p, normalise(action.first), normalise(action.second)))
            turns.lay_down(self, r, p, [action.first, action.second], events)
        else:
            log.append(action)
            turns.leave_round(self, r, p, events)
        return events

    # ------------------------------------------------------------------ views and saving

    def view(self, player: str) -> PlayerView:
        """What ``player`` may see: never another player's hidden card."""
        return make_view(self, player)

    def public_view(self) -> PublicView:
        """What every member of the channel may see: stacks, pots, the table, card counts."""
        return make_public_view(self)

    def round_transcript(self) -> dict[str, object]:
        """The current (or last) round alone, as a complete transcript (``docs/TRANSCRIPT.md``).

        It carries the seats, stacks and pots the round began with, so
        ``python -m engine.replay`` replays it to that round's result with no other
        round beside it. Raises ``IllegalAction`` before the first deal.
        """
        if not self.history:
            raise IllegalAction("no_round_dealt")
        record = self.history[-1]
        entry = record.to_json()
        del entry["start"]
        entry.pop("left_before", None)
        began = record.start_stacks
        # Every player who ever sat (a game needs 3 seats to start, R8.1); one no longer
        # seated is out before the deal: left (``left_before``) or eliminated (R2.3).
        gone = [p for p in self.order if p not in began and self.stacks[p] >= self.stake]
        if gone:
            entry["left_before"] = gone
        return {
            "stake": self.stake,
            "seats": [{"id": p, "stack": began.get(p, self.stacks[p])} for p in self.order],
            "pots": dict(record.start_pots),
            "rounds": [entry],
        }

    def snapshot(self) -> dict[str, Any]:
        """The game as JSON-ready data, the current round included; ``Game.restore`` turns it back.

        Its size does not grow with the rounds played: it keeps the current
        round's log entry only (``engine.snapshot``).
        """
        return snapshot_table(self)

    @classmethod
    def restore(cls, data: object) -> Game:
        """Rebuild a game from ``snapshot()`` data; raises ``IllegalAction`` if it is not one."""
        g = read_snapshot(data)
        game = cls([], 0, _blank=True)
        game._fill(
            rules=HOUSE_RULES,
            stake=g.stake,
            order=g.order,
            names={p: g.names.get(p) or p for p in g.order},
            stacks=g.stacks,
            seated=g.seated,
            pots=g.pots,
            dealer=g.dealer,
            rounds_played=g.rounds_played,
            over=g.over,
            left_between_rounds=g.left_between_rounds,
        )
        game.history = [read_record(entry) for entry in g.log]
        if g.round is None:
            return game
        d = g.round
        try:
            card = Card.parse
            r = Round(d.number, d.dealer, tuple(d.players))
            r.hands = {p: [card(c) for c in h] for p, h in d.hands.items()}
            r.dealt = {p: tuple(card(c) for c in h) for p, h in d.dealt.items()}
            r.upcard = card(d.upcard)
            r.stock = [card(c) for c in d.stock]
            r.discard = [card(c) for c in d.discard]
            r.spreads = [TableSpread(s.owner, s.kind, [card(c) for c in s.cards]) for s in d.spreads]
            r.taken = card(d.taken) if d.taken else None
            r.best = {"flip": None, "flop": None}
            for pot, b in d.best.items():
                r.best[pot] = (card(b[0]), b[1]) if b else None
            r.showings = [(p, pot, card(c)) for p, pot, c in d.showings]
        except ValueError as e:
            raise IllegalAction("snapshot_unreadable", reason=str(e)) from None
        r.paid = {p: tuple(v) for p, v in d.paid.items()}
        r.dead = set(d.dead)
        r.turn = d.turn
        r.phase = d.phase
        r.drawn_size = d.drawn_size
        r.spreads_this_turn = d.spreads_this_turn
        r.layoffs_this_turn = d.layoffs_this_turn
        r.had_turn = set(d.had_turn)
        r.shown = set(d.shown)
        find_candidates(r)
        r.flipflop_paid = d.flipflop_paid
        r.end = d.end
        r.winners.update({pot: list(w) for pot, w in d.winners.items()})
        game.round = r
        game.in_round = r.end is None
        return game

    @classmethod
    def sampled_world(
        cls, view: PlayerView, hands: Mapping[str, Sequence[Card]], stock: Sequence[Card]
    ) -> Game:
        """A game consistent with ``view`` in which the hidden cards are ``hands`` and ``stock``.

        For a computer player's search (determinized Monte Carlo): everything
        public comes from the view, the hidden cards from the caller's sample.
        Flip and flop are settled by the deal (R5.4), so the world marks them
        paid and only the game pot is played for. ``stock`` is top card last.
        """
        game = cls([], 0, _blank=True)
        game._fill(
            rules=HOUSE_RULES,
            stake=view.stake,
            order=view.players,
            names=view.names,
            stacks={p: view.stacks.get(p, 0) for p in view.players},
            seated=view.players,
            pots=view.pots,
            dealer=view.dealer,
            rounds_played=view.round_number,
        )
        r = Round(view.round_number, view.dealer or view.players[0], tuple(view.players))
        r.hands = {p: list(hands[p]) for p in view.players}
        r.dealt = {p: tuple(h) for p, h in r.hands.items()}
        r.upcard = view.upcard if view.upcard is not None else Card(1, "C")
        r.stock = list(stock)
        r.discard = list(view.discard_pile)
        r.spreads = [TableSpread(s.owner, s.kind, list(s.cards)) for s in view.spreads]
        r.paid = dict(view.paid)
        r.dead = set(view.dead)
        r.turn = view.players.index(view.to_act) if view.to_act in view.players else 0
        r.phase = "drawn" if view.phase == "drawn" else "start"
        r.taken = view.taken
        r.drawn_size = len(r.hands[view.to_act]) if view.phase == "drawn" and view.to_act else 0
        r.had_turn = set(view.players)
        r.shown = set(view.players)
        find_candidates(r)
        r.flipflop_paid = True
        game.round = r
        game.in_round = True
        game.history = [RoundRecord(r.dealer, (), {}, {})]  # its actions are never saved
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """A pickled game is its snapshot: ``restore`` rebuilds it (the log of earlier rounds stays behind).

        Said explicitly because the compiled engine (README, "The compiled engine") can not
        rebuild a ``Game`` without calling ``__init__``.
        """
        return (Game.restore, (self.snapshot(),))
