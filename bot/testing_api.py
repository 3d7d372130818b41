"""A testing aid: point discord.py at a local fake Discord instead of discord.com.

Set ``FLIPFLOP_API_BASE=http://127.0.0.1:PORT`` and the bot sends its REST calls
to ``PORT/api/v10`` and opens its gateway at ``ws://127.0.0.1:PORT/gateway``.
Never set it in production.
"""

from __future__ import annotations

import discord.gateway
import discord.http


def apply_api_base(base: str) -> None:
    """Redirect discord.py's REST and gateway addresses to ``base``."""
    base = base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://").replace("https://", "wss://")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = discord.gateway.yarl.URL(f"{ws}/gateway")  # type: ignore[attr-defined]
