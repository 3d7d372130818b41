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

from bot.i18n import N_, SOURCE_LANGUAGE, Texts, texts
from bot.presentation.render import for_players
from engine.catalog import MESSAGES as ENGINE_MESSAGES
from engine.catalog import fill
from engine.errors import IllegalAction, MalformedInput

MESSAGES: dict[str, str] = {
    # the lobby (bot/table/transitions.py, bot/runtime/runtime.py)
    "table_exists": N_(
        "There's already a table in this channel, above. Join it, or start one in another channel."
    ),
    "table_closed": N_("This table has closed. Open a new one with `/flipflop start`."),
    "other_place": N_("That control belongs to a table in another channel or server; nothing was done."),
    "table_moved": N_(
        "This table changed a moment ago (another move got there first); nothing was done."
        " Look at the table again."
    ),
    "join_after_start": N_("This game has already started; wait for the next one."),
    "already_seated": N_("You're already seated at this table."),
    "table_full": N_("The table is full ({seats} players)."),
    "leave_lobby_after_start": N_("The game has started: use Leave in your hand instead."),
    "not_seated": N_("You're not seated at this table."),
    "table_cooldown": N_("You opened a table a moment ago; you can open another {when}."),
    # who may take chips (bot/guards.py): the wait ends at a Discord timestamp ("in 3 days")
    "account_too_new": N_(
        "Your Discord account is too new for chips here: daily chips and tables played for chips"
        " open to you {when}. Practice tables (`/flipflop practice`) are open to you now."
    ),
    "member_too_new": N_(
        "You joined this server too recently for chips here: daily chips and tables played for chips"
        " open to you {when}. Practice tables (`/flipflop practice`) are open to you now."
    ),
    # computer players
    "host_adds_computers": N_("Only the host can add computer players."),
    "pick_a_level": N_("Pick one of the levels in the menu; nothing was done."),
    "computer_join_after_start": N_("Computer players can only join before the game starts."),
    "house_short": N_(
        "The house has only {balance} chips, not enough for a {buy_in}-chip buy-in. "
        "An admin can top it up with `/chips grant` to the bot."
    ),
    "host_removes_computers": N_("Only the host can remove computer players."),
    "computer_remove_after_start": N_("Computer players can only be removed before the game starts."),
    "no_computer": N_("There is no computer player to remove."),
    # starting, cancelling and stopping (R8.1)
    "already_started": N_("This game has already started."),
    "host_starts": N_("Only the host can start the game."),
    "too_few_players": N_(
        "Flip Flop needs {low} to {high} players; {seated} seated so far. Ask friends to click Join."
    ),
    "cancel_not_allowed": N_("Only the host or a member with Manage Server can cancel the table."),
    "cancel_after_start": N_("The game has started: the host can use `/flipflop stop` between rounds."),
    "stop_not_allowed": N_("Only the host or a member with **Manage Server** can stop the game."),
    "stop_before_start": N_("The game hasn't started: use **Cancel** on the lobby instead."),
    "not_started": N_("The game has not started yet."),
    "round_in_play": N_("A round is already being played."),
    # playing
    "not_playing": N_("You're not playing at this table."),
    "stale_control": N_("That control was from an earlier turn; nothing was done."),
    "leaving_after_round": N_("You'll leave when this round ends; your stack goes back to your balance."),
    "not_leaving": N_("You weren't leaving; you stay at the table."),
    "already_away": N_("You're already away; click **I'm back** to play your seat again."),
    "not_away": N_("You're not away at this table; nothing to come back from."),
    # the fair deal's player seed
    "seed_not_seated": N_("Only players seated at this table can add a text to its next deal."),
    "seed_empty": N_("Your seed text is empty: write 1 to {limit} characters. Nothing was changed."),
    "seed_too_long": N_(
        "Your seed text is {length} characters long; the limit is {limit}. Nothing was changed."
    ),
    "seed_invisible": N_(
        "Your seed text has an invisible or control character ({character}) at position {position};"
        " use letters, digits, symbols and spaces only. Nothing was changed."
    ),
    # the live table page (bot/live)
    "link_forged": N_(
        "This sign-in link was not made by the bot (or was changed). Ask for a new one with"
        " `/flipflop web`; nothing was changed."
    ),
    "link_expired": N_(
        "This sign-in link has expired (links work for 10 minutes). Ask for a new one with"
        " `/flipflop web`; nothing was changed."
    ),
    "link_used": N_(
        "This sign-in link was already used; each works once. Ask for a new one with"
        " `/flipflop web`; nothing was changed."
    ),
    "session_unknown": N_("This page is not signed in any more. Ask for a new link with `/flipflop web`."),
    "instance_unknown": N_(
        "This Activity was not started from a channel with a Flip Flop table; nothing was changed."
    ),
    "activity_refused": N_(
        "Discord did not confirm who you are. Close the Activity and open it again; nothing was changed."
    ),
    "not_a_move": N_("That choice isn't something you can do; nothing was done."),
    # chips (bot/ledger.py)
    "bad_amount": N_("The amount must be a whole number from 1 to {maximum}."),
    "negative_credit": N_("A credit can not be negative."),
    "negative_debit": N_("A debit can not be negative."),
    "insufficient_chips": N_("That needs {needed} chips, but the balance is {balance}."),
    "daily_not_ready": N_("The daily chips are not ready yet."),
    "note_empty": N_("Say why in a few words: the reason is kept with the entry, for the audit."),
    "note_too_long": N_("The reason is {length} characters long; the limit is {limit}."),
    # a server's settings (R2.1)
    "stake_too_small": N_("The stake must be at least 1 chip."),
    "buy_in_too_small": N_("The buy-in must be at least four stakes ({minimum} chips) (R2.1)."),
    "buy_in_not_multiple": N_("The buy-in must be a multiple of the stake ({stake}) (R2.1)."),
    "buy_in_too_large": N_("That buy-in is too large."),
    "no_such_setting": N_("There is no setting called {name!r}."),
    "starting_balance_out_of_range": N_(
        "The starting balance must be a whole number between {low} and {high}."
    ),
    "daily_amount_out_of_range": N_("The daily amount must be a whole number between {low} and {high}."),
    "stake_out_of_range": N_("The stake must be a whole number between {low} and {high}."),
    "buy_in_out_of_range": N_("The buy-in must be a whole number between {low} and {high}."),
    "turn_seconds_out_of_range": N_(
        "The turn timer must be a whole number between {low} and {high} seconds."
    ),
    "season_months_invalid": N_("A season lasts 1, 2, 3, 4, 6 or 12 months."),
    "tables_invalid": N_("Games are played either in a thread of their own or in the channel."),
    "away_rounds_out_of_range": N_(
        "The rounds a seat may stay away must be a whole number between {low} and {high}."
    ),
    # tournaments (bot/tournament)
    "tournament_fee_out_of_range": N_("The entry fee must be a whole number between {low} and {high}."),
    "tournament_seats_out_of_range": N_("A tournament has between {low} and {high} seats."),
    "tournament_levels_out_of_range": N_(
        "The stake rises every {low} to {high} rounds; pick a number in that range."
    ),
    "tournament_payout_invalid": N_("Pick one of the payout tables in the menu."),
    "tournament_start_invalid": N_(
        "Give a start time in minutes from now (1 to 1440), or leave it empty to start when full."
    ),
    "tournament_exists": N_(
        "There's already a tournament in this channel. Join it, or open one in another channel."
    ),
    "tournament_gone": N_("This tournament is over or was cancelled."),
    "tournament_moved": N_("This tournament changed a moment ago; nothing was done. Try again."),
    "tournament_no_fee": N_("The entry fee is {fee} chips, but your balance is {balance}."),
    "tournament_house_short": N_(
        "The house has only {balance} chips, not enough for a computer player's {fee}-chip entry fee."
        " An admin can top it up with `/chips grant` to the bot."
    ),
    "tournament_already_entered": N_("You're already entered in this tournament."),
    "tournament_join_after_start": N_("This tournament has already started; wait for the next one."),
    "tournament_full": N_("The tournament is full ({seats} players)."),
    "tournament_leave_after_start": N_(
        "The tournament has started: you can't take your entry back now. If you go, the computer"
        " plays your seat until you're back or out."
    ),
    "tournament_not_entered": N_("You're not entered in this tournament."),
    "tournament_already_started": N_("This tournament has already started."),
    "tournament_too_few": N_("A tournament starts with at least {low} players; {entered} entered so far."),
    "tournament_cancel_after_start": N_(
        "The tournament has started: it can only be stopped (prizes paid by the stacks)."
    ),
    "tournament_host_only": N_("Only the host or a member with Manage Server can do that."),
    "tournament_not_running": N_("This tournament isn't being played."),
    "tournament_no_such_table": N_("That table is not part of this tournament any more."),
}


NOTHING_CHANGED = N_("{refusal} Nothing was changed.")
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
        return template.format(**shown)


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


def table_exists(t: Texts, guild_id: int, channel_id: int, message_id: int | None) -> str:
    """A channel's one table is open already (``table_exists``): said with a link to its message, if known."""
    if message_id:
        return t.gettext(
            "There's already a table in this channel: {link}. Join it, or start one in another channel."
        ).format(link=f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}")
    return t.gettext(MESSAGES["table_exists"])
