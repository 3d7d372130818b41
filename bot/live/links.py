"""Signing in to the live page: one-time links the bot sends privately, and the sessions they open.

A link carries who it was made for (a member of a server) and the table of the channel
it was asked in, until when it works, and a random number used once, signed with this
process's key (HMAC-SHA256). The page trades it once for a session (``Sessions``): a
random token kept only in this process's memory. Nothing the page sends says who
someone is except these two tokens, both made here; a changed link fails its
signature, a used one is remembered until it expires, and an expired one says so.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from bot.presentation.refusals import Refusal

LINK_SECONDS = 10 * 60
"""How long a one-time link works."""
SESSION_SECONDS = 12 * 60 * 60
"""How long a page stays signed in (a tab left open over a long evening)."""


class SignInRefused(Refusal):
    """A link or session that signs nobody in (``link_forged``, ``link_expired``, ``link_used``, …)."""


@dataclass(frozen=True)
class Pass:
    """Who a link or an Activity sign-in proved someone is, and the table they may open."""

    user_id: int
    guild_id: int
    table_id: str
    language: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Links:
    """One-time links signed with ``key``: each is refused once used, or after ``LINK_SECONDS``."""

    def __init__(self, key: bytes, clock: Callable[[], float], seconds: float = LINK_SECONDS) -> None:
        self.key = key
        self.clock = clock
        self.seconds = seconds
        self._used: dict[str, float] = {}

    def _sign(self, body: bytes) -> str:
        return _b64(hmac.new(self.key, body, hashlib.sha256).digest())

    def mint(self, who: Pass) -> str:
        """A link's token for ``who`` (its text goes after ``#`` in the page's address)."""
        expires = int(self.clock() + self.seconds)
        nonce = secrets.token_hex(8)
        body = f"{who.user_id}:{who.guild_id}:{who.table_id}:{who.language}:{expires}:{nonce}".encode()
        return f"{_b64(body)}.{self._sign(body)}"

    def redeem(self, token: object) -> Pass:
        """The pass a link proves, once; raises ``SignInRefused`` (nothing is changed) otherwise."""
        if not isinstance(token, str) or token.count(".") != 1 or len(token) > 400:
            raise SignInRefused("link_forged")
        body_text, signature = token.split(".")
        try:
            body = _unb64(body_text)
        except ValueError:
            raise SignInRefused("link_forged") from None
        if not hmac.compare_digest(self._sign(body), signature):
            raise SignInRefused("link_forged")
        user, guild, table, language, expires, nonce = body.decode().split(":")
        now = self.clock()
        self._used = {n: at for n, at in self._used.items() if at > now}
        if float(expires) <= now:
            raise SignInRefused("link_expired")
        if nonce in self._used:
            raise SignInRefused("link_used")
        self._used[nonce] = float(expires)
        return Pass(int(user), int(guild), table, language)


class Sessions:
    """Signed-in pages: a random token each, in this process's memory (a restart signs everyone out)."""

    def __init__(self, clock: Callable[[], float], seconds: float = SESSION_SECONDS) -> None:
        self.clock = clock
        self.seconds = seconds
        self._open: dict[str, tuple[Pass, float]] = {}

    def open(self, who: Pass) -> str:
        """A session for ``who``; its token is the page's only proof of who it is."""
        now = self.clock()
        self._open = {k: v for k, v in self._open.items() if v[1] > now}
        token = secrets.token_urlsafe(32)
        self._open[token] = (who, now + self.seconds)
        return token

    def get(self, token: object) -> Pass:
        """Whose session this is; raises ``SignInRefused('session_unknown')`` for any other token."""
        found = self._open.get(token) if isinstance(token, str) else None
        if found is None or found[1] <= self.clock():
            raise SignInRefused("session_unknown")
        return found[0]
