"""The fake Discord reads what discord.py sends as Discord does, and its own failures fail a test.

discord.py posts a message with files as ``multipart/form-data`` (the JSON in
``payload_json``, each file in ``files[n]``); the fake must read that as it reads
JSON, or a round record with its picture would get a 500 the bot shrugs off.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from types import SimpleNamespace

import aiohttp
import discord
import discord.http
import pytest
import pytest_asyncio

from tests.e2e.fake_discord import CHANNEL_ID, FakeDiscord

PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


@pytest_asyncio.fixture
async def http(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[FakeDiscord, discord.http.HTTPClient]]:
    """discord.py's own REST client, logged in to a fake Discord."""
    fake = FakeDiscord()
    base = await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{base}/api/v10")
    client = discord.http.HTTPClient(loop=asyncio.get_running_loop())
    await client.static_login("fake-token")
    yield fake, client
    await client.close()
    await fake.stop()


def params(**kwargs: object) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(**kwargs)  # type: ignore[arg-type]


async def test_a_message_posted_with_a_file_carries_it_as_an_attachment(
    http: tuple[FakeDiscord, discord.http.HTTPClient],
) -> None:
    fake, client = http
    with params(content="round 1", file=discord.File(io.BytesIO(PICTURE), "round-1.png")) as p:
        sent = await client.send_message(CHANNEL_ID, params=p)
    assert fake.server_errors == []
    message = fake.messages[int(sent["id"])]
    assert message["content"] == "round 1"
    [attachment] = message["attachments"]
    assert attachment["filename"] == "round-1.png" and attachment["size"] == len(PICTURE)
    assert fake.uploads[int(attachment["id"])] == PICTURE
    assert sent["attachments"] == message["attachments"]  # what discord.py reads back


async def test_a_multipart_edit_replaces_the_picture_and_keeps_what_it_names(
    http: tuple[FakeDiscord, discord.http.HTTPClient],
) -> None:
    fake, client = http
    with params(content="round 1", file=discord.File(io.BytesIO(b"first"), "first.png")) as p:
        sent = await client.send_message(CHANNEL_ID, params=p)
    mid = int(sent["id"])
    # the Attachment discord.py builds from the answer (its state only lends it the HTTP client)
    first = discord.Attachment(data=sent["attachments"][0], state=SimpleNamespace(http=client))  # type: ignore[arg-type]
    # the record's edit: new text and a second picture, the first one kept
    with params(
        content="round 1, ended", attachments=[first, discord.File(io.BytesIO(PICTURE), "end.png")]
    ) as p:
        edited = await client.edit_message(CHANNEL_ID, mid, params=p)
    assert fake.server_errors == []
    names = [a["filename"] for a in fake.messages[mid]["attachments"]]
    assert names == ["first.png", "end.png"] and edited["content"] == "round 1, ended"
    assert fake.uploads[int(fake.messages[mid]["attachments"][1]["id"])] == PICTURE
    # an edit that lists none removes them, as in Discord
    with params(content="no picture", attachments=[]) as p:
        await client.edit_message(CHANNEL_ID, mid, params=p)
    assert fake.messages[mid]["attachments"] == []
    assert fake.edits[mid] and len(fake.edits[mid]) == 2


async def test_a_request_the_fake_fails_on_is_kept_as_a_server_error(
    http: tuple[FakeDiscord, discord.http.HTTPClient],
) -> None:
    fake, _client = http
    async with aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{fake.port}/api/v10/channels/{CHANNEL_ID}/messages"
        async with session.post(url, data=b"not json", headers={"Content-Type": "application/json"}) as r:
            assert r.status == 500
    [error] = fake.server_errors
    assert error.startswith(f"POST /api/v10/channels/{CHANNEL_ID}/messages") and "Traceback" in error
    fake.server_errors.clear()  # seen here on purpose: the autouse check must not fail this test
