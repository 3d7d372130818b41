"""``/flipflop cards`` and ``/flipflop config cards:``: each reader's card style, saved and used."""

from __future__ import annotations

import re
from typing import Any

import simcord
from discord import app_commands

from bot.cards import SUIT_TEXT
from bot.cards.styles import SERVER
from bot.i18n import texts
from cogs.flipflop.cards import PUBLIC_STYLE, SAVED, SHOWN
from tests.cogs.helpers import my_hand, open_table, picture, table_message
from tests.conftest import World


def flipflop_id(world: World) -> int:
    """The synced id of /flipflop: a command named in a sentence becomes a clickable mention."""
    registered = world.env.backend.commands.get(None, {}).values()
    return next(int(c["id"]) for c in registered if c["name"] == "flipflop")


def said(result: Any) -> str:
    """The answer's text, a command mention (``</flipflop cards:ID>``) read as the typed command."""
    assert result.response is not None, result
    return re.sub(r"</([a-z ]+):\d+>", r"`/\1`", str(result.response.content))


async def test_cards_shows_saves_and_goes_back_to_the_servers_style(world: World) -> None:
    ann = world.members[0]
    shown = await ann.slash(world.channel, "flipflop cards")
    assert shown.ephemeral
    assert shown.response is not None
    mine, public = str(shown.response.content).splitlines()  # as sent: the command as a mention
    typed = SHOWN["server"].format(sample="`A♤` `10♡` `Q♢` `7♧`", style="classic")
    assert mine == typed.replace("`/flipflop cards`", f"</flipflop cards:{flipflop_id(world)}>")
    assert public == PUBLIC_STYLE.format(style="classic")
    chosen = await ann.slash(world.channel, "flipflop cards", style="text")
    assert said(chosen) == SAVED.format(
        sample="ace of spades, 10 of hearts, queen of diamonds, 7 of clubs", style="words for screen readers"
    )
    styles = world.bot.languages.cards
    assert styles is not None and await styles.saved(world.guild.id, ann.id) == "text"
    again = await ann.slash(world.channel, "flipflop cards")
    assert said(again).startswith("Your cards look like this: ace of spades,")
    assert "your own choice" in said(again)
    back = await ann.slash(world.channel, "flipflop cards", style="server")
    assert said(back) == "You now see cards in this server's style: `A♤` `10♡` `Q♢` `7♧` (classic)."
    assert await styles.saved(world.guild.id, ann.id) is None


async def test_a_member_reads_the_words_in_their_language(world: World) -> None:
    ann = world.members[0]
    await ann.slash(world.channel, "flipflop language", language="ko")
    chosen = await ann.slash(world.channel, "flipflop cards", style="text")
    assert "스페이드 에이스, 하트 10, 다이아몬드 퀸, 클로버 7" in said(chosen)
    await ann.slash(world.channel, "flipflop language", language="be")
    again = await ann.slash(world.channel, "flipflop cards")
    assert "туз пік, 10 чырваў, дама бубён, 7 трэф" in said(again)


def stale_choice(world: World, command: str, option: str, value: str) -> None:
    """Discord still offers ``value`` for an option, as an older registration of the command did."""
    for registered in world.env.backend.commands.get(None, {}).values():
        for sub in registered.get("options", []):
            if sub["name"] == command:
                for opt in sub.get("options", []):
                    if opt["name"] == option:
                        opt["choices"].append({"name": value, "value": value})
                        return
    raise AssertionError(f"no option {option} of {command}")


async def test_a_style_that_is_not_one_is_refused_and_changes_nothing(world: World) -> None:
    ann = world.members[0]
    stale_choice(world, "cards", "style", "sparkly")
    stale_choice(world, "config", "cards", "sparkly")
    out_of_range = "One of the values you gave is out of range for that option; nothing was changed."
    refused = await ann.slash(world.channel, "flipflop cards", style="sparkly")
    assert refused.ephemeral and said(refused) == out_of_range
    simcord.assert_error(world.env, app_commands.TransformerError)
    refused = await world.admin.slash(world.channel, "flipflop config", cards="sparkly", stake=7)
    assert refused.ephemeral and said(refused) == out_of_range
    simcord.assert_error(world.env, app_commands.TransformerError)
    styles = world.bot.languages.cards
    assert styles is not None
    assert await styles.saved(world.guild.id, ann.id) is None
    assert await styles.saved(world.guild.id, SERVER) is None
    assert (await world.bot.ledger.settings(world.guild.id)).default_stake != 7


async def test_the_servers_style_is_public_and_each_members_is_private(world: World) -> None:
    ann, ben, cat = world.members[:3]
    configured = await world.admin.slash(world.channel, "flipflop config", cards="text")
    assert "• Cards in public messages: **words for screen readers**" in said(configured)
    await ann.slash(world.channel, "flipflop cards", style="classic")
    table = await open_table(world, [ann, ben, cat])
    assert table.game is not None
    view = table.game.public_view()
    assert view.upcard is not None
    from bot.cards import words

    _url, public = picture(table_message(world))  # the table's picture, said in its alt text
    assert f"upcard {words(view.upcard, texts('en'))}" in public  # the server's style: words
    ann_hand, ben_hand = await my_hand(world, ann), await my_hand(world, ben)
    assert "`" in ann_hand.content and any(s in ann_hand.content for s in SUIT_TEXT.values())
    assert " of " in ben_hand.content and not any(s in ben_hand.content for s in SUIT_TEXT.values())


async def test_card_buttons_show_cards_readably_in_every_style(world: World) -> None:
    ann, ben, cat = world.members[:3]
    await ben.slash(world.channel, "flipflop cards", style="text")
    table = await open_table(world, [ann, ben, cat])
    g = table.game
    assert g is not None
    for member in (ann, ben, cat):
        if str(member.id) == g.to_act:
            hand = await my_hand(world, member)
            drawn = await member.click(hand.message, label="Draw from stock")
            menu = drawn.response
            assert menu is not None
            labels = [
                c["label"]
                for row in menu.components
                for c in (row if isinstance(row, dict) else row.to_dict()).get("components", [])
                if c.get("type") == 2 and ":discard:" in c["custom_id"]
            ]
            assert len(labels) == 6  # the cards are buttons, as text here (no card emojis in this server)
            assert not any(ch in label for label in labels for ch in "♠♣♥♦")  # no suit a client paints black
            if member is ben:
                assert all(" of " in label for label in labels)
            else:
                assert all(label[-1] in SUIT_TEXT.values() for label in labels)
            return
    raise AssertionError("nobody to act")


def deepest_bracket(text: str) -> int:
    """How deep round and square brackets nest in ``text`` ("a (b (c))": 2)."""
    depth = deepest = 0
    for ch in text:
        if ch in "([（":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]）":
            depth -= 1
    return deepest


async def test_no_cards_answer_nests_brackets_in_any_language(world: World) -> None:
    """"Your cards look like this: … (text (words), your own choice)" read badly: every answer of
    ``/flipflop cards`` (shown, saved, back to the server's), whatever the member's and the server's
    style, keeps to one level of brackets, in all six languages."""
    ann = world.members[0]
    answers = []
    for server_style in ("text", "four", "classic"):
        await world.admin.slash(world.channel, "flipflop config", cards=server_style)
        for language in ("en", "be", "fil", "gu", "ko", "sw"):
            await ann.slash(world.channel, "flipflop language", language=language)
            for style in (None, "text", None, "four", None, "classic", None, "server", None):
                options = {} if style is None else {"style": style}
                answers.append(said(await ann.slash(world.channel, "flipflop cards", **options)))
    assert len(answers) == 3 * 6 * 9 and len(set(answers)) > 6 * 9
    for answer in answers:
        assert "{" not in answer and deepest_bracket(answer) <= 1, answer
