"""Commands named in sentences as Discord command mentions: ``</flipflop history:123>``.

A mention is clickable and each client shows it in its own language (``/플립플롭 기록``
in Korean), where a typed ``/flipflop history`` is English for everyone and must be
typed again. A mention needs the command's id, known only once the bot's commands are
synced: ``bot.client.remember_commands`` takes the tree's ``sync`` (or ``fetch_commands``) result. Until
then — and for a command the ids do not name — a sentence keeps the typed name, so a
message is never broken, only plainer.

The catalogs keep the typed form (`` `/flipflop history` ``), which translators read
and keep; ``link_commands`` turns it into a mention as a message is put into words
(``Texts.gettext``). Options typed after the name (`` `/flipflop round id:7` ``) stay
as code after the mention: a mention carries no options.

The ids live in a context variable set where the bot syncs (``setup_hook``): the bot's
gateway and its handlers run below it, while a second bot in the same process (a test)
has its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextvars import ContextVar
from types import MappingProxyType

COMMAND_IDS: ContextVar[Mapping[str, int]] = ContextVar("flipflop_command_ids", default=MappingProxyType({}))
"""Command path (``"flipflop history"``) → the id of its top-level command, once synced."""

TYPED = re.compile(r"`/([a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*){0,2})((?: [a-z_]+:[^`]*)?)`")
"""A command typed in a sentence: `` `/flipflop round id:{id}` `` → path, then any options."""


def mention(path: str, ids: Mapping[str, int] | None = None) -> str:
    """``</path:id>`` when the id is known, else the typed `` `/path` ``."""
    known = COMMAND_IDS.get() if ids is None else ids
    command_id = known.get(path)
    return f"</{path}:{command_id}>" if command_id is not None else f"`/{path}`"


def link_commands(text: str, ids: Mapping[str, int] | None = None) -> str:
    """``text`` with every typed command the ids know as a mention (its options kept as code)."""
    known = COMMAND_IDS.get() if ids is None else ids
    if not known or "`/" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        path, options = match.group(1), match.group(2)
        if path not in known:
            return match.group(0)
        return mention(path, known) + (f" `{options.strip()}`" if options.strip() else "")

    return TYPED.sub(one, text)


__all__ = ["COMMAND_IDS", "link_commands", "mention"]
