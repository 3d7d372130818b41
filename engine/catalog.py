"""Every player-facing sentence the engine produces, by code: the code's message id.

The rules code never writes words: it raises ``IllegalAction(code, **params)``
or ``MalformedInput(code, **params)``, and ``MESSAGES`` names each code's message
id (``engine.not_held``). The words are in the catalogs: English in
``locales/en/LC_MESSAGES/flipflop.po``, the other languages beside it (the bot
translates by id, ``bot.presentation.refusals``). ``render`` gives the English
sentence (an error's ``str()``, the replay command's messages). Parameters are
already display text: names for players, labels (``10♥``) for cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.assets import asset


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Mark a message for the catalogs; ``bot.i18n`` translates it where it is shown."""
    return message


MESSAGES: dict[str, str] = {
    # the table (R2.1, R8.1)
    "player_count": N_("engine.player_count"),
    "seat_twice": N_("engine.seat_twice"),
    "bad_stake": N_("engine.bad_stake"),
    "bad_stack": N_("engine.bad_stack"),
    "bad_pot": N_("engine.bad_pot"),
    # the deal (R3)
    "game_over": N_("engine.game_over"),
    "round_in_play": N_("engine.round_in_play"),
    "need_deck": N_("engine.need_deck"),
    "need_rng_for_dealer": N_("engine.need_rng_for_dealer"),
    "dealer_not_seated": N_("engine.dealer_not_seated"),
    "not_your_deal": N_("engine.not_your_deal"),
    "no_dealer_yet": N_("engine.no_dealer_yet"),
    "no_one_to_deal": N_("engine.no_one_to_deal"),
    "stop_between_rounds": N_("engine.stop_between_rounds"),
    "no_round_dealt": N_("engine.no_round_dealt"),
    # whose turn (R6)
    "no_round": N_("engine.no_round"),
    "not_at_table": N_("engine.not_at_table"),
    "not_in_round": N_("engine.not_in_round"),
    "not_your_turn": N_("engine.not_your_turn"),
    "not_seated": N_("engine.not_seated"),
    "already_left": N_("engine.already_left"),
    # a turn (R6.1-R6.6)
    "drop_after_draw": N_("engine.drop_after_draw"),
    "already_drawn": N_("engine.already_drawn"),
    "discard_pile_empty": N_("engine.discard_pile_empty"),
    "bad_draw_source": N_("engine.bad_draw_source"),
    "draw_before_spread": N_("engine.draw_before_spread"),
    "draw_before_layoff": N_("engine.draw_before_layoff"),
    "draw_before_discard": N_("engine.draw_before_discard"),
    "not_held": N_("engine.not_held"),
    "discard_taken": N_("engine.discard_taken"),
    "no_such_spread": N_("engine.no_such_spread"),
    "does_not_fit": N_("engine.does_not_fit"),
    # spreads (R6.4)
    "card_twice": N_("engine.card_twice"),
    "spread_too_short": N_("engine.spread_too_short"),
    "not_a_spread": N_("engine.not_a_spread"),
    "aces_low": N_("engine.aces_low"),
    "not_consecutive": N_("engine.not_consecutive"),
    # tonk out (R7.4)
    "tonk_six_cards": N_("engine.tonk_six_cards"),
    "tonk_after_play": N_("engine.tonk_after_play"),
    "tonk_two_threes": N_("engine.tonk_two_threes"),
    "tonk_shared_card": N_("engine.tonk_shared_card"),
    # saved games
    "snapshot_version": N_("engine.snapshot_version"),
    "snapshot_unreadable": N_("engine.snapshot_unreadable"),
    # malformed input: cards and decks (R1)
    "not_a_card": N_("engine.not_a_card"),
    "bad_deck": N_("engine.bad_deck"),
    # malformed input: transcripts (the replay command)
    "transcript_card": N_("engine.transcript_card"),
    "transcript_not_card": N_("engine.transcript_not_card"),
    "transcript_number": N_("engine.transcript_number"),
    "transcript_deck_list": N_("engine.transcript_deck_list"),
    "transcript_deck_twice": N_("engine.transcript_deck_twice"),
    "transcript_deck_size": N_("engine.transcript_deck_size"),
    "transcript_action": N_("engine.transcript_action"),
    "transcript_player": N_("engine.transcript_player"),
    "transcript_verb": N_("engine.transcript_verb"),
    "transcript_arguments": N_("engine.transcript_arguments"),
    "transcript_source": N_("engine.transcript_source"),
    "transcript_spread": N_("engine.transcript_spread"),
    "transcript_object": N_("engine.transcript_object"),
    "transcript_missing": N_("engine.transcript_missing"),
    "transcript_seats": N_("engine.transcript_seats"),
    "transcript_seat": N_("engine.transcript_seat"),
    "transcript_pots": N_("engine.transcript_pots"),
    "transcript_game": N_("engine.transcript_game"),
    "transcript_rounds": N_("engine.transcript_rounds"),
    "transcript_round": N_("engine.transcript_round"),
    "transcript_first_dealer": N_("engine.transcript_first_dealer"),
    "transcript_dealer": N_("engine.transcript_dealer"),
    "transcript_actions": N_("engine.transcript_actions"),
    "transcript_after_game": N_("engine.transcript_after_game"),
    "transcript_after_unfinished": N_("engine.transcript_after_unfinished"),
    "transcript_wrong_dealer": N_("engine.transcript_wrong_dealer"),
    "transcript_after_round": N_("engine.transcript_after_round"),
    "replay_unreadable": N_("engine.replay_unreadable"),
    "replay_not_json": N_("engine.replay_not_json"),
    "replay_failed": N_("engine.replay_failed"),
}
"""Code -> message id; the id's text has ``{name}`` fields filled from the parameters."""

ENGLISH_CATALOG = asset("locales", "en", "LC_MESSAGES", "flipflop.po")
"""The English catalog: the words of every message id (``docs/LANGUAGES.md``)."""


@cache
def english() -> Mapping[str, str]:
    """Message id -> English text, read once from the English catalog with Babel."""
    from babel.messages.pofile import read_po  # only when a message is first worded

    with ENGLISH_CATALOG.open("rb") as f:
        catalog = read_po(f, locale="en", domain="flipflop")
    return {
        m.id: m.string for m in catalog if isinstance(m.id, str) and isinstance(m.string, str) and m.string
    }


def fill(messages: Mapping[str, str], code: str, params: Mapping[str, object]) -> str:
    """``code``'s template in ``messages`` filled from ``params``; an unknown code shows itself."""
    template = messages.get(code)
    if template is None:
        return f"{code} {dict(params)!r}" if params else code
    return template.format(**params)


def render(code: str, params: Mapping[str, object]) -> str:
    """The English sentence for ``code``; an unknown code shows itself rather than failing."""
    message_id = MESSAGES.get(code)
    if message_id is None:
        return fill(MESSAGES, code, params)
    return english().get(message_id, message_id).format(**params)
