"""The one place the bot reads discord.py's internals: which controls its view store will dispatch.

Why: a control under the bot's prefix that no template or view will take (a
button from an older version of the bot) must still be answered, or the member
sees "This interaction failed". discord.py dispatches a component to a
``DynamicItem`` template or to a view's item through its ``ViewStore`` and has
no public way to ask whether it will; ``Client.persistent_views`` lists only the
persistent views, not the templates nor the views bound to one message. So this
module reads ``ConnectionState._view_store`` (its ``_dynamic_items`` patterns and
``_views`` by message id) exactly as ``ViewStore.dispatch_view`` looks them up.
tests/cogs/test_view_store.py fails when discord.py changes that shape.
"""

from __future__ import annotations

import discord


def known(client: discord.Client, component_type: int, custom_id: str) -> bool:
    """Whether discord.py will hand this control to one of the bot's items (a template or a view)."""
    store = client._connection._view_store
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (component_type, custom_id)
    return any(key in items for items in store._views.values())
