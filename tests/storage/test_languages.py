"""Saved language choices on SQLite and PostgreSQL: servers, members, and the order."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.i18n.languages import SERVER, LanguageBook
from bot.storage import IntegrityError, Store

GUILD, OTHER_GUILD, MEMBER = 2**62 + 7, 11, 2**61 + 3


async def test_nothing_saved_means_english_or_the_client_locale(store: Store) -> None:
    book = LanguageBook(store)
    assert await book.server(GUILD) == "en"
    assert await book.member(GUILD, MEMBER, None) == "en"
    assert await book.member(GUILD, MEMBER, "ko") == "ko"  # Discord reports ko
    assert await book.member(GUILD, MEMBER, "pt-BR") == "en"  # not one of ours: the server's


async def test_the_member_choice_comes_first_then_the_client_then_the_server(store: Store) -> None:
    book = LanguageBook(store)
    await book.choose(GUILD, SERVER, "gu")
    assert await book.server(GUILD) == "gu"
    assert await book.member(GUILD, MEMBER, "de") == "gu"
    assert await book.member(GUILD, MEMBER, "ko") == "ko"
    await book.choose(GUILD, MEMBER, "be")
    assert await book.member(GUILD, MEMBER, "ko") == "be"
    assert (await book.member_texts(GUILD, MEMBER, None)).language == "be"
    assert (await book.server_texts(GUILD)).language == "gu"
    assert await book.server(OTHER_GUILD) == "en"  # each server has its own
    fresh = LanguageBook(store)  # saved, not only remembered
    assert await fresh.member(GUILD, MEMBER, None) == "be"
    await fresh.choose(GUILD, MEMBER, None)  # forgetting the choice goes back down the order
    assert await fresh.member(GUILD, MEMBER, None) == "gu"
    assert await LanguageBook(store).saved(GUILD, MEMBER) is None


async def test_an_unknown_language_is_refused_and_nothing_is_saved(store: Store) -> None:
    book = LanguageBook(store)
    with pytest.raises(ValueError):
        await book.choose(GUILD, MEMBER, "xx")
    assert await book.saved(GUILD, MEMBER) is None
    with pytest.raises(IntegrityError):  # the database refuses it too
        async with store.transaction() as tx:
            await tx.execute(
                "INSERT INTO language_choices (guild_id, user_id, language) VALUES (?, ?, ?)",
                (GUILD, MEMBER, "xx"),
            )


async def test_member_source_says_where_the_language_comes_from(store: Store) -> None:
    book = LanguageBook(store)
    assert await book.member_source(GUILD, MEMBER, "de") == "server"  # not ours: the server's
    assert await book.member_source(GUILD, MEMBER, "ko") == "client"
    assert await book.member_source(GUILD, MEMBER, "en-US") == "client"  # Discord's English is ours
    await book.choose(GUILD, MEMBER, "sw")
    assert await book.member_source(GUILD, MEMBER, "ko") == "choice"
    assert await book.member_source(None, MEMBER, "ko") == "client"  # no server: no saved choice


async def test_a_choice_saved_during_a_read_is_not_overwritten_by_that_read(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = LanguageBook(store)
    reading, chosen = asyncio.Event(), asyncio.Event()
    fetchone = store.fetchone

    async def slow_read(*args: Any) -> Any:
        row = await fetchone(*args)  # the old value (nothing saved yet)
        reading.set()
        await chosen.wait()  # the admin's choice lands while this read is in flight
        return row

    monkeypatch.setattr(store, "fetchone", slow_read)
    read = asyncio.create_task(book.server(GUILD))
    await reading.wait()
    monkeypatch.setattr(store, "fetchone", fetchone)
    await book.choose(GUILD, SERVER, "ko")
    chosen.set()
    await read
    assert await book.server(GUILD) == "ko"
