"""The bot's storage: one interface (``Store``, ``Tx``), SQLite by default, PostgreSQL to share.

``Store(target)`` opens whichever the target names — a path or
``sqlite:///path`` for the embedded file, ``postgresql://…`` for a server —
and both keep the same promises (see ``bot.storage.base``). The SQL written
against it is plain and portable; see ``docs/OPERATORS.md`` for what to avoid.
"""

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
    "parse_target",
    "store_target",
]
