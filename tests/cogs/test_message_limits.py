"""The longest inputs the bot accepts, in every language: every payload within Discord's limits.

Five players with 32-character names, each with a 64-character seed text full
of quotes (the hardest to write on a command line), play a round in each
language; then ``/flipflop verify``, ``round`` and ``history``. Every payload
the bot sends is checked whole by the one checker (``bot.limits``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord.http import router

from bot.i18n import LANGUAGES
from bot.limits import CONTENT, fitted, problems, shorten
from cogs.flipflop import history
from tests.cogs.helpers import select_id, selects, table_in, table_message
from tests.cogs.test_languages_game import ops
from tests.conftest import World

NAMES = [
    f"{first}-{'x' * (31 - len(first))}"
    for first in ("Anneliese", "Bartholomew", "Cassiopeia", "Dmitri", "Evangeline")
]
SEEDS = [(f"{i} it's 'quoted' \"twice\" " * 4)[:63] + "." for i in range(5)]
QUOTES = [SEEDS[0]] + ["'" * 64] * 4
"""The worst for a command line: each ' is written '\\'' in it."""


@pytest.fixture
def payloads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str, dict[str, Any]]]]:
    """Every message payload the bot sends (a callback's ``data``, a send, an edit)."""
    seen: list[tuple[str, str, dict[str, Any]]] = []
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        if isinstance(body, dict) and method in ("POST", "PATCH"):
            data = body.get("data", body) if "/callback" in path else body
            if isinstance(data, dict):
                seen.append((method, path, data))
        return original(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    yield seen


@pytest.mark.parametrize("room", [CONTENT, 1000], ids=["2000", "1000"])
@pytest.mark.parametrize("seeds", [SEEDS, QUOTES], ids=["texts", "quotes"])
@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_longest_inputs_stay_within_discords_limits(
    world: World,
    payloads: list[tuple[str, str, dict[str, Any]]],
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
    assert len(text) <= room and "python -m engine.fairness deck" in text
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
    broken = [(method, path, problems(data)) for method, path, data in payloads if problems(data)]
    assert not broken


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


def test_the_checker_knows_components_v2_and_the_classic_rows() -> None:
    v2 = {"flags": 1 << 15, "components": [{"type": 17, "components": [{"type": 10, "content": "x" * 4001}]}]}
    assert problems(v2) == ["text displays longer than 4000 in all"]
    many = {"flags": 1 << 15, "components": [{"type": 10, "content": "x"} for _ in range(41)]}
    assert problems(many) == ["more than 40 components"]
    row = {"type": 1, "components": [{"type": 2, "custom_id": "ff:x", "label": "b" * 81}] * 6}
    assert "row 1: button label longer than 80" in problems({"components": [row]})
    assert problems({"content": "x" * 2001}) == ["content longer than 2000"]
