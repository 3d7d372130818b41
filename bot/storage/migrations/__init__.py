"""The schema as numbered SQL files per dialect (``sqlite/0001_init.sql``, ``postgres/0001_init.sql``).

Each file is one migration, applied whole in its own transaction by the
store's runner, which records the version (SQLite's ``PRAGMA user_version``,
PostgreSQL's ``schema_version`` table). Both dialects always have the same
numbers, so one version means one schema on either store. The numbers rise by one,
without gaps: the runner applies every file newer than the database, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Migration:
    """One numbered SQL script."""

    version: int
    name: str
    sql: str


@cache
def migrations(dialect: str) -> tuple[Migration, ...]:
    """The dialect's migrations in order, numbered 1, 2, … without gaps."""
    folder = resources.files(__name__) / dialect
    found = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    out = tuple(Migration(int(f.name.split("_", 1)[0]), f.name, f.read_text(encoding="utf-8")) for f in found)
    numbers = [m.version for m in out]
    expected = list(range(1, len(numbers) + 1))
    if numbers != expected:
        raise RuntimeError(f"{dialect} migrations are not numbered 1, 2, …: {[m.name for m in out]}")
    return out


SCHEMA_VERSION = migrations("sqlite")[-1].version
"""The schema this code reads and writes."""
if [m.version for m in migrations("postgres")] != [m.version for m in migrations("sqlite")]:
    raise RuntimeError("The sqlite and postgres migrations must have the same numbers.")


def too_new_message(where: str, version: int) -> str:
    """What the operator reads when the database is ahead of the code."""
    return (
        f"The database {where} has schema version {version}, but this bot knows only up to"
        f" {SCHEMA_VERSION}: it was used by a newer version of the bot. Run that version"
        " (or restore a backup from before the upgrade); this one will not touch it."
    )


def migration_failed(name: str, where: str, error: Exception) -> str:
    """What the operator reads when a migration fails (it was rolled back whole)."""
    return f"Migration {name} failed on {where} and was rolled back; the database is unchanged: {error}"
