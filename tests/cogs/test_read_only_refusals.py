"""A refused or failed command says "nothing was changed" only when it could have changed something.

Showing the rules, a member's stats, the leaderboard or the card style changes nothing whatever
happens: its refusals (a member who left, a season that is none, a fault on our side) stop at the
reason. A command that saves, moves or gives chips still says that nothing was changed.
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from discord import app_commands

from bot.client import READS_ONLY, SHOWN_WITHOUT_OPTIONS
from bot.i18n.catalogs import texts
from bot.live.links import SignInRefused
from bot.presentation.refusals import explain
from bot.storage import StoreError
from tests.conftest import World

PHRASES = {
    "en": "nothing was changed",
    "be": "нічога не зменена",
    "fil": "walang binago",
    "gu": "બદલાયું નથી",
    "ko": "아무것도 바뀌지",
    "sw": "hakuna kilichobadilishwa",
}
"""How each language says that nothing was changed."""


def said(result: Any) -> str:
    """A private answer's text."""
    assert result.ephemeral and result.response is not None, result
    return str(result.response.content)


async def test_the_read_only_commands_are_commands(world: World) -> None:
    """A renamed command would silently say "nothing was changed" again: each name is registered."""
    names = {c.qualified_name for c in world.bot.tree.walk_commands()}
    assert READS_ONLY | SHOWN_WITHOUT_OPTIONS <= names and "flipflop admin audit" in names


def stale_choice(world: World, command: str, option: str, value: str) -> None:
    """Discord still offers ``value`` for a top-level command's option, as an older registration did."""
    for registered in world.env.backend.commands.get(None, {}).values():
        if registered["name"] == command:
            for opt in registered.get("options", []):
                if opt["name"] == option:
                    opt["choices"].append({"name": value, "value": value})
                    return
    raise AssertionError(f"no option {option} of {command}")


async def test_a_read_only_refusal_does_not_say_nothing_was_changed_in_any_language(world: World) -> None:
    """An option's value that is not one (a choice Discord still offers) refuses the leaderboard
    without "nothing was changed", in every language; a grant refused the same way still says it."""
    ann = world.members[0]
    stale_choice(world, "leaderboard", "by", "luck")
    for language, phrase in PHRASES.items():
        await ann.slash(world.channel, "flipflop language", language=language)
        board = await ann.slash(world.channel, "leaderboard", by="luck")
        simcord.assert_error(world.env, app_commands.TransformerError)
        assert phrase not in said(board).lower(), (language, said(board))
    assert said(board) == "Mojawapo ya thamani ulizotoa iko nje ya kiwango cha chaguo hilo."
    gone = world.env.create_user("gone")
    granted = await world.admin.slash(world.channel, "chips grant", member=gone, amount=5, reason="x")
    simcord.assert_error(world.env, app_commands.TransformerError)
    assert said(granted).endswith("; nothing was changed.")  # an action: it could have


async def test_a_fault_on_our_side_says_nothing_was_changed_only_for_an_action(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = world.members[0]

    async def broken(*_: object, **__: object) -> None:
        raise StoreError("the database went away")

    monkeypatch.setattr(world.bot.ledger, "balance", broken)
    shown = await ann.slash(world.channel, "balance")
    simcord.assert_error(world.env, app_commands.CommandInvokeError)
    assert said(shown) == "Something went wrong on our side. Please try again."
    monkeypatch.setattr(world.bot.ledger, "claim_daily", broken)
    claimed = await ann.slash(world.channel, "daily")
    simcord.assert_error(world.env, app_commands.CommandInvokeError)
    assert said(claimed) == "Something went wrong on our side; nothing was changed. Please try again."


SIGN_IN_REFUSALS = ("activity_refused", "instance_unknown", "link_expired", "link_forged", "link_used")
"""A sign-in the live page or the Activity refuses: it changes nothing whatever happens."""
CHANGED = {
    **PHRASES,
    "be": "нічога не змянілася",  # the sign-in refusals said it so, not as the commands' "не зменена"
}


@pytest.mark.parametrize("language", sorted(PHRASES))
def test_a_refused_sign_in_stops_at_the_reason(language: str) -> None:
    """A link that is forged, expired or used, or an Activity Discord did not confirm, signs nobody
    in: nothing could have changed, so the refusal says what to do and no more."""
    t = texts(language)
    for code in SIGN_IN_REFUSALS:
        said = explain(SignInRefused(code), t)
        assert said.endswith(".") and not said.endswith(".."), (language, code, said)
        for phrase in {PHRASES[language], CHANGED[language]}:
            assert phrase not in said.lower(), (language, code, said)
    assert "/flipflop web" in explain(SignInRefused("link_used"), t)
