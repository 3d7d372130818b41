"""The card faces as the bot's application emojis, synced once at start-up.

Application emojis (discord.py 2.5+) belong to the bot, not to a server: uploaded once, they
show in every server without setup. At start-up ``sync`` reads the application's emojis (one
call) and uploads only the faces missing from it (one call each): an emoji's name carries a
short hash of its picture (``ff_KS_c_1a2b3c``, ``bot.cards.Face.name``), so a restart uploads
nothing and a redrawn face is uploaded under a new name. Nothing is synced per table.

A set (classic, four-colour) is used only once all its 53 emojis exist, so a hand never mixes
pictures and text; until then, and for good if an upload fails, its cards are text
(``bot.cards``). A rate limit (HTTP 429) is waited out — the ``retry_after`` Discord gives, else
a doubling pause — and the upload tried again, a few times at most. Old emojis from earlier
drawings are never deleted: messages already sent may still show them.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

import discord
from discord.ext import commands

from bot import metrics
from bot.cards import DECKS, CardFaces, Face, all_faces

if TYPE_CHECKING:
    from bot.client import FlipFlopBot

log = logging.getLogger("flipflop.emojis")
T = TypeVar("T")

RETRIES = 4
"""Times one call is tried again after a rate limit before the sync gives up (cards stay text)."""
FIRST_PAUSE = 1.0
"""Seconds waited after a first rate limit that names no ``retry_after`` (doubled each time)."""


class Uploader(Protocol):
    """What the sync needs of a client (``discord.Client`` has both, since discord.py 2.5)."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]:
        """The application's emojis."""
        ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji:
        """Upload one."""
        ...


@dataclass
class SyncReport:
    """What a sync did: REST calls made (rate-limited tries included), emojis found and created."""

    calls: int = 0
    found: int = 0
    created: int = 0
    rate_limited: int = 0
    failed: list[str] = field(default_factory=list)
    ready: list[str] = field(default_factory=list)
    """The sets whose emojis are all there (their cards show as pictures)."""


class GaveUp(Exception):
    """The sync stopped: Discord kept refusing, so the remaining cards stay text."""


async def _call(
    report: SyncReport, what: Callable[[], Awaitable[T]], sleep: Callable[[float], Awaitable[None]]
) -> T:
    """One REST call, tried again after a rate limit (with a pause) up to ``RETRIES`` times."""
    pause = FIRST_PAUSE
    for attempt in range(RETRIES + 1):
        report.calls += 1
        try:
            return await what()
        except discord.RateLimited as e:
            wait = e.retry_after
        except discord.HTTPException as e:
            if e.status != 429:
                raise
            wait = _retry_after(e) or pause
        report.rate_limited += 1
        if attempt == RETRIES:
            break
        log.warning("Card emojis: rate limited; trying again in %.1f s", wait)
        await sleep(wait)
        pause *= 2
    raise GaveUp("rate limited")


def _retry_after(e: discord.HTTPException) -> float | None:
    """The pause Discord asked for in a 429's headers or body, if it said."""
    headers = getattr(e.response, "headers", None) or {}
    said: object = headers.get("Retry-After")
    if said is None and isinstance(e.text, str) and e.text.startswith("{"):
        try:
            body = json.loads(e.text)
        except ValueError:
            body = None
        said = body.get("retry_after") if isinstance(body, dict) else None
    if isinstance(said, int | float | str):
        try:
            return max(0.0, float(said))
        except ValueError:
            return None
    return None


def _create(client: Uploader, face: Face) -> Callable[[], Awaitable[discord.Emoji]]:
    return lambda: client.create_application_emoji(name=face.name, image=face.image())


async def sync(
    client: Uploader,
    faces: CardFaces,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> SyncReport:
    """Make every card face an application emoji, uploading only the missing ones; fill ``faces``.

    The operators' gauges follow it: ``syncing`` while it runs, then ``synced`` when every set
    is ready or ``fallback`` when some cards stay text, with how many faces exist.
    """
    metrics.emoji_sync("syncing")
    report = await _sync(client, faces, sleep)
    wanted = len(all_faces())
    metrics.emojis(present=min(report.found + report.created, wanted), wanted=wanted)
    metrics.emoji_sync("synced" if len(report.ready) == len(DECKS) else "fallback")
    return report


async def _sync(
    client: Uploader,
    faces: CardFaces,
    sleep: Callable[[float], Awaitable[None]],
) -> SyncReport:
    report = SyncReport()
    try:
        existing = {e.name: e for e in await _call(report, client.fetch_application_emojis, sleep)}
    except (GaveUp, discord.HTTPException, discord.MissingApplicationID) as e:
        log.warning("Card emojis: could not read the application's emojis (%s); cards stay text", e)
        report.failed.append("fetch")
        return report
    for deck in DECKS:
        ids: dict[Face, int] = {}
        for face in (f for f in all_faces() if f.deck == deck):
            if face.name in existing:
                report.found += 1
                ids[face] = existing[face.name].id
                continue
            try:
                made = await _call(report, _create(client, face), sleep)
            except GaveUp:
                log.warning("Card emojis: still rate limited; the rest of the cards stay text")
                report.failed.append(face.name)
                return report
            except discord.HTTPException as e:
                log.warning("Card emojis: %s not uploaded (%s); its set stays text", face.name, e.status)
                report.failed.append(face.name)
                continue
            report.created += 1
            ids[face] = made.id
        if len(ids) == sum(1 for f in all_faces() if f.deck == deck):
            for face, emoji_id in ids.items():
                faces.add(face, emoji_id)
            report.ready.append(deck)
    log.info(
        "Card emojis: %d found, %d uploaded, %d failed, in %d REST calls; sets ready: %s",
        report.found,
        report.created,
        len(report.failed),
        report.calls,
        ", ".join(report.ready) or "none",
    )
    return report


class CardEmojis(commands.Cog):
    """Starts the sync when the bot starts (in the background: cards are text until it is done)."""

    def __init__(self, bot: FlipFlopBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[SyncReport] | None = None

    async def cog_load(self) -> None:
        """Start the sync (the application's id is known: discord.py logs in before ``setup_hook``)."""
        if self.bot.card_emojis:
            self.task = asyncio.create_task(self.run())

    async def run(self) -> SyncReport:
        """The sync; whatever goes wrong in it leaves the cards as text and the bot running."""
        try:
            return await sync(self.bot, self.bot.card_faces)
        except Exception:
            log.exception("Card emojis: the sync failed; cards stay text")
            return SyncReport(failed=["sync"])

    async def cog_unload(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
