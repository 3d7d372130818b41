"""Each server's chips: accounts, an append-only ledger, and the server's settings.

Chips move in one place, here. Every balance change writes its ledger entry
and the new balance in the same transaction; a debit is one conditional
``UPDATE … WHERE balance >= ?``, so a balance can never go below zero, even
under concurrent debits — from other tasks, or on PostgreSQL from other bot
processes. Amounts are whole numbers (Red's bank habit). The SQL is the
portable kind both stores speak (see ``docs/OPERATORS.md``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.forget_marks import forgotten_at
from bot.presentation.refusals import Refusal
from bot.settings import HOUSE_FLOAT
from bot.storage import Store, Tx
from engine import HOUSE_RULES

HOUSE_ID = 0
"""The server's house account (computer players buy in from it)."""
MAX_AMOUNT = 1_000_000_000
DAILY_SECONDS = 24 * 60 * 60
MINTING_REASONS = ("starting", "house_float", "daily", "grant", "take")
"""Reasons that bring chips into a server or take them out of it; every other reason moves chips."""


TableReason = Literal["buy_in", "refund", "cash_out"]
"""Why chips move between a balance and a table (the ledger entry's ``reason``)."""


@dataclass(frozen=True)
class Posting:
    """Chips moving between an account and a table: ``change`` < 0 takes them (a buy-in), > 0 gives them."""

    account: int
    change: int
    reason: TableReason
    actor_id: int | None = None
    """The manager whose command moved them (a manager closing a table), written on the entry."""


@dataclass(frozen=True)
class AdminChange:
    """One grant or take by a manager (``/chips grant``, ``/chips take``), as the audit lists it."""

    actor_id: int | None
    """The manager (None only for entries written before managers were recorded)."""
    user_id: int
    change: int
    """Chips brought in (> 0, a grant) or taken out (< 0, a take)."""
    note: str | None
    """Why, in the manager's words (None for entries from before reasons were asked)."""
    created_at: float


class LedgerError(Refusal):
    """A chip operation that can not be done: ``code`` + ``params`` (``bot.presentation.refusals``)."""


class BadAmount(LedgerError):
    """Zero, negative, fractional or absurdly large."""


class InsufficientChips(LedgerError):
    """The balance does not cover a debit."""

    def __init__(self, balance: int, needed: int) -> None:
        super().__init__("insufficient_chips", balance=balance, needed=needed)
        self.balance = balance
        self.needed = needed


class DailyNotReady(LedgerError):
    """The daily chips were claimed less than 24 hours ago."""

    def __init__(self, next_at: float) -> None:
        super().__init__("daily_not_ready")
        self.next_at = next_at


class GuildSettings(BaseModel):
    """A server's settings, with the defaults a new server gets.

    The ``Field`` bounds are the one place the limits live: validation here,
    the messages members read (``settings_error``) and the slash-command
    ranges (``setting_range``) all come from them. R2.1 ties stake and buy-in.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    starting_balance: int = Field(default=1000, ge=0, le=MAX_AMOUNT, title="starting balance")
    daily_amount: int = Field(default=200, ge=0, le=MAX_AMOUNT, title="daily amount")
    default_stake: int = Field(default=5, ge=1, le=MAX_AMOUNT // 4, title="stake")
    default_buy_in: int = Field(default=200, ge=4, le=MAX_AMOUNT, title="buy-in")
    turn_seconds: int = Field(default=60, ge=15, le=3600, title="turn timer", description="seconds")
    season_months: int = Field(default=1, ge=1, le=12, title="season length", description="months")
    tables: Literal["thread", "channel"] = Field(default="thread", title="where games are played")
    """``thread``: a game opens a public thread from its lobby where the bot may; ``channel``: never."""
    away_rounds: int = Field(default=3, ge=1, le=10, title="away rounds", description="rounds")
    """Rounds a player may spend away before their seat is released (their stack goes home)."""

    @model_validator(mode="after")
    def _whole_seasons(self) -> GuildSettings:
        if 12 % self.season_months:  # seasons counted from January fit a year exactly
            raise ValueError("season_months_invalid") from LedgerError("season_months_invalid")
        return self

    @model_validator(mode="after")
    def _playable(self) -> GuildSettings:
        try:
            check_stakes(self.default_stake, self.default_buy_in)
        except LedgerError as e:
            raise ValueError(str(e)) from e  # settings_error finds the refusal again
        return self

    def check(self) -> None:
        """Raise ``LedgerError`` unless the settings make a playable table (R2.1)."""
        GuildSettings.build(**self.model_dump())

    @classmethod
    def build(cls, **values: Any) -> GuildSettings:
        """Validated settings, or ``LedgerError`` with a message a member can act on."""
        try:
            return cls.model_validate(values)
        except ValidationError as e:
            raise settings_error(e) from None


def setting_range(name: str) -> tuple[int, int]:
    """The lowest and highest value a setting takes (for slash-command ranges)."""
    low = high = None
    for bound in GuildSettings.model_fields[name].metadata:
        low = getattr(bound, "ge", low)
        high = getattr(bound, "le", high)
    assert low is not None and high is not None, name
    return int(low), int(high)


def settings_error(error: ValidationError) -> LedgerError:
    """The first problem of a failed validation, as a refusal a member can act on."""
    first = error.errors()[0]
    if first["type"] == "value_error":
        raised = first["ctx"]["error"]
        if isinstance(raised.__cause__, LedgerError):  # from ``_playable``: R2.1
            return raised.__cause__
    name = str(first["loc"][0]) if first["loc"] else ""
    field = GuildSettings.model_fields.get(name)
    if field is None:
        return LedgerError("no_such_setting", name=name)
    low, high = setting_range(name) if name != "tables" else (0, 0)
    # One whole sentence per setting (a translation can not be built from a title and a unit).
    if name == "starting_balance":
        return LedgerError("starting_balance_out_of_range", low=low, high=high)
    if name == "daily_amount":
        return LedgerError("daily_amount_out_of_range", low=low, high=high)
    if name == "default_stake":
        return LedgerError("stake_out_of_range", low=low, high=high)
    if name == "default_buy_in":
        return LedgerError("buy_in_out_of_range", low=low, high=high)
    if name == "season_months":
        return LedgerError("season_months_invalid")
    if name == "tables":
        return LedgerError("tables_invalid")
    if name == "away_rounds":
        return LedgerError("away_rounds_out_of_range", low=low, high=high)
    return LedgerError("turn_seconds_out_of_range", low=low, high=high)


def min_buy_in(stake: int) -> int:
    """R2.1: the smallest buy-in at a stake (``min_buy_in_stakes`` stakes)."""
    return HOUSE_RULES.min_buy_in_stakes * stake


def check_stakes(stake: int, buy_in: int) -> None:
    """R2.1: a stake of at least 1 and a buy-in that is a multiple of it, at least ``min_buy_in``."""
    if stake < 1:
        raise LedgerError("stake_too_small")
    minimum = min_buy_in(stake)
    if buy_in < minimum:
        raise LedgerError("buy_in_too_small", minimum=minimum)
    if buy_in % stake:
        raise LedgerError("buy_in_not_multiple", stake=stake)
    if buy_in > MAX_AMOUNT:
        raise LedgerError("buy_in_too_large", maximum=MAX_AMOUNT)


def buy_in_for(stake: int, buy_in: int | None, default_stake: int, default_buy_in: int) -> int:
    """A new table's buy-in: the one the host named, else the server's in stakes (R2.1).

    The server's buy-in in stakes keeps it a multiple of the stake. A stake so large that it
    passes ``MAX_AMOUNT`` is refused as a stake (``stake_too_large``, naming the largest):
    nobody typed that buy-in.
    """
    if buy_in is not None:
        return buy_in
    stakes = default_buy_in // default_stake
    if stake * stakes > MAX_AMOUNT:
        raise LedgerError("stake_too_large", stakes=stakes, most=MAX_AMOUNT // stakes)
    return stake * stakes


NOTE_CHARS = 200
"""The longest reason a manager gives for a grant or a take (``/chips grant reason:``)."""


def check_note(note: str) -> str:
    """A grant's or take's reason on one line (runs of whitespace become one space).

    ``LedgerError`` when it is blank or longer than ``NOTE_CHARS``.
    """
    text = " ".join(note.split())
    if not text:
        raise LedgerError("note_empty")
    if len(text) > NOTE_CHARS:
        raise LedgerError("note_too_long", length=len(text), limit=NOTE_CHARS)
    return text


def check_amount(amount: int) -> None:
    """Raise ``BadAmount`` unless ``amount`` is a whole number from 1 to ``MAX_AMOUNT``."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AMOUNT:
        raise BadAmount("bad_amount", maximum=MAX_AMOUNT)


class Ledger:
    """The chip operations of every server, on one ``Store``."""

    def __init__(
        self, db: Store, clock: Callable[[], float] = time.time, house_float: int = HOUSE_FLOAT
    ) -> None:
        self.db = db
        self.clock = clock
        self.house_float = house_float
        """Chips the house account opens with (``Settings.house_float``), with an entry like any credit."""

    # ---------------------------------------------------------------- settings

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults until an admin changes one)."""
        row = await self.db.fetchone(
            "SELECT starting_balance, daily_amount, default_stake, default_buy_in, turn_seconds,"
            " season_months, tables, away_rounds FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings()
        return GuildSettings.build(**dict(zip(GuildSettings.model_fields, row, strict=True)))

    async def update_settings(self, guild_id: int, **changes: int | str) -> GuildSettings:
        """Change some settings; raise ``LedgerError`` (and change nothing) if the result is unplayable."""
        new = GuildSettings.build(**{**(await self.settings(guild_id)).model_dump(), **changes})
        values = new.model_dump()
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, starting_balance, daily_amount, default_stake,"
                " default_buy_in, turn_seconds, season_months, tables, away_rounds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET starting_balance = excluded.starting_balance,"
                " daily_amount = excluded.daily_amount, default_stake = excluded.default_stake,"
                " default_buy_in = excluded.default_buy_in, turn_seconds = excluded.turn_seconds,"
                " season_months = excluded.season_months, tables = excluded.tables,"
                " away_rounds = excluded.away_rounds",
                (guild_id, *values.values()),
            )
        return new

    # ---------------------------------------------------------------- accounts

    async def open_account(self, tx: Tx, guild_id: int, user_id: int) -> int:
        """Open the account with the starting balance if it is new; return the balance.

        The house's account opens with the house float instead (reason ``house_float``):
        a new server's house can seat computers before any admin grants it chips. A member
        forgotten in the last 30 days opens with no chips, their daily a day after the forget's day
        (``bot.forget_marks``: a forget is no way to mint chips).

        ``ON CONFLICT DO NOTHING`` makes two first uses at once (two processes
        on PostgreSQL) open it once: the one that loses reads the winner's row.
        """
        row = await tx.fetchone(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if row is not None:
            return int(row[0])
        start, reason, gone = self.house_float, "house_float", None
        if user_id != HOUSE_ID:
            reason = "starting"
            srow = await tx.fetchone(
                "SELECT starting_balance FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            start = int(srow[0]) if srow else GuildSettings().starting_balance
            if (gone := await forgotten_at(tx, user_id, self.clock())) is not None:
                start = 0
        opened = await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at, last_daily) VALUES (?, ?, 0, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO NOTHING",
            (guild_id, user_id, self.clock(), gone),
        )
        if not opened:
            return await self.open_account(tx, guild_id, user_id)
        if start:
            await self.credit(tx, guild_id, user_id, start, reason)
        return start

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, opening their account on first use."""
        async with self.db.transaction() as tx:
            return await self.open_account(tx, guild_id, user_id)

    async def held(self, guild_id: int, user_id: int) -> int | None:
        """The balance of an account already open, else None (nothing is opened: one who left has none)."""
        row = await self.db.fetchone(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return None if row is None else int(row[0])

    async def credit(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        reference: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
    ) -> int:
        """Add chips (amount ≥ 0) and write the entry; return the new balance."""
        if amount < 0:
            raise BadAmount("negative_credit")
        add = "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ? RETURNING balance"
        row = await tx.fetchone(add, (amount, guild_id, user_id))
        if row is None:  # a new account: open it, then credit
            await self.open_account(tx, guild_id, user_id)
            row = await tx.fetchone(add, (amount, guild_id, user_id))
        assert row is not None
        balance = int(row[0])
        return await self._entry(tx, guild_id, user_id, amount, balance, reason, reference, actor_id, note)

    async def debit(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        reference: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
    ) -> int:
        """Take chips if the balance covers them; raise ``InsufficientChips`` otherwise.

        One conditional ``UPDATE … WHERE balance >= ?``: concurrent debits
        (other tasks, other processes) can never spend the same chips twice.
        """
        if amount < 0:
            raise BadAmount("negative_debit")
        take = (
            "UPDATE accounts SET balance = balance - ? WHERE guild_id = ? AND user_id = ? AND balance >= ?"
            " RETURNING balance"
        )
        row = await tx.fetchone(take, (amount, guild_id, user_id, amount))
        if row is None:  # short, or a new account (which may start with enough)
            balance = await self.open_account(tx, guild_id, user_id)
            row = await tx.fetchone(take, (amount, guild_id, user_id, amount)) if balance >= amount else None
            if row is None:
                raise InsufficientChips(balance, amount)
        balance = int(row[0])
        return await self._entry(tx, guild_id, user_id, -amount, balance, reason, reference, actor_id, note)

    async def post(self, tx: Tx, guild_id: int, posting: Posting, reference: str) -> int:
        """Move one posting's chips (a debit refused with ``InsufficientChips``); return the new balance."""
        if posting.change < 0:
            return await self.debit(
                tx, guild_id, posting.account, -posting.change, posting.reason, reference, posting.actor_id
            )
        return await self.credit(
            tx, guild_id, posting.account, posting.change, posting.reason, reference, posting.actor_id
        )

    async def _entry(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        change: int,
        balance: int,
        reason: str,
        reference: str | None,
        actor_id: int | None,
        note: str | None = None,
    ) -> int:
        await tx.execute(
            "INSERT INTO ledger (guild_id, user_id, change, balance_after, reason, reference, actor_id,"
            " note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, change, balance, reason, reference, actor_id, note, self.clock()),
        )
        return balance

    # ---------------------------------------------------------------- commands

    async def grant(
        self, guild_id: int, user_id: int, amount: int, actor_id: int, note: str | None = None
    ) -> int:
        """An admin adds chips (``/chips grant``); ``note`` says why, kept on the entry for the audit.

        A grant never takes a balance past ``MAX_AMOUNT``: one that would raises
        ``LedgerError("balance_too_large")`` (with the balance and the room left) and changes
        nothing. The check is the ``UPDATE``'s own condition, so two grants at once can not
        both slip under it. A grant is thus always undone by one take (at most ``MAX_AMOUNT``);
        chips won, dailies and refunds may still take a balance past it (they are never refused).
        """
        check_amount(amount)
        async with self.db.transaction() as tx:
            await self.open_account(tx, guild_id, user_id)
            row = await tx.fetchone(
                "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ?"
                " AND balance <= ? RETURNING balance",
                (amount, guild_id, user_id, MAX_AMOUNT - amount),
            )
            if row is None:
                now = await self.open_account(tx, guild_id, user_id)
                raise LedgerError(
                    "balance_too_large", maximum=MAX_AMOUNT, balance=now, room=max(0, MAX_AMOUNT - now)
                )
            balance = int(row[0])
            return await self._entry(tx, guild_id, user_id, amount, balance, "grant", None, actor_id, note)

    async def take(
        self, guild_id: int, user_id: int, amount: int, actor_id: int, note: str | None = None
    ) -> int:
        """An admin removes chips (``/chips take``); never more than the balance; ``note`` says why."""
        check_amount(amount)
        async with self.db.transaction() as tx:
            return await self.debit(tx, guild_id, user_id, amount, "take", actor_id=actor_id, note=note)

    async def admin_changes(self, guild_id: int, limit: int = 10) -> list[AdminChange]:
        """The server's latest grants and takes, newest first: who, to whom, how many, when and why."""
        rows = await self.db.fetchall(
            "SELECT actor_id, user_id, change, note, created_at FROM ledger"
            " WHERE guild_id = ? AND reason IN ('grant', 'take') ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [
            AdminChange(
                int(actor) if actor is not None else None, int(user), int(change), note, float(created)
            )
            for actor, user, change, note, created in rows
        ]

    async def claim_daily(self, guild_id: int, user_id: int, now: float) -> tuple[int, int]:
        """Credit the daily chips once per 24 hours; return (amount, new balance).

        The claim is one conditional ``UPDATE``, so two claims at once pay once.
        """
        async with self.db.transaction() as tx:
            srow = await tx.fetchone(
                "SELECT daily_amount FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            amount = int(srow[0]) if srow else GuildSettings().daily_amount
            if amount == 0:  # the server switched daily chips off: no claim, no account opened
                raise LedgerError("daily_off")
            await self.open_account(tx, guild_id, user_id)
            claimed = await tx.execute(
                "UPDATE accounts SET last_daily = ? WHERE guild_id = ? AND user_id = ?"
                " AND (last_daily IS NULL OR last_daily <= ?)",
                (now, guild_id, user_id, now - DAILY_SECONDS),
            )
            if not claimed:
                row = await tx.fetchone(
                    "SELECT last_daily FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )
                assert row is not None
                raise DailyNotReady(float(row[0]) + DAILY_SECONDS)
            balance = await self.credit(tx, guild_id, user_id, amount, "daily")
            return amount, balance

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, int]]:
        """The richest members (not the house, nor forgotten members' pseudonyms), most chips first."""
        rows = await self.db.fetchall(
            "SELECT user_id, balance FROM accounts WHERE guild_id = ? AND user_id > ?"
            " ORDER BY balance DESC, created_at ASC, user_id ASC LIMIT ?",
            (guild_id, HOUSE_ID, limit),
        )
        return [(int(u), int(b)) for u, b in rows]

    async def rank(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """(place, members with accounts): 1 is the richest; ties share a place."""
        row = await self.db.fetchone(
            "SELECT (SELECT COUNT(*) FROM accounts a WHERE a.guild_id = ? AND a.user_id > ?"
            "        AND a.balance > me.balance) + 1,"
            "       (SELECT COUNT(*) FROM accounts WHERE guild_id = ? AND user_id > ?)"
            " FROM accounts me WHERE me.guild_id = ? AND me.user_id = ?",
            (guild_id, HOUSE_ID, guild_id, HOUSE_ID, guild_id, user_id),
        )
        if row is None:
            return 0, 0
        return int(row[0]), int(row[1])

    # ---------------------------------------------------------------- checks

    async def audit(self, guild_id: int) -> list[str]:
        """Every account whose balance is not the sum of its entries (empty when all is well)."""
        rows = await self.db.fetchall(
            "SELECT a.user_id, a.balance, COALESCE(SUM(l.change), 0) FROM accounts a"
            " LEFT JOIN ledger l ON l.guild_id = a.guild_id AND l.user_id = a.user_id"
            " WHERE a.guild_id = ? GROUP BY a.user_id, a.balance",
            (guild_id,),
        )
        return [f"member {u}: balance {b} but entries sum to {s}" for u, b, s in rows if int(b) != int(s)]

    async def minted(self, guild_id: int) -> int:
        """Chips brought into the server: starting balances, dailies, grants, less takes."""
        marks = ",".join("?" * len(MINTING_REASONS))
        row = await self.db.fetchone(
            f"SELECT COALESCE(SUM(change), 0) FROM ledger WHERE guild_id = ? AND reason IN ({marks})",
            (guild_id, *MINTING_REASONS),
        )
        return int(row[0]) if row else 0

    async def total_balances(self, guild_id: int) -> int:
        """The sum of every balance in the server, the house's included."""
        row = await self.db.fetchone(
            "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?", (guild_id,)
        )
        return int(row[0]) if row else 0

    async def chips_at_tables(self, guild_id: int) -> int:
        """Chips held at the server's open tables (stacks and pots) and by its tournaments (entry fees)."""
        row = await self.db.fetchone(
            "SELECT (SELECT COALESCE(SUM(chips), 0) FROM tables WHERE guild_id = ? AND status != 'closed')"
            " + (SELECT COALESCE(SUM(chips), 0) FROM tournaments WHERE guild_id = ?"
            " AND status IN ('open', 'running'))",
            (guild_id, guild_id),
        )
        return int(row[0]) if row else 0
