"""A fake Discord REST API that rate-limits as Discord does, for bench/budget_bench.py.

    python bench/fake_discord.py --port 8765 [--speed 2]

What it enforces (on a clock ``--speed`` times faster than real time):

- **the global limit**: 50 requests a second per bot token, every route except interaction
  callbacks and follow-ups (``/interactions/…``, ``/webhooks/…``), however many processes send;
  a moving window of one *simulated* second (``1/speed`` real seconds), so a compressed clock
  does not let a burst of two seconds' calls through in one;
- **per-route buckets**: 5 message posts or edits per 5 seconds per channel
  (``/channels/{id}/messages…``), a bucket per channel and method, with Discord's
  ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`` headers on every answer, which
  discord.py reads to wait before the bucket runs out.

Past a limit it answers **429 as Discord does**: a JSON body with ``message``,
``retry_after`` (seconds, fractional) and ``global``; headers ``Retry-After``,
``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global`` for the global limit
(``user`` for a route's bucket), and ``Via: 1.1 google`` (discord.py treats a 429 without
it as a Cloudflare ban). A 429 is counted and not served.

It remembers what each channel's messages say (the bench writes ``v<version>`` in them) and
when, and serves ``GET /bench/report`` (counts and what each channel showed when) and
``POST /bench/reset``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

GLOBAL_PER_SECOND = 50
ROUTE_LIMIT, ROUTE_WINDOW = 5, 5.0
VERSION = re.compile(r"\bv(\d+)\b")
MESSAGES = re.compile(r"^/api/v10/channels/(\d+)/messages(?:/(\d+))?$")


@dataclass
class Window:
    """A moving window of request times (real seconds)."""

    limit: int
    seconds: float
    times: deque[float] = field(default_factory=deque)

    def retry_after(self, now: float) -> float:
        """0 if a request fits now (and counts it), else the seconds until one does."""
        while self.times and now - self.times[0] >= self.seconds:
            self.times.popleft()
        if len(self.times) < self.limit:
            self.times.append(now)
            return 0.0
        return self.seconds - (now - self.times[0])


@dataclass
class Fake:
    speed: float
    global_window: Window = field(init=False)
    routes: dict[tuple[str, str], Window] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    global_429s: list[float] = field(default_factory=list)
    """Real times of the global 429s."""
    shown: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    """Per channel: (version, real time) each time a message there changed to show a version."""
    next_id: int = 10**17

    calls: list[float] = field(default_factory=list)
    """Real times of the budgeted calls served (every route but interactions)."""
    span: tuple[float, float] = (0.0, 0.0)
    """Real times of the first and the last message call served."""

    def __post_init__(self) -> None:
        self.global_window = Window(GLOBAL_PER_SECOND, 1.0 / self.speed)
        self.started = time.time()

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def too_many(self, retry_after: float, scope: str, bucket: str) -> web.Response:
        retry = round(retry_after, 3)
        body = {"message": "You are being rate limited.", "retry_after": retry, "global": scope == "global"}
        headers = {
            "Retry-After": str(max(1, math.ceil(retry))),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(
                {
                    "X-RateLimit-Limit": str(ROUTE_LIMIT),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{retry:.3f}",
                    "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                    "X-RateLimit-Bucket": bucket,
                }
            )
        self.count(f"429_{scope}")
        if scope == "global":
            self.global_429s.append(time.time())
        return _json(body, status=429, headers=headers)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        now = time.time()
        if path == "/bench/report":
            report = {
                "counts": self.counts,
                "shown": self.shown,
                "global_429s": self.global_429s,
                "span": self.span,
                "busiest_second": busiest(self.calls, 1.0 / self.speed),
                "calls": self.calls,
            }
            return _json(report)
        if path == "/bench/reset":
            self.counts.clear()
            self.shown.clear()
            self.global_429s.clear()
            self.span = (0.0, 0.0)
            self.calls.clear()
            self.routes.clear()
            self.global_window = Window(GLOBAL_PER_SECOND, 1.0 / self.speed)
            return _json({})
        if path.startswith(("/api/v10/interactions/", "/api/v10/webhooks/")):
            self.count("interaction")
            return web.Response(status=204)
        if path == "/api/v10/users/@me":
            return _json(_user())
        wait = self.global_window.retry_after(now)
        if wait > 0:
            return self.too_many(wait, "global", "")
        found = MESSAGES.match(path)
        if found is None:
            self.count(f"other {request.method}")
            return _json({}, status=200)
        channel, message = found.group(1), found.group(2)
        bucket = f"{request.method}:{channel}"
        window = self.routes.setdefault(bucket, Window(ROUTE_LIMIT, ROUTE_WINDOW / self.speed))
        wait = window.retry_after(now)
        if wait > 0:
            return self.too_many(wait, "user", bucket)
        remaining = ROUTE_LIMIT - len(window.times)
        reset_after = window.seconds - (now - window.times[0])
        headers = {
            "X-RateLimit-Limit": str(ROUTE_LIMIT),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{now + reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        self.count(f"{request.method} message")
        self.span = (self.span[0] or now, now)
        self.calls.append(now)
        if request.method == "DELETE":
            return web.Response(status=204, headers=headers)
        data = await _payload(request)
        text = json.dumps(data)
        seen = VERSION.search(text)
        if seen is not None and (request.method == "PATCH" or "table" in text):
            self.shown.setdefault(channel, []).append((int(seen.group(1)), now))
        self.next_id += 1
        return _json(_message(channel, message or str(self.next_id), data), headers=headers)


def busiest(times: list[float], seconds: float) -> int:
    """The most calls in any window of ``seconds`` (``times`` sorted)."""
    most, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= seconds:
            start += 1
        most = max(most, end - start + 1)
    return most


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: ``Content-Type: application/json`` exactly (discord.py checks)."""
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers=headers, content_type="application/json")


async def _payload(request: web.Request) -> dict[str, Any]:
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        async for part in reader:
            if getattr(part, "name", None) == "payload_json":
                data: dict[str, Any] = json.loads(await part.text())  # type: ignore[union-attr]
                return data
        return {}
    if request.can_read_body:
        loaded: dict[str, Any] = await request.json()
        return loaded
    return {}


def _user() -> dict[str, Any]:
    return {"id": "1", "username": "bench", "discriminator": "0", "avatar": None, "bot": True}


def _message(channel: str, message: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": message,
        "channel_id": channel,
        "type": 0,
        "content": data.get("content") or "",
        "author": _user(),
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": 0,
        "components": [],
    }


def app(speed: float) -> web.Application:
    fake = Fake(speed)
    application = web.Application(client_max_size=4 * 1024 * 1024)
    application.router.add_route("*", "/{tail:.*}", fake.handle)
    return application


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--speed", type=float, default=1.0)
    args = parser.parse_args()
    web.run_app(app(args.speed), host="127.0.0.1", port=args.port, access_log=None, print=None)


if __name__ == "__main__":
    main()
