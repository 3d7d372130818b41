"""What may happen to a table, as pure transitions: a table and a command in, the change and its chips out.

Each transition refuses (``TableError``, or the engine's ``IllegalAction``) before
it changes anything, or changes the table it is given and returns a ``Step``: the
engine's events and the chip postings to make. Nothing here touches a database,
a clock, Discord or words: the time is passed in as ``now``, and the runtime makes
the postings and saves the table in one transaction under the table's lock
(``bot.runtime``), putting the table back as it was if that fails.

The table's deadlines are written here (``_after_events``) and read here
(``deadline``, ``due``): a turn's end, the next deal, a lobby's expiry.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from bot.fair_deal import PLAYER_SEED_MAX, FairDeal, FairDealError, check_player_seed
from bot.ledger import HOUSE_ID, Posting, check_stakes, min_buy_in
from bot.table.model import (
    AWAY_ROUNDS_BEFORE_RELEASE,
    LEVELS,
    LOBBY_IDLE_SECONDS,
    MAX_SEATS,
    MIN_SEATS,
    PRACTICE_ROUNDS_KEPT,
    ComputerSeat,
    Lobby,
    Table,
    TableError,
    account,
    cash_outs,
)
from bot.table.notices import Notice, TableClosed
from engine import Card, Game, Leave, Seat
from engine.actions import Action
from engine.events import Event, GameOver, NextDealer, Pot, RoundEnded, RoundStarted, SeatClosed

log = logging.getLogger("flipflop.tables")


@dataclass
class Step:
    """One transition's result: the engine's events and the chips that move with it."""

    events: list[Event] = field(default_factory=list)
    postings: list[Posting] = field(default_factory=list)
    later: bool = False
    """The command waits for the round's end (a stop or a leave asked for during a round)."""
    bump: bool = True
    """The controls shown so far are stale now (every change of the game or the seats)."""
    seeds: int = 0
    """For a player's seed text: the round it goes into."""
    notices: tuple[Notice, ...] = ()
    """The table-life notices that explain the change (told before its events)."""


def game_ends(table: Table, events: Sequence[Event]) -> bool:
    """The game ends with these events: no next deal is told, nor a pot carried into one.

    Between rounds that includes a table where no member plays on (``humans_playing_on``): the
    next deal ends it (``next_round``: computers never play on alone).
    """
    game = table.game
    return (
        table.stop_after_round
        or (game is not None and (game.over or (not game.in_round and not humans_playing_on(table))))
        or any(isinstance(e, GameOver) for e in events)
    )


def humans_playing_on(table: Table) -> list[str]:
    """The members seated at the game who play its next round themselves: not leaving, not away."""
    game = table.game
    leaving = {table.pid(u) for u in table.leave_after_round}
    seated = game.seated if game is not None else []
    return [p for p in seated if not table.is_computer(p) and p not in leaving and not table.is_away(p)]


def released(table: Table) -> list[int]:
    """The members away for ``away_rounds`` rounds: the next deal lets their seats go (their stacks home)."""
    if not table.releases_away_seats:
        return []
    return [u for u, rounds in table.away.items() if rounds >= table.away_rounds]


def leaving_at_the_deal(table: Table) -> set[str]:
    """The seats that go before the next deal (``next_round``): asked to leave, or away too long."""
    return {table.pid(u) for u in [*table.leave_after_round, *released(table)]}


def as_told(table: Table, events: Sequence[Event]) -> list[Event]:
    """The events as the table tells them: no "next deal" for a seat that goes before it.

    R3.1: the next player still in the game deals; the deal then says who.
    """
    going = leaving_at_the_deal(table)
    return [e for e in events if not (isinstance(e, NextDealer) and e.player in going)]


def logged(table: Table, step: Step) -> None:
    """Keep what a game's change tells in the table's round log (``bot.table.log``), worded when shown."""
    game = table.game
    if game is None or not (step.events or step.notices):
        return
    v = game.public_view()
    ends = game_ends(table, step.events)
    dealt = next((e.number for e in step.events if isinstance(e, RoundStarted)), None)
    commitment = dealt_commitment(table, dealt) if dealt is not None else None
    table.log.add(
        step.notices,
        as_told(table, step.events),
        stacks=dict(v.stacks),
        ends=ends,
        round_number=v.round_number,
        spreads=tuple((s.owner, tuple(s.cards)) for s in v.spreads),
        fair=(commitment, table.last_reveal, table.last_round_id),
        away=frozenset(table.pid(u) for u in table.away),
    )


def dealt_commitment(table: Table, number: int) -> str:
    """The commitment round ``number`` was dealt under, while it is the table's in play or last revealed."""
    now = table.fair.to_public()["in_play"]
    if now is None or now["round"] != number:
        now = table.last_reveal if table.last_reveal and table.last_reveal["round"] == number else None
    return str(now["commitment"]) if now is not None else ""


def _moving(table: Table, *postings: Posting) -> list[Posting]:
    """The chips a change moves; a practice table's and a tournament's chips are not the server's."""
    return [] if table.practice or table.tournament else [p for p in postings if p.change]


def _hosts(table: Table, user_id: int, may_manage: bool) -> bool:
    """The host, or a server manager (``may_manage``): who may start, stop, cancel and seat computers."""
    return user_id == table.host_id or may_manage


# ---------------------------------------------------------------- lobby


def open_lobby(
    table_id: str,
    guild_id: int,
    channel_id: int,
    host_id: int,
    stake: int,
    buy_in: int,
    turn_seconds: int,
    now: float,
    practice: bool = False,
    away_rounds: int = AWAY_ROUNDS_BEFORE_RELEASE,
) -> Table:
    """A new lobby, nobody seated yet (the host joins next); round 1's commitment is made at once."""
    check_stakes(stake, buy_in)
    table = Table(
        id=table_id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        stake=stake,
        buy_in=buy_in,
        turn_seconds=turn_seconds,
        last_activity=now,
        opened_at=now,
        practice=practice,
        away_rounds=away_rounds,
    )
    table.fair.commit(1)  # published in the lobby, before the Start click that seeds round 1
    return table


def join(table: Table, user_id: int, name: str, now: float) -> Step:
    """R2.2: take a seat; the buy-in moves from the balance to the table."""
    if table.status != "lobby":
        raise TableError("join_after_start")
    if user_id in table.seats:
        raise TableError("already_seated")
    if len(table.seats) >= MAX_SEATS:
        raise TableError("table_full", seats=MAX_SEATS)
    table.seats.append(user_id)
    table.names[user_id] = name
    table.lobby.stacks[user_id] = table.buy_in
    table.last_activity = now
    return Step(postings=_moving(table, Posting(user_id, -table.buy_in, "buy_in")))


def add_computer(table: Table, user_id: int, may_manage: bool, level: str, now: float) -> Step:
    """The host seats a computer player of ``level``; its buy-in comes from the server's house account.

    Only a level the table seats (``Table.computer_levels``, checked by ``seat_computer``): Random at
    a practice table only.
    """
    if not _hosts(table, user_id, may_manage):
        raise TableError("host_adds_computers")
    return seat_computer(table, level, now)


def seat_computer(table: Table, level: str, now: float) -> Step:
    """Seat a computer player (a practice lobby's, or the host's pick) of a level the table seats."""
    if level not in LEVELS:
        raise TableError("pick_a_level")
    if level not in table.computer_levels:
        raise TableError("practice_only_level")
    if table.status != "lobby":
        raise TableError("computer_join_after_start")
    if len(table.seats) >= MAX_SEATS:
        raise TableError("table_full", seats=MAX_SEATS)
    seat = min([0, *table.seats]) - 1
    table.seats.append(seat)
    table.lobby.stacks[seat] = table.buy_in
    table.computers[seat] = ComputerSeat(level, len(table.computers) + 1)
    table.last_activity = now
    return Step(postings=_moving(table, Posting(HOUSE_ID, -table.buy_in, "buy_in")))


def remove_computer(table: Table, user_id: int, may_manage: bool, now: float) -> Step:
    """The host takes the last computer player off the table; its buy-in goes back to the house."""
    if not _hosts(table, user_id, may_manage):
        raise TableError("host_removes_computers")
    if table.status != "lobby":
        raise TableError("computer_remove_after_start")
    if not table.computers:
        raise TableError("no_computer")
    seat = min(table.computers)
    table.seats.remove(seat)
    table.lobby.stacks.pop(seat)
    table.computers.pop(seat)
    table.last_activity = now
    return Step(postings=_moving(table, Posting(HOUSE_ID, table.buy_in, "refund")))


def leave_lobby(table: Table, user_id: int, now: float) -> Step:
    """Leave a lobby; the buy-in comes back. The last member out closes it (computers' buy-ins go back)."""
    if table.status != "lobby":
        raise TableError("leave_lobby_after_start")
    if user_id not in table.seats:
        raise TableError("not_seated")
    table.seats.remove(user_id)
    table.lobby.stacks.pop(user_id)
    table.last_activity = now
    postings = [Posting(account(user_id), table.buy_in, "refund")]
    humans = [u for u in table.seats if u not in table.computers]
    notices: tuple[Notice, ...] = ()
    if not humans:
        table.status = "closed"  # computers never play alone; their buy-ins go back too
        postings += [Posting(HOUSE_ID, table.buy_in, "refund") for _ in table.computers]
        refunds = {u: table.buy_in for u in [user_id, *table.computers]}
        notices = (TableClosed("empty", refunds, by=user_id),)
    elif table.host_id == user_id:
        table.host_id = humans[0]
    return Step(postings=_moving(table, *postings), notices=notices)


def cancel(table: Table, user_id: int, may_manage: bool) -> Step:
    """The host (or a manager) closes a lobby; every buy-in goes back."""
    if not _hosts(table, user_id, may_manage):
        raise TableError("cancel_not_allowed")
    if table.status != "lobby":
        raise TableError("cancel_after_start")
    refunds = table.refunds()
    step = close(table)
    step.notices = (TableClosed("cancelled", refunds, by=user_id),)
    return step


def close(table: Table, actor_id: int | None = None) -> Step:
    """Close the table (a lobby, or a game that can not go on): every chip goes back (R8.3).

    ``actor_id``: the manager who closed it, written on each refund's ledger entry.
    """
    refunds = table.refunds()
    table.status = "closed"
    return Step(
        postings=_moving(
            table, *(Posting(account(u), amount, "refund", actor_id) for u, amount in refunds.items())
        )
    )


def invite(table: Table, members: list[int]) -> Step:
    """A Play-again lobby names the previous game's players until they join."""
    table.lobby.invited = list(members)
    return Step(bump=False)


def shown(table: Table, message_id: int) -> Step:
    """A new table message, which shows the next round's commitment (docs/FAIRNESS.md)."""
    table.placement = replace(table.placement, message_id=message_id)
    table.fair.shown_in(message_id)
    return Step(bump=False)


def message_at(table: Table, message_id: int) -> Step:
    """The table message was posted again (after a restart, or its deletion) and is now ``message_id``."""
    table.placement = replace(table.placement, message_id=message_id)
    return Step(bump=False)


def in_thread(table: Table, thread_id: int | None, lobby_message_id: int | None) -> Step:
    """The game is played in ``thread_id`` from now on; the lobby message stays in the channel."""
    table.placement = replace(table.placement, thread_id=thread_id, lobby_message_id=lobby_message_id)
    return Step(bump=False)


# ---------------------------------------------------------------- game


def start(table: Table, user_id: int, may_manage: bool, now: float, round_pause: float) -> Step:
    """R8.1: the host starts the game with 3 to 5 seated; stakes are paid and the fair deck dealt."""
    if table.status != "lobby":
        raise TableError("already_started")
    if not _hosts(table, user_id, may_manage):
        raise TableError("host_starts")
    if len(table.seats) < MIN_SEATS:
        raise TableError("too_few_players", low=MIN_SEATS, high=MAX_SEATS, seated=len(table.seats))
    seats = [Seat(table.pid(u), table.lobby.stacks[u], _engine_name(table, u)) for u in table.seats]
    table.game = Game(seats, table.stake)
    table.lobby = Lobby()  # the stacks are the game's now; who did not join is no part of it
    table.status = "playing"
    return _after_events(table, deal(table), now, round_pause)


TournamentSeat = tuple[int, int, str, int]
"""A tournament table's seat: (entrant, stack, name, computer number or 0 for a member)."""


def tournament_table_ids(ref: str) -> Iterator[str]:
    """The ids the table a tournament deals for ``ref`` (a ``TableRef`` as text) may have, in order.

    Derived from the ref, so a table that ended before the tournament recorded it (a restart, a
    database fault between the two) is found again by its ref, not dealt a second time. Its id is
    the first of them that no other table has (``Runtime.tournament_table_id``): 32 bits of a hash
    meet one of a server's many saved tables' ids now and then, and a table's id is its alone.
    """
    yield hashlib.sha256(ref.encode()).hexdigest()[:8]
    for n in itertools.count(1):
        yield hashlib.sha256(f"{ref}#{n}".encode()).hexdigest()[:8]


def tournament_table(
    guild_id: int,
    channel_id: int,
    stake: int,
    players: Sequence[TournamentSeat],
    away: Sequence[int],
    turn_seconds: int,
    now: float,
    ref: str,
    table_id: str | None = None,
) -> tuple[Table, list[Seat]]:
    """A tournament's table for one round (not dealt yet), and its players' seats with their stacks.

    Its id is ``table_id``, the first of ``tournament_table_ids(ref)`` no other table has (None: the
    first of them).
    """
    table = Table(
        id=table_id or next(tournament_table_ids(ref)),
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=0,
        stake=stake,
        buy_in=min_buy_in(stake),
        turn_seconds=turn_seconds,
        last_activity=now,
        opened_at=now,
        away_rounds=10,
        tournament=ref,
    )
    for entrant, _, name, number in players:
        table.seats.append(entrant)
        if number:
            table.computers[entrant] = ComputerSeat("basic", number)
        else:
            table.names[entrant] = name
    table.away = {u: 0 for u in away}
    return table, [Seat(str(e), stack, name or None) for e, stack, name, _ in players]


def tournament_round(table: Table, players: Sequence[Seat], pots: dict[Pot, int], now: float) -> Step:
    """A tournament table's one round: dealt at once from the tournament's stacks, stake and pots.

    The table stops after the round (its game ends, R8.2), and the tournament takes the stacks back.
    """
    table.game = Game(players, table.stake, pots=pots)
    table.status = "playing"
    table.stop_after_round = True
    table.fair.commit(1)
    return _after_events(table, deal(table), now, 0.0)


def _engine_name(table: Table, seat: int) -> str | None:
    """The name the engine gives a seat in its refusals: the member's, or a computer's number (no words)."""
    computer = table.computers.get(seat)
    return f"🤖 {computer.number}" if computer is not None else table.names.get(seat)


def must_play(table: Table, user_id: int, seated: bool = False) -> Game:
    """The table's game, if ``user_id`` plays in it (and, with ``seated``, still sits at it)."""
    game = table.game
    if game is None or table.pid(user_id) not in game.order or (seated and not table.is_seated(user_id)):
        raise TableError("not_playing")
    return game


def apply(table: Table, action: Action, now: float, round_pause: float, by_timer: bool = False) -> Step:
    """One player's action; the engine's refusal comes back as ``IllegalAction`` (nothing changed)."""
    if table.game is None:
        raise TableError("not_started")
    game = table.game
    for_away = by_timer and not table.is_computer(action.player) and table.is_away(action.player)
    made = _actions_made(game) if for_away else 0  # counted only when the computer plays for a member
    events = game.apply(action)
    if not by_timer:
        table.timeouts.pop(int(action.player), None)
    elif for_away:
        table.away_moves.setdefault(action.player, []).extend(range(made, _actions_made(game)))
    return _after_events(table, events, now, round_pause)


def _actions_made(game: Game) -> int:
    """The round's actions so far, as its transcript writes them (``RoundRecord.actions_json``)."""
    return len(game.history[-1].actions_json()) if game.history else 0


def _away_now(table: Table, user_id: int) -> None:
    """A member away during the round in play: their seat is one that was away for some of it."""
    game = table.game
    pid = table.pid(user_id)
    if game is not None and game.in_round and game.round is not None and pid in game.round.players:
        table.away_moves.setdefault(pid, [])


def next_round(table: Table, now: float, round_pause: float) -> Step:
    """Between rounds: let go those who asked to leave, stop if asked, else deal (R7.6, R8.4)."""
    game = table.game
    if game is None or game.in_round or game.over:
        raise TableError("round_in_play")
    events: list[Event] = []
    if table.tournament:  # its one round is over: every stack and pot goes back to the tournament as
        # it is (a seat leaving after it is the tournament's to play away: ``round_result``); a Leave
        # here could end the game before its end and split its pots (R8.3) at the last seat
        return _after_events(table, game.end_game(share_pots=False), now, round_pause)
    for user_id in list(table.leave_after_round):
        if table.pid(user_id) in game.seated and not game.over:
            events += game.apply(Leave(table.pid(user_id)))
    table.leave_after_round = []
    for user_id in released(table):
        if table.pid(user_id) in game.seated and not game.over:
            events += game.apply(Leave(table.pid(user_id)))  # released: the stack goes home
    if not game.over and (table.stop_after_round or not humans_playing_on(table)):
        events += game.end_game()  # R8.2; computers never play on alone
    if not game.over:
        events += deal(table)
    return _after_events(table, events, now, round_pause)


def stop(table: Table, user_id: int, may_manage: bool, now: float, round_pause: float) -> Step:
    """R8.2: the host (or a manager) ends the game now between rounds, or when the round ends (``later``).

    Not a tournament's table: it plays one round and ends by itself; the tournament is stopped
    from its own message.
    """
    if table.tournament is not None:
        raise TableError("tournament_table_stop")
    if not _hosts(table, user_id, may_manage):
        raise TableError("stop_not_allowed")
    if table.status == "lobby" or table.game is None:
        raise TableError("stop_before_start")
    if table.game.in_round:
        if table.stop_after_round:  # asked already (by the host or a manager): said once
            raise TableError("stopping_after_round")
        table.stop_after_round = True
        return Step(later=True, bump=False)
    return _after_events(table, table.game.end_game(), now, round_pause)


def leave_after_round(table: Table, user_id: int, now: float, round_pause: float) -> Step:
    """R8.4: leave when this round ends (``later``), or at once between rounds.

    In a lobby (a stale or forged button) a seated member is told to use the lobby's **Leave**.
    """
    if table.game is None and table.is_seated(user_id):
        raise TableError("leave_next_before_start")
    game = must_play(table, user_id, seated=True)
    _not_left(table, user_id, game)
    if user_id in table.leave_after_round:
        raise TableError("leaving_after_round")
    if not game.in_round:
        return apply(table, Leave(table.pid(user_id)), now, round_pause)
    table.leave_after_round.append(user_id)
    return Step(later=True, bump=False)


def _not_left(table: Table, user_id: int, game: Game) -> None:
    """A player who left in this round (R8.4: their hand is dead) leaves when it ends.

    Whatever they click then, "leave after this round" and "stay" are refused (``left_this_round``).
    """
    if game.in_round and game.round is not None and table.pid(user_id) in game.round.dead:
        raise TableError("left_this_round")


def stay(table: Table, user_id: int) -> Step:
    """Take back "leave after this round" (R8.4) while the round is still on (in a lobby: not yet)."""
    if table.game is None and table.is_seated(user_id):
        raise TableError("not_started")
    _not_left(table, user_id, must_play(table, user_id, seated=True))
    if user_id not in table.leave_after_round:
        raise TableError("not_leaving")
    table.leave_after_round.remove(user_id)
    return Step(bump=False)


def away(table: Table, user_id: int) -> Step:
    """A seated member steps away: the basic computer plays their seat with their chips."""
    game = must_play(table, user_id, seated=True)
    if game.round is not None and game.in_round and table.pid(user_id) in game.round.dead:
        raise TableError("not_playing")  # they left this round (R8.4): nothing is left to play for them
    if table.is_away(user_id):
        raise TableError("already_away")
    table.away[user_id] = 0
    _away_now(table, user_id)
    return Step(bump=False)


def back(table: Table, user_id: int, now: float) -> Step:
    """An away member plays their own seat again; a turn of theirs in progress gets a full timer."""
    if not table.is_away(user_id) or not table.is_seated(user_id):
        raise TableError("not_away")
    table.away.pop(user_id, None)
    table.timeouts.pop(user_id, None)
    game = table.game
    if game is not None and game.in_round and game.to_act == table.pid(user_id):
        table.turn_deadline = now + table.turn_seconds
    return Step(bump=False)


def timed_out(table: Table, user_id: int) -> Step:
    """A member's turn ran out: one more timeout, and away mode (never removed; the computer plays it)."""
    table.timeouts[user_id] = table.timeouts.get(user_id, 0) + 1
    table.away.setdefault(user_id, 0)
    _away_now(table, user_id)
    return Step(bump=False)


def seed(table: Table, user_id: int, text: str) -> Step:
    """``/flipflop seed``: a seated player's text for the next deal's client seed (docs/FAIRNESS.md)."""
    if not table.is_seated(user_id):
        raise TableError("seed_not_seated")
    try:
        check_player_seed(text)
    except FairDealError as e:
        raise seed_refusal(e) from None
    return Step(bump=False, seeds=table.fair.set_player_seed(table.pid(user_id), text))


def seed_refusal(error: FairDealError) -> TableError:
    """A bad ``/flipflop seed`` text as a refusal with its own code (``bot.presentation.refusals``)."""
    if error.code == "seed_too_long":
        return TableError("seed_too_long", length=error.params["length"], limit=PLAYER_SEED_MAX)
    if error.code in ("seed_control_character", "seed_not_printable"):
        character = f"U+{int(str(error.params['codepoint'])):04X}"
        return TableError("seed_invisible", character=character, position=error.params["position"])
    if error.code == "seed_backtick":
        return TableError("seed_backtick", position=error.params["position"])
    return TableError("seed_empty", limit=PLAYER_SEED_MAX)


def heard(table: Table, interaction_id: int | None) -> None:
    """A member's Discord interaction: its id goes into the next round's client seed (docs/FAIRNESS.md).

    Saved with whatever the command changes next; ids past the first 16 after a
    commitment, and repeats, are ignored by ``FairDeal``.
    """
    if interaction_id is not None:
        table.fair.add_interaction(interaction_id)


def deal(table: Table) -> list[Event]:
    """Deal the table's next round from its committed seed (docs/FAIRNESS.md).

    The deck, and for round 1 the first dealer (R3.1, seat order of joining),
    come from ``FairDeal.deal``: the bot picks neither. A table saved before
    fair deals existed has no commitment for this round: one is drawn now, so
    the deal is still checkable, only without a client seed collected after it.
    """
    game = table.game
    assert game is not None
    view = game.public_view()
    number = view.round_number + 1
    if table.fair.pending_round != number:
        log.warning("Table %s had no commitment for round %d; drawing one now", table.id, number)
        table.fair = FairDeal()
        table.fair.commit(number)
    dealt = table.fair.deal(number, seats=len(view.seated) if number == 1 else None)
    dealer = view.seated[dealt.first_dealer] if dealt.first_dealer is not None else None
    return game.start_round(deck=[Card.parse(code) for code in dealt.deck], dealer=dealer)


def _after_events(table: Table, events: list[Event], now: float, round_pause: float) -> Step:
    """Everything the game's events change on the table: standings, away rounds, the seed shown, deadlines."""
    game = table.game
    assert game is not None
    _note_finishes(table, events)
    _note_away(table, events)
    dealt = next((e for e in events if isinstance(e, RoundStarted)), None)
    if dealt is not None:  # a new round: its seats away from the deal on (the last round's are stored)
        table.away_moves = {table.pid(u): [] for u in table.away if table.pid(u) in dealt.players}
    _pass_host(table)
    if not game.in_round and table.fair.in_play_round is not None:
        # the round is over (or the game ended with it): its seed may be shown now, never before
        table.last_reveal = table.fair.reveal(table.fair.in_play_round).public()
    if table.practice and any(isinstance(e, RoundEnded) for e in events):
        kept = {
            "number": game.public_view().round_number,
            "transcript": game.round_transcript(),
            "away": {seat: list(moves) for seat, moves in table.away_moves.items()},
        }
        table.practice_rounds = [*table.practice_rounds, kept][-PRACTICE_ROUNDS_KEPT:]
    if game.over:
        table.status = "closed"
        table.turn_deadline = None
        table.next_round_at = None
    elif game.in_round:
        table.turn_deadline = now + table.turn_seconds
        table.next_round_at = None
    else:
        # the next deal is due: saved with the round's end, so a restart keeps it
        table.turn_deadline = None
        table.next_round_at = now + round_pause
    table.last_activity = now
    postings = [Posting(account(u), amount, "cash_out") for u, amount in cash_outs(events)]
    return Step(events, _moving(table, *postings))


def _note_finishes(table: Table, events: list[Event]) -> None:
    """Keep each player's chips taken away and last round dealt into (the standings R8.3 ranks by)."""
    for e in events:
        if isinstance(e, RoundStarted):
            for p in e.players:
                table.finishes.setdefault(int(p), [0, 0])[1] = e.number
        elif isinstance(e, SeatClosed):
            table.finishes.setdefault(int(e.player), [0, 0])[0] = e.stack
        elif isinstance(e, GameOver):
            for p, stack in e.stacks.items():
                table.finishes.setdefault(int(p), [0, 0])[0] = stack


def _pass_host(table: Table) -> None:
    """A host no longer seated at the game (left, released, out of chips) hands it on (R8.2's Stop).

    To the first member in seat order who plays on (not leaving, not away), else to the first
    member still seated: as in the lobby (``leave_lobby``), a table always has a host while
    members play at it. A tournament's tables have none.
    """
    game = table.game
    if table.tournament or game is None or game.over or table.pid(table.host_id) in game.seated:
        return
    members = humans_playing_on(table) or [p for p in game.seated if not table.is_computer(p)]
    if members:
        table.host_id = int(members[0])


def _note_away(table: Table, events: list[Event]) -> None:
    """Count a round ended away for each away member dealt into it; forget those no longer seated."""
    assert table.game is not None
    for e in events:
        if isinstance(e, RoundEnded):
            for user_id in table.away:
                if table.pid(user_id) in table.game.seated:
                    table.away[user_id] += 1
    for user_id in list(table.away):
        if table.pid(user_id) not in table.game.seated:
            del table.away[user_id]


# ---------------------------------------------------------------- deadlines

Due = Literal["expire", "computer", "away", "timeout", "deal"]


def played_by_computer(table: Table, player: str) -> bool:
    """A computer seat, or an away member's seat (the basic computer plays it)."""
    return table.is_computer(player) or table.is_away(player)


def computer_to_move(table: Table) -> bool:
    """A computer plays the turn in progress (its seat, or an away member's): it moves after a short pause."""
    view = table.game.public_view() if table.status == "playing" and table.game is not None else None
    return (
        view is not None
        and view.in_round
        and view.to_act is not None
        and played_by_computer(table, view.to_act)
    )


def deadline(table: Table) -> float | None:
    """When this table next needs the runtime (unless a computer moves): a lobby's expiry, a turn, a deal."""
    if table.status == "lobby":
        return table.last_activity + LOBBY_IDLE_SECONDS
    if table.status != "playing" or table.game is None:
        return None
    return table.turn_deadline if table.game.in_round else table.next_round_at


def due(table: Table, now: float) -> Due | None:
    """What is due at this table at ``now``, if anything."""
    if table.status == "lobby":
        return "expire" if now >= table.last_activity + LOBBY_IDLE_SECONDS else None
    if table.status != "playing" or table.game is None:
        return None
    view = table.game.public_view()
    if view.in_round and view.to_act is not None and table.is_computer(view.to_act):
        return "computer"
    if view.in_round and view.to_act is not None and table.is_away(view.to_act):
        return "away"
    if view.in_round and table.turn_deadline is not None and now >= table.turn_deadline:
        return "timeout"
    if not view.in_round and table.next_round_at is not None and now >= table.next_round_at:
        return "deal"
    return None
