"""The engine's two errors: a move the rules forbid, and input that is not well formed.

As python-chess separates an illegal move from an invalid one: ``IllegalAction``
is a well-formed request the rules refuse now ("it is Ben's turn");
``MalformedInput`` is text or data that does not even say something
(``"ZZ"`` is not a card, a transcript without seats). Both carry a stable
``code`` and ``params``; their English sentence comes from ``engine.catalog``,
so a translation changes the catalog and nothing here.
"""

from __future__ import annotations

from engine.catalog import render


class IllegalAction(Exception):
    """An action the rules do not allow now; the game is left exactly as it was.

    ``code`` names the refusal (``not_your_turn``), ``params`` fill its
    message (``{"player": "Ben"}``) and ``str()`` is the English sentence.
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params: dict[str, object] = params
        super().__init__(render(code, params))


class MalformedInput(ValueError):
    """Input that is not what it claims to be: bad card text, a bad deck or transcript.

    A ``ValueError``, so callers that parse user text can catch either.
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params: dict[str, object] = params
        super().__init__(render(code, params))
