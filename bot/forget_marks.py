"""A forget can't be used to mint chips: a one-way mark of a forgotten member, kept 30 days.

``/flipflop privacy forget`` replaces the member's id everywhere by a pseudonym, and their
balance stays behind under it. Without more, coming back the next minute would open a new
account with the server's starting chips and a daily ready at once: a tap to mint chips, as
often as wished. So a forget keeps, for ``MARK_SECONDS``, a mark of the id: HMAC-SHA256 of it
under this database's own random key (made at the first forget; never the id, nor derivable
from the mark without the key). An account opened again while the mark stands starts with no
chips, and its first daily comes 24 hours after the forget. Marks older than that are deleted
at the next forget. docs/PRIVACY.md says what is kept, why, and for how long.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.storage import Tx

MARK_SECONDS = 30 * 24 * 3600
"""How long a forgotten member's mark is kept (and their starting chips withheld)."""


async def _key(tx: Tx) -> bytes:
    """The database's own mark key, made once (two first forgets at once keep the first)."""
    row = await tx.fetchone("SELECT key FROM forget_key WHERE id = 1")
    if row is None:
        made = secrets.token_hex(32)
        await tx.execute("INSERT INTO forget_key (id, key) VALUES (1, ?) ON CONFLICT DO NOTHING", (made,))
        row = await tx.fetchone("SELECT key FROM forget_key WHERE id = 1")
        assert row is not None
    return bytes.fromhex(str(row[0]))


def _mark(key: bytes, user_id: int) -> str:
    return hmac.new(key, str(user_id).encode(), hashlib.sha256).hexdigest()


async def mark_forgotten(tx: Tx, user_id: int, now: float) -> None:
    """Keep the forgotten member's mark (renewed by a later forget); drop marks past their time."""
    mark = _mark(await _key(tx), user_id)
    stale = now - MARK_SECONDS
    await tx.execute("DELETE FROM forget_marks WHERE forgotten_at < ? OR mark = ?", (stale, mark))
    await tx.execute("INSERT INTO forget_marks (mark, forgotten_at) VALUES (?, ?)", (mark, now))


async def forgotten_at(tx: Tx, user_id: int, now: float) -> float | None:
    """When the member was forgotten, if within ``MARK_SECONDS`` of ``now``; else None."""
    key = await tx.fetchone("SELECT key FROM forget_key WHERE id = 1")
    if key is None:  # nobody was ever forgotten here
        return None
    row = await tx.fetchone(
        "SELECT forgotten_at FROM forget_marks WHERE mark = ?", (_mark(bytes.fromhex(str(key[0])), user_id),)
    )
    if row is None or float(row[0]) < now - MARK_SECONDS:
        return None
    return float(row[0])
