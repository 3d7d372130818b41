"""The live table over real HTTP and WebSockets, beside simcord's Discord: same table, same refusals."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
import simcord

from bot.client import FlipFlopBot
from bot.live.server import LiveServer, bind
from bot.live.state import shown_hand
from engine import Draw
from tests.bot.runtime.fakes import FakeClock
from tests.cogs.helpers import conserved, message, my_hand, open_table, runtime, table_in, table_message
from tests.conftest import World, make_bot

LINK = re.compile(r"(http://127\.0\.0\.1:\d+/)live/#(\S+)")


@pytest.fixture
def link_clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path, link_clock: FakeClock) -> AsyncIterator[FlipFlopBot]:
    bot = make_bot(db_path)
    live = LiveServer(bind(0, "127.0.0.1"), "http://127.0.0.1:1/", link_clock)
    live.url = f"http://127.0.0.1:{live.port}/"
    bot.live = live
    yield bot
    await bot.db.close()


pytestmark = pytest.mark.usefixtures("serving")  # the live server, in simcord's scope (conftest)


async def web_link(world: World, member: simcord.MemberActor) -> tuple[str, str]:
    """``/flipflop web``: the page's base address and the one-time token, from the private answer."""
    result = await member.slash(world.channel, "flipflop web")
    assert result.ephemeral and result.response is not None
    found = LINK.search(result.response.content or "")
    assert found, result.response.content
    return found.group(1), found.group(2)


class Page:
    """A browser tab's side of the live page: signed in, its socket, the states it got."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http = http
        self.base = base
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.states: list[dict[str, Any]] = []
        self.asked = 0

    async def sign_in(self, token: str) -> tuple[int, dict[str, Any]]:
        async with self.http.post(f"{self.base}live/api/signin", json={"link": token}) as reply:
            return reply.status, await reply.json()

    async def open(self, session: str) -> dict[str, Any]:
        self.ws = await self.http.ws_connect(f"{self.base.replace('http', 'ws')}live/ws")
        await self.ws.send_str(json.dumps({"type": "hello", "session": session}))
        return json.loads((await self.ws.receive(timeout=10)).data)

    async def next(self, kind: str) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            message = json.loads((await self.ws.receive(timeout=10)).data)
            if message["type"] == "state":
                self.states.append(message)
            if message["type"] == kind:
                return message

    async def latest(self) -> dict[str, Any]:
        """The newest state sent so far (waits for one if none came yet)."""
        assert self.ws is not None
        while True:
            try:
                message = json.loads((await self.ws.receive(timeout=0.3)).data)
            except TimeoutError:
                if self.states:
                    return self.states[-1]
                continue
            if message["type"] == "state":
                self.states.append(message)

    async def move(self, op: str, value: str | None, seq: int) -> dict[str, Any]:
        assert self.ws is not None
        self.asked += 1
        move = {"type": "move", "id": self.asked, "op": op, "value": value, "seq": seq}
        await self.ws.send_str(json.dumps(move))
        return await self.next("answer")


async def signed_in(world: World, http: aiohttp.ClientSession, member: simcord.MemberActor) -> Page:
    base, token = await web_link(world, member)
    page = Page(http, base)
    status, body = await page.sign_in(token)
    assert status == 200, body
    hello = await page.open(body["session"])
    assert hello["type"] == "hello" and hello["you"] == str(member.id)
    return page


async def test_players_play_on_the_page_and_discord_shows_the_same_table(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    ann, ben, cat, dan = world.members[:4]
    table = await open_table(world, [ann, ben, cat], stake=5, buy_in=20)
    hands = {m.id: await my_hand(world, m) for m in (ann, ben, cat)}  # open in Discord meanwhile
    async with aiohttp.ClientSession() as http:
        pages = {m.id: await signed_in(world, http, m) for m in (ann, ben, cat)}
        watcher = await signed_in(world, http, dan)  # in the channel, not seated: a spectator
        first = await watcher.next("state")
        assert first["you"] is None and all(isinstance(s["hand"], int) for s in first["table"]["seats"])
        for _ in range(6):  # six moves, each from the page of the player to act
            current = table_in(world)
            assert current is not None and current.game is not None and current.game.in_round
            actor = current.game.to_act
            assert actor is not None
            page = pages[int(actor)]
            state = await page.latest()
            you = state["you"]
            assert you["canAct"] and you["seq"] == current.seq
            legal = {op for op, _ in you["legal"]}
            if "stock" in legal:
                answer = await page.move("stock", None, you["seq"])
            else:
                discard = max(you["hand"], key=lambda c: ("A23456789TJQK".index(c[0]), c))
                answer = await page.move("discard", discard, you["seq"])
            assert answer["ok"], answer
            await conserved(world)
        # every page and the channel show the same table now
        current = table_in(world)
        assert current is not None and current.game is not None
        view = current.game.public_view()
        seen = await watcher.latest()
        assert seen["info"]["seq"] == current.seq
        assert seen["table"]["discard"] == [c.code for c in view.discard_pile]
        assert seen["table"]["stock"] == view.stock_size
        shown = table_message(world)
        assert shown.id == current.message_id
        await world.env.settle()
        for uid, hand in hands.items():  # each open Discord hand followed the page's moves
            now = message(world, table.channel_id, hand.id).content
            assert ("Your turn" in now) == (str(uid) == current.game.to_act), now
        assert "Notifier failed" not in caplog.text
        for page in pages.values():
            state = await page.latest()
            assert state["table"]["discard"] == seen["table"]["discard"]
            assert state["you"]["hand"] == shown_hand(current.game.view(state["you"]["seat"]).hand)
        # a refused move changes nothing: out of turn, an old control, a move that is not one
        other = next(p for uid, p in pages.items() if str(uid) != current.game.to_act)
        before = current.seq
        refused = await other.move("stock", None, current.seq)
        assert not refused["ok"] and "Nothing was done" in refused["message"]
        mover = pages[int(current.game.to_act or 0)]
        stale = await mover.move("stock", None, current.seq - 1)
        assert not stale["ok"] and stale["code"] == "stale_control"
        nonsense = await mover.move("fly", "AS", current.seq)
        assert not nonsense["ok"] and "nothing was done" in nonsense["message"]
        spectator = await watcher.move("stock", None, current.seq)
        assert not spectator["ok"] and spectator["code"] == "not_playing"
        assert current.seq == before and runtime(world).get(table.id) is current
        await conserved(world)


async def test_a_link_is_refused_when_forged_reused_or_expired(world: World, link_clock: FakeClock) -> None:
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    seq = table.seq
    async with aiohttp.ClientSession() as http:
        base, token = await web_link(world, ann)
        page = Page(http, base)
        status, body = await page.sign_in(token)
        assert status == 200
        status, again = await page.sign_in(token)
        assert status == 403 and again["code"] == "link_used" and "already used" in again["error"]
        _, other = await web_link(world, ben)
        forged = other[:-3] + ("AAA" if not other.endswith("AAA") else "BBB")
        status, bad = await page.sign_in(forged)
        assert status == 403 and bad["code"] == "link_forged" and "not made by the bot" in bad["error"]
        _, late = await web_link(world, cat)
        link_clock.now += 11 * 60
        status, old = await page.sign_in(late)
        assert status == 403 and old["code"] == "link_expired" and "expired" in old["error"]
        # a made-up session, or an id in place of one, opens nothing
        for session in ("made-up", str(ann.id), None):
            ws = await http.ws_connect(f"{base.replace('http', 'ws')}live/ws")
            await ws.send_str(json.dumps({"type": "hello", "session": session, "user": ann.id}))
            answer = json.loads((await ws.receive(timeout=10)).data)
            assert answer["type"] == "refused" and answer["code"] == "session_unknown"
            assert answer["words"]["notSignedIn"] == "Not signed in" and answer["words"]["lang"] == "en"
            await ws.close()
        # a refusal brings the page's words in the browser's language, as its message is
        ws = await http.ws_connect(f"{base.replace('http', 'ws')}live/ws", headers={"Accept-Language": "ko"})
        await ws.send_str(json.dumps({"type": "hello", "session": "made-up"}))
        answer = json.loads((await ws.receive(timeout=10)).data)
        assert answer["type"] == "refused" and answer["words"]["lang"] == "ko"
        assert answer["words"]["notSignedIn"] != "Not signed in"
        await ws.close()
    assert table.seq == seq
    await conserved(world)


async def test_web_without_a_table_or_without_the_server_says_so(world: World) -> None:
    result = await world.members[0].slash(world.channel, "flipflop web")
    assert result.ephemeral and "no table" in (result.response.content or "").lower()
    world.bot.live = None
    result = await world.members[0].slash(world.channel, "flipflop web")
    assert result.ephemeral and "LIVE_URL" in (result.response.content or "")


@pytest.mark.simcord(settle_timeout=30.0)  # the start deals its tables, as in tests/cogs/test_tournament.py
async def test_someone_not_in_a_running_tournament_is_pointed_to_its_tables_to_watch(world: World) -> None:
    """``/flipflop hand`` in a running tournament's channel, from a member not entered, says so and names
    its tables' threads and ``/flipflop web`` there (the live page is on); ``/flipflop web`` in a thread
    opens that table to watch, hands hidden."""
    from tests.cogs.test_tournament import opened, tournament_now

    ann, ben, dan = world.members[0], world.members[1], world.members[3]
    lobby = await opened(world, ann, fee=20, seats=6)
    for who, button in ((ann, "Join"), (ben, "Join"), (ann, "Start")):
        await who.click(lobby, label=button)
    tour = await tournament_now(world)
    said = await dan.slash(world.channel, "flipflop hand")
    threads = ", ".join(f"<#{tour.threads[n]}>" for n in sorted(tour.threads))
    assert said.ephemeral and said.response.content.startswith(
        "You're not in this channel's tournament, so you have no hand or table here."
        f" To watch, open one of its tables' threads: {threads}. There, </flipflop web:"
    ), said.response.content
    assert said.response.content.endswith("> opens the table in your browser.")
    thread = next(th for th in world.channel.threads if th.id == tour.threads[min(tour.threads)])
    link = await dan.slash(thread, "flipflop web")
    found = LINK.search(link.response.content or "")
    assert link.ephemeral and found, link.response.content
    async with aiohttp.ClientSession() as http:
        page = Page(http, found.group(1))
        status, body = await page.sign_in(found.group(2))
        assert status == 200, body
        await page.open(body["session"])
        state = await page.next("state")
        assert state["you"] is None and all(isinstance(s["hand"], int) for s in state["table"]["seats"])


async def test_a_dropped_socket_resumes_at_the_current_state(world: World) -> None:
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    live = world.bot.live
    assert live is not None
    async with aiohttp.ClientSession() as http:
        base, token = await web_link(world, cat)
        page = Page(http, base)
        _, body = await page.sign_in(token)
        await page.open(body["session"])
        first = await page.next("state")
        await live.hub.close()  # every socket dropped (a restart of the proxy, a phone asleep)
        assert page.ws is not None
        assert (await page.ws.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        game = table.game
        assert game is not None and game.to_act is not None
        # a move made while the page was away (told to the channel and the page on its way out)
        await runtime(world).act(table.id, int(game.to_act), table.seq, Draw(game.to_act, "stock"))
        again = Page(http, base)
        hello = await again.open(body["session"])  # the same session, a new socket
        assert hello["type"] == "hello"
        now = await again.next("state")
        assert now["info"]["seq"] == table.seq > first["info"]["seq"]
        assert now["table"]["discard"] == [c.code for c in game.public_view().discard_pile]
        assert now["you"]["hand"] == shown_hand(game.view(str(cat.id)).hand)


async def test_the_page_speaks_the_members_language_and_an_away_member_comes_back(world: World) -> None:
    """The hello carries the page's words in the member's language (every word the page draws); an
    away member reads why and clicks **I'm back** on the page, as on their hand."""
    from bot.live.words import WORDS

    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    await ann.slash(world.channel, "flipflop language", language="ko")
    async with aiohttp.ClientSession() as http:
        base, token = await web_link(world, ann)
        page = Page(http, base)
        _, body = await page.sign_in(token)
        hello = await page.open(body["session"])
        words = hello["words"]
        assert set(words) == {"lang", *WORDS} and words["lang"] == "ko"  # the page's <html lang>
        assert words["yourTurn"] == "내 차례예요." and words["back"] == "돌아왔어요"
        assert words["take"] == "{card} 가져오기"  # its blanks left for the page to fill
        await runtime(world).away(table.id, ann.id)
        state = await page.latest()
        assert state["you"]["away"] and table.is_away(ann.id)
        back = await page.move("back", None, state["you"]["seq"])
        assert back["ok"], back
        assert not table.is_away(ann.id)
        again = await page.move("back", None, table.seq)  # not away any more: refused, nothing changes
        assert not again["ok"] and not table.is_away(ann.id)
        await conserved(world)


async def test_a_turn_drawn_on_the_page_runs_out_as_one_drawn_in_discord(world: World) -> None:
    """Seen in a playtest: a draw on the page armed the turn's timer as the page's work, not the bot's,
    and simcord's clock never ran it out. Drawn on the page and left idle, the seat times out when its
    turn's seconds have passed and goes away, as after a draw by the hand's button."""
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    assert table.game is not None
    actor = next(m for m in (ann, ben, cat) if str(m.id) == table.game.to_act)
    async with aiohttp.ClientSession() as http:
        page = await signed_in(world, http, actor)
        drawn = await page.move("stock", None, table.seq)
        assert drawn["ok"], drawn
        await world.env.advance_time(table.turn_seconds - 1)
        assert not table.is_away(actor.id)  # not yet: the draw gave the turn its full time
        await world.env.advance_time(2)
        assert table.is_away(actor.id) and table.game.to_act != str(actor.id)
        state = await page.latest()
        assert state["you"]["away"]  # the page says so
    await conserved(world)
