"""Who may take chips, and how often a member may open a table (so alt accounts can not farm chips).

Pure: the client's edge reads a member's account age and join date from Discord and
hands them over as seconds; these checks answer with a ``Refusal`` (its sentence in
``bot.presentation.refusals``), and nothing is changed when one is raised.

- ``Newcomers``: ``/daily`` and a seat at a table played for chips wait until the Discord
  account is ``MIN_ACCOUNT_DAYS`` old and the member has been in the server
  ``MIN_MEMBER_DAYS``. Practice tables never wait: practice chips are not chips.
- ``TableCooldown``: after opening a table (any kind), a member waits
  ``TABLE_COOLDOWN_SECONDS`` before opening another; a second one, of the same length,
  spaces a member's tournaments (``cogs/flipflop/tournament.py``). Kept in the memory of the process
  that runs the server's shard (every table of a server is opened there); a restart
  forgets it, which at worst lets a member open one table early.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.presentation.refusals import Refusal
from bot.table.model import TableError

DAY_SECONDS = 24 * 60 * 60


def relative(at: float) -> str:
    """A moment as Discord shows it to each reader, relative to now ("in 3 days")."""
    return f"<t:{math.ceil(at)}:R>"


@dataclass(frozen=True)
class Newcomers:
    """The minimum account age and time in the server for chips (days; 0 switches one off)."""

    min_account_days: float
    min_member_days: float

    def ready_at(self, created_at: float, joined_at: float | None) -> tuple[str, float]:
        """The wait that ends last (``account`` or ``member``) and when it ends."""
        account = created_at + self.min_account_days * DAY_SECONDS if self.min_account_days else 0.0
        waits = [("account", account)]
        if joined_at is not None and self.min_member_days:  # without a join date, nothing to wait for
            waits.append(("member", joined_at + self.min_member_days * DAY_SECONDS))
        return max(waits, key=lambda w: w[1])

    def check(self, created_at: float, joined_at: float | None, now: float) -> None:
        """Raise ``Refusal`` (``account_too_new`` or ``member_too_new``) while a wait is not over."""
        if not self.min_account_days and not self.min_member_days:
            return  # off: no clock can be a moment behind (a join stamped after the command's own time)
        which, until = self.ready_at(created_at, joined_at)
        if now >= until:
            return
        if which == "account":
            raise Refusal("account_too_new", when=relative(until))
        raise Refusal("member_too_new", when=relative(until))


@dataclass
class TableCooldown:
    """When each member of each server last opened a table; ``seconds`` between two openings."""

    seconds: float
    opened_at: dict[tuple[int, int], float] = field(default_factory=dict)
    tournaments: bool = False
    """It spaces tournaments, not tables: its refusal says so (``tournament_cooldown``)."""

    def check(self, guild_id: int, user_id: int, now: float) -> None:
        """Raise ``TableError("table_cooldown")`` while the member's last opening is too recent."""
        last = self.opened_at.get((guild_id, user_id))
        if last is not None and now < last + self.seconds:
            if self.tournaments:
                raise TableError("tournament_cooldown", when=relative(last + self.seconds))
            raise TableError("table_cooldown", when=relative(last + self.seconds))

    def claim(self, guild_id: int, user_id: int, now: float) -> Callable[[], None]:
        """Check and count an opening in one step, before the opening's own awaits.

        Two openings by one member at the same instant (two channels, two clicks) can not both pass.
        Returns the undo for an opening that then fails: the member's earlier opening counts again.
        """
        self.check(guild_id, user_id, now)
        key = (guild_id, user_id)
        earlier = self.opened_at.get(key)
        self.opened(guild_id, user_id, now)

        def undo() -> None:
            if self.opened_at.get(key) != now:
                return
            if earlier is None:
                self.opened_at.pop(key, None)
            else:
                self.opened_at[key] = earlier

        return undo

    def opened(self, guild_id: int, user_id: int, now: float) -> None:
        """The member opened a table now (waits that are over are forgotten, so memory stays small)."""
        if not self.seconds:
            return
        if len(self.opened_at) > 1000:
            self.opened_at = {k: v for k, v in self.opened_at.items() if now < v + self.seconds}
        self.opened_at[(guild_id, user_id)] = now
