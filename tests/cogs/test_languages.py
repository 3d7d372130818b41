"""``/flipflop language`` and ``/flipflop config language:`` in simcord.

Which ``Texts`` answered is made visible by ``Tagged``: every message it gives starts with
``⟦language⟧``. A private answer must carry the member's language, a public one the server's.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord
import simcord.interactions
from discord import app_commands

from bot.i18n import PSEUDO_LANGUAGE, Texts, texts
from bot.i18n import picker as picker_words
from bot.i18n.languages import SERVER
from bot.i18n.mentions import link_commands
from bot.presentation.refusals import explain
from bot.table.model import TableError
from cogs.flipflop.settings_commands import FOLLOW_CLIENT, LANGUAGE_SHOWN
from tests.cogs.helpers import displayed, table_message
from tests.conftest import World

LOCALES: dict[int, str] = {}
"""Discord client locale per user id (simcord reports en-US for everyone unless told)."""


@pytest.fixture(autouse=True)
def client_locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = LOCALES.get(kwargs["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    LOCALES.clear()
    yield LOCALES
    LOCALES.clear()


class Tagged(Texts):
    """A language's Texts that says which language it is at the start of every message."""

    def gettext(self, message: str) -> str:
        return f"⟦{self.language}⟧{message}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{self.language}⟧{singular if n == 1 else plural}"


@pytest.fixture
def tagged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "bot.i18n.languages.texts", lambda language: Tagged(language, gettext.NullTranslations())
    )


def said(result: Any) -> str:
    assert result.response is not None, result
    return str(result.response.content)


async def test_language_shows_sets_and_goes_back_to_automatic(world: World) -> None:
    ann = world.members[0]
    shown = await ann.slash(world.channel, "flipflop language")
    assert shown.ephemeral
    assert said(shown).splitlines() == [
        link_commands(LANGUAGE_SHOWN["client"]).format(language="English"),  # Discord's en-US is ours
        "Public messages (the table, round logs, results) are in this server's language: English.",
    ]
    chosen = await ann.slash(world.channel, "flipflop language", language="ko")
    ko = texts("ko")
    assert chosen.ephemeral and said(chosen) == ko.gettext(picker_words.SAVED).format(language="한국어")
    assert "한국어" in said(chosen) and "이제부터" in said(chosen)  # answered in the new language
    assert await world.bot.languages.saved(world.guild.id, ann.id) == "ko"
    again = await ann.slash(world.channel, "flipflop language")
    assert said(again).startswith(ko.gettext(LANGUAGE_SHOWN["choice"]).format(language="한국어"))
    back = await ann.slash(world.channel, "flipflop language", language="auto")
    assert back.ephemeral and said(back) == FOLLOW_CLIENT.format(language="English")
    assert await world.bot.languages.saved(world.guild.id, ann.id) is None


async def test_choice_beats_client_beats_server(world: World, client_locales: dict[int, str]) -> None:
    ann, ben, cat = world.members[:3]
    client_locales[ben.id] = "ko"
    client_locales[cat.id] = "de"  # not one of ours
    configured = await world.admin.slash(world.channel, "flipflop config", language="be")
    assert configured.ephemeral and "Беларуская" in said(configured)
    book = world.bot.languages
    assert await book.server(world.guild.id) == "be"
    cat_sees = await cat.slash(world.channel, "flipflop language")
    be = texts("be")
    assert said(cat_sees).startswith(be.gettext(LANGUAGE_SHOWN["server"]).format(language="Беларуская"))
    ben_sees = await ben.slash(world.channel, "flipflop language")
    assert said(ben_sees).startswith(texts("ko").gettext(LANGUAGE_SHOWN["client"]).format(language="한국어"))
    await ben.slash(world.channel, "flipflop language", language="sw")
    assert await book.member(world.guild.id, ben.id, "ko") == "sw"
    cleared = await cat.slash(world.channel, "flipflop language", language="auto")
    assert said(cleared) == be.gettext(picker_words.CLEARED).format(language="Беларуская")
    assert await book.member(world.guild.id, ann.id, "en-US") == "en"


async def test_only_admins_set_the_server_language(world: World) -> None:
    ann = world.members[0]
    refused = await ann.slash(world.channel, "flipflop config", language="ko")
    assert refused.ephemeral
    assert said(refused) == "Only members with the **Manage Server** permission can do that."
    simcord.assert_error(world.env, app_commands.MissingPermissions)
    assert await world.bot.languages.saved(world.guild.id, SERVER) is None
    summary = await world.admin.slash(world.channel, "flipflop config")
    assert "• Language of public messages: **English**" in said(summary)
    await world.admin.slash(world.channel, "flipflop config", language="gu")
    summary = await world.admin.slash(world.channel, "flipflop config")
    assert "ગુજરાતી" in said(summary)


async def test_private_answers_in_the_members_language_public_in_the_servers(
    world: World, tagged: None
) -> None:
    ann, ben = world.members[:2]
    await world.admin.slash(world.channel, "flipflop config", language="be")
    await ann.slash(world.channel, "flipflop language", language="ko")
    assert said(await ann.slash(world.channel, "balance")).startswith("⟦ko⟧You have")
    assert said(await ben.slash(world.channel, "balance")).startswith("⟦en⟧You have")  # client en-US
    claimed = await ann.slash(world.channel, "daily")
    assert not claimed.ephemeral and said(claimed).startswith("⟦be⟧🪙")
    twice = await ann.slash(world.channel, "daily")
    assert twice.ephemeral and said(twice).startswith("⟦ko⟧You've already claimed")
    board = await ben.slash(world.channel, "leaderboard")
    assert board.response is not None and board.response.embeds[0].title.startswith("⟦be⟧")
    assert said(await ann.slash(world.channel, "flipflop hand")).startswith("⟦ko⟧There's no table")
    assert said(await ann.slash(world.channel, "flipflop stats")).startswith("⟦ko⟧")
    assert said(await ben.slash(world.channel, "flipflop config")).startswith("⟦en⟧Only members")
    simcord.assert_error(world.env, app_commands.MissingPermissions)


async def test_a_refusal_arrives_in_the_members_language(world: World) -> None:
    ann, ben = world.members[:2]
    await ben.slash(world.channel, "flipflop language", language="ko")
    await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)
    refused = await ben.slash(world.channel, "flipflop seed", text="mine")
    assert refused.ephemeral
    assert said(refused) == explain(TableError("seed_not_seated"), texts("ko"))
    bad = await ann.slash(world.channel, "flipflop seed", text="x" * 70)
    assert said(bad) == explain(TableError("seed_too_long", length=70, limit=64), texts("en"))


UNMARKED = re.compile(r"[^\W\d_]{2,}")
"""Two letters in a row outside the pseudo-locale's brackets: a word that bypassed the catalogs."""


def unmarked(text: str) -> list[str]:
    """Words outside ⟦…⟧ (innermost first), leaving mentions, timestamps and code spans aside."""
    while (stripped := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = stripped
    text = re.sub(r"<[@#]?[!&]?\d+>|<t:\d+:\w>|`[^`]*`", "", text)
    return UNMARKED.findall(text)


async def test_every_answer_of_these_commands_comes_from_the_catalogs(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.i18n.languages.texts", lambda language: texts(PSEUDO_LANGUAGE))
    ann, ben = world.members[:2]
    asked: list[tuple[Any, str, dict[str, Any]]] = [
        (ann, "flipflop language", {}),
        (ann, "flipflop language", {"language": "be"}),
        (ann, "flipflop language", {"language": "auto"}),
        (world.admin, "flipflop config", {}),
        (world.admin, "flipflop config", {"language": "sw", "turn_seconds": 30}),
        (world.admin, "flipflop config", {"stake": 7, "buy_in": 30}),
        (ben, "flipflop config", {}),
        (ann, "balance", {}),
        (ann, "balance", {"member": ben}),
        (ann, "daily", {}),
        (ann, "daily", {}),
        (ann, "leaderboard", {}),
        (ann, "leaderboard", {"by": "rating"}),
        (ann, "flipflop history", {}),
        (ann, "flipflop stats", {}),
        (ann, "flipflop round", {"id": 5}),
        (ann, "flipflop verify", {"round": 5}),
        (ann, "flipflop hand", {}),
        (ann, "flipflop stop", {}),
        (ann, "flipflop seed", {"text": "hello"}),
        (world.admin, "chips grant", {"member": ben, "amount": 50, "reason": "a prize"}),
        (world.admin, "chips take", {"member": ben, "amount": 10**9, "reason": "too many"}),
        (world.admin, "chips take", {"member": ben, "amount": 5, "reason": "a fine"}),
    ]
    for member, command, options in asked:
        result = await member.slash(world.channel, command, **options)
        response = result.response
        assert response is not None, command
        texts_seen = [response.content or "", displayed(response)]
        for embed in response.embeds:
            texts_seen += [embed.title or "", embed.description or "", embed.footer.text or ""]
        names = r"\b(?:" + "|".join(re.escape(m.name) for m in [*world.members, world.admin]) + r")\b"
        for text in texts_seen:  # a member's name is theirs, not a catalog's (the leaderboard names them)
            assert not unmarked(re.sub(names, "", text)), (command, options, text)
        if member is ben and command == "flipflop config":
            simcord.assert_error(world.env, app_commands.MissingPermissions)


async def test_history_round_stats_and_verify_of_a_played_game_come_from_the_catalogs(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.cogs.test_fair_history import play_game

    ann = world.members[0]
    await play_game(world, world.members[:3], seed_text=None)
    monkeypatch.setattr("bot.i18n.languages.texts", lambda language: texts(PSEUDO_LANGUAGE))
    for command, options in [
        ("flipflop history", {}),
        ("flipflop history", {"member": world.members[1]}),
        ("flipflop round", {"id": 1}),
        ("flipflop verify", {"round": 1}),
        ("flipflop stats", {}),
        ("leaderboard", {"by": "rating"}),
    ]:
        result = await ann.slash(world.channel, command, **options)
        response = result.response
        assert response is not None and (response.content or response.embeds or displayed(response)), command
        shown = [response.content or "", displayed(response)] + [e.description or "" for e in response.embeds]
        assert any("⟦" in text for text in shown), command
        for text in shown:
            assert not unmarked(text), (command, text)


def test_unmarked_finds_words_outside_the_brackets() -> None:
    assert unmarked("⟦Hi {x}⟧ <@12> `/flipflop start` 10♥ 🥇 #3") == []
    assert unmarked("⟦⟦The table is full.⟧ Nothing was changed.⟧") == []
    assert unmarked("🏁 went out — <@1>") == ["went", "out"]


def test_language_options_fit_discord_in_every_language() -> None:
    """Choice names are at most 100 characters; each language is offered once, by its own name."""
    from bot.i18n import LANGUAGES, picker_label
    from cogs.flipflop.settings_commands import LANGUAGE_CHOICES

    assert [c.value for c in LANGUAGE_CHOICES] == list(LANGUAGES)
    for choice in LANGUAGE_CHOICES:
        assert 1 <= len(choice.name) <= 100
    for reader in [*LANGUAGES, PSEUDO_LANGUAGE]:
        for code in LANGUAGES:
            assert 1 <= len(picker_label(code, reader)) <= 100


async def test_a_new_server_language_reaches_open_tables_and_the_answer_says_so(world: World) -> None:
    ann, ben = world.members[:2]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    answer = said(await world.admin.slash(world.channel, "flipflop config", language="gu"))
    assert "tables already open keep theirs" not in answer
    assert answer.startswith(
        "Settings saved. The language and card style of public messages apply at once, at open tables too.\n"
    )
    await ben.click(lobby, label="Join")
    assert "જોડાઓ" in displayed(table_message(world))  # the open lobby reads Gujarati at its next update
    both = said(await world.admin.slash(world.channel, "flipflop config", language="en", daily_amount=50))
    assert both.startswith("Settings saved. New tables use them; tables already open keep theirs.\n")
    assert "at open tables too" in both
    alone = said(await world.admin.slash(world.channel, "flipflop config", daily_amount=60))
    assert "at open tables too" not in alone
