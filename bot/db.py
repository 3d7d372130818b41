"""The names the rest of the bot has always used for its database.

``Database(target)`` is ``bot.storage.Store``: a path or ``sqlite:///path``
opens the embedded SQLite file (the default), ``postgresql://…`` a shared
PostgreSQL server. ``Tx`` is the work inside ``async with db.transaction()``.
"""

from bot.storage import SCHEMA_VERSION, IntegrityError, SchemaTooNew, StoreError, Tx
from bot.storage import Store as Database

__all__ = ["SCHEMA_VERSION", "Database", "IntegrityError", "SchemaTooNew", "StoreError", "Tx"]
