"""Each server's chips: accounts, an append-only ledger, and the server's settings.

Chips move in one place, here. Every balance change writes its ledger entry
and the new balance in the same transaction; a debit is one conditional
``UPDATE … WHERE balance >= ?``, so a balance can never go below zero, even
under concurrent debits. Amounts are whole numbers (Red's bank habit).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

from bot.db import Database, Tx

HOUSE_ID = 0
"""The server's house account (computer players buy in from it)."""
MAX_AMOUNT = 1_000_000_000
DAILY_SECONDS = 24 * 60 * 60
MINTING_REASONS = ("starting", "daily", "grant", "take")
"""Reasons that bring chips into a server or take them out of it; every other reason moves chips."""


class LedgerError(Exception):
    """A chip operation that can not be done; the message is for the member."""


class BadAmount(LedgerError):
    """Zero, negative, fractional or absurdly large."""


class InsufficientChips(LedgerError):
    """The balance does not cover a debit."""

    def __init__(self, balance: int, needed: int) -> None:
        super().__init__(f"That needs {needed:,} chips, but the balance is {balance:,}.")
        self.balance = balance
        self.needed = needed


class DailyNotReady(LedgerError):
    """The daily chips were claimed less than 24 hours ago."""

    def __init__(self, next_at: float) -> None:
        super().__init__("The daily chips are not ready yet.")
        self.next_at = next_at


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings, with the defaults a new server gets."""

    starting_balance: int = 1000
    daily_amount: int = 200
    default_stake: int = 5
    default_buy_in: int = 200
    turn_seconds: int = 60

    def check(self) -> None:
        """Raise ``LedgerError`` unless the settings make a playable table (R2.1)."""
        if not 0 <= self.starting_balance <= MAX_AMOUNT:
            raise LedgerError("The starting balance must be between 0 and 1,000,000,000.")
        if not 0 <= self.daily_amount <= MAX_AMOUNT:
            raise LedgerError("The daily amount must be between 0 and 1,000,000,000.")
        check_stakes(self.default_stake, self.default_buy_in)
        if not 15 <= self.turn_seconds <= 3600:
            raise LedgerError("The turn timer must be between 15 and 3,600 seconds.")


def check_stakes(stake: int, buy_in: int) -> None:
    """R2.1: a stake of at least 1 and a buy-in that is a multiple of it, at least four stakes."""
    if stake < 1:
        raise LedgerError("The stake must be at least 1 chip.")
    if buy_in < 4 * stake:
        raise LedgerError(f"The buy-in must be at least four stakes ({4 * stake:,} chips) (R2.1).")
    if buy_in % stake:
        raise LedgerError(f"The buy-in must be a multiple of the stake ({stake:,}) (R2.1).")
    if buy_in > MAX_AMOUNT:
        raise LedgerError("That buy-in is too large.")


def check_amount(amount: int) -> None:
    """Raise ``BadAmount`` unless ``amount`` is a whole number from 1 to ``MAX_AMOUNT``."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AMOUNT:
        raise BadAmount(f"The amount must be a whole number from 1 to {MAX_AMOUNT:,}.")


class Ledger:
    """The chip operations of every server, on one ``Database``."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    # ---------------------------------------------------------------- settings

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults until an admin changes one)."""
        row = await self.db.fetchone(
            "SELECT starting_balance, daily_amount, default_stake, default_buy_in, turn_seconds"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return GuildSettings(*row) if row else GuildSettings()

    async def update_settings(self, guild_id: int, **changes: int) -> GuildSettings:
        """Change some settings; raise ``LedgerError`` (and change nothing) if the result is unplayable."""
        new = replace(await self.settings(guild_id), **changes)
        new.check()
        values = asdict(new)
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, starting_balance, daily_amount, default_stake,"
                " default_buy_in, turn_seconds) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET starting_balance = excluded.starting_balance,"
                " daily_amount = excluded.daily_amount, default_stake = excluded.default_stake,"
                " default_buy_in = excluded.default_buy_in, turn_seconds = excluded.turn_seconds",
                (guild_id, *values.values()),
            )
        return new

    # ---------------------------------------------------------------- accounts

    async def open_account(self, tx: Tx, guild_id: int, user_id: int) -> int:
        """Open the account with the starting balance if it is new; return the balance."""
        row = await tx.fetchone(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if row is not None:
            return int(row[0])
        start = 0
        if user_id != HOUSE_ID:
            srow = await tx.fetchone(
                "SELECT starting_balance FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            start = int(srow[0]) if srow else GuildSettings().starting_balance
        now = self.clock()
        await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)",
            (guild_id, user_id, now),
        )
        if start:
            await self.credit(tx, guild_id, user_id, start, "starting")
        return start

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, opening their account on first use."""
        async with self.db.transaction() as tx:
            return await self.open_account(tx, guild_id, user_id)

    async def credit(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        reference: str | None = None,
        actor_id: int | None = None,
    ) -> int:
        """Add chips (amount ≥ 0) and write the entry; return the new balance."""
        if amount < 0:
            raise BadAmount("A credit can not be negative.")
        await self.open_account(tx, guild_id, user_id)
        return await self._change(tx, guild_id, user_id, amount, reason, reference, actor_id)

    async def debit(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        reference: str | None = None,
        actor_id: int | None = None,
    ) -> int:
        """Take chips if the balance covers them; raise ``InsufficientChips`` otherwise."""
        if amount < 0:
            raise BadAmount("A debit can not be negative.")
        balance = await self.open_account(tx, guild_id, user_id)
        changed = await tx.execute(
            "UPDATE accounts SET balance = balance - ? WHERE guild_id = ? AND user_id = ? AND balance >= ?",
            (amount, guild_id, user_id, amount),
        )
        if changed != 1:
            raise InsufficientChips(balance, amount)
        return await self._entry(tx, guild_id, user_id, -amount, reason, reference, actor_id)

    async def _change(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        reference: str | None,
        actor_id: int | None,
    ) -> int:
        await tx.execute(
            "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
            (amount, guild_id, user_id),
        )
        return await self._entry(tx, guild_id, user_id, amount, reason, reference, actor_id)

    async def _entry(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        change: int,
        reason: str,
        reference: str | None,
        actor_id: int | None,
    ) -> int:
        row = await tx.fetchone(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        assert row is not None
        balance = int(row[0])
        await tx.execute(
            "INSERT INTO ledger (guild_id, user_id, change, balance_after, reason, reference, actor_id,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, change, balance, reason, reference, actor_id, self.clock()),
        )
        return balance

    # ---------------------------------------------------------------- commands

    async def grant(self, guild_id: int, user_id: int, amount: int, actor_id: int) -> int:
        """An admin adds chips (``/chips grant``)."""
        check_amount(amount)
        async with self.db.transaction() as tx:
            return await self.credit(tx, guild_id, user_id, amount, "grant", actor_id=actor_id)

    async def take(self, guild_id: int, user_id: int, amount: int, actor_id: int) -> int:
        """An admin removes chips (``/chips take``); never more than the balance."""
        check_amount(amount)
        async with self.db.transaction() as tx:
            return await self.debit(tx, guild_id, user_id, amount, "take", actor_id=actor_id)

    async def claim_daily(self, guild_id: int, user_id: int, now: float) -> tuple[int, int]:
        """Credit the daily chips once per 24 hours; return (amount, new balance)."""
        async with self.db.transaction() as tx:
            await self.open_account(tx, guild_id, user_id)
            row = await tx.fetchone(
                "SELECT last_daily FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
            last = row[0] if row else None
            if last is not None and now < last + DAILY_SECONDS:
                raise DailyNotReady(last + DAILY_SECONDS)
            srow = await tx.fetchone(
                "SELECT daily_amount FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            amount = int(srow[0]) if srow else GuildSettings().daily_amount
            await tx.execute(
                "UPDATE accounts SET last_daily = ? WHERE guild_id = ? AND user_id = ?",
                (now, guild_id, user_id),
            )
            balance = await self.credit(tx, guild_id, user_id, amount, "daily")
            return amount, balance

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, int]]:
        """The richest members (the house is not on it), most chips first."""
        rows = await self.db.fetchall(
            "SELECT user_id, balance FROM accounts WHERE guild_id = ? AND user_id != ?"
            " ORDER BY balance DESC, created_at ASC, user_id ASC LIMIT ?",
            (guild_id, HOUSE_ID, limit),
        )
        return [(int(u), int(b)) for u, b in rows]

    async def rank(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """(place, members with accounts): 1 is the richest; ties share a place."""
        row = await self.db.fetchone(
            "SELECT (SELECT COUNT(*) FROM accounts a WHERE a.guild_id = ? AND a.user_id != ?"
            "        AND a.balance > me.balance) + 1,"
            "       (SELECT COUNT(*) FROM accounts WHERE guild_id = ? AND user_id != ?)"
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
        """Chips held at the server's open tables (stacks and pots)."""
        row = await self.db.fetchone(
            "SELECT COALESCE(SUM(chips), 0) FROM tables WHERE guild_id = ? AND status != 'closed'",
            (guild_id,),
        )
        return int(row[0]) if row else 0
