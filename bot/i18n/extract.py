"""Babel extraction for the cogs: ordinary gettext calls plus the slash commands' own texts.

Slash-command names and descriptions are written as decorator arguments
(``app_commands.command(name=..., description=...)``, ``describe(...)``, ``Group(...)``,
``GroupCog`` class keywords, ``Choice(name=...)``), not as gettext calls, yet Discord's picker
shows them. This method (named in ``babel.cfg``) yields them too, so ``pybabel extract`` and
the catalog test see every command text; names carry the ``COMMAND_NAME`` context.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, cast

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg

from bot.i18n.discord_translator import COMMAND_NAME

KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "N_": None}
"""Babel's gettext keywords plus ``N_``, the marker of messages translated later."""

_COMMAND_CALLS = {"command", "Group", "context_menu"}
_NAME_KEYWORDS = {"name", "group_name"}
_TEXT_KEYWORDS = {"description", "group_description"}

Extracted = tuple[int, str, str | tuple[str, str], list[str]]
MessageKey = tuple[str | tuple[str, ...], str | None]
"""A catalog entry's identity: its msgid (a tuple for plural messages) and its context."""


def _constant(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _callee(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def command_texts(source: str) -> Iterator[Extracted]:
    """The command names (with context) and descriptions written in one module's source."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            keywords, callee = node.keywords, "command"
        elif isinstance(node, ast.Call):
            keywords, callee = node.keywords, _callee(node)
        else:
            continue
        for keyword in keywords:
            text = _constant(keyword.value)
            if text is None or keyword.arg is None:
                continue
            if callee == "describe" or (callee == "Choice" and keyword.arg == "name"):
                yield node.lineno, "gettext", text, []
            elif callee in _COMMAND_CALLS and keyword.arg in _NAME_KEYWORDS:
                yield node.lineno, "pgettext", (COMMAND_NAME, text), []
            elif callee in _COMMAND_CALLS and keyword.arg in _TEXT_KEYWORDS:
                yield node.lineno, "gettext", text, []


def extract_cogs(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: dict[str, Any]
) -> Iterator[Any]:
    """Babel extraction method: ``extract_python`` followed by the module's command texts."""
    yield from extract_python(fileobj, keywords, comment_tags, cast(Any, options))
    fileobj.seek(0)
    yield from command_texts(fileobj.read().decode(options.get("encoding", "utf-8")))


def extract_messages(root: Path) -> dict[MessageKey, list[str]]:
    """Every message in the code under ``root`` as ``babel.cfg`` maps it: (id, context) → places.

    The same extraction ``pybabel extract -F babel.cfg -k N_`` runs; the catalog test compares
    its result with the template and every language's catalog.
    """
    with (root / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    found: dict[MessageKey, list[str]] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=KEYWORDS
    ):
        found.setdefault((message, context), []).append(f"{filename}:{lineno}")
    return found
