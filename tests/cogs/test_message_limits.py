"""The longest inputs the bot accepts, in every language: every payload within Discord's limits.

Five players with 32-character names, each with a 64-character seed text full
of quotes (the hardest to write on a command line), play a round in each
language; then ``/flipflop verify``, ``round`` and ``history``. Every payload
the bot sends is checked whole by the one checker (``bot.presentation.limits``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord.http import router

from bot.client import fitted
from bot.i18n import LANGUAGES
from bot.presentation.limits import CONTENT, problems, shorten
from cogs.flipflop import history
from tests.cogs.helpers import ShowingView, select_id, selects, table_in, table_message
from tests.cogs.test_languages_game import ops
from tests.conftest import World

NAMES = [
    f"{first}-{'x' * (31 - len(first))}"
    for first in ("Anneliese", "Bartholomew", "Cassiopeia", "Dmitri", "Evangeline")
]
SEEDS = [(f"{i} it's 'quoted' \"twice\" " * 4)[:63] + "." for i in range(5)]
QUOTES = [SEEDS[0]] + ["'" * 64] * 4
"""The worst for a command line: each ' is written '\\'' in it."""


Payload = tuple[str, str, dict[str, Any], list[tuple[str, int]]]


def _sizes(files: Any) -> list[tuple[str, int]]:
    """The (name, bytes) of files as discord.py hands them to the HTTP layer."""
    return [(f.filename, len(f.fp.getvalue())) for f in files or []]


@pytest.fixture
def payloads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Payload]]:
    """Every message payload the bot sends (a callback's ``data``, a send, an edit) and its files."""
    seen: list[Payload] = []
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        if isinstance(body, dict) and method in ("POST", "PATCH"):
            data = body.get("data", body) if "/callback" in path else body
            if isinstance(data, dict):
                seen.append((method, path, data, _sizes(kwargs.get("files"))))
        return original(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    yield seen


@pytest.mark.parametrize("room", [CONTENT, 1000], ids=["2000", "1000"])
@pytest.mark.parametrize("seeds", [SEEDS, QUOTES], ids=["texts", "quotes"])
@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_longest_inputs_stay_within_discords_limits(
    world: World,
    payloads: list[Payload],
    language: str,
    seeds: list[str],
    room: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``room`` 1,000 the verify reply must attach the client seed: the file's path is tested too."""
    monkeypatch.setattr(history, "CONTENT", room)
    assert all(len(s) == 64 for s in seeds) and all(len(n) == 32 for n in NAMES)
    players = [world.guild.add_member(world.env.create_user(name)) for name in NAMES]
    await world.admin.slash(world.channel, "flipflop config", language=language)
    host = players[0]
    lobby = (await host.slash(world.channel, "flipflop start", stake=5, buy_in=100)).response.message
    for p in players[1:]:
        await p.click(lobby, custom_id=ops(lobby)["join"])
    for p, seed in zip(players, seeds, strict=True):
        said = await p.slash(world.channel, "flipflop seed", text=seed)
        assert said.ephemeral
    await host.click(lobby, custom_id=ops(lobby)["start"])
    table = table_in(world)
    assert table is not None and table.game is not None and len(table.seats) == 5
    g = table.game
    to_act = next(p for p in players if str(p.id) == g.to_act)
    hand = (await to_act.click(table_message(world), custom_id=ops(table_message(world))["hand"])).response
    assert hand is not None
    if "drop" in ops(hand):  # the shortest round: a drop at once
        await to_act.click(hand.message, custom_id=ops(hand)["drop"])
    else:
        await to_act.click(hand.message, custom_id=ops(hand)["stock"])
    for _ in range(400):
        if not g.in_round:
            break
        actor = next(p for p in players if str(p.id) == g.to_act)
        hand = (await actor.click(table_message(world), custom_id=ops(table_message(world))["hand"])).response
        assert hand is not None
        move = next(op for op in ("drop", "stock") if op in ops(hand))
        drawn = (await actor.click(hand.message, custom_id=ops(hand)[move])).response
        if move == "stock" and drawn is not None and "discard" in selects(drawn):
            await actor.select(
                drawn.message, [selects(drawn)["discard"][0]], custom_id=select_id(drawn, "discard")
            )
    assert not g.in_round  # round 1 is over: its seeds are revealed
    verified = await players[1].slash(world.channel, "flipflop verify", round=1)
    text = verified.response.content
    assert len(text) <= room and "python -m engine.fairness verify" in text
    assert ("client_seed.txt" in text) or room == CONTENT
    if "client_seed.txt" in text:  # too long to write out: the whole client seed is attached, not shown
        assert '"$(cat client_seed.txt)"' in text and SEEDS[0] not in text
        (attached,) = verified.response.attachments
        assert attached.filename == "client_seed.txt"
    else:
        assert text.count(seeds[0].replace("'", "'\\''")) == 1  # the client seed once, in the command
        assert not verified.response.attachments
    await players[2].slash(world.channel, "flipflop round", id=1)
    await players[3].slash(world.channel, "flipflop history")
    broken = [(method, path, problems(data, files)) for method, path, data, files in payloads]
    assert not [b for b in broken if b[2]]
    pictures = [size for _m, _p, _d, files in payloads for name, size in files if name == "table.png"]
    assert pictures and max(pictures) <= 80_000  # the table's picture went with its edits, and is light


def test_fitted_shortens_what_would_overflow_and_keeps_what_fits() -> None:
    import discord

    embed = discord.Embed(title="t" * 300, description="line\n" * 1000)
    for i in range(30):
        embed.add_field(name=f"field {i}", value="v" * 2000)
    fields = fitted({"content": "word " * 500, "embed": embed})
    sent = {"content": fields["content"], "embeds": [fields["embed"].to_dict()]}
    assert problems(sent) == []
    assert fields["content"].endswith("…") and len(fields["content"]) <= CONTENT
    assert shorten("short", 10) == "short" and fitted({"content": "ok"}) == {"content": "ok"}


def test_the_checker_knows_media_galleries_and_the_files_they_show() -> None:
    def gallery(*items: dict[str, Any]) -> dict[str, Any]:
        return {
            "flags": 1 << 15,
            "components": [{"type": 17, "components": [{"type": 12, "items": list(items)}]}],
        }

    ok = {"media": {"url": "attachment://table.png"}, "description": "x" * 1024}
    assert problems(gallery(ok), [("table.png", 50_000)]) == []
    assert problems(gallery(ok), []) == ["attachment://table.png is not a file sent with the message"]
    long = {"media": {"url": "attachment://table.png"}, "description": "x" * 1025}
    assert problems(gallery(long)) == ["media gallery 1: description longer than 1024"]
    assert problems(gallery()) == ["media gallery 1: 0 items (1 to 10)"]
    assert problems(gallery(*[ok] * 11)) == ["media gallery 1: 11 items (1 to 10)"]
    assert problems(gallery({"media": {"url": ""}})) == ["media gallery 1: an item without a file or address"]
    assert problems(gallery(ok), [("table.png", 11 * 1024 * 1024)]) == [
        f"files larger than {10 * 1024 * 1024} bytes together"
    ]
    assert problems(gallery(ok), [(f"{i}.png", 1) for i in range(11)]) == [
        "more than 10 files",
        "attachment://table.png is not a file sent with the message",
    ]


def test_the_checker_knows_components_v2_and_the_classic_rows() -> None:
    v2 = {"flags": 1 << 15, "components": [{"type": 17, "components": [{"type": 10, "content": "x" * 4001}]}]}
    assert problems(v2) == ["text displays longer than 4000 in all"]
    many = {"flags": 1 << 15, "components": [{"type": 10, "content": "x"} for _ in range(41)]}
    assert problems(many) == ["more than 40 components"]
    row = {"type": 1, "components": [{"type": 2, "custom_id": "ff:x", "label": "b" * 81}] * 6}
    assert "row 1: button label longer than 80" in problems({"components": [row]})
    assert problems({"content": "x" * 2001}) == ["content longer than 2000"]


def _count(components: list[dict[str, Any]]) -> tuple[int, int, list[dict[str, Any]]]:
    """Components (nested ones too), characters of text displays, and every control, counted by hand."""
    count = text = 0
    controls: list[dict[str, Any]] = []
    for c in components:
        count += 1
        if c.get("type") == 10:
            text += len(c["content"])
        if c.get("type") in (2, 3):
            controls.append(c)
        inner = list(c.get("components") or []) + ([c["accessory"]] if c.get("accessory") else [])
        more, chars, found = _count(inner)
        count, text, controls = count + more, text + chars, controls + found
    return count, text, controls


def _within(view: Any, what: str, files: Any = None) -> None:
    """A V2 layout within Discord's limits, counted here and by the one checker (``bot.presentation.limits``).

    ``files``: those sent with it (a table's picture): counted, and each one the layout shows among them.
    """
    components = view.to_components()
    count, text, controls = _count(components)
    assert count <= 40 and text <= 4000, (what, count, text)
    for c in controls:
        assert len(c.get("custom_id", "")) <= 100 and len(c.get("label") or "") <= 80, (what, c)
        assert len(c.get("options") or []) <= 25 and len(c.get("placeholder") or "") <= 150, (what, c)
    assert problems({"flags": 1 << 15, "components": components}, _sizes(files)) == [], what
    for name, size in _sizes(files):
        assert name == "table.png" and 0 < size <= 80_000, (what, size)
    assert view.content_length() <= 4000 and view.total_children_count <= 40, what


def _all_faces() -> Any:
    """Card faces as if every emoji were uploaded (the longest a card can read: ~40 characters)."""
    from bot.cards import CardFaces, all_faces

    faces = CardFaces()
    for i, face in enumerate(all_faces()):
        faces.add(face, 1_456_074_443_980_800_000 + i)
    return faces


async def test_every_table_and_lobby_state_keeps_the_v2_limits_in_every_language_and_style(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lobby (one seat, five, a Play again invitation), a round (away seats, a leaver, long spreads and
    log), between rounds, over, closed and practice: five 32-character names, six languages, three styles."""
    import dataclasses

    from bot.cards import Look
    from bot.i18n import texts
    from cogs.flipflop.screens import closed_screen, current_screen, lobby_screen, table_screen
    from engine import Card
    from engine.view import SpreadView

    faces = _all_faces()
    players = [world.guild.add_member(world.env.create_user(name)) for name in NAMES]
    host = players[0]
    lobby = (await host.slash(world.channel, "flipflop start", stake=5, buy_in=100)).response.message
    table = table_in(world)
    assert table is not None
    looks = [(lang, style) for lang in LANGUAGES for style in ("classic", "four", "text")]
    for lang, style in looks:
        t = texts(lang).with_faces(Look(faces, style))
        _within(lobby_screen(table, t).view, f"empty lobby {lang} {style}")
    for p in players[1:]:
        await p.click(lobby, custom_id=ops(lobby)["join"])
    table.lobby.invited = [9_000_000_000_000_000_000 + i for i in range(40)]
    for lang, style in looks:
        t = texts(lang).with_faces(Look(faces, style))
        _within(lobby_screen(table, t).view, f"full lobby {lang} {style}")
        monkeypatch.setattr(table, "practice", True)
        _within(lobby_screen(table, t).view, f"practice lobby {lang} {style}")
        monkeypatch.setattr(table, "practice", False)
    table.lobby.invited = []
    await host.click(lobby, custom_id=ops(lobby)["start"])
    game = table.game
    assert game is not None and len(table.seats) == 5
    view = game.public_view()
    owner = view.players[0]
    many = tuple(
        SpreadView(i, owner, "run", tuple(Card(r, s) for r in range(1 + i % 4, 10 + i % 4)))
        for i, s in enumerate("CDHSCDHS")
    )
    crowded = dataclasses.replace(
        view,
        spreads=many,
        showings=tuple((p, "flip", Card(13, "H")) for p in view.players),
        card_counts={p: 13 for p in view.players},
    )
    between = dataclasses.replace(crowded, in_round=False)
    over = dataclasses.replace(crowded, in_round=False, over=True)
    table.away = {int(p): 2 for p in view.players[1:3]}
    table.leave_after_round = [int(view.players[3])]
    log = [f"🃏 {NAMES[i % 5]} laid down " + " ".join(f"`{c}`" for c in "A23456789") * 3 for i in range(60)]
    last = "; ".join(f"{name} discarded `K♡`" for name in NAMES) * 3
    for lang, style in looks:
        t = texts(lang).with_faces(Look(faces, style))
        for name, shown in (("playing", crowded), ("between rounds", between), ("over", over)):
            monkeypatch.setattr(table, "game", ShowingView(game, shown))
            shown = table_screen(table, t, last, log)
            _within(shown.view, f"{name} {lang} {style}", shown.attachments)
            shown = table_screen(table, t)
            _within(shown.view, f"{name}, no log {lang} {style}", shown.attachments)
            monkeypatch.setattr(table, "practice", True)
            shown = table_screen(table, t, last, log)
            _within(shown.view, f"practice {name} {lang} {style}", shown.attachments)
            monkeypatch.setattr(table, "practice", False)
        monkeypatch.setattr(table, "status", "closed")
        _within(current_screen(table, t, last, log).view, f"closed {lang} {style}")
        monkeypatch.setattr(table, "status", "playing")
        _within(closed_screen("🃏 " + "x" * 300, "y" * 5000).view, f"a note {lang} {style}")
