"""``LIVE_KEY``: the key the live table's one-time links are signed with (README "Settings").

Set, a link sent before a restart still signs its member in after it (the next process has the
same key); blank, every start draws a new key, so a link from before does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import live_server
from bot.live.links import Pass, SignInRefused
from bot.settings import load_settings

WHO = Pass(user_id=7, guild_id=8, table_id="t1", language="en")
LIVE = {"DISCORD_TOKEN": "x", "LIVE_URL": "https://cards.example.org/"}


def test_the_same_live_key_keeps_a_link_working_across_a_restart(tmp_path: Path) -> None:
    settings = load_settings({**LIVE, "LIVE_KEY": "a key the operator keeps"}, tmp_path / "none")
    before, after = live_server(settings, None), live_server(settings, None)
    assert after.url == "https://cards.example.org/"
    assert after.links.redeem(before.links.mint(WHO)) == WHO
    other = load_settings({**LIVE, "LIVE_KEY": "another key"}, tmp_path / "none")
    with pytest.raises(SignInRefused):
        live_server(other, None).links.redeem(before.links.mint(WHO))


def test_without_a_live_key_each_start_signs_with_a_new_key(tmp_path: Path) -> None:
    settings = load_settings(LIVE, tmp_path / "none")
    assert settings.live_key is None
    before, after = live_server(settings, None), live_server(settings, None)
    assert before.links.redeem(before.links.mint(WHO)) == WHO
    with pytest.raises(SignInRefused):
        after.links.redeem(before.links.mint(WHO))
