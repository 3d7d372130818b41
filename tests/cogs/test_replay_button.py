"""**Watch the replay** (REPLAY_URL): on ``/flipflop round``, on each finished round's record, in
``/flipflop verify``; the link carries the round the page plays, or asks for the attached file."""

from __future__ import annotations

import base64
import json
from typing import Any

import discord

from bot.i18n.catalogs import texts
from bot.presentation.replay_link import LINK_LIMIT, WATCH, packed, replay_link
from bot.settings import load_settings
from engine.replay import replay
from tests.cogs.helpers import displayed, walk
from tests.cogs.test_fair_history import play_game, round_file, shown
from tests.conftest import World

PAGE = "https://cards.example.org/flipflop/replay/"


def link_buttons(message: Any) -> list[dict[str, Any]]:
    """The link buttons of a message (or of an interaction's response), as Discord receives them."""
    assert message is not None
    return [
        c for c in walk(message) if c.get("type") == 2 and c.get("style") == discord.ButtonStyle.link.value
    ]


def unpadded(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


async def test_round_verify_and_records_offer_the_replay_when_the_page_has_an_address(world: World) -> None:
    world.bot.settings = world.bot.settings.model_copy(update={"replay_url": PAGE})
    ann, ben, cat = world.members[:3]
    await play_game(world, [ann, ben, cat], seed_text=None)
    ids = [row[0] for row in await world.bot.db.fetchall("SELECT id FROM rounds ORDER BY id")]
    assert len(ids) >= 2
    answer = await ann.slash(world.channel, "flipflop round", id=ids[0])
    assert answer.ephemeral and answer.response is not None
    [button] = link_buttons(answer.response)
    assert button["label"] == "Watch the replay"
    url = button["url"]
    assert url.startswith(PAGE) and len(url) <= LINK_LIMIT
    data = await round_file(world, ann, ids[0])
    assert data["version"] == 1 and data["number"] == 1 and data["round_id"] == ids[0]
    # names the bot knows (the one asking, the table's while it is open); the page numbers the rest
    assert "ann" in data["names"].values() and set(data["names"].values()) <= {"ann", "ben", "cat"}
    assert replay(data)[1] == 0  # still a transcript engine.replay reads
    assert url == replay_link(PAGE, data, language="en")  # the page speaks the reader's language
    assert url.startswith(PAGE + "#")  # English asks for no language: the link reads as it always has
    if "#b=" in url:  # the whole round rides in the link, exactly as packed from the file
        assert unpadded(url.split("#b=", 1)[1]) == packed(data)
    else:
        assert url == PAGE + "#file"
    # a member who did not play gets the link too (no "Analyse my play")
    other = await world.members[3].slash(world.channel, "flipflop round", id=ids[0])
    [theirs] = link_buttons(other.response)
    assert theirs["url"].startswith(PAGE) and len(theirs["url"]) <= LINK_LIMIT
    verified = await ben.slash(world.channel, "flipflop verify", round=ids[0])
    assert verified.response is not None
    assert "**Watch the replay** (below) → **Verify this deal**" in verified.response.content
    assert "docs/" not in verified.response.content and "python -m" not in verified.response.content
    [verify_link] = link_buttons(verified.response)  # something to open from Discord, not a repository path
    assert verify_link["url"].startswith(PAGE) and len(verify_link["url"]) <= LINK_LIMIT
    # each finished round's record in the channel (the old table message) carries its replay
    records = [m for m in world.channel.history() if "### 🃏 Flip Flop — round" in displayed(m)]
    urls = [b["url"] for m in records for b in link_buttons(m)]
    assert len(urls) == len(ids)  # every round, the last (which ended the game) included
    assert all(u.startswith(PAGE + "#") and len(u) <= LINK_LIMIT for u in urls)  # English: no lang
    # the page speaks the language the bot spoke to whoever clicks: a round's record and /flipflop
    # verify are public (the server's language), /flipflop round answers its reader alone (theirs)
    await world.admin.slash(world.channel, "flipflop config", language="be")
    await ann.slash(world.channel, "flipflop language", language="ko")
    answer = await ann.slash(world.channel, "flipflop round", id=ids[0])
    [button] = link_buttons(answer.response)
    assert button["label"] == texts("ko").gettext(WATCH)
    assert button["url"].startswith(PAGE + "?lang=ko#") and len(button["url"]) <= LINK_LIMIT
    theirs = await ben.slash(world.channel, "flipflop round", id=ids[0])
    [button] = link_buttons(theirs.response)
    assert button["url"].startswith(PAGE + "#")  # ben chose nothing: his Discord's English, no lang
    verified = await ann.slash(world.channel, "flipflop verify", round=ids[0])
    [button] = link_buttons(verified.response)
    assert button["url"].startswith(PAGE + "?lang=be#")  # public: the server's language, not ann's


async def test_without_an_address_there_is_no_replay_button_nor_pointer(world: World) -> None:
    assert world.bot.settings.replay_url is None
    ann, ben, cat = world.members[:3]
    await play_game(world, [ann, ben, cat], seed_text=None)
    answer = await ann.slash(world.channel, "flipflop round", id=1)
    assert link_buttons(answer.response) == []
    verified = await ann.slash(world.channel, "flipflop verify", round=1)
    assert verified.response is not None and "was dealt fairly" in verified.response.content
    assert "Watch the replay" not in verified.response.content
    assert "docs/FAIRNESS.md" not in verified.response.content
    assert "the whole round as a file" in verified.response.content and "python -m engine.fairness" in (
        verified.response.content
    )
    assert "Watch the replay" not in "\n".join(shown(m) for m in world.channel.history())


def test_the_replay_address_setting_takes_an_http_address_only() -> None:
    assert load_settings({"REPLAY_URL": PAGE}, env_file="/nonexistent").replay_url == PAGE
    assert load_settings({"REPLAY_URL": "  "}, env_file="/nonexistent").replay_url is None
    for bad in ("cards.example.org/replay", "ftp://x/replay", PAGE + "#r=abc", "javascript:alert(1)"):
        try:
            load_settings({"REPLAY_URL": bad}, env_file="/nonexistent")
        except Exception as e:  # noqa: BLE001 - the message is what is checked
            assert "REPLAY_URL is not valid" in str(e)
        else:
            raise AssertionError(f"{bad!r} was taken as the replay page's address")


def test_a_link_never_passes_discords_limit() -> None:
    data = json.loads(json.dumps({"version": 1, "stake": 5, "seats": [], "rounds": []}))
    assert LINK_LIMIT == 512
    long_base = "https://example.org/" + "x" * 600
    from tests.browser.replay_rounds import played_round

    round_data = played_round(5, seed=4, interactions=16)
    assert replay_link(long_base, round_data) == long_base + "#file"
    assert len(replay_link(PAGE, round_data)) <= LINK_LIMIT
    assert data["rounds"] == []


def test_the_language_counts_in_the_limit_and_gives_way_to_the_round() -> None:
    from tests.browser.replay_rounds import played_round

    data = played_round(3, seed=11, interactions=2)
    bare = replay_link(PAGE, data)
    assert "lang=" not in bare and "#b=" in bare
    fragment = bare[len(PAGE) :]
    assert replay_link(PAGE, data, language="fil") == PAGE + "?lang=fil" + fragment
    assert replay_link(PAGE, data, len(bare) + len("?lang=fil"), "fil") == PAGE + "?lang=fil" + fragment
    # fits only without the language: the round goes, the page speaks the browser's language
    assert replay_link(PAGE, data, len(bare) + len("?lang=fil") - 1, "fil") == bare
    assert replay_link(PAGE, data, len(bare) - 1, "fil") == PAGE + "?lang=fil#file"
    assert replay_link(PAGE + "?v=2", data, language="ko").startswith(PAGE + "?v=2&lang=ko#b=")
    assert replay_link(PAGE, data, language="en") == bare  # English: the page's own default, no lang
    assert len(replay_link(PAGE, played_round(5, seed=4, interactions=16), language="fil")) <= LINK_LIMIT
