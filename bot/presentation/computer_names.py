"""How computer players read: each level's name and what it does, in the reader's language.

The core knows a computer seat as data (``ComputerSeat``: a level and a number);
it is said here, never saved as words.
"""

from __future__ import annotations

from bot.i18n import N_, Texts

LEVEL_ABOUT = {
    "basic": N_("Sound play: spreads, lays off, drops when low"),
    "strong": N_("Thinks ahead by playing out possible hands"),
    "random": N_("Plays any legal move (for fun)"),
}
"""What each level (``bot.runtime.LEVELS``) does (marked for the catalogs; translate where shown)."""
LEVEL_LABEL = {"basic": N_("Basic"), "strong": N_("Strong"), "random": N_("Random")}
"""The name a computer player of each level gets at the table (``🤖 Strong 1``)."""


def level_name(level: str, t: Texts) -> str:
    """A level's name in ``t``'s language (an unknown level as it is)."""
    return t.gettext(LEVEL_LABEL[level]) if level in LEVEL_LABEL else level


def level_named(typed: str, t: Texts) -> str | None:
    """The level a member typed: its key (``basic``) or its name in ``t``'s language (``Payak``), any case."""
    wanted = typed.strip().casefold()
    for level in LEVEL_LABEL:
        if wanted in (level, level_name(level, t).casefold()):
            return level
    return None


def computer_name(level: str, number: int, t: Texts) -> str:
    """A computer seat's name: ``🤖 Basic 1``, in ``t``'s language."""
    return f"🤖 {level_name(level, t)} {number}"


def computer_number(seat: str) -> int:
    """A computer seat's number at its table, from its seat id: seat ``-n`` is the n-th computer seated.

    Computers sit at ``-1, -2, …`` in the order they sit and the last one seated is the one
    removed (``bot.table.transitions``), so a seat id and a number never part.
    """
    return abs(int(seat))
