"""Commands named in sentences become Discord command mentions once the synced ids are known."""

from __future__ import annotations

import contextvars
import re

import pytest
from babel.messages.pofile import read_po

from bot.i18n import texts
from bot.i18n.languages import LANGUAGES
from bot.i18n.mentions import COMMANDS, TYPED, link_commands, mention
from tests.bot.test_new_user_words import ROOT
from tests.conftest import World

IDS = {
    "flipflop": "</flipflop:11>",
    "flipflop start": "</flipflop start:11>",
    "flipflop round": "</flipflop round:11>",
    "flipflop admin tables": "</flipflop admin tables:11>",
    "chips grant": "</chips grant:22>",
}


def test_a_typed_command_becomes_a_mention_and_keeps_its_options_as_code() -> None:
    assert link_commands("Open one with `/flipflop start`.", IDS) == "Open one with </flipflop start:11>."
    assert link_commands("`/flipflop round id:7` tells it", IDS) == "</flipflop round:11> `id:7` tells it"
    assert link_commands("See `/flipflop admin tables`.", IDS) == "See </flipflop admin tables:11>."
    assert link_commands("top it up with `/chips grant` to the bot", IDS).endswith(
        "</chips grant:22> to the bot"
    )


def test_without_ids_or_for_an_unknown_command_the_typed_name_stays() -> None:
    assert link_commands("Open one with `/flipflop start`.", {}) == "Open one with `/flipflop start`."
    assert link_commands("`/nothing here` and `code`", IDS) == "`/nothing here` and `code`"
    assert mention("flipflop history", {}) == "`/flipflop history`"
    assert mention("flipflop start", IDS) == "</flipflop start:11>"
    assert link_commands("no command at all: `K♠︎`", IDS) == "no command at all: `K♠︎`"


def test_texts_link_commands_only_where_the_ids_were_remembered() -> None:
    t = texts("en")
    message = "There's no table in this channel. Open one with `/flipflop start`."
    assert t.gettext(message) == message  # no bot has synced here

    def synced() -> str:
        COMMANDS.set(IDS)
        return t.gettext(message)

    assert contextvars.copy_context().run(synced).endswith("</flipflop start:11>.")
    assert t.gettext(message) == message  # another bot (another context) is not affected


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_catalog_keeps_the_typed_commands_of_its_message(language: str) -> None:
    """A translation keeps `` `/flipflop …` `` as typed, so it too becomes a mention."""
    with (ROOT / "locales" / language / "LC_MESSAGES" / "flipflop.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    checked = 0
    for m in catalog:
        mid = m.id if isinstance(m.id, str) else (m.id[0] if m.id else "")
        if not mid or m.context:
            continue
        wanted = {match.group(1) for match in TYPED.finditer(mid)}
        if wanted:
            said = m.string if isinstance(m.string, str) else m.string[0]
            assert wanted == {match.group(1) for match in TYPED.finditer(said)}, (mid, said)
            checked += 1
    assert checked >= 15


async def test_a_reply_names_the_command_as_a_clickable_mention(world: World) -> None:
    ann = world.members[0]
    answer = await ann.slash(world.channel, "flipflop hand")
    said = answer.response.content
    assert re.search(r"Open one with </flipflop start:\d+>\.", said), said
    [flipflop] = [c for c in await world.bot.tree.fetch_commands() if c.name == "flipflop"]
    assert f"</flipflop start:{flipflop.id}>" in said


async def test_the_first_hand_tip_names_the_rules_by_mention(world: World) -> None:
    from tests.cogs.helpers import my_hand, open_table

    await open_table(world, world.members[:3])
    hand = await my_hand(world, world.members[0])
    assert re.search(r"</flipflop rules:\d+> explains it all", hand.content), hand.content
