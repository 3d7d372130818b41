"""Signing in from a Discord Activity: the SDK's OAuth2 code, exchanged here, never an id the page sends.

The page (inside Discord's Activity frame) asks the Embedded App SDK to ``authorize`` and
sends the one-time code it gets, with the SDK's ``instanceId``. This module, server-side:

1. trades the code for the member's access token (``POST <api>/oauth2/token`` with the
   application's client id and secret);
2. asks Discord who that token belongs to (``GET <api>/users/@me``);
3. asks Discord, with the bot's own token, where that Activity instance runs and who is in
   it (``GET <api>/applications/<id>/activity-instances/<instance>``): its server and
   channel, which the runtime maps to the channel's table; the member must be in it.

Any step Discord does not confirm refuses the sign-in (``activity_refused``, or
``instance_unknown`` for an instance id Discord does not know or that was not launched
beside a table), and nothing is changed. The addresses are settings
(``ACTIVITY_API_URL``), so tests and the playground point them at a local fake.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.live.links import SignInRefused

log = logging.getLogger("flipflop.live")

SNOWFLAKE = re.compile(r"^\d{1,20}$")
TIMEOUT = aiohttp.ClientTimeout(total=10)


def not_confirmed() -> SignInRefused:
    """Discord did not confirm the code or whose it is."""
    return SignInRefused("activity_refused")


def unknown_instance() -> SignInRefused:
    """Discord does not know the instance (or it runs beside no table)."""
    return SignInRefused("instance_unknown")


@dataclass(frozen=True)
class Launched:
    """Who signed in from an Activity, and where Discord says the Activity runs."""

    user_id: int
    guild_id: int
    channel_id: int
    locale: str


class ActivityAuth:
    """The server-side half of an Activity's sign-in (``ACTIVITY_CLIENT_ID``, ``ACTIVITY_CLIENT_SECRET``)."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str, api_url: str) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        self.api_url = api_url.rstrip("/")

    async def identify(self, code: object, instance_id: object) -> Launched:
        """Who the code is for and where the instance runs; ``SignInRefused`` unless Discord says so."""
        if not isinstance(instance_id, str) or not SNOWFLAKE.match(instance_id):
            raise SignInRefused("instance_unknown")
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            raise SignInRefused("activity_refused")
        async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
            form = {
                "client_id": self.client_id,
                "client_secret": self.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            }
            token = await self._json(http.post(f"{self.api_url}/oauth2/token", data=form), not_confirmed)
            access = token.get("access_token")
            if not isinstance(access, str):
                raise SignInRefused("activity_refused")
            bearer = {"Authorization": f"Bearer {access}"}
            me = await self._json(http.get(f"{self.api_url}/users/@me", headers=bearer), not_confirmed)
            place = f"{self.api_url}/applications/{self.client_id}/activity-instances/{instance_id}"
            bot = {"Authorization": f"Bot {self.bot_token}"}
            instance = await self._json(http.get(place, headers=bot), unknown_instance)
        user = str(me.get("id", ""))
        location = instance.get("location") or {}
        channel, guild = str(location.get("channel_id", "")), str(location.get("guild_id", ""))
        users = {str(u) for u in instance.get("users") or ()}
        if not SNOWFLAKE.match(user):
            raise SignInRefused("activity_refused")
        if not (SNOWFLAKE.match(channel) and SNOWFLAKE.match(guild)) or user not in users:
            raise SignInRefused("instance_unknown")
        return Launched(int(user), int(guild), int(channel), str(me.get("locale") or ""))

    @staticmethod
    async def _json(request: Any, refusal: Callable[[], SignInRefused]) -> dict[str, Any]:
        """A Discord answer as JSON; any failure (a 4xx, a 5xx, no answer) raises ``refusal()``."""
        try:
            async with request as reply:
                if reply.status != 200:
                    log.info("Activity sign-in: Discord answered %d", reply.status)
                    raise refusal()
                data = await reply.json()
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise refusal() from None
        if not isinstance(data, dict):
            raise refusal()
        return data
