"""The engine's events in words: the one wording of every event, for the live table and stored history.

A ``Telling`` says how the reader names a seat and shows a card, what the batch
of events leads to (the game ends with it; the stacks now) and, for the live
table, the fair-deal lines a deal and a round's end carry. ``told`` gives the
lines the round's log says publicly (deals, shows, drops, ends, pots, standings);
``last_move`` the one line about the ordinary moves just made (a draw, a spread,
a discard); ``story`` the whole round, every event in order, as stored history
tells it. Each event is worded here once: the table's log, its last move, the
round's record and ``/flipflop round`` all read the same sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_, Texts
from bot.presentation.render import suit_name
from bot.ratings import Finish, standings
from engine import Card
from engine.events import (
    CardShown,
    Discarded,
    Drew,
    Dropped,
    Event,
    GameOver,
    LaidOff,
    NextDealer,
    PlayerLeft,
    PotCarried,
    PotPaid,
    RoundEnded,
    RoundStarted,
    SeatClosed,
    SideStakePaid,
    SpreadLaid,
)

POT_NAME = {"game": N_("game pot"), "flip": N_("flip pot"), "flop": N_("flop pot")}
"""A pot's name where it stands alone (a field, a list); sentences name their pot whole."""

END_TEXT = {
    "out": N_("{who} went out!"),
    "tonk": N_("🎉 **Tonk out!** {who} laid down two spreads at once."),
    "drop": N_("{who} dropped with **{value}**, and no other hand is as low."),
    "caught": N_("{who} dropped with **{value}** but was **caught** by {catchers} with **{low}**."),
    "stock": N_("The stock ran out ({who} drew the last card): lowest hand wins."),
    "fifty": N_("**50 at the deal!**"),
    "forty_nine": N_("**49 at the deal!**"),
}
SHOWS = {
    "flip": N_("👀 {name} shows {card} for the **flip pot**."),
    "flop": N_("👀 {name} shows {card} for the **flop pot**."),
}
WINS = {
    "game": N_("💰 {names} wins the **game pot** ({amount})."),
    "flip": N_("💰 {names} wins the **flip pot** ({amount})."),
    "flop": N_("💰 {names} wins the **flop pot** ({amount})."),
}
SPLIT = {
    "game": N_("💰 {names} split the **game pot** ({amount}: {shares})."),
    "flip": N_("💰 {names} split the **flip pot** ({amount}: {shares})."),
    "flop": N_("💰 {names} split the **flop pot** ({amount}: {shares})."),
}
CARRIED = {
    "game": N_(
        "↪️ No one can win the game pot this round: it keeps its {amount} for the next round"
        " or the game's end."
    ),
    "flip": N_(
        "↪️ No one can win the flip pot this round: it keeps its {amount} for the next round"
        " or the game's end."
    ),
    "flop": N_(
        "↪️ No one can win the flop pot this round: it keeps its {amount} for the next round"
        " or the game's end."
    ),
}
"""Said when it happens, before anyone knows whether the round is the game's last (R5.6, R8.3)."""
PLAYS_FOR = {
    ("game",): N_("↳ {name} plays for the game pot only."),
    ("game", "flip"): N_("↳ {name} plays for the game and flip pots only."),
    ("game", "flop"): N_("↳ {name} plays for the game and flop pots only."),
}
ALL_IN = N_("↳ {name} plays for the game pot only (all in).")
"""Sentences that name a pot, one per pot: a language may inflect the pot's name in each."""
DEALS = N_(
    "🃏 **Round {number}** — {dealer} deals. Upcard {upcard}: "
    "flip suit {flip}, flop suit {flop}. Pots: game {game}, flip {flip_pot}, flop {flop_pot}."
)
DROPS = N_("✋ {name} drops with **{value}**.")
LEFT_ROUND = N_("🚪 {name} left the game and forfeits this round.")
EVERYONE_LEFT = N_("{who} wins the round: everyone else has left it.")
SIDE_STAKE_TO = N_("↳ {name} pays {other} a side stake of {amount}.")
SIDE_STAKE_IN = N_("↳ {name} pays a side stake of {amount} into the game pot.")
AND = N_("{names} and {last}")
DREW = N_("{name} drew from the stock")
DREW_CARD = N_("{name} drew {card} from the stock")
TOOK = N_("{name} took {card} from the discard pile")
LAID_DOWN = N_("{name} laid down {cards}")
LAID_OFF = N_("{name} laid {card} off on #{spread}")
DISCARDED = N_("{name} discarded {card}")
"""The sentences the replay page says too (``bot.presentation.replay_words``): one translation serves both."""


def _nothing(*_: Any) -> str:
    return ""


def away_named(name: str, away: bool = True) -> str:
    """A seat's name marked 💤 when the computer played it for its away member.

    As the live table's log names it, and ``/flipflop round``'s story and players.
    """
    return f"{name} 💤" if away else name


@dataclass(frozen=True)
class Telling:
    """How one reader is told one batch of events."""

    t: Texts
    name: Callable[[str], str]
    """A seat's name as this reader reads it (a display name, a mention, ``🤖 Basic 2``)."""
    card: Callable[[Card], str]
    cards: Callable[[Sequence[Card]], str]
    """Several cards, sorted as a hand is shown."""
    stacks: Mapping[str, int] = field(default_factory=dict)
    """The stacks after the batch (a short payer is all in at 0; standings fall back on them)."""
    game_ends: bool = False
    """No "next deal" or carried pot is announced when the game ends with this batch."""
    ending: str = ""
    """Why the game ends, said before the standings."""
    practice: bool = False
    """Practice chips never reach a balance: a leaving seat's stack is not said to go back."""
    tournament: bool = False
    """A tournament's table for one round: its stacks and pots go back to the tournament."""
    rounds_before: int = 0
    """Added to a deal's round number: a tournament table's one round is told as the tournament's."""
    last_round: Mapping[str, int] = field(default_factory=dict)
    """Each player's last round dealt into: equal stacks rank the one who lasted longer first."""
    open_cards: bool = False
    """The round is over and stored: a card drawn from the stock may be named."""
    dealt: Callable[[int], str] = _nothing
    """The fair-deal line published with round ``n``'s deal (the live table), else nothing."""
    revealed: Callable[[], str] = _nothing
    """The fair-deal line published with the round's end (its server seed), else nothing."""
    who: Callable[[str], str] | None = None
    """A seat's name without the move's marks (``name`` adds 💤 for a seat the computer played):
    the final standings name the players, not who was away at the end. None: ``name``."""


def _plays_for(name: str, paid: tuple[str, ...], all_in: bool, t: Texts) -> str:
    if all_in:
        return t.gettext(ALL_IN).format(name=name)
    if paid in PLAYS_FOR:
        return t.gettext(PLAYS_FOR[paid]).format(name=name)
    pots = ", ".join(t.gettext(POT_NAME[p]) for p in paid)  # no such case today (R2.4 pays in order)
    return t.gettext("↳ {name} plays only for: {pots}.").format(name=name, pots=pots)


def _names(ids: Sequence[str], s: Telling) -> str:
    names = [f"**{s.name(p)}**" for p in ids]
    if len(names) <= 1:
        return "".join(names)
    return s.t.gettext(AND).format(names=", ".join(names[:-1]), last=names[-1])


def _round_started(e: RoundStarted, s: Telling) -> list[str]:
    t = s.t
    line = t.gettext(DEALS).format(
        number=t.number(e.number + s.rounds_before),
        dealer=s.name(e.dealer),
        upcard=s.card(e.upcard),
        flip=suit_name(e.flip_suit, t),
        flop=suit_name(e.flop_suit, t),
        game=t.number(e.pots["game"]),
        flip_pot=t.number(e.pots["flip"]),
        flop_pot=t.number(e.pots["flop"]),
    )
    for p, paid in e.paid.items():
        if len(paid) < 3:  # a short stack pays some pots only, and is told which
            all_in = paid == ("game",) and s.stacks.get(p) == 0
            line += "\n" + _plays_for(s.name(p), tuple(paid), all_in, t)
    return [line + s.dealt(e.number)]


def _card_shown(e: CardShown, s: Telling) -> list[str]:
    return [s.t.gettext(SHOWS[e.pot]).format(name=s.name(e.player), card=s.card(e.card))]


def _dropped(e: Dropped, s: Telling) -> list[str]:
    t = s.t
    return [t.gettext(DROPS).format(name=s.name(e.player), value=t.number(e.value))]


def _player_left(e: PlayerLeft, s: Telling) -> list[str]:
    if e.during_round:
        left = s.t.gettext(LEFT_ROUND)
    else:
        left = s.t.gettext("🚪 {name} left the game.")
    return [left.format(name=s.name(e.player))]


def _round_ended(e: RoundEnded, s: Telling) -> list[str]:
    t = s.t
    who = f"**{s.name(e.player)}**" if e.player else ""
    value = t.number(e.values[e.player]) if e.player in e.values else ""  # a drop says both hands' values
    low = t.number(min((e.values[p] for p in e.game_winners if p in e.values), default=0))
    head = t.gettext(END_TEXT[e.reason]).format(
        who=who, value=value, catchers=_names(e.game_winners, s), low=low
    )
    if e.reason == "out" and e.player and e.hands.get(e.player):
        head = t.gettext(EVERYONE_LEFT).format(who=who)
    none = t.gettext("no cards")
    hands = [
        f"{s.name(p)}: {s.cards(h) if h else none} (**{t.number(e.values[p])}**)" for p, h in e.hands.items()
    ]
    return [f"🏁 {head}\n" + "\n".join(hands)]  # the seed follows the round's payments (``_worded``)


def _side_stake_paid(e: SideStakePaid, s: Telling) -> list[str]:
    t = s.t
    if e.amount == 0:  # an all-in player pays nothing (R2.5); "a side stake of 0" would say otherwise
        return []
    if e.to_player is not None:
        return [
            t.gettext(SIDE_STAKE_TO).format(
                name=s.name(e.player), other=s.name(e.to_player), amount=t.number(e.amount)
            )
        ]
    return [t.gettext(SIDE_STAKE_IN).format(name=s.name(e.player), amount=t.number(e.amount))]


def _pot_paid(e: PotPaid, s: Telling) -> list[str]:
    t = s.t
    winners = list(e.shares)
    names = _names(winners, s)
    if len(winners) == 1:
        return [t.gettext(WINS[e.pot]).format(names=names, amount=t.chips(e.total))]
    each = ", ".join(f"{s.name(p)} {t.number(n)}" for p, n in e.shares.items())
    return [t.gettext(SPLIT[e.pot]).format(names=names, amount=t.chips(e.total), shares=each)]


def _pot_carried(e: PotCarried, s: Telling) -> list[str]:
    if s.game_ends and not s.tournament:  # no next round: the game's end shares the pot out (R8.3)
        return []
    return [s.t.gettext(CARRIED[e.pot]).format(amount=s.t.chips(e.amount))]


def _seat_closed(e: SeatClosed, s: Telling) -> list[str]:
    t = s.t
    if s.tournament:  # the tournament decides who is out, by its next stake; the stack is its chips
        closed = (
            t.gettext("💀 {name} can't pay this table's stake: their {amount} go back to the tournament.")
            if e.reason == "eliminated"
            else t.gettext("👋 {name} leaves this table; their {amount} stay in the tournament.")
        )
    elif e.reason == "eliminated":
        closed = t.gettext("💀 {name} is out of chips and leaves the game ({amount} back).")
    elif s.practice:  # practice chips never reach a balance
        closed = t.gettext("👋 {name} leaves the practice table with {amount}.")
    else:
        closed = t.gettext("👋 {name}'s stack of {amount} goes back to their balance.")
    return [closed.format(name=s.name(e.player), amount=t.chips(e.stack))]


def _next_dealer(e: NextDealer, s: Telling) -> list[str]:
    if s.game_ends:
        return []
    return [s.t.gettext("Next deal: **{name}**.").format(name=s.name(e.player))]


def _game_over(e: GameOver, s: Telling) -> list[str]:
    t = s.t

    def chips(p: str) -> int:
        return e.stacks.get(p, s.stacks.get(p, 0))

    # placed as the ratings place them (chips, then the later last round); a tie keeps the seat order
    places = standings([Finish(p, chips(p), s.last_round.get(p, 0)) for p in e.standings])
    ranked = sorted(e.standings, key=places.__getitem__)
    who = s.who or s.name
    placed = [
        t.gettext("{number}. **{name}** — {amount}").format(
            number=t.number(i), name=who(p), amount=t.chips(chips(p))
        )
        for i, p in enumerate(ranked, start=1)
    ]
    heading = (
        t.gettext("🏁 **This table's round is over.** The stacks go back to the tournament:")
        if s.tournament
        else t.gettext("🏆 **Game over!** Final standings:")
    )
    said = [heading + "\n" + "\n".join(placed)]
    return [s.ending, *said] if s.ending else said


def _drew(e: Drew, s: Telling) -> list[str]:
    t, name = s.t, s.name(e.player)
    if e.card is None or (e.source == "stock" and not s.open_cards):
        return [t.gettext(DREW).format(name=name)]
    if e.source == "stock":
        return [t.gettext(DREW_CARD).format(name=name, card=s.card(e.card))]
    return [t.gettext(TOOK).format(name=name, card=s.card(e.card))]


def _spread_laid(e: SpreadLaid, s: Telling) -> list[str]:
    return [s.t.gettext(LAID_DOWN).format(name=s.name(e.player), cards=s.cards(e.cards))]


def _laid_off(e: LaidOff, s: Telling) -> list[str]:
    return [s.t.gettext(LAID_OFF).format(name=s.name(e.player), card=s.card(e.card), spread=e.index + 1)]


def _discarded(e: Discarded, s: Telling) -> list[str]:
    return [s.t.gettext(DISCARDED).format(name=s.name(e.player), card=s.card(e.card))]


TOLD: dict[type, Callable[[Any, Telling], list[str]]] = {
    RoundStarted: _round_started,
    CardShown: _card_shown,
    Dropped: _dropped,
    PlayerLeft: _player_left,
    RoundEnded: _round_ended,
    SideStakePaid: _side_stake_paid,
    PotPaid: _pot_paid,
    PotCarried: _pot_carried,
    SeatClosed: _seat_closed,
    NextDealer: _next_dealer,
    GameOver: _game_over,
}
"""The events the round's log says publicly, by type."""
MOVES: dict[type, Callable[[Any, Telling], list[str]]] = {
    Drew: _drew,
    SpreadLaid: _spread_laid,
    LaidOff: _laid_off,
    Discarded: _discarded,
}
"""The ordinary moves: the live table shows them (its last move), stored history tells them."""
LAST_MOVE = (Drew, SpreadLaid, LaidOff, Discarded, Dropped, PlayerLeft)
"""What the table's "last move" line names."""


AFTER_THE_ROUND = (SeatClosed, NextDealer, GameOver)
"""What a round's end tells after all it pays: who goes, who deals next, the game's end."""


def _worded(
    events: Iterable[Event],
    word_of: Callable[[Event], Callable[[Any, Telling], list[str]] | None],
    s: Telling,
) -> list[str]:
    """The lines for ``events``, in order, and a round's server seed where it belongs.

    The seed follows all the round pays (an extra stake, side stakes, pots) and comes before
    who leaves, who deals next, or the game's end.
    """
    lines: list[str] = []
    seed_at: int | None = None
    ended = False
    for e in events:
        if isinstance(e, RoundEnded):
            ended = True
        elif ended and seed_at is None and isinstance(e, AFTER_THE_ROUND):
            seed_at = len(lines)
        if (word := word_of(e)) is not None:
            lines.extend(word(e, s))
    if ended and (seed := s.revealed().lstrip("\n")):
        lines.insert(len(lines) if seed_at is None else seed_at, seed)
    return lines


def told(events: Iterable[Event], s: Telling) -> list[str]:
    """The lines the round's log says publicly for these events (ordinary moves show in the table)."""
    return _worded(events, lambda e: TOLD.get(type(e)), s)


def last_move(events: Iterable[Event], s: Telling) -> str:
    """One line for the table message about the ordinary moves just made (a drop or a leave too)."""
    parts = [
        line
        for e in events
        if isinstance(e, LAST_MOVE)
        for line in (MOVES.get(type(e)) or TOLD[type(e)])(e, s)
    ]
    line = ""
    for part in parts:  # a sentence ends in its own stop; two short moves share a line with "; "
        line += (" " if line.endswith((".", "!", "?", "。")) else "; ") + part if line else part
    return line


def story(events: Iterable[Event], s: Telling) -> list[str]:
    """A stored round turn by turn: every event worth a line, in order, in the same words."""
    return _worded(events, lambda e: MOVES.get(type(e)) or TOLD.get(type(e)), s)
