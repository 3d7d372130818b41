"""The playground's ``--language``, the screenshot script's file names, the README's short "How to play"."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from bot import playground as playground_module
from bot.i18n import LANGUAGES, language_name, texts
from bot.i18n.languages import SERVER
from bot.playground import playground
from bot.presentation.rules_pages import IN_SHORT, WHOLE_RULES, main, readme_section
from tests.cogs.helpers import displayed

ROOT = Path(__file__).resolve().parents[2]


async def test_the_playground_speaks_the_language_asked_for(tmp_path: Path) -> None:
    async with playground(tmp_path / "p.sqlite3", members=3, preview=False, language="ko") as world:
        book, guild = world.bot.languages, world.channel.guild.id
        assert await book.saved(guild, SERVER) == "ko"
        for m in world.members:  # simulated clients say en-US: each member's choice is saved too
            assert await book.member(guild, m.id, "en-US") == "ko"
        ann = world.members[0]
        await ann.slash(world.channel, "flipflop start")
        await world.env.settle()
        lobby = world.channel.history()[0]
        assert displayed(lobby).startswith("### " + texts("ko").gettext("🃏 Flip Flop — table open"))


def test_the_playground_command_line_takes_a_language(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    async def serve(*args: object) -> None:
        seen["args"] = args

    monkeypatch.setattr(playground_module, "serve", serve)
    assert playground_module.main(["--language", "gu", "--db", "x.sqlite3"]) == 0
    assert seen["args"][-3:] == ("gu", None, False)  # type: ignore[index]
    assert playground_module.main(["--cards", "four", "--db", "x.sqlite3"]) == 0
    assert seen["args"][-3:] == (None, "four", False)  # type: ignore[index]
    assert playground_module.main(["--threads", "--db", "x.sqlite3"]) == 0
    assert seen["args"][-3:] == (None, None, True)  # type: ignore[index]
    with pytest.raises(SystemExit):
        playground_module.main(["--language", "xx"])


def test_the_screenshot_script_names_its_files_by_language() -> None:
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "scripts" / "screenshot.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules["screenshot"] = script
    spec.loader.exec_module(script)
    assert script.shot_name("game", None) == "game.png" and script.shot_name("game", "en") == "game.png"
    assert script.shot_name("game", "ko") == "game-ko.png"
    assert script.shot_name("game", None, "four") == "game-four.png"
    assert script.shot_name("game", None, "classic") == "game.png"


def test_the_readme_section_has_every_language_from_the_catalogs() -> None:
    section = readme_section()
    for code in LANGUAGES:
        t = texts(code)
        assert f"#### {language_name(code)}" in section
        assert t.gettext(IN_SHORT) in section
        assert (
            t.gettext(WHOLE_RULES).format(link=f"[docs/HOW_TO_PLAY.md#{code}](docs/HOW_TO_PLAY.md#{code})")
            in section
        )
    assert main(["--readme"]) == section and main([]).startswith("# How to play Flip Flop")
