"""The one place the bot reads discord.py's internals, and why each read has no public way.

Everything else in ``bot/`` and ``cogs/`` uses discord.py's public API only; the
structure test (tests/test_structure.py) refuses a private attribute of a
discord.py object anywhere but here, and tests/bot/test_discord_internals.py
fails when discord.py changes a shape read below.

- **Which controls the view store will take** (``will_dispatch``): a control under
  the bot's prefix that no template or view takes (a button from an older version
  of the bot) must still be answered, or the member sees "This interaction failed".
  discord.py dispatches a component to a ``DynamicItem`` template or a view's item
  through its ``ViewStore`` and has no public way to ask whether it will;
  ``Client.persistent_views`` lists only persistent views, not templates nor views
  bound to one message. So ``ConnectionState._view_store`` is read (its
  ``_dynamic_items`` patterns and ``_views`` by message id) exactly as
  ``ViewStore.dispatch_view`` looks them up.
- **When an interaction arrived** (``hear_interactions``): the action-latency metric
  starts when the gateway event is parsed, before discord.py starts the command's or
  control's task (which copies the current context). The ``on_interaction`` event
  runs later, in a task of its own, after the control's first steps, so it would
  hide part of the latency; the parser (``ConnectionState.parsers``) is wrapped.
- **Which interaction a reply answers** (``answered_interaction``): an
  ``InteractionResponse`` keeps its interaction as ``_parent`` and exposes no
  public reference to it.
- **When the first reply went out** (``hear_replies``): discord.py has no event for
  an interaction answered, and the answer is not a request ``HTTPClient`` makes
  (the HTTP trace sees it on the wire, but not under a simulated Discord, and not
  which of the bot's tasks sent it). So the public methods of
  ``InteractionResponse`` that answer (``REPLIES``) are wrapped, for every client
  of the process, once; a method discord.py renames fails the wrapping loudly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

Parser = Callable[[Any], None]
Reply = Callable[..., Awaitable[Any]]
Response = discord.InteractionResponse[Any]
"""What a wrapped reply (``hear_replies``) is called on; a module that wraps one names it by this."""
REPLIES = ("defer", "pong", "send_message", "edit_message", "send_modal", "autocomplete", "launch_activity")
"""The ``InteractionResponse`` methods that answer an interaction (discord.py 2.7)."""


def will_dispatch(client: discord.Client, component_type: int, custom_id: str) -> bool:
    """Whether discord.py will hand this control to one of the bot's items (a template or a view)."""
    store = client._connection._view_store
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (component_type, custom_id)
    return any(key in items for items in store._views.values())


def hear_interactions(client: discord.Client, wrap: Callable[[Parser], Parser]) -> None:
    """Replace ``client``'s ``INTERACTION_CREATE`` parser with ``wrap(parser)``, which sees raw payloads."""
    parsers: dict[str, Parser] = client._connection.parsers
    parsers["INTERACTION_CREATE"] = wrap(parsers["INTERACTION_CREATE"])


def interaction_parser(client: discord.Client) -> Parser:
    """``client``'s ``INTERACTION_CREATE`` parser as it is now (wrapped or not)."""
    parser: Parser = client._connection.parsers["INTERACTION_CREATE"]
    return parser


def answered_interaction(response: discord.InteractionResponse[Any]) -> int:
    """The id of the interaction ``response`` answers."""
    return int(response._parent.id)


def hear_replies(wrap: Callable[[Reply], Reply], mark: str) -> None:
    """Replace each of ``REPLIES`` on ``InteractionResponse`` with ``wrap(method)``, for every client.

    A method already wrapped (it has the attribute ``mark``) is left alone: hearing twice wraps nothing twice.
    """
    for name in REPLIES:
        method = getattr(discord.InteractionResponse, name)  # a renamed method fails here, loudly
        if getattr(method, mark, False):
            continue
        wrapped = wrap(method)
        setattr(wrapped, mark, True)
        setattr(discord.InteractionResponse, name, wrapped)
