"""Whole games in every language: public words in the server's, private in the member's.

Every payload the bot sends to (simulated) Discord is recorded at simcord's router: message
contents, embeds, button labels, select placeholders and options, public and ephemeral, each
state of each message (not only the last). The pseudo-locale game proves no unmarked text
reaches a player; the per-language games prove who reads which language; every game checks
Discord's length limits. Games are played by custom id, never by label (labels are translated).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import simcord

from bot.i18n import PSEUDO_LANGUAGE, Texts, texts
from bot.i18n.languages import SERVER, LanguageBook
from tests.cogs.helpers import Sent, card_buttons, conserved, highest, table_in, table_message, walk
from tests.conftest import World

LIMITS = {"label": 80, "placeholder": 150, "option": 100, "title": 256, "field_name": 256}
LIMITS |= {"field_value": 1024, "description": 4096, "footer": 2048, "content": 2000}


def ops(msg: Any) -> dict[str, str]:
    """A control's operation (the custom id's last named part) -> its custom id."""
    out: dict[str, str] = {}
    for c in walk(msg):
        cid = c.get("custom_id", "")
        parts = cid.split(":")
        if c.get("disabled"):
            continue
        if cid.startswith(("ff:a:", "ff:s:")):
            out[parts[4]] = cid
        elif cid.startswith(("ff:l:", "ff:t:", "ff:c:")):
            out[parts[3]] = cid
    return out


def option_values(msg: Any, op: str) -> list[str]:
    for c in walk(msg):
        if c.get("type") == 3 and c["custom_id"].endswith(":" + op):
            return [o["value"] for o in c["options"]]
    return []


async def play_game(
    world: World,
    players: list[simcord.MemberActor],
    sent: Sent,
    drop_below: int = 20,
    on_start: Callable[[], Awaitable[None]] | None = None,
    buy_in: int = 20,
) -> dict[int, list[str]]:
    """Open a table and play it to the end by custom ids; each player's private texts are returned.

    A player drops when their hand is worth less than ``drop_below`` (a high value: short rounds).
    """
    host = players[0]
    result = await host.slash(world.channel, "flipflop start", stake=5, buy_in=buy_in)
    lobby = result.response.message
    for p in players[1:]:
        assert (await p.click(lobby, custom_id=ops(lobby)["join"])).acknowledged
    assert (await host.click(lobby, custom_id=ops(lobby)["start"])).acknowledged
    if on_start is not None:
        await on_start()
    private: dict[int, list[str]] = {p.id: [] for p in players}
    for _ in range(3000):
        table = table_in(world)
        if table is None:
            break
        game = table.game
        assert game is not None
        if not game.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        actor = next(m for m in players if str(m.id) == game.to_act)
        sent.edits_private = False
        shown = await actor.click(table_message(world), custom_id=ops(table_message(world))["hand"])
        assert shown.ephemeral and shown.response is not None
        hand = shown.response
        private[actor.id].append(hand.content)
        sent.edits_private = True  # clicks below are on the private hand
        controls = ops(hand)
        if "drop" in controls and game.view(game.to_act).hand_value < drop_below:  # type: ignore[arg-type]
            await actor.click(hand, custom_id=controls["drop"])
        elif "stock" not in controls:  # drawn already: discard
            cards = card_buttons(hand)
            await actor.click(hand.message, custom_id=cards[highest(list(cards))])
        else:
            drawn = (await actor.click(hand, custom_id=controls["stock"])).response
            assert drawn is not None
            private[actor.id].append(drawn.content)
            cards = card_buttons(drawn)
            if cards:
                await actor.click(drawn.message, custom_id=cards[highest(list(cards))])
        sent.edits_private = False
    else:
        raise AssertionError("the game did not end")
    return private


def within_limits(sent: Sent) -> None:
    for _audience, kind, text in sent.texts:
        assert len(text) <= LIMITS[kind], (kind, len(text), text[:120])


_INNER = re.compile(r"⟦[^⟦⟧]*⟧")
ALLOWED = [
    r"`[^`]*`",  # cards, seeds, commands in code spans
    r"<t:\d+:R>|<@\d+>",  # Discord timestamps and mentions
    r"/flipflop \w+",  # command mentions
    r"\b(?:ann|ben|cat|dan|eve|fay|boss)\b",  # player names
    r"\b[0-9a-f]{8}\b",  # table ids
    r"\b(?:10|[2-9AJQK])[♥♦♠♣]",  # card labels in plain text
    r"Flip Flop",  # the game's name
    r"docs/\w+\.md",  # a document's path
]


def unmarked(text: str) -> str:
    """What is left of ``text`` outside ⟦…⟧ and the allowed non-words, as words (empty: all marked)."""
    while _INNER.search(text):
        text = _INNER.sub(" ", text)
    for pattern in ALLOWED:
        text = re.sub(pattern, " ", text)
    return " ".join(re.findall(r"[^\W\d_]{2,}", text))


async def test_pseudo_locale_game_leaves_no_text_outside_the_catalogs(
    world: World, sent: Sent, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def pseudo(self: LanguageBook, *args: Any) -> str:
        return PSEUDO_LANGUAGE

    monkeypatch.setattr(LanguageBook, "server", pseudo)
    monkeypatch.setattr(LanguageBook, "member", pseudo)
    ann, ben, cat, dan = world.members

    async def refusals() -> None:
        """A stranger asks for a hand; a player opens a second hand, which deletes the first."""
        table = table_message(world)
        assert (await dan.click(table, custom_id=ops(table)["hand"])).ephemeral
        game = table_in(world).game  # type: ignore[union-attr]
        actor = next(m for m in (ann, ben, cat) if str(m.id) == game.to_act)  # type: ignore[union-attr]
        first = (await actor.click(table, custom_id=ops(table)["hand"])).response
        second = (await actor.click(table, custom_id=ops(table)["hand"])).response
        assert first is not None and second is not None
        sent.edits_private = True  # the clicks below edit private hands
        await actor.click(second, custom_id=ops(second)["stock"])
        assert first.id not in world.env.backend.messages.get(
            world.channel.id, {}
        )  # the newer one retired it
        sent.edits_private = False

    await play_game(world, [ann, ben, cat], sent, drop_below=30, on_start=refusals)
    assert {aud for aud, _, _ in sent.texts} == {"private", "public"}
    private = " ".join(text for aud, _kind, text in sent.texts if aud == "private")
    assert "⟦You're not playing at this table.⟧" in private
    leaks = {(kind, text) for _aud, kind, text in sent.texts if unmarked(text)}
    assert not leaks, sorted(leaks)[:20]
    within_limits(sent)


def known(t: Texts, msgid: str) -> str:
    """The fixed start of a message in ``t``'s language (up to its first placeholder)."""
    return t.gettext(msgid).split("{", 1)[0]


LONG_ASCII = re.compile(r"[A-Za-z]{4,}")
SCRIPT_LANGUAGES = {"ko", "gu", "be"}


def no_english(text: str) -> list[str]:
    """Runs of 4+ ASCII letters left once names, commands, code spans and markup are taken out."""
    for pattern in ALLOWED:
        text = re.sub(pattern, " ", text)
    return LONG_ASCII.findall(text)


OTHER = {"fil": "ko", "be": "sw", "sw": "gu", "ko": "be", "gu": "fil"}


@pytest.mark.parametrize("language", ["fil", "be", "sw", "ko", "gu"])
async def test_a_whole_game_in_each_language(world: World, sent: Sent, language: str) -> None:
    """Server in ``language``; ann chose another; ben chose the server's; cat has none (en-US client)."""
    ann, ben, cat = world.members[:3]
    book = world.bot.languages
    await book.choose(world.guild.id, SERVER, language)
    await book.choose(world.guild.id, ann.id, OTHER[language])
    await book.choose(world.guild.id, ben.id, language)
    # 8 stakes: enough rounds (each begun by the next player, who drops at once) for every player's turn
    private = await play_game(world, [ann, ben, cat], sent, drop_below=100, buy_in=40)
    await conserved(world)
    reads = {ann.id: texts(OTHER[language]), ben.id: texts(language), cat.id: texts("en")}
    for member, t in reads.items():
        assert private[member], "every player had turns"
        for content in private[member]:
            assert known(t, "**Your hand** (value **{value}**): {cards}") in content
    public_t = texts(language)
    public = [text for aud, _kind, text in sent.texts if aud == "public"]
    assert any(known(public_t, "🏆 **Game over!** Final standings:") in text for text in public)
    if language in SCRIPT_LANGUAGES:
        english = {run for text in public for run in no_english(text)}
        assert not english, sorted(english)
        for member in (ben.id,):
            assert not {run for text in private[member] for run in no_english(text)}
    within_limits(sent)
