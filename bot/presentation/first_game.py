"""A first game that explains itself: ``/flipflop help``, the server's first table, a short buy-in.

A newcomer's first question is typed (``/flipflop help``), or never asked: the
first table a server opens tells whoever opened it how to play (once, privately),
and a lobby whose buy-in holds few stakes says how short its games will be.
Words only, through the catalogs; the one piece of state is which servers have had their first table,
kept in ``server_welcomes`` (migration 9) so a restart does not say it again.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import N_, Texts
from bot.storage import Store
from bot.table.model import MAX_SEATS, MIN_SEATS, Table
from engine import HOUSE_RULES

HELP_TITLE = N_("🃏 Flip Flop — how to play")
HELP_FIRST = N_(
    "**1. Open a table.** Type `/flipflop start` in a channel, then wait for others to click **Join** "
    "({least}–{most} players). No one to play with? The host can seat Basic or Strong computer players "
    "from the lobby's menu, or `/flipflop practice` opens a table against computers with practice chips "
    "(Random computers play there only)."
)
HELP_START = N_(
    "**2. Start.** Your buy-in moves from your balance to the table when you open it or click "
    "**Join** (and back if you leave the lobby). The host clicks **Start**; each round every player "
    "puts a stake into each of the three pots: game, flip and flop."
)
HELP_TURN = N_(
    "**3. Your turn.** Click **My hand** on the table: only you see your cards. Either **Drop** "
    "(you claim the lowest hand, and the round ends), or draw a card from the stock or the discard "
    "pile, lay down runs and sets or add to spreads on the table, and discard one card."
)
HELP_WIN = N_(
    "**4. Winning.** Get rid of every card, win a drop, or hold the lowest hand when the stock runs "
    "out, and you take the game pot. The lowest card of the upcard's suit takes the flip pot; the "
    "lowest card of the other suit of the same colour takes the flop pot."
)
HELP_MORE = N_(
    "**More:** `/flipflop rules` (the rules, a page at a time) · `/balance` and `/daily` (your chips) "
    "· `/flipflop hand` (your cards again) · `/flipflop language` (your language)."
)
HELP_PARTS = (HELP_FIRST, HELP_START, HELP_TURN, HELP_WIN, HELP_MORE)
"""``/flipflop help`` paragraph by paragraph: what to type first, how a turn goes, where the rules are."""


def help_parts(t: Texts) -> list[str]:
    """``/flipflop help``'s paragraphs in ``t``'s language (docs/HOW_TO_PLAY.md shows them too)."""
    parts = [t.gettext(part) for part in HELP_PARTS]
    parts[0] = parts[0].format(least=t.number(MIN_SEATS), most=t.number(MAX_SEATS))
    return parts


def help_text(t: Texts) -> str:
    """``/flipflop help`` in ``t``'s language (commands as clickable mentions once synced)."""
    return "\n\n".join([f"**{t.gettext(HELP_TITLE)}**", *help_parts(t)])


WELCOME = N_(
    "👋 **This is this server's first Flip Flop table.** You're seated as its host: the others "
    "click **Join** to sit down, and you click **Start** when {least} to {most} players are seated "
    "(you can add computer players too). On your turn, click **My hand** on the table. New to the "
    "game? Type `/flipflop help` (only you see the answer) or `/flipflop rules`."
)
"""Said once per server, privately to whoever opened its first table (its host), in their language."""


def welcome_text(t: Texts) -> str:
    """The first table's welcome in ``t``'s language."""
    return t.gettext(WELCOME).format(least=t.number(MIN_SEATS), most=t.number(MAX_SEATS))


SHORT_GAME_STAKES = 8
"""Below this many stakes in the buy-in, the lobby warns that games will be short."""
SHORT_BUY_IN = N_(
    "⚠️ **Short games:** the buy-in is only {stakes}× the stake, and each round takes up to 3 "
    "stakes from every stack, so a player who wins nothing is out after round {round}. For longer "
    "games, open a table with a buy-in of {suggested} or more."
)


def rounds_to_bust(stakes: int) -> int:
    """Rounds a stack of ``stakes`` whole stakes lasts when it wins nothing (R2.3, R2.7).

    Each deal takes one stake per pot the stack can pay: three from 4 stakes up, two
    from 3, one from 2 or 1 (all in); a stack under one stake is out.
    """
    rounds = 0
    while stakes >= 1:
        stakes -= 3 if stakes >= 4 else 2 if stakes == 3 else 1
        rounds += 1
    return rounds


def short_buy_in(table: Table, t: Texts) -> str:
    """The lobby's warning when the buy-in holds fewer than ``SHORT_GAME_STAKES`` stakes; else ""."""
    stakes = table.buy_in // table.stake
    if stakes >= SHORT_GAME_STAKES:
        return ""
    return t.gettext(SHORT_BUY_IN).format(
        stakes=t.number(stakes),
        round=t.number(rounds_to_bust(stakes)),
        suggested=t.chips(SHORT_GAME_STAKES * table.stake),
    )


assert HOUSE_RULES.min_buy_in_stakes < SHORT_GAME_STAKES  # a warning, never a refusal


class ServerWelcomes:
    """Which servers have had their first table (``server_welcomes``), so each is welcomed once."""

    def __init__(self, db: Store, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def first_table(self, guild_id: int) -> bool:
        """True once per server: the first call for it records it (one insert, so two processes agree)."""
        async with self.db.transaction() as tx:
            added = await tx.execute(
                "INSERT INTO server_welcomes (guild_id, welcomed_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, self.clock()),
            )
        return bool(added)
