"""Discord's limits on a message, checked and met before anything is sent.

One checker for every message the bot builds: ``problems`` lists what a
payload (as Discord receives it) breaks; ``shorten`` fits a text to its room.
On the Discord side, ``bot.client.fitted`` takes the keyword arguments of a
send or an edit (discord.py's embeds and views) and shortens whatever would
overflow with these limits, the way a reader loses least: text is cut at a line (or word) boundary and ends
with "…", embed fields past the limit are dropped, labels are cut. A message
is never refused by Discord for its size.

The limits are Discord's documented ones (Messages, Embeds, Message
Components): content 2,000 characters; at most 10 embeds, each with a title
of 256, a description of 4,096, at most 25 fields (name 256, value 1,024), a
footer of 2,048, an author of 256, and 6,000 characters in all the embeds of
a message together; at most 5 rows of at most 5 buttons or one select menu;
a custom id of 100; a button label of 80; a select placeholder of 150 and
1–25 options, each label, value and description of 100. Components V2
(when tables use them) add 40 components and 4,000 characters of text
displays per message: ``problems`` checks those too, and a media gallery's
1–10 items, each an ``attachment://`` file sent with the message (or a web
address) with a description (alt text) of at most 1,024 characters. Files:
at most 10 a message, 10 MiB together (Discord's upload limit where a
server has no boosts) — ``problems(payload, files)`` checks the files sent
with a payload and that every ``attachment://`` it shows is one of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

CONTENT = 2000
EMBEDS = 10
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
PLACEHOLDER = 150
OPTIONS = 25
OPTION_TEXT = 100
V2_COMPONENTS = 40
V2_TEXT = 4000
MEDIA_ITEMS = 10
MEDIA_DESCRIPTION = 1024
FILES = 10
FILE_BYTES = 10 * 1024 * 1024
IS_COMPONENTS_V2 = 1 << 15
ELLIPSIS = "…"


def split_message(lines: Sequence[str], room: int = CONTENT - 100) -> list[str]:
    """Lines joined into messages of at most ``room`` characters (Discord's 2,000, with a margin).

    A line longer than a whole message is cut to it.
    """
    out: list[str] = []
    buf = ""
    for line in lines:
        if buf and len(buf) + len(line) + 1 > room:
            out.append(buf)
            buf = ""
        buf = f"{buf}\n{line}" if buf else line[:room]
    if buf:
        out.append(buf)
    return out


def shorten(text: str, room: int) -> str:
    """``text`` within ``room`` characters: cut at a line break (else a space) late in it, then "…"."""
    if len(text) <= room:
        return text
    cut = text[: room - len(ELLIPSIS)]
    for mark in ("\n", " "):
        at = cut.rfind(mark)
        if at >= room // 2:
            cut = cut[:at]
            break
    return cut.rstrip() + ELLIPSIS


def embed_length(e: Mapping[str, Any]) -> int:
    """Characters an embed counts toward Discord's 6,000 for a message's embeds together."""
    fields = e.get("fields") or []
    return (
        len(e.get("title") or "")
        + len(e.get("description") or "")
        + len((e.get("footer") or {}).get("text") or "")
        + len((e.get("author") or {}).get("name") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    )


def _component_problems(c: Mapping[str, Any], where: str) -> list[str]:
    out: list[str] = []
    if len(str(c.get("custom_id") or "")) > CUSTOM_ID:
        out.append(f"{where}: custom id longer than {CUSTOM_ID}")
    if c.get("type") == 2 and len(c.get("label") or "") > BUTTON_LABEL:
        out.append(f"{where}: button label longer than {BUTTON_LABEL}")
    if c.get("type") == 3:
        options = c.get("options") or []
        if not 1 <= len(options) <= OPTIONS:
            out.append(f"{where}: {len(options)} options (1 to {OPTIONS})")
        if len(c.get("placeholder") or "") > PLACEHOLDER:
            out.append(f"{where}: placeholder longer than {PLACEHOLDER}")
        for o in options:
            for key in ("label", "value", "description"):
                if len(o.get(key) or "") > OPTION_TEXT:
                    out.append(f"{where}: option {key} longer than {OPTION_TEXT}")
    return out


def _v2_walk(components: list[Mapping[str, Any]]) -> tuple[int, int]:
    """How many components (nested ones too) and how many characters of text displays."""
    count = text = 0
    for c in components:
        count += 1
        if c.get("type") == 10:  # a text display
            text += len(c.get("content") or "")
        for key in ("components", "items"):
            inner, chars = _v2_walk(list(c.get(key) or []))
            count, text = count + inner, text + chars
        if isinstance(c.get("accessory"), Mapping):
            count += 1
    return count, text


def problems(payload: Mapping[str, Any], files: Sequence[tuple[str, int]] | None = None) -> list[str]:
    """What a message payload (a send, an edit, a callback's ``data``) breaks of Discord's limits.

    ``files``: the (name, bytes) of the files uploaded with it, when known: their number and
    size, and that each ``attachment://`` the layout shows is one of them.
    """
    out: list[str] = []
    if files is not None:
        out += _files_problems(payload, files)
    if len(payload.get("content") or "") > CONTENT:
        out.append(f"content longer than {CONTENT}")
    out += _embeds_problems(list(payload.get("embeds") or []))
    components = list(payload.get("components") or [])
    if int(payload.get("flags") or 0) & IS_COMPONENTS_V2:
        return out + _v2_problems(components)
    return out + _rows_problems(components)


def _embeds_problems(embeds: list[Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    if len(embeds) > EMBEDS:
        out.append(f"more than {EMBEDS} embeds")
    for e in embeds:
        out += _embed_problems(e)
    if sum(embed_length(e) for e in embeds) > EMBED_TOTAL:
        out.append(f"embeds longer than {EMBED_TOTAL} in all")
    return out


def _embed_problems(e: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for key, limit in (("title", TITLE), ("description", DESCRIPTION)):
        if len(e.get(key) or "") > limit:
            out.append(f"embed {key} longer than {limit}")
    if len((e.get("footer") or {}).get("text") or "") > FOOTER:
        out.append(f"embed footer longer than {FOOTER}")
    if len((e.get("author") or {}).get("name") or "") > AUTHOR:
        out.append(f"embed author longer than {AUTHOR}")
    fields = e.get("fields") or []
    if len(fields) > FIELDS:
        out.append(f"more than {FIELDS} embed fields")
    for f in fields:
        if len(f.get("name") or "") > FIELD_NAME or len(f.get("value") or "") > FIELD_VALUE:
            out.append(f"embed field {f.get('name', '')[:20]!r} too long")
    return out


def _galleries(components: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The media galleries of a layout, wherever they are nested."""
    out: list[Mapping[str, Any]] = []
    for c in components:
        if c.get("type") == 12:
            out.append(c)
        out += _galleries(list(c.get("components") or []))
    return out


def _media_urls(components: list[Mapping[str, Any]]) -> list[str]:
    return [
        str((i.get("media") or {}).get("url") or "")
        for g in _galleries(components)
        for i in g.get("items") or []
    ]


def _files_problems(payload: Mapping[str, Any], files: Sequence[tuple[str, int]]) -> list[str]:
    out: list[str] = []
    if len(files) > FILES:
        out.append(f"more than {FILES} files")
    if sum(size for _name, size in files) > FILE_BYTES:
        out.append(f"files larger than {FILE_BYTES} bytes together")
    names = {name for name, _size in files}
    for url in _media_urls(list(payload.get("components") or [])):
        if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
            out.append(f"{url} is not a file sent with the message")
    return out


def _v2_problems(components: list[Mapping[str, Any]]) -> list[str]:
    """A Components V2 layout: 40 components, 4,000 characters of text, media galleries, each control."""
    out: list[str] = []
    for number, gallery in enumerate(_galleries(components), start=1):
        items = list(gallery.get("items") or [])
        if not 1 <= len(items) <= MEDIA_ITEMS:
            out.append(f"media gallery {number}: {len(items)} items (1 to {MEDIA_ITEMS})")
        for item in items:
            url = str((item.get("media") or {}).get("url") or "")
            if not url.startswith(("attachment://", "https://", "http://")):
                out.append(f"media gallery {number}: an item without a file or address")
            if len(item.get("description") or "") > MEDIA_DESCRIPTION:
                out.append(f"media gallery {number}: description longer than {MEDIA_DESCRIPTION}")
    count, text = _v2_walk(components)
    if count > V2_COMPONENTS:
        out.append(f"more than {V2_COMPONENTS} components")
    if text > V2_TEXT:
        out.append(f"text displays longer than {V2_TEXT} in all")
    for number, row in enumerate(_v2_rows(components), start=1):
        out += _row_problems(row, f"layout row {number}")
    return out


def _v2_rows(components: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The action rows of a layout, wherever they are nested."""
    rows: list[Mapping[str, Any]] = []
    for c in components:
        if c.get("type") == 1:
            rows.append(c)
        else:
            rows += _v2_rows(list(c.get("components") or []))
    return rows


def _rows_problems(components: list[Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    if len(components) > ROWS:
        out.append(f"more than {ROWS} rows of components")
    for number, row in enumerate(components, start=1):
        out += _row_problems(row, f"row {number}")
    return out


def _row_problems(row: Mapping[str, Any], where: str) -> list[str]:
    out: list[str] = []
    inner = list(row.get("components") or [])
    selects = [c for c in inner if c.get("type") == 3]
    if len(inner) > PER_ROW or (selects and len(inner) > 1):
        out.append(f"{where}: more than {PER_ROW} buttons, or a select with company")
    for c in inner:
        out += _component_problems(c, where)
    return out
