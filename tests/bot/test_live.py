"""The live table's data: what each viewer is sent (never another's hidden card), links, slow sockets."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.live.hub import LiveHub, Watcher
from bot.live.links import Links, Pass, Sessions, SignInRefused
from bot.live.state import shown_hand, viewer_state
from bot.runtime import Outcome
from bot.table.model import Table
from engine import Drop, Leave
from engine.cards import sort_key
from engine.codec import control_of
from tests.bot.runtime.fakes import ANN, BEN, CAT, DAN, FakeClock, Harness, harness

CARD = re.compile(r"^[A2-9TJQK][CDHS]$")
VIEWERS: tuple[int | None, ...] = (ANN, BEN, CAT, DAN, None)
"""Three players, a member of the server who is not seated, and nobody signed in."""


def codes_in(value: Any, skip: tuple[str, ...] = ("moves", "caption")) -> set[str]:
    """Every card code anywhere in a state, however it is written (``AS``, ``AS.2S``, ``AS@0``, ``a|b``)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                found |= codes_in(v, skip)
    elif isinstance(value, list):
        for v in value:
            found |= codes_in(v, skip)
    elif isinstance(value, str):
        found |= {w for w in re.split(r"[.|@ ]", value) if CARD.match(w)}
    return found


def hidden_from(table: Table, viewer: int | None) -> set[str]:
    """The cards in other players' hands that the channel has not seen (the engine's truth, now)."""
    game = table.game
    if game is None or game.round is None or not game.in_round:
        return set()
    r = game.round
    public = {c.code for _p, _pot, c in r.showings}
    if r.upcard is not None:
        public.add(r.upcard.code)  # dealt face up (R3.3), in the dealer's hand
    if r.taken is not None:
        public.add(r.taken.code)  # taken from the discard pile this turn, in sight of all
    mine = table.pid(viewer) if viewer is not None else None
    return {c.code for p, hand in r.hands.items() if p != mine for c in hand} - public


def check(text: str, table: Table, viewer: int | None) -> None:
    """One state sent to ``viewer``: no hidden card of anyone else, anywhere in it; counts for others."""
    data = json.loads(text)
    leaked = codes_in(data) & hidden_from(table, viewer)
    assert not leaked, f"viewer {viewer} was sent {leaked}"
    state = data["table"]
    if state is None:
        return
    game = table.game
    assert game is not None
    mine = table.pid(viewer) if viewer is not None else None
    for seat in state["seats"]:
        if game.in_round and seat["id"] != mine:
            assert isinstance(seat["hand"], int), seat
    you = data["you"]
    if viewer is None or mine not in game.order:
        assert you is None
    else:
        assert you["seat"] == mine and you["hand"] == shown_hand(game.view(mine).hand)


async def play_randomly(h: Harness, table: Table, rng: random.Random, rounds: int = 8) -> int:
    """Play ``rounds`` rounds (or the whole game) with random legal moves, never Leave; the moves played."""
    moves = 0
    for _ in range(3000):
        current = h.runtime.get(table.id)
        if current is None or current.game is None:
            return moves
        game = current.game
        if game.rounds_played > rounds:
            return moves
        if not game.in_round:
            await h.advance(h.runtime.round_pause + 1)
            continue
        actor = game.to_act
        assert actor is not None
        legal = [a for a in game.view(actor).legal if not isinstance(a, Leave)]
        longer = [a for a in legal if not isinstance(a, Drop)]  # mostly play on: more states to check
        pick = rng.choice(longer if longer and rng.random() < 0.9 else legal)
        await h.runtime.act(table.id, int(actor), current.seq, pick)
        moves += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_no_viewer_is_ever_sent_another_players_hidden_cards(tmp_path: Path, seed: int) -> None:
    async with harness(tmp_path / "t.db", seed=seed) as h:
        h.runtime.round_pause = 1.0
        hub = LiveHub(h.clock)
        h.runtime.watchers.append(hub.told)
        table = await h.lobby()
        sent: dict[int | None, list[str]] = {v: [] for v in VIEWERS}

        async def nothing() -> None:
            return None

        watchers: list[Watcher] = []
        for viewer in VIEWERS:

            async def send(text: str, viewer: int | None = viewer) -> None:
                sent[viewer].append(text)

            watchers.append(hub.watch(table, viewer, send, nothing))
        checked = 0

        def audit(outcome: Outcome) -> None:  # right after the hub: each page's state, against the truth now
            nonlocal checked
            for watcher in watchers:
                assert watcher.latest is not None
                check(watcher.latest, outcome.table, watcher.viewer)
                checked += 1

        h.runtime.watchers.append(audit)
        await h.runtime.start(table.id, ANN, may_manage=False)
        moves = await play_randomly(h, table, random.Random(seed))
        await asyncio.sleep(0)
        assert moves > 20 and checked >= len(VIEWERS) * moves
        for viewer in VIEWERS:  # what the sockets were really sent is the same states
            assert sent[viewer]
        await hub.close()


async def test_a_players_own_state_has_their_hand_and_their_moves_in_the_codecs_form(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        game = table.game
        assert game is not None and game.to_act is not None
        actor = int(game.to_act)
        from bot.i18n import texts

        state = viewer_state(table, actor, texts("en"), h.clock())
        you = state["you"]
        assert you["canAct"] and you["seq"] == table.seq
        assert {tuple(m) for m in you["legal"]} == {
            control_of(a) for a in game.view(str(actor)).legal if not isinstance(a, Leave)
        }
        spectator = viewer_state(table, DAN, texts("en"), h.clock())
        assert spectator["you"] is None
        assert [s["hand"] for s in spectator["table"]["seats"]] == [5, 5, 5] or all(
            isinstance(s["hand"], int) for s in spectator["table"]["seats"]
        )


async def test_a_players_hand_on_the_page_is_in_the_order_of_their_discord_hand(tmp_path: Path) -> None:
    """Seen in a playtest: the page drew the hand as dealt (J♠ 7♦ 9♦ A♣ 2♠) beside the Discord hand's
    card buttons sorted by suit and rank; the same hand reads in one order in both."""
    from bot.i18n import texts
    from bot.presentation.hand_controls import card_rows

    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        game = table.game
        assert game is not None
        for seat in game.order:
            view = game.view(seat)
            discord = [c.code for row in card_rows(view.hand) for c in row]
            state = viewer_state(table, int(seat), texts("en"), h.clock())
            assert state["you"]["hand"] == discord
            [mine] = [s for s in state["table"]["seats"] if s["id"] == seat]
            assert mine["hand"] == discord
        assert any(game.view(s).hand != sorted(game.view(s).hand, key=sort_key) for s in game.order)


async def test_every_viewer_sees_who_is_away_as_the_discord_tables_picture_marks_it(tmp_path: Path) -> None:
    """Seen in a playtest: only the away player's own page said so; the others' showed a plain seat."""
    from bot.i18n import texts

    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        away = next(p for p in table.game.order if table.game.to_act != p)
        await h.runtime.away(table.id, int(away))
        table = h.runtime.tables[table.id]
        seats = viewer_state(table, DAN, texts("en"), h.clock())["table"]["seats"]
        assert {s["id"]: s["awayLabel"] for s in seats} == {
            p: (f"away 1/{table.away_rounds}" if p == away else "") for p in table.game.order  # a first round
        }


async def test_the_page_reads_cards_as_text_where_the_server_sees_card_emojis(tmp_path: Path) -> None:
    from bot.cards import CardFaces, Look, all_faces
    from bot.i18n import texts

    faces = CardFaces()
    for i, face in enumerate(all_faces()):
        faces.add(face, 1_456_074_443_980_800_000 + i)
    seen_as_emojis = texts("en").with_faces(Look(faces, "classic"))
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        game = table.game
        assert game is not None and game.to_act is not None
        await h.runtime.act(table.id, int(game.to_act), table.seq, Drop(game.to_act))
        state = viewer_state(table, DAN, seen_as_emojis, h.clock())
        lines = [*state["info"]["moves"], state["info"]["last"], state["table"]["caption"]]
        assert any(re.search(r"(10|[2-9AJQK])[♠♥♦♣]", line) for line in lines), lines  # a card, as text
        assert not any(re.search("[♤♡♢♧]", line) for line in lines), lines  # the suits as the page's cards'
        assert not any("<:" in line or ":ff_" in line for line in lines), lines  # no Discord emoji markup


async def test_the_page_names_members_where_discord_mentions_them_and_counts_to_no_round_that_will_not_come(
    tmp_path: Path,
) -> None:
    """A stop asked mid-round reads "⏹️ ann will stop the game…" on the page (it printed ``<@11>``), and
    once the round ends the page counts down to no next round: the game ends there."""
    from bot.i18n import texts
    from bot.live.state import plain

    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        await h.runtime.stop(table.id, ANN, may_manage=False)  # mid-round: the game ends with it
        state = viewer_state(table, DAN, texts("en"), h.clock())
        told = [line for line in state["info"]["moves"] if "⏹️" in line]
        assert told == ["⏹️ Ann will stop the game when this round ends."], told
        game = table.game
        assert game is not None and game.to_act is not None
        await h.runtime.act(table.id, int(game.to_act), table.seq, Drop(game.to_act))  # the round ends
        assert table.next_round_at is not None  # the runtime's next step (where the game ends) is due
        assert viewer_state(table, DAN, texts("en"), h.clock())["info"]["nextRound"] is None
    assert plain("⏹️ <@42> will stop", {}) == "⏹️ 👤 42 will stop"  # not at the table: a pseudonym


def test_a_tournament_table_shows_the_tournaments_round_on_the_page_as_on_discord() -> None:
    """A tournament's table plays one round, its game's round 1: the page's header read "round 1" in
    every round of the tournament. It shows the tournament's round, as the Discord table (its title,
    its deal's line) and the tournament's message count it; another table counts its own rounds."""
    from bot.i18n import texts
    from bot.presentation.table_layout import table_page
    from bot.presentation.table_render import event_lines
    from bot.table import transitions

    en = texts("en")
    players = [(ANN, 1000, "Ann", 0), (BEN, 1000, "Ben", 0), (CAT, 1000, "Cat", 0)]
    for ref, shown in (("t1:2:0", 1), ("t1:2:2", 3)):  # no round played yet; two rounds played
        table, seats = transitions.tournament_table(1, 2, 10, players, [], 60, 0.0, ref)
        step = transitions.tournament_round(table, seats, {}, 0.0)
        assert table.game is not None and table.game.public_view().round_number == 1
        assert viewer_state(table, ANN, en, 0.0)["table"]["round"] == shown
        assert table_page(table, en).title == f"🃏 Flip Flop — round {shown}"
        assert table_page(table, en, picture=False).title == f"🃏 Flip Flop — round {shown}"
        dealt = [line for line in event_lines(table, step.events, en) if "deals. Upcard" in line]
        assert len(dealt) == 1 and dealt[0].startswith(f"🃏 **Round {shown}** — "), dealt
    table.tournament = None  # the same game at an ordinary table: its own round 1
    assert viewer_state(table, ANN, en, 0.0)["table"]["round"] == 1
    assert table_page(table, en).title == "🃏 Flip Flop — round 1"


async def test_a_finished_hand_offers_no_move_on_the_page_as_in_discord(tmp_path: Path) -> None:
    """The table closed mid-round (its cards as they were), or the game over: Discord's hand shows its
    cards and nothing to click, and so does the page's state (it kept the moves: greyed at the game's
    end, and still live at a table closed on someone's turn)."""
    from bot.i18n import texts

    async with harness(tmp_path / "t.db") as h:
        for close in (True, False):
            table = await h.game()
            game = table.game
            assert game is not None and game.to_act is not None
            actor = int(game.to_act)
            you = viewer_state(table, actor, texts("en"), h.clock())["you"]
            assert you["legal"] and you["canAct"] and you["finished"] is False
            if close:
                await h.runtime.close_by_manager(table.id, ANN)
            else:
                await h.runtime.stop(table.id, ANN, may_manage=False)  # the game ends with this round
                while game.in_round:
                    to_act = game.to_act
                    assert to_act is not None
                    await h.runtime.act(table.id, int(to_act), table.seq, Drop(to_act))
                await h.advance(61)  # the round's pause, then the game's end
            assert game.public_view().over != close and table.status == "closed"
            for seat in (ANN, BEN, CAT):
                you = viewer_state(table, seat, texts("en"), h.clock())["you"]
                assert you["finished"] and you["legal"] == [] and not you["canAct"], (close, you)
                assert you["hand"] == shown_hand(game.view(str(seat)).hand)  # its last cards


# ---------------------------------------------------------------------- links


def test_a_link_signs_in_once_and_only_as_made() -> None:
    clock = FakeClock()
    links = Links(b"k" * 32, clock)
    who = Pass(ANN, 1, "t1", "en")
    token = links.mint(who)
    assert links.redeem(token) == who
    with pytest.raises(SignInRefused) as used:
        links.redeem(token)
    assert used.value.code == "link_used"
    late = links.mint(who)
    clock.now += 10 * 60 + 1
    with pytest.raises(SignInRefused) as expired:
        links.redeem(late)
    assert expired.value.code == "link_expired"


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # signature changed
        lambda t: Links(b"x" * 32, FakeClock()).mint(Pass(BEN, 1, "t1", "en")),  # another key
        lambda t: t.replace(t.split(".")[0], t.split(".")[0][:-3] + "QUJD"),  # body changed
        lambda t: "not a link",
        lambda t: None,
        lambda t: 12345,
        lambda t: "a.b",
        lambda t: "x" * 1000,
    ],
)
def test_a_forged_link_signs_nobody_in(forge: Any) -> None:
    links = Links(b"k" * 32, FakeClock())
    with pytest.raises(SignInRefused) as refused:
        links.redeem(forge(links.mint(Pass(ANN, 1, "t1", "en"))))
    assert refused.value.code == "link_forged"


def test_a_session_is_only_a_token_made_here() -> None:
    clock = FakeClock()
    sessions = Sessions(clock, seconds=60)
    who = Pass(ANN, 1, "t1", "en")
    token = sessions.open(who)
    assert sessions.get(token) == who
    for bad in (token + "x", "", None, 7, str(ANN)):
        with pytest.raises(SignInRefused):
            sessions.get(bad)
    clock.now += 61
    with pytest.raises(SignInRefused):
        sessions.get(token)


# ---------------------------------------------------------------------- slow sockets


async def test_a_slow_socket_skips_to_the_newest_state_and_never_slows_the_table(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        hub = LiveHub(h.clock)
        h.runtime.watchers.append(hub.told)
        table = await h.game()
        stuck = asyncio.Event()
        got: list[str] = []

        async def slow(text: str) -> None:
            got.append(text)
            await stuck.wait()

        async def fast(text: str) -> None:
            fast_got.append(text)

        fast_got: list[str] = []

        async def nothing() -> None:
            return None

        slow_one = hub.watch(table, None, slow, nothing)
        hub.watch(table, DAN, fast, nothing)
        await asyncio.sleep(0)
        for _ in range(5):  # five changes while the slow page is still taking its first state
            game = table.game
            assert game is not None and game.to_act is not None
            actor = game.to_act
            legal = [a for a in game.view(actor).legal if not isinstance(a, (Leave, Drop))]
            await h.runtime.act(table.id, int(actor), table.seq, legal[0])
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        assert len(fast_got) == 6 and len(got) == 1
        assert slow_one.skipped == 4  # the states it could not take were replaced, not queued
        stuck.set()
        await asyncio.sleep(0.01)
        assert got[-1] == fast_got[-1]  # it caught up at once, with the newest state
        await hub.close()


async def test_an_outcome_told_after_a_newer_state_is_not_shown(tmp_path: Path) -> None:
    """A page opened on the table as it is now never goes back to an older outcome's snapshot."""
    async with harness(tmp_path / "t.db") as h:
        hub = LiveHub(h.clock)
        table = await h.game()
        older = h.notifier.outcomes[-1]  # the deal, told before the move below
        got: list[str] = []

        async def send(text: str) -> None:
            got.append(text)

        async def nothing() -> None:
            return None

        game = table.game
        assert game is not None and game.to_act is not None
        legal = [a for a in game.view(game.to_act).legal if not isinstance(a, (Leave, Drop))]
        newer = await h.runtime.act(table.id, int(game.to_act), table.seq, legal[0])
        hub.watch(h.runtime.tables[table.id], None, send, nothing)  # opened on the table now
        await asyncio.sleep(0.01)
        assert older.table.seq < newer.table.seq and len(got) == 1
        hub.told(older)  # late: a newer state is shown already
        hub.told(newer)
        await asyncio.sleep(0.01)
        assert len(got) == 2 and json.loads(got[-1])["info"]["version"] == 1
        await hub.close()


async def test_a_player_who_left_the_game_is_told_so_and_offered_no_hand(tmp_path: Path) -> None:
    """ann leaves mid-round: once the round ends her seat is closed, and her page knows she is gone
    (it hides her empty hand and its greyed moves, and says she may still watch)."""
    from bot.i18n import texts

    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        game = table.game
        assert game is not None and game.to_act is not None
        assert viewer_state(table, ANN, texts("en"), h.clock())["you"]["gone"] is False
        await h.runtime.act(table.id, ANN, table.seq, Leave(str(ANN)))
        while game.in_round:
            actor = game.to_act
            assert actor is not None
            await h.runtime.act(table.id, int(actor), table.seq, Drop(actor))
        state = viewer_state(table, ANN, texts("en"), h.clock())
        assert str(ANN) not in game.seated and state["you"]["gone"] is True
        assert viewer_state(table, BEN, texts("en"), h.clock())["you"]["gone"] is False


async def test_players_who_left_as_the_game_ended_stay_on_its_last_page(tmp_path: Path) -> None:
    """Two of three players leave when the round ends, so the game ends with it: the page's last table
    still has every player of that round (stack, shown hand, the pots they won), not the one left."""
    from bot.i18n import texts

    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        game = table.game
        assert game is not None and game.to_act is not None
        for who in (ANN, BEN):
            await h.runtime.leave_after_round(table.id, who)
        await h.runtime.act(table.id, int(game.to_act), table.seq, Drop(game.to_act))  # the round ends
        await h.advance(61)  # the pause: they leave, and one player can't go on
        game = table.game
        assert game is not None
        view = game.public_view()
        assert view.over and len(view.seated) < 3 and {str(ANN), str(BEN)} <= set(view.players)
        state = viewer_state(table, DAN, texts("en"), h.clock())
        seats = {s["id"]: s for s in state["table"]["seats"]}
        assert set(seats) == {str(ANN), str(BEN), str(CAT)}, seats
        assert all(isinstance(s["hand"], list) for s in seats.values())  # every hand shown at the end
        assert state["info"]["over"]
