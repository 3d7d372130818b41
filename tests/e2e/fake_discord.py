"""A small fake Discord on 127.0.0.1: the REST routes the bot calls and a gateway websocket.

Enough of Discord for the real bot process (``python -m bot`` with
``FLIPFLOP_API_BASE`` pointing here) to log in, sync its commands, receive
interactions and answer them, send and edit messages. The test plays the
part of Discord's clients by injecting ``INTERACTION_CREATE`` events.

It is sharded the way Discord is: ``/gateway/bot`` tells the shard count, each
IDENTIFY names its ``shard: [id, count]``, and a server's events go only to
the connection of its shard, ``(guild_id >> 22) % count``. Several bot
processes, each running some of the shards, can connect at once.

Ids are real snowflakes for the current time (``FakeDiscord.next_id``), so an
interaction is as old as it is: the bot keeps open hands updating for their
15 minutes, as with real Discord.

Faults, injected by a test while the bot runs (each returns what it did):

``fail(route, status, times=1, retry_after=0.5, after=False, message_id=None) -> Fault``
    The next ``times`` requests to ``route`` answer ``status`` (429 with
    Discord's body, ``retry_after`` seconds and a ``Via`` header, as discord.py
    expects of a real rate limit; 5xx with a JSON error). ``after=True``: the
    request takes effect first (the message is created or edited, the
    interaction answered), then the error is answered — the bot can not tell
    whether it happened. ``message_id`` limits a fault to one message (an edit
    of it, or of the interaction response that it is).
    ``Fault.hits`` holds the loop time each injected failure was answered, so a
    test measures from the last one. Routes: ``edit_message``,
    ``create_message``, ``get_message``, ``get_channel``, ``callback``
    (interaction callbacks), ``followup``, ``edit_original``, ``get_original``,
    or ``any``.
``hang(route, seconds, times=1, message_id=None) -> Fault``
    The next ``times`` requests to ``route`` are answered only after
    ``seconds`` — a timeout for the bot. A request the bot gives up on never
    takes effect (the server cancels its handler when the client goes).
``slow(seconds=(1.0, 2.0), routes=None)``
    Every REST answer (or those of ``routes``) waits a random time in that
    range first; ``slow(None)`` makes it fast again.
``await add_guild(shard=0) -> (guild_id, channel_id)``
    The bot joins another server with one text channel: GUILD_CREATE to its
    shard's connection, as Discord sends it (a test gets a server of its own on
    a bot process shared by its module).
``delete_message(message_id, announce=True)``
    A moderator deletes a message: later edits answer 404 Unknown Message, and
    MESSAGE_DELETE is dispatched (unless ``announce=False``: an event lost).
``await chat(uid, name, text)``
    A member posts in the channel (MESSAGE_CREATE): chat that pushes the table up.
``await reconnect(shard=0)``
    Gateway op 7 RECONNECT: the bot resumes (RESUME, answered with the events
    it missed and RESUMED); ``resumes`` counts them.
``await invalidate(shard=0, resumable=False)``
    Gateway op 9 INVALID_SESSION: the bot identifies afresh (a new READY).

Bodies are read as Discord reads them: JSON, or ``multipart/form-data`` with
the JSON in its ``payload_json`` part and each upload in a ``files[n]`` part (a
message with a picture). A message's ``attachments`` are Discord's attachment
objects (an upload ``{"id": n}`` becomes one; an edit keeps the ones it names);
``uploads[attachment_id]`` holds each upload's bytes.

A request the fake itself fails on (a handler raising: a body it can not read, a
route it gets wrong) answers 500 and is kept in ``server_errors`` with its
traceback; tests/e2e/conftest.py fails the test during which one happened. The
failures a test injects (below) are not server errors.

Events dispatched while a shard has no connection wait for its RESUME, as
Discord replays them; a new IDENTIFY drops them. ``edits[message_id]`` is the
loop time of every successful edit of a message. ``interact``/``click`` record
``info["sent"]`` and ``info["answered_at"]`` (loop times of the click and of its
first callback's arrival, before any ``slow`` wait or fault); with ``wait=False``
they return at once.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, hdrs, web

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 900000000000000010
CHANNEL_ID = 900000000000000011
EPHEMERAL = 64
DISCORD_EPOCH_MS = 1420070400000
UNKNOWN_MESSAGE = {"code": 10008, "message": "Unknown Message"}

Upload = tuple[str, bytes, str]
"""An uploaded file: its name, its bytes, its content type."""

STARTED: list[FakeDiscord] = []
"""Every fake started and not yet checked for server errors (tests/e2e/conftest.py checks them)."""


@dataclass
class Fault:
    """An injected failure: the next ``times`` requests to ``route`` answer ``status``."""

    route: str
    status: int
    times: int = 1
    retry_after: float = 0.5
    after: bool = False
    message_id: int | None = None
    hits: list[float] = field(default_factory=list)
    """Loop time at which each injected failure was answered."""

    @property
    def spent(self) -> bool:
        return len(self.hits) >= self.times

    def matches(self, route: str, message_id: int | None) -> bool:
        if self.spent or self.route not in (route, "any"):
            return False
        return self.message_id is None or message_id == self.message_id

    def response(self) -> Any:
        if self.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": False,
            }
            headers = {"Content-Type": "application/json", "Via": "1.1 google", "Retry-After": "1"}
            return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
        reasons = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
        body = {"message": reasons.get(self.status, "Error"), "code": 0}
        return web.Response(
            body=json.dumps(body).encode(), status=self.status, headers={"Content-Type": "application/json"}
        )


THREADS = (1 << 35) | (1 << 38)
"""Create Public Threads and Send Messages in Threads."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula."""
    return (guild_id >> 22) % shard_count


def _now() -> str:
    return datetime.now(UTC).isoformat()


def user(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "bot": bot,
    }


class FakeDiscord:
    """The fake server and what it has seen."""

    def __init__(self, shard_count: int = 1, guilds: dict[int, int] | None = None) -> None:
        self.shard_count = shard_count
        self.guilds = guilds if guilds is not None else {GUILD_ID: CHANNEL_ID}
        """Each server and its one text channel."""
        self.channels = {c: g for g, c in self.guilds.items()}
        self.threads: dict[int, dict[str, Any]] = {}
        """Threads opened from a message: id (the message's) -> parent id and whether archived."""
        self.app_permissions = 0x7FFFFFFFF
        """The bot's permissions an interaction carries (``THREADS`` added: it may open threads)."""
        self.shard_of_socket: dict[web.WebSocketResponse, int] = {}
        self.seqs: dict[web.WebSocketResponse, int] = {}
        self.identifies: list[tuple[int, int]] = []
        """Every IDENTIFY's ``[shard_id, shard_count]``, in order."""
        self.shard_ready = {shard: asyncio.Event() for shard in range(shard_count)}
        self._last_id = 0
        self.ids = iter(self.next_id, None)
        """Fresh snowflakes (``next(self.ids)``), dated now."""
        self.faults: list[Fault] = []
        self.delay: tuple[float, float] | None = None
        self.slow_routes: set[str] | None = None
        self.slowed: list[str] = []
        """The route of each request that arrived and was made to wait (``slow``), in order."""
        self.edits: dict[int, list[float]] = {}
        self.resumes = 0
        self.sessions: dict[str, int] = {}
        """Each live gateway session and its shard (a RESUME of any other is refused)."""
        self.missed: dict[int, list[str]] = {}
        """Events for a shard with no connection, replayed on its RESUME."""
        self.resumed = asyncio.Event()
        self.bot_user = user(BOT_ID, "FlipFlop", bot=True)
        self.users: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.interactions: dict[str, dict[str, Any]] = {}
        self.commands: list[dict[str, Any]] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.identified = asyncio.Event()
        self.synced = asyncio.Event()
        self.requests: list[str] = []
        self.server_errors: list[str] = []
        """Requests the fake failed on itself (a 500 nobody injected), each with its traceback."""
        self.uploads: dict[int, bytes] = {}
        """The bytes of every uploaded attachment, by attachment id."""
        self.runner: web.AppRunner | None = None
        self.stopped = False
        self.port = 0
        self._background: set[asyncio.Future[None]] = set()

    def next_id(self) -> int:
        """A snowflake for the current time, greater than every earlier one."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(now, self._last_id + 1)
        return self._last_id

    # ------------------------------------------------------------------ faults

    def fail(
        self,
        route: str,
        status: int,
        times: int = 1,
        *,
        retry_after: float = 0.5,
        after: bool = False,
        message_id: int | None = None,
    ) -> Fault:
        """The next ``times`` requests to ``route`` answer ``status`` (see the module's docstring)."""
        fault = Fault(route, status, times, retry_after, after, message_id)
        self.faults.append(fault)
        return fault

    def hang(self, route: str, seconds: float, times: int = 1, *, message_id: int | None = None) -> Fault:
        """The next ``times`` requests to ``route`` are answered after ``seconds`` (see the docstring)."""
        fault = Fault(route, 0, times, seconds, False, message_id)
        self.faults.append(fault)
        return fault

    def slow(self, seconds: tuple[float, float] | None = (1.0, 2.0), routes: set[str] | None = None) -> None:
        """REST answers wait ``seconds`` (a random time in the range) first; ``None``: fast again."""
        self.delay, self.slow_routes = seconds, routes

    def delete_message(self, message_id: int, announce: bool = True) -> None:
        """A moderator deletes a message (the gateway tells the bot, as Discord does, if ``announce``)."""
        msg = self.messages.pop(message_id)
        if not announce:
            return
        cid = int(msg["channel_id"])
        payload = {"id": str(message_id), "channel_id": str(cid), "guild_id": str(self.channels[cid])}
        task = asyncio.ensure_future(self.send(0, payload, "MESSAGE_DELETE", guild_id=self.channels[cid]))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def add_guild(self, shard: int = 0) -> tuple[int, int]:
        """The bot joins a new server (one text channel) on ``shard``: GUILD_CREATE, as Discord sends it."""
        guild_id = max(self.guilds) + (1 << 22)
        while shard_of(guild_id, self.shard_count) != shard:
            guild_id += 1 << 22
        channel_id = guild_id + 1
        self.guilds[guild_id] = channel_id
        self.channels[channel_id] = guild_id
        await self.send(0, self.guild(guild_id), "GUILD_CREATE", guild_id=guild_id)
        return guild_id, channel_id

    async def chat(self, uid: int, name: str, text: str, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
        """A member posts a message in a channel (MESSAGE_CREATE to the server's shard)."""
        msg = self._message(channel_id, {"content": text})
        msg["author"] = user(uid, name)
        member = self.member(uid, name)
        msg["member"] = {k: v for k, v in member.items() if k != "user"}
        await self.send(0, msg, "MESSAGE_CREATE", guild_id=self.channels[channel_id])
        return msg

    async def reconnect(self, shard: int = 0) -> None:
        """Gateway op 7 RECONNECT to a shard's connection: the bot resumes its session."""
        self.resumed.clear()
        for ws in self._sockets_of(shard):
            try:
                await ws.send_str(json.dumps({"op": 7, "d": None}))
            except ConnectionResetError:  # a connection going away (a bot killed): as if not there
                pass
            self.shard_of_socket.pop(ws)  # from now on the shard's events wait for its RESUME

    async def invalidate(self, shard: int = 0, resumable: bool = False) -> None:
        """Gateway op 9 INVALID_SESSION: the bot identifies afresh (or resumes, if ``resumable``)."""
        self.identified.clear()
        if not resumable:
            for old in [k for k, v in self.sessions.items() if v == shard]:
                del self.sessions[old]
        for ws in self._sockets_of(shard):
            try:
                await ws.send_str(json.dumps({"op": 9, "d": resumable}))
            except ConnectionResetError:  # a connection going away (a bot killed): as if not there
                continue

    def _sockets_of(self, shard: int) -> list[web.WebSocketResponse]:
        return [ws for ws, s in self.shard_of_socket.items() if s == shard and not ws.closed]

    # ------------------------------------------------------------------ server

    async def start(self) -> str:
        app = web.Application(middlewares=[self._record])
        r = app.router
        r.add_get("/gateway", self.gateway)
        api = "/api/v10"
        r.add_get(api + "/gateway/bot", self.gateway_bot)
        r.add_get(api + "/users/@me", self.me)
        r.add_get(api + "/oauth2/applications/@me", self.application)
        r.add_put(api + "/applications/{app}/commands", self.sync)
        r.add_put(api + "/applications/{app}/guilds/{guild}/commands", self.sync)
        r.add_post(api + "/interactions/{iid}/{token}/callback", self.callback)
        r.add_get(api + "/webhooks/{app}/{token}/messages/@original", self.get_original)
        r.add_patch(api + "/webhooks/{app}/{token}/messages/@original", self.edit_original)
        r.add_post(api + "/webhooks/{app}/{token}", self.followup)
        r.add_post(api + "/channels/{cid}/messages", self.create_message)
        r.add_get(api + "/channels/{cid}/messages/{mid}", self.get_message)
        r.add_patch(api + "/channels/{cid}/messages/{mid}", self.edit_message)
        r.add_delete(api + "/channels/{cid}/messages/{mid}", self.remove_message)
        r.add_get(api + "/channels/{cid}", self.get_channel)
        r.add_patch(api + "/channels/{cid}", self.edit_channel)
        r.add_post(api + "/channels/{cid}/messages/{mid}/threads", self.start_thread)
        self.runner = web.AppRunner(app, handler_cancellation=True)  # a request given up never lands
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        STARTED.append(self)
        return f"http://127.0.0.1:{self.port}"

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        route = getattr(request.match_info.handler, "__name__", "")
        if route == "callback" and request.match_info["token"] in self.interactions:  # reached Discord
            self.interactions[request.match_info["token"]].setdefault(
                "answered_at", asyncio.get_running_loop().time()
            )
        if route != "gateway":
            await self._lag(route)
        mid: int | None = int(request.match_info["mid"]) if "mid" in request.match_info else None
        if route in ("edit_original", "get_original"):
            original = self._original(request)
            mid = int(original["id"]) if original else None
        fault = next((f for f in self.faults if f.matches(route, mid)), None)
        if fault is not None and fault.status == 0:  # a hang: answered late, if the bot still waits
            fault.hits.append(asyncio.get_running_loop().time())
            await asyncio.sleep(fault.retry_after)
            response: web.StreamResponse = await self._handle(request, handler)
        elif fault is not None:
            fault.hits.append(-1.0)  # taken now: a concurrent request does not take it too
            if fault.after:
                await self._handle(request, handler)
            response = fault.response()
            fault.hits[fault.hits.index(-1.0)] = asyncio.get_running_loop().time()
        else:
            response = await self._handle(request, handler)
        self.requests.append(f"{request.method} {request.path} -> {response.status}")
        return response

    async def _handle(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The route's handler; if the fake itself fails, a 500 that is kept in ``server_errors``."""
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException:
            raise
        except Exception:  # noqa: BLE001 - the fake's own bug: the test that caused it must fail
            self.server_errors.append(f"{request.method} {request.path}\n{traceback.format_exc()}")
            return self.json({"message": "500: Internal Server Error", "code": 0}, 500)
        return response

    async def body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
        """A request's JSON and its uploads, read as Discord reads them.

        ``multipart/form-data`` carries the JSON in its ``payload_json`` part and
        each file in a ``files[n]`` part; any other body is JSON (or empty).
        """
        if request.content_type != "multipart/form-data":
            return (await request.json() if request.can_read_body else {}), {}
        payload: dict[str, Any] = {}
        files: dict[int, Upload] = {}
        async for part in await request.multipart():
            if not isinstance(part, BodyPartReader):
                raise ValueError("a nested multipart body")
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.name is not None and part.name.startswith("files[") and part.name.endswith("]"):
                content_type = part.headers.get(hdrs.CONTENT_TYPE, "application/octet-stream")
                files[int(part.name[6:-1])] = (part.filename or "", bytes(await part.read()), content_type)
            else:
                raise ValueError(f"an unknown part {part.name!r} in a multipart body")
        return payload, files

    def _attachments(
        self, wanted: list[dict[str, Any]] | None, files: dict[int, Upload], kept: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Discord's attachments after a post or edit: uploads ``{"id": n}`` and the kept ones, by id.

        Without an ``attachments`` list every upload is added to those kept (as Discord does).
        """
        if wanted is None:
            wanted = [*({"id": a["id"]} for a in kept), *({"id": n} for n in sorted(files))]
        old = {str(a["id"]): a for a in kept}
        out: list[dict[str, Any]] = []
        for item in wanted:
            key = item["id"]
            if isinstance(key, int) and key in files:
                name, data, content_type = files[key]
                aid = next(self.ids)
                self.uploads[aid] = data
                out.append(
                    {
                        "id": str(aid),
                        "filename": item.get("filename") or name,
                        "size": len(data),
                        "url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{name}",
                        "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{name}",
                        "content_type": content_type,
                        **({"description": item["description"]} if item.get("description") else {}),
                    }
                )
            elif str(key) in old:
                out.append(old[str(key)])
            else:
                raise ValueError(f"attachment {key!r} is neither an upload nor one of the message's")
        unused = set(files) - {a["id"] for a in wanted if isinstance(a["id"], int)}
        if unused:
            raise ValueError(f"files {sorted(unused)} uploaded but not listed in attachments")
        return out

    async def _lag(self, route: str) -> None:
        if self.delay is not None and (self.slow_routes is None or route in self.slow_routes):
            self.slowed.append(route)
            await asyncio.sleep(random.uniform(*self.delay))

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self.runner is not None:
            await self.runner.cleanup()
        self.stopped = True

    @staticmethod
    def json(data: Any, status: int = 200) -> web.Response:
        # discord.py parses JSON only when the Content-Type is exactly application/json
        return web.Response(
            body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
        )

    # ------------------------------------------------------------------ REST

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return self.json(
            {
                "url": f"ws://127.0.0.1:{self.port}/gateway",
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        return self.json(self.bot_user)

    async def application(self, request: web.Request) -> web.Response:
        return self.json(
            {
                "id": str(APP_ID),
                "name": "FlipFlop",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": user(1, "owner"),
                "verify_key": "0",
                "flags": 0,
            }
        )

    async def sync(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.commands = [
            {**c, "id": str(next(self.ids)), "application_id": str(APP_ID), "version": "1"} for c in body
        ]
        self.synced.set()
        return self.json(self.commands)

    def _message(
        self, channel_id: int, body: dict[str, Any], flags: int = 0, files: dict[int, Upload] | None = None
    ) -> dict[str, Any]:
        attachments = self._attachments(body.get("attachments"), files or {}, [])
        mid = next(self.ids)
        msg = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(self.channels.get(channel_id, GUILD_ID)),
            "author": self.bot_user,
            "content": body.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": flags | (body.get("flags") or 0),
            "components": body.get("components") or [],
        }
        self.messages[mid] = msg
        return msg

    def _edit(
        self, msg: dict[str, Any], body: dict[str, Any], files: dict[int, Upload] | None = None
    ) -> dict[str, Any]:
        if "attachments" in body or files:
            msg["attachments"] = self._attachments(body.get("attachments"), files or {}, msg["attachments"])
        for key in ("content", "embeds", "components"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        msg["edited_timestamp"] = _now()
        self.edits.setdefault(int(msg["id"]), []).append(asyncio.get_running_loop().time())
        return msg

    async def callback(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        info = self.interactions[token]
        body, files = await self.body(request)
        kind, data = body["type"], body.get("data") or {}
        info["responses"].append(body)
        info.setdefault("answered_at", asyncio.get_running_loop().time())
        result: dict[str, Any] = {"interaction": {"id": request.match_info["iid"], "type": info["type"]}}
        if kind == 4:  # a new message
            msg = self._message(info["channel_id"], data, files=files)
            info["message_id"] = int(msg["id"])
            result["interaction"].update(
                response_message_id=msg["id"], response_message_ephemeral=bool(msg["flags"] & EPHEMERAL)
            )
            result["resource"] = {"type": 4, "message": msg}
        elif kind == 7:  # update the message the component is on
            mid = info["component_message_id"]
            msg = self._edit(self.messages[mid], data, files)
            info["message_id"] = mid
            result["interaction"].update(response_message_id=str(mid))
            result["resource"] = {"type": 7, "message": msg}
        elif kind in (5, 6):
            info["message_id"] = info.get("component_message_id")
        info["answered"].set()
        return self.json(result)

    def _original(self, request: web.Request) -> dict[str, Any] | None:
        info = self.interactions.get(request.match_info["token"])
        if info is None or info.get("message_id") is None:
            return None
        return self.messages.get(int(info["message_id"]))

    async def get_original(self, request: web.Request) -> web.Response:
        msg = self._original(request)
        return self.json(msg) if msg else self.json({"code": 10008, "message": "Unknown Message"}, 404)

    async def edit_original(self, request: web.Request) -> web.Response:
        msg = self._original(request)
        if msg is None:
            return self.json({"code": 10008, "message": "Unknown Message"}, 404)
        return self.json(self._edit(msg, *await self.body(request)))

    async def followup(self, request: web.Request) -> web.Response:
        info = self.interactions[request.match_info["token"]]
        body, files = await self.body(request)
        return self.json(self._message(info["channel_id"], body, files=files))

    async def create_message(self, request: web.Request) -> web.Response:
        body, files = await self.body(request)
        return self.json(self._message(int(request.match_info["cid"]), body, files=files))

    async def get_message(self, request: web.Request) -> web.Response:
        msg = self.messages.get(int(request.match_info["mid"]))
        return self.json(msg) if msg else self.json({"code": 10008, "message": "Unknown Message"}, 404)

    async def edit_message(self, request: web.Request) -> web.Response:
        msg = self.messages.get(int(request.match_info["mid"]))
        if msg is None:
            return self.json({"code": 10008, "message": "Unknown Message"}, 404)
        return self.json(self._edit(msg, *await self.body(request)))

    async def remove_message(self, request: web.Request) -> web.Response:
        """The bot deletes its own message (a turn ping, once its player acts)."""
        if self.messages.pop(int(request.match_info["mid"]), None) is None:
            return self.json({"code": 10008, "message": "Unknown Message"}, 404)
        return web.Response(status=204)

    async def get_channel(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["cid"])
        if cid not in self.channels:
            return self.json({"code": 10003, "message": "Unknown Channel"}, 404)
        return self.json(self.channel(cid))

    async def start_thread(self, request: web.Request) -> web.Response:
        """A public thread from a message: it takes the message's id, as in Discord."""
        parent, mid = int(request.match_info["cid"]), int(request.match_info["mid"])
        body = await request.json()
        self.threads[mid] = {"parent": parent, "name": body.get("name", ""), "archived": False}
        self.channels[mid] = self.channels[parent]
        return self.json(self.channel(mid))

    async def edit_channel(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["cid"])
        if cid not in self.channels:
            return self.json({"code": 10003, "message": "Unknown Channel"}, 404)
        body = await request.json()
        if cid in self.threads and "archived" in body:
            self.threads[cid]["archived"] = bool(body["archived"])
        return self.json(self.channel(cid))

    # ------------------------------------------------------------------ gateway

    def channel(self, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
        thread = self.threads.get(channel_id)
        if thread is not None:
            return {
                "id": str(channel_id),
                "type": 11,
                "name": thread["name"],
                "guild_id": str(self.channels[channel_id]),
                "parent_id": str(thread["parent"]),
                "owner_id": str(self.bot_user["id"]),
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": thread["archived"],
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now(),
                    "locked": False,
                },
            }
        return {
            "id": str(channel_id),
            "type": 0,
            "name": "flipflop",
            "position": 0,
            "guild_id": str(self.channels[channel_id]),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    def guild(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": str(0x7FFFFFFFF & ~0x20 & ~0x8),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        members = [
            {
                "user": self.bot_user,
                "roles": [],
                "joined_at": _now(),
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        ]
        return {
            "id": str(guild_id),
            "name": f"E2E server {guild_id}",
            "icon": None,
            "owner_id": "1",
            "roles": [everyone],
            "channels": [self.channel(self.guilds[guild_id])],
            "members": members,
            "member_count": 1,
            "emojis": [],
            "stickers": [],
            "features": [],
            "large": False,
            "unavailable": False,
            "voice_states": [],
            "presences": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "system_channel_flags": 0,
            "nsfw_level": 0,
        }

    async def send(self, op: int, d: Any, t: str | None = None, guild_id: int | None = None) -> None:
        """Dispatch to the connection of the server's shard (to every connection without a server).

        A server's event while its shard has no connection waits for the shard's RESUME.
        """
        sent = False
        for ws in list(self.sockets):
            if ws.closed or ws not in self.shard_of_socket:
                continue
            if guild_id is not None and shard_of(guild_id, self.shard_count) != self.shard_of_socket[ws]:
                continue
            try:
                await self._send_to(ws, op, d, t)
            except ConnectionResetError:  # a connection going away (the bot killed): as if not there
                continue
            sent = True
        if not sent and guild_id is not None and op == 0:
            self.missed.setdefault(shard_of(guild_id, self.shard_count), []).append(
                json.dumps({"op": op, "d": d, "t": t})
            )

    async def _send_to(self, ws: web.WebSocketResponse, op: int, d: Any, t: str | None = None) -> None:
        payload: dict[str, Any] = {"op": op, "d": d}
        if op == 0:
            self.seqs[ws] = self.seqs.get(ws, 0) + 1
            payload.update(s=self.seqs[ws], t=t)
        await ws.send_str(json.dumps(payload))

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif data["op"] == 6:  # RESUME: a known session carries on; any other is invalid
                session = str(data["d"].get("session_id"))
                if session in self.sessions:
                    await self._resume(ws, self.sessions[session], int(data["d"].get("seq") or 0))
                else:
                    await ws.send_str(json.dumps({"op": 9, "d": False}))
            elif data["op"] == 2:  # IDENTIFY: a new session; events the shard missed are dropped
                shard, count = data["d"].get("shard") or [0, 1]
                self.missed.pop(shard, None)
                if count != self.shard_count:
                    await ws.close(code=4011, message=b"Sharding required")  # Discord's close code
                    break
                self.identifies.append((shard, count))
                self.shard_of_socket[ws] = shard
                self.seqs[ws] = 0
                mine = [g for g in self.guilds if shard_of(g, count) == shard]
                await self._send_to(
                    ws,
                    0,
                    {
                        "v": 10,
                        "user": self.bot_user,
                        "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                        "session_id": self._new_session(shard),
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                        "application": {"id": str(APP_ID), "flags": 0},
                        "shard": [shard, count],
                    },
                    "READY",
                )
                for g in mine:
                    await self._send_to(ws, 0, self.guild(g), "GUILD_CREATE")
                self.identified.set()
                self.shard_ready[shard].set()
        if ws in self.sockets:
            self.sockets.remove(ws)
        self.shard_of_socket.pop(ws, None)
        return ws

    def _new_session(self, shard: int) -> str:
        for old in [k for k, v in self.sessions.items() if v == shard]:
            del self.sessions[old]
        session = f"e2e-{shard}-{self.next_id()}"
        self.sessions[session] = shard
        return session

    async def _resume(self, ws: web.WebSocketResponse, shard: int, seq: int) -> None:
        """RESUME: the events the shard missed, in order, then RESUMED (Discord's answer)."""
        self.shard_of_socket[ws] = shard
        self.seqs[ws] = seq
        for event in self.missed.pop(shard, []):
            data = json.loads(event)
            await self._send_to(ws, data["op"], data["d"], data["t"])
        await self._send_to(ws, 0, {}, "RESUMED")
        self.resumes += 1
        self.resumed.set()

    # ------------------------------------------------------------------ acting as players

    def member(self, uid: int, name: str, admin: bool = False) -> dict[str, Any]:
        self.users[uid] = user(uid, name)
        perms = 0x7FFFFFFFF if admin else 0x7FFFFFFFF & ~0x20 & ~0x8
        return {
            "user": self.users[uid],
            "roles": [],
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(perms),
            "pending": False,
            "nick": None,
            "avatar": None,
        }

    async def interact(
        self,
        uid: int,
        name: str,
        kind: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
        timeout: float = 10.0,
        channel_id: int = CHANNEL_ID,
        wait: bool = True,
    ) -> dict[str, Any]:
        """Send an INTERACTION_CREATE as ``uid`` in a channel, to its server's shard; wait for the answer.

        ``info["sent"]`` is the loop time it was sent; ``wait=False`` returns at once.
        """
        if message is not None:
            channel_id = int(message["channel_id"])
        guild_id = self.channels[channel_id]
        iid, token = next(self.ids), f"tok{next(self.ids)}"
        info: dict[str, Any] = {
            "type": kind,
            "channel_id": channel_id,
            "responses": [],
            "answered": asyncio.Event(),
        }
        if message is not None:
            info["component_message_id"] = int(message["id"])
        self.interactions[token] = info
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(guild_id),
            "channel_id": str(channel_id),
            "channel": self.channel(channel_id),
            "member": self.member(uid, name),
            "data": data,
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str(self.app_permissions),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 8388608,
        }
        if message is not None:
            payload["message"] = message
        info["sent"] = asyncio.get_running_loop().time()
        await self.send(0, payload, "INTERACTION_CREATE", guild_id=guild_id)
        if wait:
            await asyncio.wait_for(info["answered"].wait(), timeout)
        return info

    async def slash(
        self, uid: int, name: str, command: str, sub: str, channel_id: int = CHANNEL_ID, **options: Any
    ) -> dict[str, Any]:
        cmd = next(c for c in self.commands if c["name"] == command)
        data = {
            "id": cmd["id"],
            "name": command,
            "type": 1,
            "options": [
                {
                    "type": 1,
                    "name": sub,
                    "options": [{"name": k, "type": 4, "value": v} for k, v in options.items()],
                }
            ],
        }
        return await self.interact(uid, name, 2, data, channel_id=channel_id)

    async def click(
        self,
        uid: int,
        name: str,
        message: dict[str, Any],
        custom_id: str,
        values: list[str] | None = None,
        wait: bool = True,
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = values
        return await self.interact(uid, name, 3, data, message=message, wait=wait)

    def message_of(self, info: dict[str, Any]) -> dict[str, Any]:
        return self.messages[int(info["message_id"])]
