"""Fair deals and history in simcord: whole games whose every deal checks out with docs/verify_deal.py, the
history, round, stats and rating commands on what was played, no early seed anywhere, bad input."""

from __future__ import annotations

import json
import logging
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.table.model import Table
from engine import fairness
from tests.cogs.helpers import Hands, conserved, displayed, out_of_the_game, play_simple_turn, table_in, walk
from tests.cogs.test_computers import add_computer, bot_member
from tests.conftest import World

VERIFIER = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
DEALT = re.compile(r"🃏 \*\*Round (\d+)\*\*.*?🔒 Fair deal: commitment `([0-9a-f]{64})`", re.S)
NEXT = re.compile(r"🔒 Round (\d+) commitment: `([0-9a-f]{64})`")
"""The next round's commitment, in the table message as it is created for a deal (docs/FAIRNESS.md)."""
REVEALED = re.compile(
    r"🔓 Round (\d+) server seed: `([0-9a-f]{64})` — check the deal with `/flipflop verify round:(\d+)`"
)
DISCORD_EPOCH_MS = 1420070400000


def member_by_pid(world: World, pid: str) -> simcord.MemberActor:
    return next(m for m in world.members if str(m.id) == pid)


def shown(message: discord.Message) -> str:
    """Everything a message shows: its text, its embeds and its controls."""
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in e.fields]
    parts.append(displayed(message))  # a V2 message's text (the lobby, the table, a round's record)
    parts.append(json.dumps([c for c in walk(message) if c.get("type") in (2, 3)]))  # its controls
    return "\n".join(parts)


def everything_shown(world: World) -> str:
    """What every member (and the admin) can see in the channel, ephemeral answers included."""
    return "\n".join(
        shown(m) for viewer in [world.admin, *world.members] for m in world.channel.history(viewer=viewer)
    )


def secret_seeds(table: Table) -> set[str]:
    """The seeds of the table's unfinished rounds (committed or in play), as hex."""
    saved = table.fair.to_json()
    return {sealed["seed"] for sealed in (saved["pending"], saved["in_play"]) if sealed is not None}


async def play_game(world: World, players: list[simcord.MemberActor], seed_text: str | None) -> list[str]:
    """A whole game played by its members; returns the round-1 commitment the lobby showed.

    Between checks, the seeds of unfinished rounds are looked for in everything the channel shows.
    """
    host = players[0]
    opened = await host.slash(world.channel, "flipflop start", stake=5, buy_in=20)
    lobby = opened.response.message
    lobby_commitments = HEX64.findall(shown(lobby))
    lobby_at = lobby.created_at.timestamp() * 1000
    for p in players[1:]:
        await p.click(lobby, label="Join")
    if seed_text is not None:
        said = await players[1].slash(world.channel, "flipflop seed", text=seed_text)
        assert said.ephemeral and "round 1's client seed" in said.response.content
    await host.click(lobby, label="Start")
    table = table_in(world)
    assert table is not None and table.status == "playing"
    hands = Hands(world)
    for step in range(3000):
        t = table_in(world)
        if t is None:
            break
        if step % 25 == 0:
            text = everything_shown(world)
            assert not secret_seeds(t) & set(HEX64.findall(text)), "a seed of an unfinished round was shown"
        g = t.game
        assert g is not None
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=25, hands=hands)  # type: ignore[arg-type]
    else:
        raise AssertionError("the game did not end")
    await conserved(world)
    assert lobby_at > 0
    return lobby_commitments


def verify_with_docs_verifier(seed: str, commitment: str, client: str, number: int, deck: str) -> str:
    done = subprocess.run(
        [sys.executable, str(VERIFIER), "--server-seed", seed, "--commitment", commitment,
         "--client-seed", client, "--round", str(number), "--deck", deck, "--seats", "3"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


async def round_file(world: World, who: simcord.MemberActor, round_id: int) -> dict[str, Any]:
    result = await who.slash(world.channel, "flipflop round", id=round_id)
    assert result.ephemeral and result.response is not None
    files = result.response.attachments
    assert [f.filename for f in files] == [f"round-{round_id}.json"]
    data: dict[str, Any] = json.loads(await files[0].read())
    return data


async def test_every_deal_of_several_games_checks_out_from_what_the_channel_showed(
    world: World, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.DEBUG, logger="flipflop")  # every log line of the bot itself
    players = world.members[:3]
    lobby_commitments = await play_game(world, players, seed_text="lucky 7")
    lobby_commitments += await play_game(world, [players[1], players[2], players[0]], seed_text=None)
    public = "\n".join(shown(m) for m in world.channel.history())
    dealt = DEALT.findall(public)
    revealed = {(int(n), int(rid)): seed for n, seed, rid in REVEALED.findall(public)}
    assert len(dealt) >= 4 and len(revealed) == len(dealt)
    ones = [d for d in dealt if d[0] == "1"]
    assert len(ones) == 2 and lobby_commitments == [c for _, c in ones]  # shown in each lobby first
    # each later round's commitment was in a message created for the deal before it (never only an edit)
    requests = world.env.backend.http_requests
    created = [json.dumps(r.json, ensure_ascii=False) for r in requests if r.method == "POST"]
    next_commitments = {(int(n), c) for text in created for n, c in NEXT.findall(text)}
    seen_seeds: set[str] = set()
    previous_actions: list[Any] | None = None
    clients: list[str] = []
    for (number, commitment), ((n, round_id), seed) in zip(
        dealt, sorted(revealed.items(), key=lambda kv: kv[0][1]), strict=True
    ):
        assert int(number) == n
        if n > 1:  # committed with the round before, before anything of this round's client seed existed
            assert (n, commitment) in next_commitments
        transcript = await round_file(world, players[0], round_id)
        client = transcript["reveal"]["client_seed"]  # whole in the round's file (and Fair deal, verify)
        clients.append(client)
        ids = [int(i) for i in client.split(":")[0].split("-") if i]
        # Only a round after one that ended at the deal (49 or 50: nobody clicked) has no ids.
        assert ids or (n > 1 and previous_actions == []), "no interaction id went into the client seed"
        previous_actions = transcript["rounds"][0]["actions"]
        assert transcript["reveal"]["server_seed"] == seed
        deck = " ".join(transcript["rounds"][0]["deck"])
        out = verify_with_docs_verifier(seed, commitment, client, n, deck)
        assert "commitment OK" in out and "dealt deck OK" in out
        if n == 1:  # the first dealer came from the seeds too (seat 0 joined first)
            seat = int(re.search(r"first dealer: seat (\d)", out).group(1))  # type: ignore[union-attr]
            assert transcript["seats"][seat]["id"] == transcript["rounds"][0]["dealer"]
        # the file replays to the same result with the engine's own replay tool
        path = tmp_path / f"round-{round_id}.json"
        path.write_text(json.dumps(transcript))
        replayed = subprocess.run(
            [sys.executable, "-m", "engine.replay", str(path)], capture_output=True, text=True, check=False
        )
        assert replayed.returncode == 0, replayed.stderr
        stored = await world.bot.db.fetchone("SELECT result FROM rounds WHERE id = ?", (round_id,))
        assert stored is not None and json.loads(replayed.stdout) == json.loads(stored[0])
        seen_seeds.add(seed)
    assert "lucky 7" in clients[0]  # a player's seed text went into round 1's client seed
    # only revealed seeds were ever shown or logged; the last commitments of each game stay secret
    everywhere = everything_shown(world) + "\n" + caplog.text
    assert set(HEX64.findall(everywhere)) & seen_seeds == seen_seeds
    rows = await world.bot.db.fetchall("SELECT state FROM tables")
    for (state,) in rows:
        pending = json.loads(state)["fair"]["pending"]
        assert pending is not None and pending["seed"] not in everywhere


async def test_verify_history_stats_and_the_rating_leaderboard_after_a_game(
    world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben, cat = world.members[:3]
    await play_game(world, [ann, ben, cat], seed_text=None)
    verified = await ben.slash(world.channel, "flipflop verify", round=1)
    assert not verified.ephemeral
    text = verified.response.content
    assert "was dealt fairly" in text and "commitment: OK" in text and "deck: OK" in text
    assert "python -m engine.fairness verify --server-seed" in text
    # a table's first round: the first dealer is checked too, named as the round names them
    row = await world.bot.db.fetchone("SELECT transcript FROM rounds WHERE id = 1")
    assert row is not None
    transcript = json.loads(row[0])
    seats = [seat["id"] for seat in transcript["seats"]]
    dealer = transcript["rounds"][0]["dealer"]
    assert (
        f"• ✔ first dealer: the seeds draw {seats.index(dealer)} (0 is the first player who joined), "
        f"that is <@{dealer}>, who dealt"
    ) in text
    # the command it prints, run as printed, checks the round: every line OK, status 0
    command = text.split("```\n")[1].split("\n```")[0]
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "engine.fairness"]
    assert argv[-2:] == ["--seats", str(len(seats))]  # a first round: the command draws the dealer too
    assert fairness.main(argv[3:]) == 0
    printed = capsys.readouterr().out
    assert printed.count(": OK") == 2
    assert f"first dealer: seat {seats.index(dealer)} (seat 0 is the first player who joined)" in printed
    await a_first_dealer_the_seeds_did_not_draw_does_not_check_out(world, monkeypatch, seats, dealer)
    history = await ann.slash(world.channel, "flipflop history")
    latest = await world.bot.db.fetchone("SELECT MAX(id) FROM rounds WHERE guild_id = ?", (world.guild.id,))
    assert latest is not None
    assert history.ephemeral and f"`#{latest[0]}`" in history.response.content
    rounds = history.response.content.count("round ")
    # a player of the latest round (whoever the deals left at the table by then) is named in it
    played = await world.bot.db.fetchall("SELECT user_id FROM round_players WHERE round_id = ?", (latest[0],))
    assert rounds >= 1 and played and all(f"<@{u}>" in history.response.content for (u,) in played)
    mine = await ann.slash(world.channel, "flipflop history", member=cat)
    assert mine.ephemeral and f"with <@{cat.id}>" in mine.response.content
    nobody = await ann.slash(world.channel, "flipflop history", member=world.members[3])
    assert "No finished rounds" in nobody.response.content
    stats = await ann.slash(world.channel, "flipflop stats")
    assert stats.ephemeral and "Games **1**" in stats.response.content
    assert "Rating **" in stats.response.content and "1 rated game)" in stats.response.content
    count = await world.bot.db.fetchone("SELECT COUNT(*) FROM round_players WHERE user_id = ?", (ann.id,))
    assert count is not None and f"rounds **{count[0]}**" in stats.response.content
    board = await cat.slash(world.channel, "leaderboard", by="rating")
    lines = board.response.embeds[0].description.splitlines()
    assert len(lines) == 3 and all("rating **" in line for line in lines)
    ordinals = [float(re.search(r"rating \*\*(-?[\d.]+)", line).group(1)) for line in lines]  # type: ignore[union-attr]
    assert ordinals == sorted(ordinals, reverse=True)
    assert "(you)" in "\n".join(lines)


async def test_story_lines_tell_the_round_with_the_hands_at_the_end(world: World) -> None:
    await play_game(world, world.members[:3], seed_text=None)
    result = await world.members[0].slash(world.channel, "flipflop round", id=1)
    text = result.response.content
    assert text.startswith("📖 **Round #1**") and "Seed revealed: `" in text
    # in the words the live table used (bot.presentation.event_words): one wording of each event
    assert "🃏 **Round 1** — " in text and " deals. Upcard " in text and "🏁" in text
    assert " drew " in text or " took " in text or "drops with" in text
    second = await world.members[0].slash(world.channel, "flipflop round", id=2)
    assert "🃏 **Round 2** — " in second.response.content  # the table's round number, not the replay's
    assert len(text) <= 2000


async def test_a_computer_is_rated_but_kept_off_the_human_board(world: World) -> None:
    ann, ben = world.members[:2]
    granted = await world.admin.slash(
        world.channel, "chips grant", member=bot_member(world), amount=5000, reason="house"
    )
    assert granted.acknowledged
    opened = await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)
    lobby = opened.response.message
    await ben.click(lobby, label="Join")
    await add_computer(world, ann, lobby, "basic")
    await ann.click(lobby, label="Start")
    hands = Hands(world)
    for _ in range(3000):
        t = table_in(world)
        if t is None:
            break
        g = t.game
        assert g is not None
        if not g.in_round or g.to_act is None or int(g.to_act) < 0:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        await play_simple_turn(world, member_by_pid(world, g.to_act), drop_below=25, hands=hands)
    rated = await world.bot.db.fetchall("SELECT user_id FROM ratings WHERE guild_id = ?", (world.guild.id,))
    assert -2 in {r[0] for r in rated}  # the basic computer's pseudo-member
    history = (await ann.slash(world.channel, "flipflop history")).response.content
    assert "🤖 Basic 1" in history and not re.search(r"🤖 Basic(?! 1)", history)  # named as the table did
    story = (await ann.slash(world.channel, "flipflop round", id=1)).response.content
    assert "🤖 Basic 1" in story.splitlines()[0], story
    board = await ann.slash(world.channel, "leaderboard", by="rating")
    text = board.response.embeds[0].description
    assert "<@" not in text and "🤖" not in text  # names, never raw mentions, in an embed
    assert {line.split(" — ")[0].split(" ", 1)[1].removesuffix(" (you)") for line in text.splitlines()} == {
        ann.name,
        ben.name,
    }


async def test_bad_input_gets_a_clear_private_answer_and_changes_nothing(world: World) -> None:
    ann, ben, cat, dan = world.members
    await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)
    table = table_in(world)
    assert table is not None
    before = json.dumps(table.fair.to_json())
    for text, word in [
        ("x" * 65, "the limit is 64"),
        ("bad\nline", "control character"),
        ("zero\u200bwidth", "invisible"),
        ("   ", "empty"),
        ("x` **free chips** [claim](https://e.vil) `y", "backtick (`) at position 2"),  # no Markdown way out
    ]:
        said = await ann.slash(world.channel, "flipflop seed", text=text)
        assert (
            said.ephemeral
            and word in said.response.content
            and "Nothing was changed" in said.response.content
        )
    outsider = await dan.slash(world.channel, "flipflop seed", text="hello")
    assert outsider.ephemeral and "Only players seated" in outsider.response.content
    assert json.loads(before)["player_seeds"] == table.fair.to_json()["player_seeds"] == []
    other = world.guild.create_text_channel("elsewhere")
    none_here = await ann.slash(other, "flipflop seed", text="hello")
    assert none_here.ephemeral and "no table in this channel" in none_here.response.content
    # no round finished yet: round ids are unknown (a round in play has no id and no seed yet)
    for command, option in [("flipflop verify", "round"), ("flipflop round", "id")]:
        for value in (1, 0, -5, 2**53 - 1):
            said = await ben.slash(world.channel, command, **{option: value})
            assert said.ephemeral and "no finished round" in said.response.content
            assert "seed stays secret until it ends" in said.response.content
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    for command in ("flipflop stats", "flipflop history"):
        said = await cat.slash(world.channel, command, member=robot)
        assert said.ephemeral and "Bots don't play" in said.response.content
    empty = await cat.slash(world.channel, "leaderboard", by="rating")
    assert "No one has a rating yet" in empty.response.embeds[0].description


async def test_rounds_of_another_server_are_unknown_here(world: World) -> None:
    await play_game(world, world.members[:3], seed_text=None)
    other = world.env.create_guild(name="Other Club")
    room = other.create_text_channel("general")
    stranger = other.add_member(world.env.create_user("zed"))
    for command, option in [("flipflop verify", "round"), ("flipflop round", "id")]:
        said = await stranger.slash(room, command, **{option: 1})
        assert said.ephemeral and "There's no finished round #1 in this server" in said.response.content
    said = await stranger.slash(room, "flipflop history")
    assert said.ephemeral and "No finished rounds in this server" in said.response.content


def test_a_long_round_story_drops_whole_lines_from_its_middle() -> None:
    """A story longer than a message (a long language, a long round) keeps the deal and the end."""
    from cogs.flipflop.history import fit_lines

    lines = [f"turn {i}: <@1456074443980800018> discarded `10♦`" for i in range(120)]
    text = fit_lines(lines, 1500, "… (the whole round is in the file)")
    assert len(text) <= 1500
    assert text.startswith("turn 0:") and text.endswith(lines[-1])
    assert all(line in lines or line.startswith("…") for line in text.split("\n"))  # no line cut in half
    assert fit_lines(lines[:3], 1500, "…") == "\n".join(lines[:3])


def test_a_cut_round_story_still_says_who_won_each_pot() -> None:
    """Flip and flop are paid after the first cycle of turns (R5.5): in the middle a long story loses."""
    from bot.i18n import texts
    from cogs.flipflop.history import shown_story

    t = texts("en")
    lines = [f"turn {i}: <@1456074443980800018> discarded `10♦`" for i in range(120)]
    pots = ["💰 **ann** wins the **flip pot** (15 chips).", "↪️ No one can win the flop pot this round."]
    lines[12:12] = pots
    for room in (1500, 900):
        text = shown_story(lines, pots, room, t)
        shown = text.split("\n")
        assert len(text) <= room and all(p in shown for p in pots), text
        assert shown[0] == lines[0] and shown[-1] == lines[-1]
        assert all(line in lines or line.startswith("…") for line in shown)  # whole lines only
    short = lines[:20]
    assert shown_story(short, pots, 1990, t) == "\n".join(short)  # nothing cut: told once, in place


def test_the_table_status_shortens_a_long_client_seed() -> None:
    from bot.presentation.table_render import SEED_SHOWN, short_seed

    busy = "-".join(str(1456074443980800000 + i) for i in range(30))  # a click each
    shown = short_seed(busy)
    assert len(shown) <= SEED_SHOWN and "…" in shown
    assert busy.startswith(shown.split("…")[0]) and busy.endswith(shown.split("…")[1])
    assert short_seed("1-2:lucky 7") == "1-2:lucky 7"


async def test_a_later_rounds_story_does_not_tell_an_earlier_elimination_again(world: World) -> None:
    """A player out of chips stays a seat of the table's later stored rounds, never dealt in: their
    /flipflop round stories start at the deal (the elimination was told when it happened, in its own
    round) and name that seat as the table did, never by its raw id."""
    cat = world.members[2]
    later = await out_of_the_game(world)
    for rid, who in later:
        story = await cat.slash(world.channel, "flipflop round", id=rid)
        lines = story.response.content.splitlines()
        told_again = [line for line in lines if "is out of chips" in line and str(who.id) in line]
        assert story.ephemeral and not told_again, told_again
        assert not [line for line in lines if str(who.id) in line.replace(f"<@{who.id}>", "")], lines
        attached = await round_file(world, cat, rid)  # the replay page's file names their seat too
        assert attached["names"].get(str(who.id)) == who.name, attached["names"]


async def test_a_members_seat_out_of_the_game_is_named_without_reading_the_tables_history(
    world: World,
) -> None:
    """A member's seat id is their id: /flipflop round (and every round record's replay link) names
    a member out of the game without a query over the server's rounds (``rounds`` has no index by
    table: on a big server the scan took about 0.5 s per story)."""
    cat = world.members[2]
    later = await out_of_the_game(world)
    db = world.bot.db
    asked: list[str] = []
    original = db.fetchall

    async def watched(sql: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(sql)
        return await original(sql, *args, **kwargs)

    db.fetchall = watched  # type: ignore[method-assign]
    try:
        for rid, who in later:
            attached = await round_file(world, cat, rid)
            assert attached["names"].get(str(who.id)) == who.name, attached["names"]
    finally:
        db.fetchall = original  # type: ignore[method-assign]
    assert not [sql for sql in asked if "table_id = ?" in sql], asked


async def a_first_dealer_the_seeds_did_not_draw_does_not_check_out(
    world: World, monkeypatch: pytest.MonkeyPatch, seats: list[str], dealer: str
) -> None:
    """R3.1's first dealer comes from the seeds (docs/FAIRNESS.md): a round 1 whose dealer is not the
    one the seeds draw does not check out, and both are named; a later round has no first dealer to check.

    Stored rounds are append-only, so the seeds are made to draw the next seat instead (in the game the
    test above played: a game of its own would add a minute of the suite's CPU)."""
    from dataclasses import replace

    from bot.fair_deal import Reveal

    ben = world.members[1]
    drawn = seats[(seats.index(dealer) + 1) % len(seats)]
    true_check = Reveal.check

    def next_seat_drawn(self: Reveal, deck: list[str], n: int | None = None) -> fairness.Verification:
        result = true_check(self, deck, n)
        return result if n is None else replace(result, first_dealer=(seats.index(dealer) + 1) % n)

    with monkeypatch.context() as patched:
        patched.setattr(Reveal, "check", next_seat_drawn)
        text = (await ben.slash(world.channel, "flipflop verify", round=1)).response.content
    assert "Round #1 does NOT check out" in text and "commitment: OK" in text and "deck: OK" in text
    assert f"• ✘ first dealer: the seeds draw {seats.index(drawn)} " in text
    assert f"that is <@{drawn}>, but <@{dealer}> dealt" in text
    later = (await ben.slash(world.channel, "flipflop verify", round=2)).response.content
    assert "was dealt fairly" in later and "first dealer" not in later and "--seats" not in later
