"""The real bot process against a fake Discord on 127.0.0.1: play, SIGKILL, restart, finish.

Checks that a kill at any of several points loses no chip and applies no
action twice, and that SIGTERM shuts down cleanly (issue: durability).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio

from tests.e2e.fake_discord import CHANNEL_ID, EPHEMERAL, GUILD_ID, THREADS, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {801: "ann", 802: "ben", 803: "cat"}
MINTING = ("starting", "daily", "grant", "take")
CALL_SECONDS = 6.0
"""The bot's ``DISCORD_CALL_SECONDS`` here (10 in production): a hung edit is given up sooner.

Still above discord.py's own waits for the rate limits these tests answer (5 × 0.5 s), and above
the 5 s shutdown drain, so a slow edit at SIGTERM is waited for, not cut, on a busy machine too."""
BACKOFF = (0.1, 1.0)
"""The bot's ``EDIT_BACKOFF_SECONDS`` here ((0.5, 4) in production): the same doubling, compressed."""


class BotProcess:
    """One real ``python -m bot``: started, killed, restarted; its table and chips read from its store.

    ``settings`` are extra environment variables (a shared ``DATABASE_URL``,
    its ``SHARD_IDS``); ``shard`` is the one shard it runs, if sharded; its
    table is the one in ``guild_id``.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        base: str,
        tmp: Path,
        *,
        name: str = "bot",
        settings: dict[str, str] | None = None,
        shard: int | None = None,
        guild_id: int = GUILD_ID,
        channel_id: int = CHANNEL_ID,
    ) -> None:
        self.fake, self.base, self.tmp, self.name = fake, base, tmp, name
        self.db = tmp / "bot.sqlite3"
        self.settings = settings if settings is not None else {"DATABASE_PATH": str(self.db)}
        self.shard, self.guild_id, self.channel_id = shard, guild_id, channel_id
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.since = 0
        """Where this test's part of the latest start's output begins (a process shared by a module)."""

    @property
    def log(self) -> Path:
        """The output of the latest start."""
        return self.tmp / f"{self.name}-{self.starts}.log"

    def output(self) -> str:
        """The latest start's output from ``since`` on: what the process wrote during this test."""
        return self.log.read_text()[self.since :]

    async def join_new_server(self) -> None:
        """The process joins a server of its own for the next test (a shared process: tables apart)."""
        assert self.proc is not None and self.proc.returncode is None, "a test stopped the shared process"
        self.guild_id, self.channel_id = await self.fake.add_guild()
        self.since = len(self.log.read_text())

    async def start(self) -> None:
        self.fake.identified.clear()
        self.fake.synced.clear()
        if self.shard is not None:
            self.fake.shard_ready[self.shard].clear()
        self.starts += 1
        self.since = 0
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DEV_GUILD_ID", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")
        }
        env.update(
            DISCORD_TOKEN="fake-token",
            FLIPFLOP_API_BASE=self.base,
            ROUND_PAUSE_SECONDS="0.3",
            DISCORD_CALL_SECONDS=str(CALL_SECONDS),
            EDIT_BACKOFF_SECONDS=",".join(map(str, BACKOFF)),
            LOG_LEVEL=os.environ.get("LOG_LEVEL", "INFO"),
            # The fake's members join as the test begins (bot.guards): no newcomer wait, no cooldown.
            MIN_ACCOUNT_DAYS="0",
            MIN_MEMBER_DAYS="0",
            TABLE_COOLDOWN_SECONDS="0",
            PYTHONPATH=str(ROOT),
            **self.settings,
        )
        log = open(self.log, "w")  # noqa: SIM115
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.tmp, env=env, stdout=log, stderr=log
        )
        await asyncio.wait_for(self.fake.synced.wait(), 30)
        ready = self.fake.identified if self.shard is None else self.fake.shard_ready[self.shard]
        await asyncio.wait_for(ready.wait(), 30)
        log_path = self.log
        await wait_for(lambda: "Logged in as" in log_path.read_text(), 30)  # on_ready: tables resume
        await asyncio.sleep(0.2)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def terminate(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.proc.wait(), 20)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        con = sqlite3.connect(self.db)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def table(self) -> dict[str, Any] | None:
        rows = self.query(
            "SELECT state FROM tables WHERE status != 'closed' AND guild_id = ?", (self.guild_id,)
        )
        return json.loads(rows[0][0]) if rows else None

    def conserved(self) -> None:
        balances = self.query("SELECT COALESCE(SUM(balance), 0) FROM accounts")[0][0]
        at_tables = self.query("SELECT COALESCE(SUM(chips), 0) FROM tables WHERE status != 'closed'")[0][0]
        minted = self.query(
            f"SELECT COALESCE(SUM(change), 0) FROM ledger WHERE reason IN ({','.join('?' * len(MINTING))})",
            MINTING,
        )[0][0]
        assert balances + at_tables == minted
        for _uid, balance, total in self.query(
            "SELECT a.user_id, a.balance, SUM(l.change) FROM accounts a"
            " JOIN ledger l USING (guild_id, user_id) GROUP BY a.guild_id, a.user_id, a.balance"
        ):
            assert balance == total


@pytest_asyncio.fixture
async def running(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    fake = FakeDiscord()
    base = await fake.start()
    bot = BotProcess(fake, base, tmp_path)
    await bot.start()
    yield fake, bot
    if bot.proc is not None and bot.proc.returncode is None:
        await bot.kill()
    await fake.stop()


def nested(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones (a V2 message's container and rows) included."""
    out: list[dict[str, Any]] = []
    for c in components:
        out += [c, *nested(c.get("components") or [])]
    return out


def control(message: dict[str, Any], suffix: str) -> dict[str, Any] | None:
    """The control whose custom id ends with ``suffix``; for ``:discard``, the first card that discards."""
    for c in nested(message.get("components", [])):
        cid = str(c.get("custom_id", ""))
        a_card = f"{suffix}:" in cid and not cid.endswith(":") and not c.get("disabled")
        if c.get("type") in (2, 3) and (cid.endswith(suffix) or a_card):
            return c
    return None


async def hand_of(fake: FakeDiscord, bot: BotProcess, uid: int) -> dict[str, Any]:
    state = bot.table()
    assert state is not None
    # as in a real client, the button can be clicked once the table message shows it
    await wait_for(lambda: control(fake.messages[bot.table()["message_id"]], ":hand") is not None)  # type: ignore[index]
    table_message = fake.messages[bot.table()["message_id"]]  # type: ignore[index]
    info = await fake.click(uid, PLAYERS[uid], table_message, f"ff:t:{state['id']}:hand")
    return fake.message_of(info)


async def act(
    fake: FakeDiscord, uid: int, message: dict[str, Any], suffix: str, pick: int = 0
) -> dict[str, Any]:
    c = control(message, suffix)
    assert c is not None, f"no {suffix} control in {message['content']!r}"
    values = [c["options"][pick]["value"]] if c.get("type") == 3 else None
    info = await fake.click(uid, PLAYERS[uid], message, c["custom_id"], values)
    return fake.messages[int(info["message_id"])]


def to_act(bot: BotProcess) -> int | None:
    state = bot.table()
    if state is None or state["game"] is None or state["game"]["round"] is None:
        return None
    r = state["game"]["round"]
    return int(r["players"][r["turn"]]) if r["end"] is None else None


async def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out waiting")


async def open_game(fake: FakeDiscord, bot: BotProcess, buy_in: int = 20) -> None:
    """ann, ben and cat at a table of stake 5 (stacks of 20 by default: a game of a few rounds)."""
    channel = bot.channel_id
    info = await fake.slash(801, "ann", "flipflop", "start", channel_id=channel, stake=5, buy_in=buy_in)
    lobby = fake.message_of(info)
    assert "table open" in json.dumps(lobby["components"])
    await fake.click(802, "ben", lobby, control(lobby, ":join")["custom_id"])  # type: ignore[index]
    await fake.click(803, "cat", lobby, control(lobby, ":join")["custom_id"])  # type: ignore[index]
    await fake.click(801, "ann", lobby, control(lobby, ":start")["custom_id"])  # type: ignore[index]
    await wait_for(lambda: to_act(bot) is not None)


async def play_turn(
    fake: FakeDiscord,
    bot: BotProcess,
    kill_after_draw: bool = False,
    may_drop: bool = True,
    drop_at: int = 15,
) -> None:
    """One turn of the member to act: drop with a hand worth ``drop_at`` or less, else draw and discard."""
    uid = to_act(bot)
    assert uid is not None
    hand = await hand_of(fake, bot, uid)
    value = int(hand["content"].split("value **")[1].split("**")[0])
    if value <= drop_at and control(hand, ":drop") is not None and may_drop and not kill_after_draw:
        await act(fake, uid, hand, ":drop")
        return
    stale = json.loads(json.dumps(hand))  # the message as the player's client still shows it
    hand = await act(fake, uid, hand, ":stock")
    if kill_after_draw:
        before = bot.table()
        await bot.kill()
        await bot.start()
        after = bot.table()
        assert after is not None and before is not None and after["seq"] == before["seq"]
        assert after["game"]["round"]["hands"] == before["game"]["round"]["hands"]
        # the old draw button must not draw again
        refused = await fake.click(uid, PLAYERS[uid], stale, control(stale, ":stock")["custom_id"])  # type: ignore[index]
        assert "earlier turn" in fake.message_of(refused)["content"]
        assert bot.table()["game"]["round"]["hands"] == before["game"]["round"]["hands"]  # type: ignore[index]
        bot.conserved()
    cards = [
        c
        for row in hand.get("components", [])
        for c in row.get("components", [])
        if ":discard:" in str(c.get("custom_id", "")) and not c.get("disabled")
    ]
    if cards:  # after the draw, a click on a card discards it
        await fake.click(uid, PLAYERS[uid], hand, cards[0]["custom_id"])


async def test_crash_mid_turn_after_a_pot_and_between_rounds_then_finish(running: Any) -> None:
    fake, bot = running
    await open_game(fake, bot)
    bot.conserved()
    await play_turn(fake, bot, kill_after_draw=True)  # killed mid-turn
    killed_after_pot = killed_between_rounds = stopping = False
    # Deals come from fresh seeds (docs/FAIRNESS.md), so a game's length varies: 36 stock turns
    # a round, often several rounds (36 rounds seen). Once both kills are done the host stops it.
    for _ in range(8000):
        state = bot.table()
        if state is None:
            break
        g = state["game"]
        r = g["round"]
        if killed_after_pot and killed_between_rounds and not stopping and r is not None and r["end"] is None:
            host = int(state["host_id"])  # ann's, unless she is out of chips: the host moved on
            await fake.slash(host, PLAYERS[host], "flipflop", "stop", channel_id=bot.channel_id)
            stopping = True
        if r is not None and r["end"] is None and r["flipflop_paid"] and not killed_after_pot:
            await bot.kill()  # right after the flip and flop were paid
            await bot.start()
            killed_after_pot = True
            bot.conserved()
            continue
        if r is not None and r["end"] is not None:
            if not killed_between_rounds:
                await bot.kill()  # between rounds: the next deal must still come
                await bot.start()
                killed_between_rounds = True
                bot.conserved()
            await wait_for(lambda: bot.table() is None or to_act(bot) is not None, 15)
            continue
        await play_turn(fake, bot)
        bot.conserved()
    else:
        raise AssertionError("the game did not end")
    assert killed_after_pot and killed_between_rounds
    bot.conserved()
    balances = dict(bot.query("SELECT user_id, balance FROM accounts"))
    assert sum(balances.values()) == 3000
    check_rounds_chain(bot, bot.query("SELECT table_id FROM tables")[0][0])
    await wait_for(lambda: any("Game over!" in m["content"] for m in list(fake.messages.values())))
    # the rounds' records carry their pictures: sent as multipart, read by the fake as Discord reads them
    attached = [a for m in list(fake.messages.values()) for a in m["attachments"]]
    pictures = [a for a in attached if a["filename"].endswith(".png")]
    assert pictures and all(fake.uploads[int(a["id"])].startswith(b"\x89PNG") for a in pictures)


async def test_a_game_in_a_thread_survives_kills_and_ends_on_its_lobby(running: Any) -> None:
    """The bot may open threads: the game is played in one, killed mid-turn and between rounds."""
    fake, bot = running
    fake.app_permissions |= THREADS

    def in_channel() -> int:
        return sum(
            1
            for m in list(fake.messages.values())
            if int(m["channel_id"]) == CHANNEL_ID and not m["flags"] & EPHEMERAL
        )

    await open_game(fake, bot)

    def placed_in_thread() -> bool:  # the deal is saved first; the thread and its table message follow
        now = bot.table()
        return (
            now is not None and now["thread_id"] is not None and now["message_id"] != now["lobby_message_id"]
        )

    await wait_for(placed_in_thread)
    state = bot.table()
    assert state is not None and state["thread_id"] is not None
    thread, lobby = int(state["thread_id"]), int(state["lobby_message_id"])
    assert fake.threads[thread]["parent"] == CHANNEL_ID and len(fake.threads[thread]["name"]) <= 100
    assert int(fake.messages[state["message_id"]]["channel_id"]) == thread  # the table is in the thread
    before = in_channel()
    await play_turn(fake, bot, kill_after_draw=True)  # killed mid-turn
    killed_between_rounds = stopping = False
    for _ in range(8000):
        state = bot.table()
        if state is None:
            break
        r = state["game"]["round"]
        if r is not None and r["end"] is not None:
            if not killed_between_rounds:
                await bot.kill()  # between rounds: the next deal must still come, in the thread
                await bot.start()
                killed_between_rounds = True
                bot.conserved()
            await wait_for(lambda: bot.table() is None or to_act(bot) is not None, 15)
            continue
        if killed_between_rounds and not stopping:  # dealt again in the thread after the kill: the host
            # stops the game after this round (a game left to its end ran 36 rounds, 270 s, now and then)
            host = int(state["host_id"])  # ann's, unless she is out of chips: the host moved on
            asked = await fake.slash(host, PLAYERS[host], "flipflop", "stop", channel_id=CHANNEL_ID)
            said = fake.message_of(asked)  # the host's alone; the game's thread is told, the channel nothing
            assert said["flags"] & EPHEMERAL and "will stop the game" in said["content"], said
            await wait_for(
                lambda: any(
                    int(m["channel_id"]) == thread and "will stop the game" in json.dumps(m)
                    for m in list(fake.messages.values())
                )
            )
            stopping = True
        await play_turn(fake, bot)
        bot.conserved()
    else:
        raise AssertionError("the game did not end")
    assert killed_between_rounds and stopping
    bot.conserved()
    assert sum(dict(bot.query("SELECT user_id, balance FROM accounts")).values()) == 3000
    await wait_for(lambda: "Final standings" in json.dumps(fake.messages[lobby]["components"]))
    assert f"<#{thread}>" in json.dumps(fake.messages[lobby]["components"])  # the lobby links the thread
    assert in_channel() == before  # not one new message in the channel while the game ran in its thread
    await wait_for(lambda: fake.threads[thread]["archived"])


def check_rounds_chain(bot: BotProcess, table_id: str) -> None:
    """Every action appears once: the table's stored rounds replay one after another to its final stacks."""
    final = json.loads(bot.query("SELECT state FROM tables WHERE table_id = ?", (table_id,))[0][0])["game"]
    from engine.replay import replay

    numbers: list[int] = []
    carried: tuple[dict[str, int], dict[str, int]] | None = None
    for number, text in bot.query(
        "SELECT number, transcript FROM rounds WHERE table_id = ? ORDER BY id", (table_id,)
    ):
        transcript = json.loads(text)
        start = {s["id"]: s["stack"] for s in transcript["seats"] if not s["id"].startswith("~")}
        if carried is not None:
            stacks, pots = carried
            assert start == {p: stacks[p] for p in start} and transcript["pots"] == pots
        result, status = replay(transcript)
        assert status == 0, result
        carried = (result["stacks"], result["pots"])
        numbers.append(number)
    assert numbers == list(range(1, len(numbers) + 1)) and carried is not None
    stacks, pots = carried
    if final["over"] and any(pots.values()):
        # R8.3: a game that ends (here often by the host's stop) with chips in its pots splits them among
        # those seated; that share is no round's, so it is added to the last round's stacks here.
        from engine.game import Game

        ended = Game.restore(final)
        ended.stacks = {**ended.stacks, **stacks}
        ended.pots = dict(pots)  # type: ignore[assignment]
        stacks = {**stacks, **ended.settlement_if_closed()}
    assert {p: v for p, v in stacks.items() if not p.startswith("~")} == {
        p: final["stacks"][p] for p in stacks if not p.startswith("~")
    }


async def test_sigterm_shuts_down_cleanly_and_the_table_resumes(running: Any) -> None:
    fake, bot = running
    await open_game(fake, bot)
    await play_turn(fake, bot, may_drop=False)  # a plain turn: the round goes on
    before = bot.table()
    assert before is not None
    mid = before["message_id"]

    def edits() -> int:
        return len([r for r in fake.requests if r.startswith("PATCH") and f"/messages/{mid} " in r])

    edited, before_ids = edits(), set(fake.messages)
    assert await bot.terminate() == 0
    assert "Database closed" in bot.log.read_text()
    wal = Path(str(bot.db) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed and closed
    assert bot.query("PRAGMA integrity_check") == [("ok",)]
    await bot.start()
    after = bot.table()
    assert after is not None and before is not None
    assert after["game"] == before["game"] and after["seq"] == before["seq"]
    # the table message is brought up to date by one edit after the restart (it reads as before:
    # its log is saved with the table); the table is not posted again
    await wait_for(lambda: edits() > edited)
    assert after["message_id"] == mid
    new = [m for mid_, m in fake.messages.items() if mid_ not in before_ids]
    assert not [m for m in new if "📜" in json.dumps(m["components"], ensure_ascii=False)]
    bot.conserved()


async def test_logs_in_and_syncs_commands(running: Any) -> None:
    fake, bot = running
    names = {c["name"] for c in fake.commands}
    assert {"flipflop", "balance", "daily", "leaderboard", "chips"} <= names
    info = await fake.slash(801, "ann", "flipflop", "config")
    assert info["responses"][0]["data"]["flags"] & 64  # ephemeral refusal: ann lacks Manage Server
    assert "Logged in as FlipFlop" in (bot.tmp / "bot-1.log").read_text()


async def test_a_server_that_keeps_games_in_the_channel_gets_no_thread_across_a_kill(running: Any) -> None:
    """``/flipflop config tables:channel`` as stored (migration 8): the real process opens no thread."""
    fake, bot = running
    fake.app_permissions |= THREADS  # the bot may open threads; the server said no
    con = sqlite3.connect(bot.db)
    with con:
        con.execute(
            "INSERT INTO guild_settings VALUES (?, 1000, 200, 5, 200, 60, 1, 'channel', 2)",
            (bot.guild_id,),
        )
    con.close()
    await open_game(fake, bot)
    state = bot.table()
    assert state is not None and state["thread_id"] is None and state["away_rounds"] == 2
    assert fake.threads == {}
    assert int(fake.messages[state["message_id"]]["channel_id"]) == CHANNEL_ID
    await play_turn(fake, bot, kill_after_draw=True)  # killed mid-turn: it resumes in the channel
    await play_turn(fake, bot)
    state = bot.table()
    assert state is not None and state["thread_id"] is None and fake.threads == {}
    bot.conserved()
