"""Every player-facing sentence the engine produces, by code (English).

The rules code never writes words: it raises ``IllegalAction(code, **params)``
or ``MalformedInput(code, **params)`` and this catalog turns the code and its
parameters into text. It is a plain lookup — ``MESSAGES[code].format(**params)``
— so a translation (gettext or another table) can replace it code by code.
Parameters are already display text: names for players, labels (``10♥``)
for cards.
"""

from __future__ import annotations

from collections.abc import Mapping


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Mark a message for the catalogs; ``bot.i18n`` translates it where it is shown."""
    return message


MESSAGES: dict[str, str] = {
    # the table (R2.1, R8.1)
    "player_count": N_("A game needs {low} to {high} players (R8.1)."),
    "seat_twice": N_("Each player can sit only once ({player} is seated twice)."),
    "bad_stake": N_("The stake must be a whole number of chips, at least 1 (R2.1)."),
    "bad_stack": N_("{player}'s stack must be a whole number of chips."),
    "bad_pot": N_("Bad pot {pot}: {amount}."),
    # the deal (R3)
    "game_over": N_("The game is over."),
    "round_in_play": N_("A round is already being played."),
    "need_deck": N_("A round needs a shuffled deck or a random generator."),
    "need_rng_for_dealer": N_("The first dealer is chosen at random: give a generator."),
    "dealer_not_seated": N_("{player} is not seated, so can not deal."),
    "not_your_deal": N_("{player} can not deal this round: it is {dealer}'s deal (R3.1)."),
    "no_dealer_yet": N_("The first dealer has not been chosen yet."),
    "no_one_to_deal": N_("No one is left to deal."),
    "stop_between_rounds": N_("The game can only be stopped between rounds."),
    "no_round_dealt": N_("No round has been dealt yet."),
    # whose turn (R6)
    "no_round": N_("No round is being played: wait for the next deal."),
    "not_at_table": N_("{player} is not at this table."),
    "not_in_round": N_("{player} is not playing this round."),
    "not_your_turn": N_("It's {player}'s turn."),
    "not_seated": N_("{player} is not seated at this table."),
    "already_left": N_("{player} has already left this round."),
    # a turn (R6.1-R6.6)
    "drop_after_draw": N_("You can only drop at the start of your turn, before drawing (R6.1)."),
    "already_drawn": N_("You have already drawn this turn."),
    "discard_pile_empty": N_("The discard pile is empty: draw from the stock (R6.2)."),
    "bad_draw_source": N_("Draw from the stock or the discard pile, not {source}."),
    "draw_before_spread": N_("Draw a card first: you can only lay down a spread after drawing (R6)."),
    "draw_before_layoff": N_("Draw a card first: you can only lay off after drawing (R6)."),
    "draw_before_discard": N_("Draw a card first: you can only discard after drawing (R6)."),
    "not_held": N_("You don't hold {card}."),
    "discard_taken": N_("You can't discard {card}: you just took it from the discard pile (R6.6)."),
    "no_such_spread": N_("There is no spread number {target}."),
    "does_not_fit": N_("{card} does not fit on {spread} (R6.5)."),
    # spreads (R6.4)
    "card_twice": N_("{cards} uses a card twice."),
    "spread_too_short": N_("{cards} is not a spread: a spread needs at least 3 cards."),
    "not_a_spread": N_("{cards} is not a spread: a run is one suit, a set is one rank."),
    "aces_low": N_("{cards} is not a run: aces are low."),
    "not_consecutive": N_("{cards} is not a run: the ranks are not consecutive."),
    # tonk out (R7.4)
    "tonk_six_cards": N_("A tonk out lays down all six cards held after the draw (R7.4)."),
    "tonk_after_play": N_("A tonk out can not follow a spread or lay-off (R7.4)."),
    "tonk_two_threes": N_("A tonk out is exactly two spreads of three cards (R7.4)."),
    "tonk_shared_card": N_("The two spreads of a tonk out can not share a card."),
    # saved games
    "snapshot_version": N_(
        "This saved game has format version {found}; this engine reads version {expected}."
    ),
    "snapshot_unreadable": N_("This is not a saved game: {reason}."),
    # malformed input: cards and decks (R1)
    "not_a_card": N_("{text} is not a card (write it like TH or AS)."),
    "bad_deck": N_("A deck must be the 52 cards, each once (R1.1)."),
    # malformed input: transcripts (the replay command)
    "transcript_card": N_('{where}: a card is written like "TH", not {value}.'),
    "transcript_not_card": N_("{where}: {value} is not a card (rank A23456789TJQK, suit CDHS)."),
    "transcript_number": N_("{where} must be a whole number of at least {low}, not {value}."),
    "transcript_deck_list": N_("{where}: the deck must be a list of 52 cards."),
    "transcript_deck_twice": N_("{where}: {card} appears twice; a deck is 52 distinct cards."),
    "transcript_deck_size": N_("{where}: a deck is 52 distinct cards, this one has {count}."),
    "transcript_action": N_("{where}: an action is [player, verb, ...], not {value}."),
    "transcript_player": N_("{where}: {value} is not one of the seats."),
    "transcript_verb": N_("{where}: unknown verb {value} (use {verbs})."),
    "transcript_arguments": N_("{where}: {verb} takes {expected} argument(s), not {count}."),
    "transcript_source": N_('{where}: draw from "stock" or "discard", not {value}.'),
    "transcript_spread": N_("{where}: a spread is a list of cards."),
    "transcript_object": N_("A transcript is a JSON object with stake, seats and rounds."),
    "transcript_missing": N_("The transcript has no {key}."),
    "transcript_seats": N_('seats must be a list of {{"id", "stack"}} objects.'),
    "transcript_seat": N_("seats[{index}] must be an object with a string id and a stack."),
    "transcript_pots": N_("pots must be an object with game, flip and flop."),
    "transcript_game": N_("{reason}"),
    "transcript_rounds": N_("rounds must be a list."),
    "transcript_round": N_("{where} must be an object with a deck and actions."),
    "transcript_first_dealer": N_("The first round must name its dealer."),
    "transcript_dealer": N_("{where}.dealer: {value} is not one of the seats."),
    "transcript_actions": N_("{where}.actions must be a list."),
    "transcript_after_game": N_("rounds[{index}] comes after the game is over."),
    "transcript_after_unfinished": N_("rounds[{index}] comes after an unfinished round."),
    "transcript_wrong_dealer": N_(
        "rounds[{index}].dealer: {dealer} does not deal this round; {expected} does (R3.1)."
    ),
    "transcript_after_round": N_("rounds[{index}].actions[{action}] comes after the round has ended."),
    "replay_unreadable": N_("Can not read {path}: {reason}."),
    "replay_not_json": N_("{path} is not valid JSON: {reason}."),
    "replay_failed": N_("Could not replay this transcript: {reason}."),
}
"""Code -> English template; ``{name}`` is filled from the parameters."""


def fill(messages: Mapping[str, str], code: str, params: Mapping[str, object]) -> str:
    """``code``'s template in ``messages`` filled from ``params``; an unknown code shows itself."""
    template = messages.get(code)
    if template is None:
        return f"{code} {dict(params)!r}" if params else code
    return template.format(**params)


def render(code: str, params: Mapping[str, object]) -> str:
    """The English sentence for ``code``; an unknown code shows itself rather than failing."""
    return fill(MESSAGES, code, params)
