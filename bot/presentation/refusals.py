"""Every refusal the running bot gives a member, by code: the code's message id.

As in the engine (``engine.errors``, ``engine.catalog``), the table service,
the runtime and the ledger never write words: they raise an error that
carries a stable ``code`` and its ``params`` (``TableError("table_full",
seats=5)``). ``MESSAGES`` names each code's message id (``refusal.table_full``),
worded in the catalogs (English in ``locales/en/LC_MESSAGES/flipflop.po``), and
``explain`` turns an error into the sentence a member reads, in their language.
Unlike the engine's, the parameters here are mostly raw numbers; they are written
the reader's way (``{needed}`` → ``1,000``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, SOURCE_LANGUAGE, Texts, texts
from bot.presentation.render import for_players
from engine.catalog import MESSAGES as ENGINE_MESSAGES
from engine.catalog import fill
from engine.errors import IllegalAction, MalformedInput

MESSAGES: dict[str, str] = {
    # the lobby (bot/table/transitions.py, bot/runtime/runtime.py)
    "table_exists": N_("refusal.table_exists"),
    "table_closed": N_("refusal.table_closed"),
    "other_place": N_("refusal.other_place"),
    "table_moved": N_("refusal.table_moved"),
    "join_after_start": N_("refusal.join_after_start"),
    "already_seated": N_("refusal.already_seated"),
    "table_full": N_("refusal.table_full"),
    "leave_lobby_after_start": N_("refusal.leave_lobby_after_start"),
    "leave_next_before_start": N_("refusal.leave_next_before_start"),
    "not_seated": N_("refusal.not_seated"),
    "table_cooldown": N_("refusal.table_cooldown"),
    # who may take chips (bot/guards.py): the wait ends at a Discord timestamp ("in 3 days")
    "account_too_new": N_("refusal.account_too_new"),
    "member_too_new": N_("refusal.member_too_new"),
    # computer players
    "host_adds_computers": N_("refusal.host_adds_computers"),
    "pick_a_level": N_("refusal.pick_a_level"),
    "practice_only_level": N_("refusal.practice_only_level"),
    "computer_join_after_start": N_("refusal.computer_join_after_start"),
    "house_short": N_("refusal.house_short"),
    "host_removes_computers": N_("refusal.host_removes_computers"),
    "computer_remove_after_start": N_("refusal.computer_remove_after_start"),
    "no_computer": N_("refusal.no_computer"),
    # starting, cancelling and stopping (R8.1)
    "already_started": N_("refusal.already_started"),
    "host_starts": N_("refusal.host_starts"),
    "too_few_players": N_("refusal.too_few_players"),
    "cancel_not_allowed": N_("refusal.cancel_not_allowed"),
    "cancel_after_start": N_("refusal.cancel_after_start"),
    "stop_not_allowed": N_("refusal.stop_not_allowed"),
    "stop_before_start": N_("refusal.stop_before_start"),
    "stopping_after_round": N_("refusal.stopping_after_round"),
    "tournament_table_stop": N_("refusal.tournament_table_stop"),
    "not_started": N_("refusal.not_started"),
    "round_in_play": N_("refusal.round_in_play"),
    # playing
    "not_playing": N_("refusal.not_playing"),
    "stale_control": N_("refusal.stale_control"),
    "leaving_after_round": N_("refusal.leaving_after_round"),
    "not_leaving": N_("refusal.not_leaving"),
    "left_this_round": N_("refusal.left_this_round"),
    "already_away": N_("refusal.already_away"),
    "not_away": N_("refusal.not_away"),
    # the fair deal's player seed
    "seed_not_seated": N_("refusal.seed_not_seated"),
    "seed_empty": N_("refusal.seed_empty"),
    "seed_too_long": N_("refusal.seed_too_long"),
    "seed_invisible": N_("refusal.seed_invisible"),
    "seed_backtick": N_("refusal.seed_backtick"),
    # the live table page (bot/live)
    "link_forged": N_("refusal.link_forged"),
    "link_expired": N_("refusal.link_expired"),
    "link_used": N_("refusal.link_used"),
    "session_unknown": N_("refusal.session_unknown"),
    "instance_unknown": N_("refusal.instance_unknown"),
    "activity_refused": N_("refusal.activity_refused"),
    "not_a_move": N_("refusal.not_a_move"),
    # chips (bot/ledger.py)
    "bad_amount": N_("refusal.bad_amount"),
    "negative_credit": N_("refusal.negative_credit"),
    "negative_debit": N_("refusal.negative_debit"),
    "insufficient_chips": N_("refusal.insufficient_chips"),
    "balance_too_large": N_("refusal.balance_too_large"),
    "daily_not_ready": N_("refusal.daily_not_ready"),
    "daily_off": N_("refusal.daily_off"),
    "note_empty": N_("refusal.note_empty"),
    "note_too_long": N_("refusal.note_too_long"),
    # a server's settings (R2.1)
    "stake_too_small": N_("refusal.stake_too_small"),
    "buy_in_too_small": N_("refusal.buy_in_too_small"),
    "buy_in_not_multiple": N_("refusal.buy_in_not_multiple"),
    "buy_in_too_large": N_("refusal.buy_in_too_large"),
    "stake_too_large": N_("refusal.stake_too_large"),
    "no_such_setting": N_("refusal.no_such_setting"),
    "starting_balance_out_of_range": N_("refusal.starting_balance_out_of_range"),
    "daily_amount_out_of_range": N_("refusal.daily_amount_out_of_range"),
    "stake_out_of_range": N_("refusal.stake_out_of_range"),
    "buy_in_out_of_range": N_("refusal.buy_in_out_of_range"),
    "turn_seconds_out_of_range": N_("refusal.turn_seconds_out_of_range"),
    "season_months_invalid": N_("refusal.season_months_invalid"),
    "tables_invalid": N_("refusal.tables_invalid"),
    "away_rounds_out_of_range": N_("refusal.away_rounds_out_of_range"),
    # tournaments (bot/tournament)
    "tournament_fee_out_of_range": N_("refusal.tournament_fee_out_of_range"),
    "tournament_seats_out_of_range": N_("refusal.tournament_seats_out_of_range"),
    "tournament_levels_out_of_range": N_("refusal.tournament_levels_out_of_range"),
    "tournament_payout_invalid": N_("refusal.tournament_payout_invalid"),
    "tournament_start_invalid": N_("refusal.tournament_start_invalid"),
    "tournament_exists": N_("refusal.tournament_exists"),
    "tournament_cooldown": N_("refusal.tournament_cooldown"),
    "tournament_gone": N_("refusal.tournament_gone"),
    "tournament_other_place": N_("refusal.tournament_other_place"),
    "tournament_needs_threads": N_("refusal.tournament_needs_threads"),
    "tournament_moved": N_("refusal.tournament_moved"),
    "tournament_no_fee": N_("refusal.tournament_no_fee"),
    "tournament_house_short": N_("refusal.tournament_house_short"),
    "tournament_already_entered": N_("refusal.tournament_already_entered"),
    "tournament_join_after_start": N_("refusal.tournament_join_after_start"),
    "tournament_full": N_("refusal.tournament_full"),
    "tournament_leave_after_start": N_("refusal.tournament_leave_after_start"),
    "tournament_not_entered": N_("refusal.tournament_not_entered"),
    "tournament_already_started": N_("refusal.tournament_already_started"),
    "tournament_too_few": N_("refusal.tournament_too_few"),
    "tournament_cancel_after_start": N_("refusal.tournament_cancel_after_start"),
    "tournament_host_only": N_("refusal.tournament_host_only"),
    "tournament_stop_started": N_("refusal.tournament_stop_started"),
    "tournament_not_running": N_("refusal.tournament_not_running"),
    "tournament_no_such_table": N_("refusal.tournament_no_such_table"),
}


NOTHING_CHANGED = N_("refusal.nothing_changed")
"""A command's refusal as a member reads it: the reason, then that nothing changed."""


def render(code: str, params: Mapping[str, object]) -> str:
    """The English sentence for ``code``; an unknown code shows itself rather than failing."""
    return _say(MESSAGES, code, params, texts(SOURCE_LANGUAGE))


def explain(error: BaseException, t: Texts) -> str:
    """A refusal as a member reads it, in ``t``'s language: the bot's or the engine's, by code.

    Whole-number parameters are written as the language writes numbers (``1,000``,
    ``1 000``); rule ids (``(R2.1)``) are for us and left out. An error without a code
    (a bug, not a refusal) keeps its own text.
    """
    code, params = getattr(error, "code", None), getattr(error, "params", None)
    if not isinstance(code, str) or not isinstance(params, dict):
        return for_players(str(error))
    if isinstance(error, Refusal):
        messages: Mapping[str, str] = MESSAGES
    elif isinstance(error, (IllegalAction, MalformedInput)):
        messages = ENGINE_MESSAGES
    else:
        return for_players(str(error))
    return for_players(_say(messages, code, params, t))


def _say(messages: Mapping[str, str], code: str, params: Mapping[str, object], t: Texts) -> str:
    """``code``'s template translated by ``t`` and filled, numbers in ``t``'s way."""
    template = messages.get(code)
    if template is None:
        return fill(messages, code, params)
    shown = {
        k: t.number(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in params.items()
    }
    try:
        return t.gettext(template).format(**shown)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: say it in English
        return texts(SOURCE_LANGUAGE).gettext(template).format(**shown)


class Refusal(Exception):
    """Something a member asked that the bot will not do; nothing was changed.

    ``code`` names the refusal (``table_full``), ``params`` fill its message
    (``{"seats": 5}``) and ``str()`` is the English sentence from ``MESSAGES``.
    The base of ``TableError`` and ``LedgerError``.
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params: dict[str, object] = params
        super().__init__(render(code, params))


def table_exists(
    t: Texts, guild_id: int, channel_id: int, message_id: int | None, *, in_play: bool = False
) -> str:
    """A channel's one table is open already (``table_exists``): said with a link to its message, if known.

    ``channel_id`` is where that message is (a game's thread, not the lobby's channel); a game
    ``in_play`` is not offered to join.
    """
    if message_id:
        key = N_("refusal.table_playing_link") if in_play else N_("refusal.table_exists_link")
        return t.gettext(key).format(link=f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}")
    return t.gettext(MESSAGES["table_exists"])
