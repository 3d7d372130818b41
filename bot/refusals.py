"""Every refusal the running bot gives a member, by code (English).

As in the engine (``engine.errors``, ``engine.catalog``), the table service,
the runtime and the ledger never write words: they raise an error that
carries a stable ``code`` and its ``params`` (``TableError("table_full",
seats=5)``), and this catalog turns them into the sentence a member reads. It
is a plain lookup — ``MESSAGES[code].format(**params)`` — so a translation
can replace it code by code. Unlike the engine's, the parameters here are
mostly raw numbers; the templates format them (``{needed}`` → ``1,000``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import SOURCE_LANGUAGE, Texts, texts
from bot.render import for_players
from engine.catalog import MESSAGES as ENGINE_MESSAGES
from engine.catalog import fill
from engine.errors import IllegalAction, MalformedInput

MESSAGES: dict[str, str] = {
    # the lobby (bot/tables.py, bot/runtime/runtime.py)
    "table_exists": "There is already a table in this channel.",
    "table_closed": "This table has closed. Open a new one with `/flipflop start`.",
    "table_moved": (
        "This table changed a moment ago (another move got there first); nothing was done."
        " Look at the table again."
    ),
    "join_after_start": "This game has already started; wait for the next one.",
    "already_seated": "You're already seated at this table.",
    "table_full": "The table is full ({seats} players).",
    "leave_lobby_after_start": "The game has started: use Leave in your hand instead.",
    "not_seated": "You're not seated at this table.",
    # computer players
    "host_adds_computers": "Only the host can add computer players.",
    "pick_a_level": "Pick one of the levels in the menu; nothing was done.",
    "computer_join_after_start": "Computer players can only join before the game starts.",
    "house_short": (
        "The house has only {balance} chips, not enough for a {buy_in}-chip buy-in. "
        "An admin can top it up with `/chips grant` to the bot."
    ),
    "host_removes_computers": "Only the host can remove computer players.",
    "computer_remove_after_start": "Computer players can only be removed before the game starts.",
    "no_computer": "There is no computer player to remove.",
    # starting, cancelling and stopping (R8.1)
    "already_started": "This game has already started.",
    "host_starts": "Only the host can start the game.",
    "too_few_players": (
        "Flip Flop needs {low} to {high} players; {seated} seated so far. Ask friends to click Join."
    ),
    "cancel_not_allowed": "Only the host or a member with Manage Server can cancel the table.",
    "cancel_after_start": "The game has started: the host can use `/flipflop stop` between rounds.",
    "stop_not_allowed": "Only the host or a member with **Manage Server** can stop the game.",
    "stop_before_start": "The game hasn't started: use **Cancel** on the lobby instead.",
    "stop_in_lobby": "The game has not started yet: use Cancel on the lobby.",
    "not_started": "The game has not started yet.",
    "round_in_play": "A round is already being played.",
    "round_being_played": "A round is being played.",
    # playing
    "not_playing": "You're not playing at this table.",
    "stale_control": "That control was from an earlier turn; nothing was done.",
    "leaving_after_round": "You'll leave when this round ends; your stack goes back to your balance.",
    "not_leaving": "You weren't leaving; you stay at the table.",
    # the fair deal's player seed
    "seed_not_seated": "Only players seated at this table can add a text to its next deal.",
    "bad_seed": "{reason} Nothing was changed.",
    # chips (bot/ledger.py)
    "bad_amount": "The amount must be a whole number from 1 to {maximum}.",
    "negative_credit": "A credit can not be negative.",
    "negative_debit": "A debit can not be negative.",
    "insufficient_chips": "That needs {needed} chips, but the balance is {balance}.",
    "daily_not_ready": "The daily chips are not ready yet.",
    # a server's settings (R2.1)
    "stake_too_small": "The stake must be at least 1 chip.",
    "buy_in_too_small": "The buy-in must be at least four stakes ({minimum} chips) (R2.1).",
    "buy_in_not_multiple": "The buy-in must be a multiple of the stake ({stake}) (R2.1).",
    "buy_in_too_large": "That buy-in is too large.",
    "no_such_setting": "There is no setting called {name!r}.",
    "setting_out_of_range": "The {setting} must be a whole number between {low} and {high}{unit}.",
}


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
    return t.gettext(template).format(**shown)


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
