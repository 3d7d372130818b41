"""Links to the static replay page (``web/replay/``): the round itself rides in the link's fragment.

The page reads a round from ``#r=`` + base64url(deflate-raw(JSON)). A fragment is never sent to
the server that hosts the page, so the round goes from Discord to the player's browser only.
A link button's url holds at most ``LINK_LIMIT`` characters (discord-api-spec,
``ButtonComponentForMessageRequest.url``: ``maxLength`` 512). A round that does not fit gets the
page's ``#file`` address instead, where the page asks for the JSON file ``/flipflop round``
attaches.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.history import computer_level
from bot.i18n import N_, SOURCE_LANGUAGE, Texts
from bot.presentation.computer_names import computer_name, computer_number

if TYPE_CHECKING:
    from bot.history import RoundStory

LINK_LIMIT = 512
"""Characters in a link button's url (discord-api-spec: ButtonComponentForMessageRequest.url)."""
REPLAY_VERSION = 1
"""The replay format the page reads (``version`` in the file; a newer one is refused there, clearly)."""
ASK_FOR_FILE = "#file"
"""The page's address for a round too long for a link: it asks for the attached file."""


def replay_file(
    transcript: Mapping[str, Any],
    *,
    reveal: Mapping[str, Any] | None,
    names: Mapping[str, str],
    number: int,
    round_id: int | None,
) -> dict[str, Any]:
    """The transcript as ``/flipflop round`` attaches it: still a transcript, plus what the page shows.

    ``engine.replay`` reads it as before (a transcript allows additional keys); the page
    uses ``reveal`` for "Verify this deal", ``names`` for the seats, ``number`` as the
    table's round number.
    """
    out: dict[str, Any] = {"version": REPLAY_VERSION, **transcript, "number": number}
    if round_id is not None:
        out["round_id"] = round_id
    if names:
        out["names"] = dict(names)
    if reveal is not None:
        out["reveal"] = dict(reveal)
    return out


WATCH = N_("Watch the replay")
"""The label of the link button to the page (drawn by the Discord side, ``cogs.flipflop.layout``)."""


class Named(Protocol):
    """A member as the server knows them (a ``discord.Member`` is one)."""

    @property
    def display_name(self) -> str:
        """The name the server shows."""
        ...


class Members(Protocol):
    """Where members' names are looked up (a ``discord.Guild`` is one: its member cache)."""

    def get_member(self, user_id: int, /) -> Named | None:
        """The member with this id, if known."""
        ...


def seat_names(
    members: Mapping[str, int], guild: Members | None, t: Texts, known: Mapping[int, str] | None = None
) -> dict[str, str]:
    """Seat id → the name the page shows: ``🤖 Basic 2`` for a computer, else a display name.

    A computer keeps the number it had at the table: its seat id is ``-n`` for the
    table's n-th computer (``bot.table.transitions.seat_computer``), so two computers
    of one level read apart.

    ``known`` names members the caller knows (the table's own names, the one who asked);
    then the server's member cache. A seat with no name known is left out: the page
    calls it by its seat number.
    """
    out: dict[str, str] = {}
    for seat, member in members.items():
        level = computer_level(member)
        if level is not None:
            out[seat] = computer_name(level, computer_number(seat), t)
            continue
        cached = guild.get_member(member) if guild is not None else None
        name = (known or {}).get(member) or (cached.display_name if cached is not None else None)
        if name:
            out[seat] = name
    return out


def story_file(
    found: RoundStory, guild: Members | None, t: Texts, known: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """A stored round as ``/flipflop round`` attaches it (``replay_file``; ``known`` as in ``seat_names``)."""
    return replay_file(
        found.transcript,
        reveal=found.reveal,
        names=seat_names(found.seated, guild, t, known),
        number=found.number,
        round_id=found.round_id,
    )


def _short_ids(data: Mapping[str, Any]) -> dict[str, Any]:
    """The same round with seat ids ``1``, ``2``, … (a Discord id is 18-20 digits, in every action)."""
    ids = [str(s["id"]) for s in data["seats"]]
    short = {p: str(i + 1) for i, p in enumerate(ids)}

    def action(a: list[Any]) -> list[Any]:
        return [short.get(a[0], a[0]), *a[1:]]

    rounds = []
    for rd in data["rounds"]:
        entry = dict(rd)
        if entry.get("dealer") is not None:
            entry["dealer"] = short[entry["dealer"]]
        entry["actions"] = [action(a) for a in rd["actions"]]
        if "left_before" in entry:
            entry["left_before"] = [short[p] for p in entry["left_before"]]
        rounds.append(entry)
    out = {**data, "seats": [{**s, "id": short[str(s["id"])]} for s in data["seats"]], "rounds": rounds}
    names = data.get("names") or {}
    out["names"] = {short[p]: names[p] for p in ids if p in names}
    return out


def fragment(data: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> str:
    """``#r=`` and a round (or a list of rounds: a game), compact JSON through raw deflate and base64url."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text) + packer.flush()
    return "#r=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def speaking(base_url: str, language: str | None) -> str:
    """The page's address asking it to speak ``language`` (``?lang=ko``, or ``&lang=ko`` after a query).

    English asks nothing: an English server's links read as they always have, and the page then
    speaks the browser's language (English unless the browser's is another of the six).
    """
    base = base_url.split("#", 1)[0]
    if not language or language == SOURCE_LANGUAGE:
        return base
    return f"{base}{'&' if '?' in base else '?'}lang={language}"


def replay_link(
    base_url: str, data: Mapping[str, Any], limit: int = LINK_LIMIT, language: str | None = None
) -> str:
    """The page's address carrying the whole round when it fits in ``limit``, else ``#file``.

    ``language``: the page speaks it (``?lang=``, before the round's ``#`` part), as the bot spoke
    to whoever the link is for. It counts in ``limit``: a round that fits only without it goes
    without it (the page then speaks the browser's language), as the round matters more.
    """
    base = base_url.split("#", 1)[0]
    forms = [fragment(_short_ids(data))]
    compact = binary_fragment(data)
    if compact is not None:
        forms.append(compact)
    shortest = min(forms, key=len)
    page = speaking(base, language)
    for address in (page, base):
        if len(address + shortest) <= limit:
            return address + shortest
    return page + ASK_FOR_FILE


VERBS = ("draw stock", "draw discard", "drop", "leave", "discard", "spread", "layoff")
"""Binary action codes: the verb in the low 3 bits, the seat above them."""
SUITS, RANKS = "CDHS", "A23456789TJQK"
CARD_INDEX = {r + s: i for i, (s, r) in enumerate((s, r) for s in SUITS for r in RANKS)}
"""A card's byte: its position in the notation order of docs/FAIRNESS.md (0 = AC, 51 = KS)."""


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _text(s: str) -> bytes:
    raw = s.encode()
    return _varint(len(raw)) + raw


def _client_seed(seed: str) -> bytes:
    """Interaction ids, each as its difference from the one before, then the players' texts.

    Discord's ids start with the moment they were made, so the ids of one round differ by a
    few seconds' worth: 4 or 5 bytes each instead of 8 (a zigzag varint, as the order of
    arrival is not always the order of the ids). A seed not of that shape goes as plain text.
    """
    ids, colon, texts = seed.partition(":")
    parts = ids.split("-") if ids else []
    if not all(p.isdigit() and p == str(int(p)) and int(p) < 2**64 for p in parts):
        return b"\x00" + _text(seed)
    out = bytearray(b"\x01") + _varint(len(parts))
    previous = 0
    for p in parts:
        step = int(p) - previous
        out += _varint(step * 2 if step >= 0 else -step * 2 - 1)
        previous = int(p)
    return bytes(out) + _text(colon + texts)


DECK_BYTES = 29
"""A deck as its rank among the 52! orders (52! < 2**226): 29 bytes instead of 52."""


def _deck_number(deck: Sequence[str]) -> bytes:
    """The deck's Lehmer code: each card's place among the cards not yet dealt, in notation order."""
    left = list(range(52))
    number = 0
    for code in deck:
        i = left.index(CARD_INDEX[code])
        number = number * len(left) + i
        left.pop(i)
    return number.to_bytes(DECK_BYTES, "big")


def _packed_action(action: Sequence[Any], index: Mapping[str, int]) -> bytes:
    """One recorded action: its seat and verb in one byte, then the cards or spread it names."""
    player, kind = action[0], action[1]
    verb = "draw " + action[2] if kind == "draw" else kind
    out = bytearray([index[player] << 3 | VERBS.index(verb)])
    if kind == "discard":
        out.append(CARD_INDEX[action[2]])
    elif kind == "spread":
        out += bytes([len(action[2]), *(CARD_INDEX[c] for c in action[2])])
    elif kind == "layoff":
        out += bytes([CARD_INDEX[action[2]]]) + _varint(int(action[3]))
    return bytes(out)


def _packed_reveal(reveal: Mapping[str, Any] | None) -> bytes:
    """The round's revealed seeds (a 0 byte while they are still secret)."""
    if reveal is None:
        return b"\x00"
    return (
        b"\x01"
        + bytes.fromhex(reveal["server_seed"])
        + bytes.fromhex(reveal["commitment"])
        + _varint(int(reveal["round"]))
        + _client_seed(reveal["client_seed"])
    )


def _packed_table(data: Mapping[str, Any]) -> bytes:
    """The table before the round: stake, seats' stacks, the three pots, the round's number and id."""
    pots = data.get("pots") or {}
    out = bytearray([REPLAY_VERSION])
    out += _varint(int(data["stake"])) + bytes([len(data["seats"])])
    for s in data["seats"]:
        out += _varint(int(s["stack"]))
    for pot in ("game", "flip", "flop"):
        out += _varint(int(pots.get(pot, 0)))
    out += _varint(int(data.get("number") or 1)) + _varint(int(data.get("round_id") or 0))
    return bytes(out)


def packed(data: Mapping[str, Any]) -> bytes | None:
    """A one-round file (``replay_file``) in the page's binary form, or None if it has no such form."""
    seats = [str(s["id"]) for s in data["seats"]]
    if len(data["rounds"]) != 1 or not 2 <= len(seats) <= 5:
        return None
    index = {p: i for i, p in enumerate(seats)}
    rd = data["rounds"][0]
    out = bytearray(_packed_table(data))
    out += bytes([index[rd["dealer"]]]) + _deck_number(rd["deck"])
    left = rd.get("left_before") or []
    out += bytes([len(left), *(index[p] for p in left)])
    out += _varint(len(rd["actions"]))
    for action in rd["actions"]:
        out += _packed_action(action, index)
    out += _packed_reveal(data.get("reveal"))
    names = data.get("names") or {}
    for p in seats:
        out += _text(names.get(p, "")[:32])
    return bytes(out)


def binary_fragment(data: Mapping[str, Any]) -> str | None:
    """``#b=`` and the round's binary form in base64url (its random seeds and deck would not deflate)."""
    raw = packed(data)
    return None if raw is None else "#b=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
