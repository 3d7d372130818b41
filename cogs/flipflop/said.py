"""What a table's outcome says in words: news to post, lines for the table's log, the final standings.

The notifier (``cogs.flipflop.notifier``) posts what these sort: a closing as news, the rest as the
table's log lines, a finished round's record drawn from its saved log. Pure: nothing here calls Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import Texts
from bot.presentation.table_render import ending_of, event_lines, log_lines, notice_line, round_title
from bot.runtime import ComputersOnly, Notice, Outcome, Resumed, TableClosed
from bot.table.log import Entry, without_removed_leaving
from bot.table.model import Table
from bot.table.transitions import as_told
from cogs.flipflop.screens import RoundRecord, practice_title
from engine.events import Discarded, Drew, Dropped, Event, GameOver, LaidOff, PlayerLeft, SpreadLaid


def only_a_draw(outcome: Outcome) -> bool:
    """A draw from the stock and nothing else: the table's edit may settle for the turn's discard.

    The same player is still to act; the draw shows (a card more, the stock a card less)
    when the discard does not follow within the notifier's ``DRAW_SETTLE`` (one edit either way).
    """
    return (
        bool(outcome.events)
        and not outcome.notices
        and all(isinstance(e, Drew) and e.source == "stock" for e in outcome.events)
        and outcome.table.status == "playing"
    )


MOVES = (Drew, Discarded, SpreadLaid, LaidOff, Dropped, PlayerLeft)
"""The events that are a player's move (a table's actions, as its call budget counts them)."""


@dataclass(frozen=True)
class Said:
    """What an outcome says in words: notices posted as news, lines for the log, final standings."""

    news: list[Notice]
    lines: list[str]
    final: list[str]

    def news_lines(self, table: Table, t: Texts) -> list[str]:
        """The news notices as lines (a notice with nothing to say gives none)."""
        return [line for n in self.news if (line := notice_line(table, n, t))]


def news_kinds(table: Table) -> tuple[type[Notice], ...]:
    """Notices posted as news: a closing; in a lobby, a restart too.

    In a game a restart says nothing (the table reads as before: its log is saved with it) but
    counts as said, so resuming a table costs one call: the paced edit of its message (which
    also finds a deleted one).
    """
    return (TableClosed,) if table.game is not None else (TableClosed, Resumed)


def what_is_said(outcome: Outcome, t: Texts) -> Said:
    """Sort an outcome's notices and events into news, log lines and the final standings."""
    table = outcome.table
    as_news = news_kinds(table)
    told = [n for n in outcome.notices if not isinstance(n, ComputersOnly)]
    lines = [
        line for n in told if not isinstance(n, as_news) and (line := notice_line(table, n, t)) is not None
    ]
    lines += event_lines(table, story_events(outcome), t)
    over = [e for e in outcome.events if isinstance(e, GameOver)]
    final = event_lines(table, over, t, why_over(outcome, t))
    return Said([n for n in told if isinstance(n, as_news)], lines, final)


def story_events(outcome: Outcome) -> list[Event]:
    """The events told as the round's story.

    Not the game's end (told as the final standings), and not the leaving of a player removed
    for timeouts (``without_removed_leaving``).
    """
    told = [e for e in as_told(outcome.table, outcome.events) if not isinstance(e, GameOver)]
    return without_removed_leaving(told, outcome.notices)


def why_over(outcome: Outcome, t: Texts) -> str:
    """Why the game ended early, when only computers were left; else nothing."""
    ending = [n for n in outcome.notices if isinstance(n, ComputersOnly)]
    return (notice_line(outcome.table, ending[0], t) or "") if ending else ""


def game_finished(table: Table) -> bool:
    """A game that ended by the rules (or was stopped): its table message becomes its last round's record."""
    return table.status == "closed" and table.game is not None and table.game.public_view().over


def round_record(table: Table, number: int, entries: Sequence[Entry], t: Texts) -> RoundRecord:
    """Round ``number``'s record in the channel, drawn from its saved log: its story and its picture."""
    style = t.faces.style if t.faces is not None else "classic"
    title = practice_title(table, round_title(table, number, t), t)
    return RoundRecord(title, tuple(log_lines(table, entries, t)), ending_of(table, entries, t), style)
