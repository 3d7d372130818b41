"""Regenerate the README's screenshots: a game in progress, seen in the playground.

    .venv/bin/python scripts/screenshot.py [--out docs/screenshots] [--language ko] [--cards four]

Plays a few turns with simulated members, then captures simcord's preview
page with headless Chromium (Debian's ``chromium`` package). With ``--language``
the server and members read that language and the files are ``lobby-ko.png``,
``game-ko.png`` (Hangul and Gujarati need ``fonts-noto-cjk`` and ``fonts-noto-core``). With
``--cards`` everyone sees cards in that style (``game-four.png``, ``game-text.png``); without
it, the bot's classic card faces. ``table-phone*.png`` is the table at a phone's 390 pixels.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n import LANGUAGES  # noqa: E402
from bot.playground import playground  # noqa: E402


def find_chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("Chromium is needed: apt-get install chromium")


async def capture(url: str, out: Path, width: int = 1100, height: int = 800) -> None:
    profile = tempfile.mkdtemp(prefix="ff-chromium-")
    proc = await asyncio.create_subprocess_exec(
        find_chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--hide-scrollbars",
        "--virtual-time-budget=20000",
        f"--window-size={width},{height}",
        f"--screenshot={out}",
        url,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await proc.wait()
    shutil.rmtree(profile, ignore_errors=True)
    print(f"wrote {out}")


async def capture_phone(url: str, out: Path, height: int = 1300) -> None:
    """The page as a phone shows it (390 px, a mobile viewport: Playwright driving Debian's chromium)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        try:
            page = await browser.new_page(
                viewport={"width": 390, "height": height}, is_mobile=True, has_touch=True
            )
            await page.goto(url)
            await page.wait_for_timeout(3000)  # the messages and the picture load
            await page.screenshot(path=out)
        finally:
            await browser.close()
    print(f"wrote {out}")


def buttons(message: object) -> dict[str, str]:
    """A button's operation (the last part of its custom id, ``stock``, ``hand``) -> its custom id.

    By operation, not label, so the script plays in every language.
    """
    out: dict[str, str] = {}
    for c in components(message):
        if c.get("type") == 2 and c.get("custom_id"):
            parts = c["custom_id"].split(":")
            out[parts[4] if parts[1] == "a" else parts[3]] = c["custom_id"]
    return out


def components(message: object) -> list[dict[str, Any]]:
    """Every component of a message, nested ones too (the table and lobby are V2 layouts)."""
    out: list[dict[str, Any]] = []

    def visit(c: dict[str, Any]) -> None:
        out.append(c)
        for child in c.get("components") or []:
            visit(child)

    for c in getattr(message, "components", []):
        visit(c if isinstance(c, dict) else c.to_dict())
    return out


def card_buttons(message: object) -> list[str]:
    """The custom ids of a hand's card buttons that discard now (after a draw), in the hand's order."""
    return [
        c["custom_id"]
        for c in components(message)
        if c.get("type") == 2 and ":discard:" in c.get("custom_id", "") and not c.get("disabled")
    ]


def shot_name(name: str, language: str | None, cards: str | None = None) -> str:
    """``game.png``; ``game-ko.png`` for a language other than English, ``game-four.png`` for a card style."""
    tail = "".join(f"-{x}" for x in (language, cards) if x not in (None, "en", "classic"))
    return f"{name}{tail}.png"


async def main(out_dir: Path, language: str | None = None, cards: str | None = None) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shot.sqlite3"
        async with playground(db, members=3, preview=False, language=language, cards=cards) as world:
            ann, ben, cat = world.members
            lobby = (await ann.slash(world.channel, "flipflop start")).response.message
            async with world.env.preview(
                world.channel, viewers=[ann, ben, cat], layout="channel", width=1100, height=800
            ) as pv:
                if cards is None:
                    await capture(pv.url, out_dir / shot_name("lobby", language))
            await ben.click(lobby, custom_id=buttons(lobby)["join"])
            await cat.click(lobby, custom_id=buttons(lobby)["join"])
            await ann.click(lobby, custom_id=buttons(lobby)["start"])
            assert world.bot.runtime is not None
            table = world.bot.runtime.in_channel(world.channel.id)
            assert table is not None and table.game is not None

            def table_message() -> object:
                assert table is not None and table.message_id is not None
                return next(m for m in world.channel.history() if m.id == table.message_id)

            by_id = {str(m.id): m for m in world.members}
            # two ordinary turns, then the next player opens their hand and draws
            for _ in range(2):
                actor = by_id[table.game.to_act]
                hand = (
                    await actor.click(table_message(), custom_id=buttons(table_message())["hand"])
                ).response
                drawn = (await actor.click(hand.message, custom_id=buttons(hand)["stock"])).response
                await actor.click(drawn.message, custom_id=card_buttons(drawn)[-1])  # a click discards it
            actor = by_id[table.game.to_act]
            hand = (await actor.click(table_message(), custom_id=buttons(table_message())["hand"])).response
            await actor.click(hand.message, custom_id=buttons(hand)["stock"])
            others = [m for m in world.members if m is not actor]
            async with world.env.preview(
                world.channel, viewers=[actor, *others], layout="channel", width=1100, height=800
            ) as pv:
                await capture(pv.url, out_dir / shot_name("game", language, cards), 1100, 1000)
            async with world.env.preview(  # the whole table, seen by someone at no seat
                world.channel, viewers=[world.admin], layout="channel", width=1100, height=1300
            ) as pv:
                await capture(pv.url, out_dir / shot_name("table", language, cards), 1100, 1300)
            async with world.env.preview(  # the same on a phone (390 px wide, as the issue measures)
                world.channel, viewers=[world.admin], layout="channel", width=390, height=1300
            ) as pv:
                await capture_phone(pv.url, out_dir / shot_name("table-phone", language, cards))


async def hint_shot(out_dir: Path, tries: int = 12) -> None:
    """A practice table: ann draws on her turn and clicks **Hint**."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        async with playground(Path(tmp) / "hint.sqlite3", members=1, preview=False) as world:
            ann = world.members[0]
            lobby = (await ann.slash(world.channel, "flipflop practice", computers=2)).response.message
            await ann.click(lobby, label="Start")
            assert world.bot.runtime is not None
            table = world.bot.runtime.in_channel(world.channel.id)
            assert table is not None and table.game is not None
            shown = ""
            for _ in range(tries):
                while table.game.in_round and table.game.to_act != str(ann.id):
                    await world.env.advance_time(3)
                if not table.game.in_round:
                    await world.env.advance_time(world.bot.pause_between_rounds + 1)
                    continue
                message = next(m for m in world.channel.history() if m.id == table.message_id)
                hand = (await ann.click(message, label="My hand")).response
                drawn = (await ann.click(hand.message, custom_id=buttons(hand)["stock"])).response
                hint = await ann.click(drawn.message, label="Hint")
                shown = (hint.followups[-1] if hint.followups else hint.response).content
                if any(words in shown for words in ("fits no spread", "Lay down", "Tonk out", "Lay `")):
                    break
                cards = card_buttons(drawn)
                if not cards:
                    break
                await ann.click(drawn.message, custom_id=cards[-1])
            print(shown)
            async with world.env.preview(
                world.channel, viewers=[ann], layout="channel", width=1100, height=900
            ) as pv:
                await capture(pv.url, out_dir / "hint.png", 1100, 900)


async def record_shot(out_dir: Path) -> None:
    """A finished round's record: its log and the picture of every hand and spread."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        async with playground(Path(tmp) / "record.sqlite3", members=3, preview=False) as world:
            ann, ben, cat = world.members
            lobby = (await ann.slash(world.channel, "flipflop start")).response.message
            await ben.click(lobby, custom_id=buttons(lobby)["join"])
            await cat.click(lobby, custom_id=buttons(lobby)["join"])
            await ann.click(lobby, custom_id=buttons(lobby)["start"])
            assert world.bot.runtime is not None
            table = world.bot.runtime.in_channel(world.channel.id)
            assert table is not None and table.game is not None
            by_id = {str(m.id): m for m in world.members}
            while table.game.rounds_played < 2:
                if not table.game.in_round:
                    await world.env.advance_time(world.bot.pause_between_rounds + 1)
                    continue
                actor = by_id[table.game.to_act]  # type: ignore[index]
                message = next(m for m in world.channel.history() if m.id == table.message_id)
                hand = (await actor.click(message, custom_id=buttons(message)["hand"])).response
                if "drop" in buttons(hand) and table.game.view(table.game.to_act).hand_value < 25:  # type: ignore[arg-type]
                    await actor.click(hand.message, custom_id=buttons(hand)["drop"])
                    continue
                drawn = (await actor.click(hand.message, custom_id=buttons(hand)["stock"])).response
                if card_buttons(drawn):  # (drawing the last card of the stock ends the round)
                    await actor.click(drawn.message, custom_id=card_buttons(drawn)[-1])
            await world.env.settle()
            assert any(m.flags.components_v2 for m in world.channel.history())  # the record is there
            async with world.env.preview(  # seen by someone at no seat: no private hands in the way
                world.channel, viewers=[world.admin], layout="channel", width=1100, height=1500
            ) as pv:
                await capture(pv.url, out_dir / "round-end.png", 1100, 1500)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--language", choices=list(LANGUAGES), default=None, help="e.g. ko or gu")
    parser.add_argument("--cards", choices=["classic", "four", "text", "plain"], default=None)
    parser.add_argument("--only-hint", action="store_true", help="only docs/screenshots/hint.png")
    parser.add_argument("--only-record", action="store_true", help="only docs/screenshots/round-end.png")
    args = parser.parse_args()
    if args.only_record:
        asyncio.run(record_shot(args.out))
    elif not args.only_hint:
        asyncio.run(main(args.out, args.language, args.cards))
    if args.language is None and args.cards is None and not args.only_record:
        asyncio.run(hint_shot(args.out))
        asyncio.run(record_shot(args.out))
