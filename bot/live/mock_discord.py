"""A local stand-in for the three Discord endpoints an Activity's sign-in uses: the playground's and tests'.

Never used by ``python -m bot``. It answers as Discord does for what ``activity.ActivityAuth``
asks: ``POST /api/oauth2/token`` trades a code it issued (once) for an access token,
``GET /api/users/@me`` says whose token it is, and
``GET /api/applications/<id>/activity-instances/<instance>`` says where an instance it
launched runs and who is in it (404 for any other). ``/launch?user=<id>`` is the
playground's way in: a fresh code for that member, and the page opened with the SDK mocked
(``?mock=1``), as if Discord had launched the Activity in the playground's channel.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from aiohttp import web


@dataclass
class Instance:
    """An Activity instance: where it was launched and who is in it."""

    guild_id: int
    channel_id: int
    users: set[int] = field(default_factory=set)


class MockDiscord:
    """Codes, tokens and Activity instances in memory, answered over HTTP like Discord's API."""

    def __init__(self, client_id: str, bot_token: str = "playground-bot-token") -> None:
        self.client_id = client_id
        self.bot_token = bot_token
        self.codes: dict[str, int] = {}
        self.tokens: dict[str, int] = {}
        self.instances: dict[str, Instance] = {}

    def code_for(self, user_id: int) -> str:
        """A one-time OAuth2 code for ``user_id`` (what the SDK's ``authorize`` would return)."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = user_id
        return code

    def launch(self, guild_id: int, channel_id: int, users: set[int]) -> str:
        """An Activity instance launched in a channel; its id."""
        instance_id = str(secrets.randbelow(10**18) + 10**17)
        self.instances[instance_id] = Instance(guild_id, channel_id, set(users))
        return instance_id

    def app(self) -> web.Application:
        """The routes, to be mounted (the playground puts them under ``/mock-discord/``)."""
        app = web.Application()
        app.router.add_post("/api/oauth2/token", self.token)
        app.router.add_get("/api/users/@me", self.me)
        app.router.add_get("/api/applications/{app}/activity-instances/{instance}", self.instance)
        app.router.add_get("/launch", self.open_page)
        return app

    async def token(self, request: web.Request) -> web.Response:
        """The code grant: a code issued here, once, for the right application and secret."""
        form = await request.post()
        user = self.codes.pop(str(form.get("code", "")), None)
        if user is None or form.get("client_id") != self.client_id or not form.get("client_secret"):
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_urlsafe(24)
        self.tokens[access] = user
        return web.json_response({"access_token": access, "token_type": "Bearer", "scope": "identify"})

    async def me(self, request: web.Request) -> web.Response:
        """The user a Bearer token was issued for."""
        user = self.tokens.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        if user is None:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response({"id": str(user), "username": f"user{user}", "locale": "en-US"})

    async def instance(self, request: web.Request) -> web.Response:
        """Where an instance runs (the bot's own token only); 404 for one never launched."""
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if found is None or request.match_info["app"] != self.client_id:
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        return web.json_response(
            {
                "application_id": self.client_id,
                "instance_id": request.match_info["instance"],
                "location": {
                    "kind": "gc",
                    "guild_id": str(found.guild_id),
                    "channel_id": str(found.channel_id),
                },
                "users": [str(u) for u in found.users],
            }
        )

    async def open_page(self, request: web.Request) -> web.StreamResponse:
        """The playground's way in (``?user=<id>&instance=<id>``): the page as an Activity, SDK mocked."""
        try:
            user = int(request.query.get("user", ""))
        except ValueError:
            raise web.HTTPBadRequest(text="?user=<member id>") from None
        instance = request.query.get("instance", "")
        code = self.code_for(user)
        raise web.HTTPFound(f"/live/?mock=1&instance_id={instance}&frame_id=mock&mock_code={code}")
