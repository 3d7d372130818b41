"""The live table's web server (``LIVE_URL``, ``LIVE_PORT``): the page, its sign-in, its WebSocket.

Served by aiohttp (the HTTP library discord.py brings) from the bot's own event loop,
as ``/metrics`` is. Routes:

- ``GET /live/``: the page (``web/live/``), which draws with the replay page's renderer
  (``/replay/js/``);
- ``POST /live/api/signin``: a one-time link's token in, a session out (``links``);
- ``GET /live/ws``: the socket. Its first message names the session; from then on the
  page gets its viewer's state at every change (``hub``) and may send moves, which go
  through ``engine.codec.parse_control`` and ``TableRuntime.act`` exactly as a hand's
  button in Discord does, with the same refusals in the member's language.

A page can only be signed in with a token this process made; no id a page sends is
believed. One process owns a table's sockets: the one that runs the table's server
(its shard), which is the process that answered ``/flipflop web`` and minted the link
with its own ``LIVE_URL`` (docs/OPERATORS.md, several processes).
"""

from __future__ import annotations

import json
import logging
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from bot.i18n import LANGUAGES, SOURCE_LANGUAGE, Texts, texts
from bot.ledger import LedgerError
from bot.listening import PortError, listen
from bot.live.activity import ActivityAuth
from bot.live.hub import LiveHub
from bot.live.links import Links, Pass, Sessions, SignInRefused
from bot.live.words import page_words
from bot.presentation.refusals import Refusal, explain
from bot.runtime import StaleControl, TableRuntime
from bot.storage import StoreError
from bot.table.model import TableError
from engine.assets import asset
from engine.codec import parse_control
from engine.errors import IllegalAction, MalformedInput

log = logging.getLogger("flipflop.live")

WEB = asset("web")
MOVES = ("stock", "take", "drop", "discard", "spread", "layoff", "tonk", "back")
"""The hand's moves a page may send (the control codec's ops, and **I'm back** for an away member;
leaving is done in Discord)."""
MESSAGE_BYTES = 4096
"""The largest message a page may send (a move is a few dozen bytes)."""
Language = Callable[[int, int], Awaitable[Texts]]
"""A member's language in a server (their choice, else the server's)."""
ServerLanguage = Callable[[int], Awaitable[Texts]]


class LivePortError(PortError):
    """``LIVE_PORT`` can not be listened on; the message says what to do."""


def bind(port: int, host: str = "0.0.0.0") -> socket.socket:
    """Listen on the live page's port now, so a clash is told at start-up."""
    clash = "Give each process its own LIVE_PORT and LIVE_URL, or leave LIVE_URL empty."
    return listen(port, "LIVE_PORT", clash, error=LivePortError, host=host, backlog=512)


def accepted(header: str) -> Texts:
    """The first of our languages a browser asks for (``Accept-Language``), else English."""
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()
        for lang in LANGUAGES:
            if code == lang or code.split("-")[0] == lang:
                return texts(lang)
    return texts(SOURCE_LANGUAGE)


class LiveServer:
    """The live table pages of this process's tables."""

    def __init__(
        self,
        sock: socket.socket | None,
        url: str,
        clock: Callable[[], float],
        *,
        key: bytes | None = None,
        activity: ActivityAuth | None = None,
    ) -> None:
        self.sock = sock
        self.url = url.rstrip("/") + "/"
        self.clock = clock
        self.links = Links(key or secrets.token_bytes(32), clock)
        self.sessions = Sessions(clock)
        self.hub = LiveHub(clock)
        self.activity = activity
        self.mounted: dict[str, web.Application] = {}
        """More routes under a prefix (the playground's stand-in for Discord, ``mock_discord``)."""
        """The Activity's sign-in (``ACTIVITY_CLIENT_ID``), if the application has one."""
        self.runtime: TableRuntime | None = None
        self.member_language: Language | None = None
        self.server_language: ServerLanguage | None = None
        self._runner: web.AppRunner | None = None
        self.port: int | None = sock.getsockname()[1] if sock is not None else None

    # ------------------------------------------------------------------ wiring

    def attach(self, runtime: TableRuntime, member: Language, server: ServerLanguage) -> None:
        """The runtime whose outcomes the pages follow (called when the Flip Flop cog loads)."""
        self.runtime = runtime
        self.hub.clock = runtime.clock  # the countdown reads the clock the deadlines are saved on
        self.member_language = member
        self.server_language = server
        if self.hub.told not in runtime.watchers:
            runtime.watchers.append(self.hub.told)

    def link(self, who: Pass) -> str:
        """The page's address signing ``who`` in once (the token after ``#``: never sent in a request)."""
        return f"{self.url}live/#{self.links.mint(who)}"

    def app(self) -> web.Application:
        """The routes (``start`` serves them; a test may serve them itself)."""
        app = web.Application(client_max_size=MESSAGE_BYTES)
        app.router.add_get("/", self.to_page)
        app.router.add_get("/live", self.to_page)
        app.router.add_get("/live/", self.page)
        app.router.add_get("/live/live.css", self.file("live/live.css"))
        app.router.add_get("/replay/replay.css", self.file("replay/replay.css"))
        app.router.add_static("/live/js", WEB / "live" / "js")
        app.router.add_static("/replay/js", WEB / "replay" / "js")
        app.router.add_static("/live/vendor", WEB / "live" / "vendor")
        app.router.add_get("/live/api/config", self.config)
        app.router.add_post("/live/api/signin", self.signin)
        app.router.add_post("/live/api/activity", self.activity_signin)
        app.router.add_get("/live/ws", self.socket)
        for prefix, sub_app in self.mounted.items():
            app.add_subapp(prefix, sub_app)
        return app

    async def start(self) -> None:
        """Answer on the bound port."""
        assert self.sock is not None
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, self.sock).start()
        log.info("The live table on port %d (%slive/).", self.port, self.url)

    async def stop(self) -> None:
        """Close every page and let go of the port."""
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.sock is not None:
            self.sock.close()

    # ------------------------------------------------------------------ pages

    @staticmethod
    async def to_page(request: web.Request) -> web.StreamResponse:
        """``/live`` is the page's folder; ``/`` (where Discord opens an Activity) goes there too.

        The query is kept: an Activity's frame reads its ``frame_id`` and ``instance_id`` from it.
        """
        raise web.HTTPFound("/live/" + (f"?{request.query_string}" if request.query_string else ""))

    @staticmethod
    async def page(request: web.Request) -> web.StreamResponse:
        """The page, framed only by Discord (an Activity) or itself."""
        return web.FileResponse(WEB / "live" / "index.html", headers=_HEADERS)

    @staticmethod
    def file(path: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """A handler serving one file of ``web/``."""

        async def serve(request: web.Request) -> web.StreamResponse:
            return web.FileResponse(WEB / path)

        return serve

    # ------------------------------------------------------------------ signing in

    async def signin(self, request: web.Request) -> web.Response:
        """A one-time link's token for a session; a refusal names why, in the browser's language."""
        t = accepted(request.headers.get("Accept-Language", ""))
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = {}
        try:
            who = self.links.redeem(body.get("link") if isinstance(body, dict) else None)
        except SignInRefused as e:
            return web.json_response({"error": explain(e, t), "code": e.code}, status=403)
        return web.json_response({"session": self.sessions.open(who), "table": who.table_id})

    async def config(self, request: web.Request) -> web.Response:
        """What the page needs before signing in: the Activity's application id, if there is one."""
        return web.json_response({"activity": self.activity.client_id if self.activity is not None else None})

    async def activity_signin(self, request: web.Request) -> web.Response:
        """An Activity's OAuth2 code and instance id for a session at the table of its channel.

        Who it is and where the Activity runs come from Discord (``activity.ActivityAuth``),
        never from the page; an instance beside no table here is refused, nothing changed.
        """
        t = accepted(request.headers.get("Accept-Language", ""))
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = {}
        body = body if isinstance(body, dict) else {}
        try:
            if self.activity is None:
                raise SignInRefused("activity_refused")
            launched = await self.activity.identify(body.get("code"), body.get("instance"))
            table = self.runtime.in_channel(launched.channel_id) if self.runtime is not None else None
            if table is None or table.guild_id != launched.guild_id:
                raise SignInRefused("instance_unknown")
        except SignInRefused as e:
            return web.json_response({"error": explain(e, t), "code": e.code}, status=403)
        who = Pass(launched.user_id, table.guild_id, table.id, launched.locale)
        return web.json_response({"session": self.sessions.open(who), "table": table.id})

    # ------------------------------------------------------------------ the socket

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        """One page's socket: a hello naming its session, then states out and moves in."""
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MESSAGE_BYTES, compress=False)
        await ws.prepare(request)
        t = accepted(request.headers.get("Accept-Language", ""))
        watcher = None
        try:
            first = await ws.receive(timeout=30.0)
            who = self.sessions.get(_json(first).get("session") if first.type == WSMsgType.TEXT else None)
            runtime = self.runtime
            table = runtime.get(who.table_id) if runtime is not None else None
            if table is None:
                raise TableError("table_closed")
            t = await self._member_texts(who)
            table_texts = await self._server_texts(who.guild_id)
            words = page_words(t)  # the page's own words in the member's language
            hello = {"type": "hello", "table": table.id, "you": str(who.user_id), "words": words}
            await ws.send_str(json.dumps(hello))
            watcher = self.hub.watch(table, who.user_id, ws.send_str, ws.close, table_texts)
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                await ws.send_str(json.dumps(await self.answer(who, _json(message), t)))
        except Refusal as e:
            refused = {"type": "refused", "message": explain(e, t), "code": e.code, "words": page_words(t)}
            await ws.send_str(json.dumps(refused))
        except TimeoutError:
            pass
        finally:
            if watcher is not None:
                await self.hub.unwatch(watcher)
            await ws.close()
        return ws

    async def answer(self, who: Pass, message: dict[str, Any], t: Texts) -> dict[str, Any]:
        """A move from the page, played as a hand's button plays it: ``ok``, or the refusal in words."""
        asked = message.get("id")
        reply: dict[str, Any] = {"type": "answer", "id": asked if isinstance(asked, int) else None}
        try:
            await self.move(who, message)
        except StaleControl as e:
            return {**reply, "ok": False, "message": explain(e, t), "code": e.code}
        except IllegalAction as e:
            refusal = t.gettext("{refusal} Nothing was done.").format(refusal=explain(e, t))
            return {**reply, "ok": False, "message": refusal, "code": e.code}
        except (TableError, LedgerError, MalformedInput) as e:
            return {**reply, "ok": False, "message": explain(e, t), "code": getattr(e, "code", "")}
        except StoreError:
            log.warning("A live move was refused for a database fault")
            text = t.gettext("Something went wrong on our side; nothing was changed. Please try again.")
            return {**reply, "ok": False, "message": text, "code": "store"}
        return {**reply, "ok": True}

    async def move(self, who: Pass, message: dict[str, Any]) -> None:
        """Parse a move with the control codec and play it through the runtime; raise its refusal."""
        runtime = self.runtime
        op, value, seq = message.get("op"), message.get("value"), message.get("seq")
        if runtime is None or message.get("type") != "move" or op not in MOVES:
            raise TableError("not_a_move")
        if not isinstance(seq, int) or not (value is None or isinstance(value, str)):
            raise TableError("not_a_move")
        table = runtime.get(who.table_id)
        if table is None:
            raise TableError("table_closed")
        if op == "back":  # as the hand's **I'm back**: the member plays their own seat again
            await runtime.back(table.id, who.user_id)
            return
        try:
            action = parse_control(table.pid(who.user_id), str(op), value)
        except MalformedInput:
            raise TableError("not_a_move") from None
        await runtime.act(table.id, who.user_id, seq, action)  # the table is told on the way out

    async def _member_texts(self, who: Pass) -> Texts:
        if self.member_language is not None:
            try:
                return await self.member_language(who.guild_id, who.user_id)
            except StoreError:
                pass
        return texts(who.language if who.language in LANGUAGES else SOURCE_LANGUAGE)

    async def _server_texts(self, guild_id: int) -> Texts:
        if self.server_language is not None:
            try:
                return await self.server_language(guild_id)
            except StoreError:
                pass
        return texts(SOURCE_LANGUAGE)


_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss: https://discord.com;"
    " img-src 'self' data:;"
    " frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com 'self'",
    "Referrer-Policy": "no-referrer",
}


def _json(message: Any) -> dict[str, Any]:
    try:
        data = json.loads(message.data)
    except (TypeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
