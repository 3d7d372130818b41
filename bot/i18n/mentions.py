"""Commands named in sentences as Discord command mentions: ``</flipflop history:123>``.

A mention is clickable and each client shows it in its own language (``/플립플롭 기록``
in Korean), where a typed ``/flipflop history`` is English for everyone and must be
typed again. A mention needs the command's id, known only once the bot's commands are
synced: ``bot.client.remember_commands`` takes the tree's ``sync`` (or ``fetch_commands``) result
and keeps each command's mention as discord.py writes it. Until then — and for a command
those do not name — a sentence keeps the typed name, so a message is never broken, only plainer.

Members are named the same way: ``member(user_id)`` is the front end's form of a member
with no name at hand (Discord's client installs its mention, ``name_members_with``); this
layer never writes a Discord mention itself.

The catalogs keep the typed form (`` `/flipflop history` ``), which translators read
and keep; ``link_commands`` turns it into a mention as a message is put into words
(``Texts.gettext``). Options typed after the name (`` `/flipflop round id:7` ``) stay
as code after the mention: a mention carries no options.

The mentions live in a context variable set where the bot syncs (``setup_hook``): the bot's
gateway and its handlers run below it, while a second bot in the same process (a test)
has its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from types import MappingProxyType

COMMANDS: ContextVar[Mapping[str, str]] = ContextVar("flipflop_commands", default=MappingProxyType({}))
"""Command path (``"flipflop history"``) → its mention as the client writes it, once synced."""

TYPED = re.compile(r"`/([a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*){0,2})((?: [a-z_]+:[^`]*)?)`")
"""A command typed in a sentence: `` `/flipflop round id:{id}` `` → path, then any options."""


def mention(path: str, known: Mapping[str, str] | None = None) -> str:
    """The command's mention when it is known (``COMMANDS``), else the typed `` `/path` ``."""
    said = (COMMANDS.get() if known is None else known).get(path)
    return said if said is not None else f"`/{path}`"


def _unnamed(user_id: int) -> str:
    """A member with no name at hand where no client names them (tests of the layers below)."""
    return f"@{user_id}"


_member: Callable[[int], str] = _unnamed


def name_members_with(style: Callable[[int], str]) -> None:
    """How ``member`` writes a member with no name at hand: the client's mention (``bot.client``)."""
    global _member
    _member = style


def member(user_id: int) -> str:
    """A member with no name at hand, as the front end names them (in Discord: a mention)."""
    return _member(user_id)


def link_commands(text: str, mentions: Mapping[str, str] | None = None) -> str:
    """``text`` with every typed command the mentions know as a mention (its options kept as code)."""
    known = COMMANDS.get() if mentions is None else mentions
    if not known or "`/" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        path, options = match.group(1), match.group(2)
        if path not in known:
            return match.group(0)
        return mention(path, known) + (f" `{options.strip()}`" if options.strip() else "")

    return TYPED.sub(one, text)


__all__ = ["COMMANDS", "link_commands", "member", "mention", "name_members_with"]
