"""The bot's storage: one interface (``Store``, ``Tx``), SQLite by default, PostgreSQL to share.

``open_store(target)`` makes whichever the target names — a path or
``sqlite:///path`` for the embedded file, ``postgresql://…`` for a server —
and both keep the same promises (see ``bot.storage.base``). The SQL written
against it is plain and portable; see ``docs/OPERATORS.md`` for what to avoid.
"""

from pathlib import Path

from bot.storage.base import (
    Conflict,
    IntegrityError,
    Row,
    SchemaTooNew,
    Store,
    StoreError,
    Tx,
    Unavailable,
    parse_target,
    store_target,
)
from bot.storage.migrations import SCHEMA_VERSION
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore


def open_store(target: str | Path) -> Store:
    """The store ``target`` names (not opened yet: ``async with`` or ``await store.open()``).

    Raises ``StoreError`` for a target that names no store we have.
    """
    dialect, _ = parse_target(target)
    if dialect == "postgres":
        return PostgresStore(str(target))
    return SqliteStore(target)


__all__ = [
    "Conflict",
    "SCHEMA_VERSION",
    "IntegrityError",
    "Row",
    "SchemaTooNew",
    "Store",
    "StoreError",
    "Tx",
    "Unavailable",
    "open_store",
    "parse_target",
    "store_target",
]
