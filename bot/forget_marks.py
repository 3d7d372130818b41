"""A forget can't be used to mint chips: a one-way mark of a forgotten member, kept 30 days.

``/flipflop privacy forget`` replaces the member's id everywhere by a pseudonym, and their
balance stays behind under it. Without more, coming back the next minute would open a new
account with the server's starting chips and a daily ready at once: a tap to mint chips, as
often as wished. So a forget keeps, for ``MARK_SECONDS``, a mark of the id: HMAC-SHA256 of it
under this database's own random key (made at the first forget; never the id, nor derivable
from the mark without the key), with the day of the forget (the end of its UTC day: not the
time, which the forget's own record keeps under the pseudonym). An account opened again while
the mark stands starts with no chips, and its first daily comes a day after that: 24 to 48 hours
after the forget. Marks older than that are deleted at the next forget. docs/PRIVACY.md says
what is kept, why, and for how long.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.storage import Tx

DAY = 24 * 3600
MARK_SECONDS = 30 * DAY
"""How long a forgotten member's mark is kept (and their starting chips withheld)."""


async def _stored_key(tx: Tx) -> bytes | None:
    """The database's mark key, or None before its first forget."""
    row = await tx.fetchone("SELECT key FROM forget_key WHERE id = 1")
    return None if row is None else bytes.fromhex(str(row[0]))


async def _key(tx: Tx) -> bytes:
    """The database's own mark key, made once (two first forgets at once keep the first)."""
    key = await _stored_key(tx)
    if key is None:
        made = secrets.token_hex(32)
        await tx.execute("INSERT INTO forget_key (id, key) VALUES (1, ?) ON CONFLICT DO NOTHING", (made,))
        key = await _stored_key(tx)
        assert key is not None
    return key


def _mark(key: bytes, user_id: int) -> str:
    return hmac.new(key, str(user_id).encode(), hashlib.sha256).hexdigest()


async def mark_forgotten(tx: Tx, user_id: int, now: float) -> None:
    """Keep the forgotten member's mark (renewed by a later forget); drop marks past their time.

    It keeps the end of the forget's UTC day, not ``now``: the exact time is in the forget's own
    record (``privacy_requests``), beside the pseudonym.
    """
    mark = _mark(await _key(tx), user_id)
    day = (int(now // DAY) + 1) * DAY
    stale = now - MARK_SECONDS
    await tx.execute("DELETE FROM forget_marks WHERE forgotten_at < ? OR mark = ?", (stale, mark))
    await tx.execute("INSERT INTO forget_marks (mark, forgotten_at) VALUES (?, ?)", (mark, day))


async def forgotten_at(tx: Tx, user_id: int, now: float) -> float | None:
    """The end of the day the member was forgotten, if within ``MARK_SECONDS`` of ``now``; else None."""
    key = await _stored_key(tx)
    if key is None:  # nobody was ever forgotten here
        return None
    row = await tx.fetchone("SELECT forgotten_at FROM forget_marks WHERE mark = ?", (_mark(key, user_id),))
    if row is None or float(row[0]) < now - MARK_SECONDS:
        return None
    return float(row[0])
