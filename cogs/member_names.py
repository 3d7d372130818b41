"""How a reply names a member it only knows by id: their display name, escaped, when the bot knows it.

An embed (``/leaderboard``) does not resolve ``<@id>`` on Discord's side: a client
that has not met the member shows the raw ``<@1456074443980800013>``. A name the bot
knows — given by the caller (a table's seats, the one who asked), in the server's
member cache, or asked for once over the gateway (``look_up``: one REQUEST_GUILD_MEMBERS
by id, which needs no privileged intent and costs no REST call) — reads the same
everywhere; the mention stays only as the last resort (a member who left the server).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping

import discord

from bot.client import as_written
from bot.i18n import N_, Texts
from bot.table.model import Table

log = logging.getLogger(__name__)

LOOK_UP_SECONDS = 1.0
"""How long a reply waits for the gateway's member chunk (well inside the 3 s to answer) before mentions."""


async def look_up(
    guild: discord.Guild, member_ids: Iterable[int], known: Mapping[int, str]
) -> dict[int, str]:
    """``known`` plus the display names of the other ``member_ids`` the gateway knows in ``guild``.

    One request for every id not known nor cached (at most 100); a slow or failed answer
    leaves them out, so the reply names them by mention.
    """
    out = dict(known)
    missing = [m for m in dict.fromkeys(member_ids) if m not in out and m > 0 and guild.get_member(m) is None]
    if missing:
        try:
            found = await asyncio.wait_for(
                guild.query_members(user_ids=missing[:100], limit=len(missing[:100]), cache=True),
                LOOK_UP_SECONDS,
            )
        except (TimeoutError, discord.DiscordException) as exc:
            log.info("member names: gateway look-up failed (%s); mentions instead", type(exc).__name__)
            found = []
        out.update({m.id: m.display_name for m in found})
    return out


def member_name(guild: discord.Guild | None, member_id: int, known: Mapping[int, str] | None = None) -> str:
    """``member_id``'s display name (markdown escaped), else a mention for Discord to resolve."""
    name = (known or {}).get(member_id)
    if name is None and guild is not None:
        cached = guild.get_member(member_id)
        name = cached.display_name if cached is not None else None
    return discord.utils.escape_markdown(name) if name else f"<@{member_id}>"


GONE = N_("{name} (no longer in this server)")
"""Someone a look-up names who is no member here any more (``/balance``, ``/flipflop stats``, …)."""
NO_RECORDS = N_("{name} isn't a member of this server and has no Flip Flop records here.")


def departed(user: discord.abc.User) -> bool:
    """A user option Discord resolved without a member: not in this server (they left, or an id was pasted).

    Look-ups still show their records here; nothing gives them chips.
    """
    return not isinstance(user, discord.Member)


def named(user: discord.abc.User, t: Texts) -> str:
    """A user's display name as written, "(no longer in this server)" after it for one who is not a member."""
    name = as_written(user.display_name)
    return t.gettext(GONE).format(name=name) if departed(user) else name


def known_names(guild_id: int, tables: Iterable[Table], *people: discord.abc.User) -> dict[int, str]:
    """Names seated at this server's open tables, then those of the ``people`` at hand (they win)."""
    out: dict[int, str] = {}
    for table in tables:
        if table.guild_id == guild_id:
            out.update(table.names)
    for person in people:
        out[person.id] = person.display_name
    return out


__all__ = [
    "GONE", "LOOK_UP_SECONDS", "NO_RECORDS", "departed", "known_names", "look_up", "member_name", "named"
]
