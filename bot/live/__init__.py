"""The live table in a browser: one page per table, fed over a WebSocket from the runtime's outcomes.

``state`` makes what one viewer may see (the one place hidden cards are kept out),
``hub`` holds a table's sockets and hands each its own state when the runtime tells
an outcome, ``links`` signs people in (one-time links, sessions), ``server`` is the
aiohttp application (``LIVE_URL``, ``LIVE_PORT``). No Discord here.
"""
