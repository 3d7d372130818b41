"""``/flipflop privacy`` and ``/flipflop admin`` through simcord: who may, what they see, bad input."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import simcord
from discord import app_commands
from discord.ui import Button

from bot import privacy
from bot.migrate import COPIED
from bot.storage import StoreError
from bot.table.model import Table
from cogs.flipflop import privacy as privacy_cog
from cogs.flipflop.admin import Confirm
from tests.cogs.helpers import (
    Hands,
    buttons,
    conserved,
    displayed,
    message,
    open_table,
    out_of_the_game,
    play_step,
    runtime,
    table_in,
)
from tests.cogs.test_restart import restart
from tests.conftest import World

MANAGERS_ONLY = "Only members with the **Manage Server** permission can do that."


async def dump(world: World) -> dict[str, list[Any]]:
    db = world.bot.db
    return {t: await db.fetchall(f"SELECT {', '.join(c)} FROM {t} ORDER BY 1, 2") for t, c in COPIED.items()}


def names_anywhere(data: dict[str, list[Any]], user_id: int) -> list[str]:
    return [
        table
        for table, rows in data.items()
        if any(v == user_id or (isinstance(v, str) and str(user_id) in v) for row in rows for v in row)
    ]


async def ask(world: World, who: simcord.MemberActor, command: str, **options: Any) -> Any:
    result = await who.slash(world.channel, command, **options)
    assert result.ephemeral and result.response is not None
    return result.response


async def test_forget_asks_then_replaces_the_member_everywhere(world: World) -> None:
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    await world.bot.ledger.grant(world.guild.id, ann.id, 40, world.admin.id)
    refused = await ask(world, ann, "flipflop privacy forget")
    assert "still part of the table in" in refused.content and f"<#{world.channel.id}>" in refused.content
    assert "nothing was changed" in refused.content and not buttons(refused)
    await runtime(world).close_by_manager(table.id, world.admin.id)
    assert table_in(world) is None
    await ann.slash(world.channel, "flipflop language", language="sw")
    await ann.slash(world.channel, "flipflop cards", style="four")
    before = await dump(world)
    assert {"language_choices", "card_styles"} <= set(names_anywhere(before, ann.id))

    question = await ask(world, ann, "flipflop privacy forget")  # in the language they chose
    assert question.content.startswith("**Tukusahau?**") and list(buttons(question)) == ["Nisahau", "Ghairi"]
    assert await dump(world) == before  # asking changes nothing
    kept = await ann.click(question.message, custom_id=buttons(question)["Ghairi"])
    assert kept.response.content == "Hakuna kilichobadilishwa." and not buttons(kept.response)
    assert await dump(world) == before

    question = await ask(world, ann, "flipflop privacy forget")
    done = await ann.click(question.message, custom_id=buttons(question)["Nisahau"])
    assert done.response.content.startswith("Imekamilika: safu ") and not buttons(done.response)
    after = await dump(world)
    assert names_anywhere(after, ann.id) == []
    assert names_anywhere(after, ben.id) != []  # only them
    await conserved(world)
    board = await world.admin.slash(world.channel, "leaderboard")
    assert f"<@{ann.id}>" not in board.response.embeds[0].description
    again = await ask(world, ann, "flipflop privacy forget")  # their language choice is gone too
    assert again.content == "This bot keeps nothing about you, so there is nothing to forget or export."
    nothing = await ask(world, ann, "flipflop privacy export")
    assert "keeps nothing about you" in nothing.content and not nothing.attachments


async def test_someone_with_nothing_stored_is_told_so(world: World) -> None:
    dan = world.members[3]
    for command in ("flipflop privacy forget", "flipflop privacy export"):
        answer = await ask(world, dan, command)
        assert "This bot keeps nothing about you" in answer.content
    assert await world.bot.db.fetchall("SELECT * FROM accounts") == []


async def test_export_sends_the_member_a_json_file_of_their_data(world: World) -> None:
    ann, ben, cat = world.members[:3]
    await open_table(world, [ann, ben, cat])
    answer = await ask(world, ann, "flipflop privacy export")
    assert "Here is everything this bot keeps about you" in answer.content
    (attached,) = answer.attachments
    assert attached.filename == f"flipflop-data-{ann.id}.json"
    data = json.loads(await attached.read())
    assert data["member"] == str(ann.id)
    assert [r["reason"] for r in data["tables"]["ledger"]] == ["starting", "buy_in"]
    (table,) = data["tables"]["tables"]
    assert table["status"] == "playing" and table["state"] is None  # others' hands stay hidden


async def test_admin_commands_are_refused_to_members_without_manage_server(world: World) -> None:
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    before = await dump(world)
    for command, options in (
        ("flipflop admin tables", {}),
        ("flipflop admin close", {"table": table.id}),
        ("flipflop admin audit", {}),
        ("flipflop admin dumping", {}),
    ):
        answer = await ask(world, ann, command, **options)
        assert answer.content == MANAGERS_ONLY
        simcord.assert_error(world.env, app_commands.MissingPermissions)
    assert await dump(world) == before and table_in(world) is table


def rt_table(world: World, channel_id: int) -> Table:
    table = world.bot.runtime.in_channel(channel_id)  # type: ignore[union-attr]
    assert table is not None
    return table


async def test_admin_tables_lists_where_who_and_since_when(world: World) -> None:
    boss = world.admin
    empty = await ask(world, boss, "flipflop admin tables")
    assert empty.content == "No Flip Flop table is open in this server."
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    listed = await ask(world, boss, "flipflop admin tables")
    head, line = listed.content.splitlines()
    assert head == "Open Flip Flop tables in this server:"
    where = f"`{table.id}` in <#{world.channel.id}>"
    assert line.startswith(f"{where} · in play · ann, ben, cat · 600 chips at the table")
    assert "opened <t:" in line and "last move <t:" in line
    # a practice table elsewhere: its chips are play money, and the list says so
    practice_room = world.guild.create_text_channel("practice")
    await world.members[3].slash(practice_room, "flipflop practice")
    listed = await ask(world, boss, "flipflop admin tables")
    practice = next(line for line in listed.content.splitlines() if f"<#{practice_room.id}>" in line)
    assert "· practice ·" in practice and "practice chips at the table" in practice, practice
    # when it was opened, though no chips of the ledger moved: the table keeps it
    opened = rt_table(world, practice_room.id).opened_at
    assert opened is not None and f"opened <t:{int(opened)}:R>" in practice, practice


async def test_admin_close_asks_then_refunds_every_stack_and_pot(world: World) -> None:
    boss = world.admin
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    unknown = await ask(world, boss, "flipflop admin close", table="nope")
    assert "There's no open table `nope` in this server" in unknown.content
    question = await ask(world, boss, "flipflop admin close", table=table.id)
    assert f"Close table `{table.id}` in <#{world.channel.id}>?" in question.content
    assert "(600 chips in all)" in question.content and list(buttons(question)) == [
        "Close the table",
        "Cancel",
    ]
    assert table_in(world) is table
    closed = await boss.click(question.message, custom_id=buttons(question)["Close the table"])
    assert closed.response.content == f"Table `{table.id}` is closed; 600 chips went back to the players."
    assert table_in(world) is None and runtime(world).get(table.id) is None
    await world.env.settle()
    shown = displayed(message(world, world.channel.id, table.message_id))  # type: ignore[arg-type]
    assert "table closed" in shown and "to act" not in shown and "▶️" not in shown  # nobody is to act now
    rows = await world.bot.db.fetchall(
        "SELECT user_id, change, actor_id FROM ledger WHERE reason = 'refund' AND reference = ?", (table.id,)
    )
    assert sorted(u for u, _, _ in rows) == sorted(m.id for m in (ann, ben, cat))
    assert sum(c for _, c, _ in rows) == 600 and {a for _, _, a in rows} == {boss.id}
    await conserved(world)
    ok = await ask(world, boss, "flipflop admin audit")
    assert ok.content == (
        "✅ The chips balance: 3,000 chips brought in = 3,000 chips in balances + 0 chips at tables.\n\n"
        "No manager has granted or taken chips here yet."
    )


async def test_closing_a_table_that_just_ended_says_so(world: World) -> None:
    boss = world.admin
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    question = await ask(world, boss, "flipflop admin close", table=table.id)
    other = await ask(world, boss, "flipflop admin close", table=table.id)  # asked twice: one closes it
    await boss.click(other.message, custom_id=buttons(other)["Close the table"])
    assert table_in(world) is None
    before = await dump(world)
    late = await boss.click(question.message, custom_id=buttons(question)["Close the table"])
    assert late.response.content == f"Table `{table.id}` has already ended; there was nothing to close."
    assert await dump(world) == before
    again = await ask(world, boss, "flipflop admin close", table=table.id)
    assert "There's no open table" in again.content and "it may have just ended" in again.content


async def test_admin_audit_shows_the_difference_and_the_rows(world: World) -> None:
    boss, ann = world.admin, world.members[0]
    await world.bot.ledger.balance(world.guild.id, ann.id)
    async with world.bot.db.transaction() as tx:
        await tx.execute("UPDATE accounts SET balance = balance + 3 WHERE user_id = ?", (ann.id,))
    answer = await ask(world, boss, "flipflop admin audit")
    assert answer.content.startswith(
        "⚠️ The chips don't balance: 1,000 chips brought in, but 1,003 chips in balances + 0 chips at tables"
        " (a difference of +3). The rows to look at:"
    )
    assert f"member {ann.id}: balance 1003 but entries sum to 1000" in answer.content
    assert len(answer.content) <= 2000


async def test_an_unanswered_question_loses_its_buttons(world: World) -> None:
    ann = world.members[0]
    await world.bot.ledger.balance(world.guild.id, ann.id)
    question = await ask(world, ann, "flipflop privacy forget")
    assert list(buttons(question)) == ["Forget me", "Cancel"]
    await world.env.advance_time(100)
    still = message(world, question.message.channel.id, question.message.id)
    assert list(buttons(still)) == ["Forget me", "Cancel"]
    await world.env.advance_time(21)
    shown = message(world, question.message.channel.id, question.message.id)
    assert buttons(shown) == {} and "**Forget you?**" in (shown.content or "")
    assert await world.bot.db.fetchone("SELECT balance FROM accounts WHERE user_id = ?", (ann.id,)) == (1000,)


async def test_a_forgotten_member_shows_in_history_without_a_mention(world: World) -> None:
    ann, ben, cat = world.members[:3]
    table = await open_table(world, [ann, ben, cat])
    hands = Hands(world)
    while not await world.bot.db.fetchall("SELECT id FROM rounds"):
        assert await play_step(world, hands, drop_below=100)  # drops end the round soon
    await runtime(world).close_by_manager(table.id, world.admin.id)
    done = await privacy.forget(world.bot.db, ann.id, "member")
    assert done is not None and done.by_table["rounds"] == 1
    shown = await ben.slash(world.channel, "flipflop history")
    text = shown.response.embeds[0].description if shown.response.embeds else shown.response.content
    assert f"👤 {str(done.pseudonym)[-4:]}" in text and "<@-" not in text and f"<@{ann.id}>" not in text
    assert f"<@{ben.id}>" in text


async def test_many_open_tables_fit_one_answer_and_autocomplete_offers_this_servers(world: World) -> None:
    boss, ann = world.admin, world.members[0]
    await world.bot.ledger.grant(world.guild.id, ann.id, 100_000, boss.id)
    channels = [world.guild.create_text_channel(f"table-{i}") for i in range(30)]
    opened = [await runtime(world).open(world.guild.id, c.id, ann.id, "ann", 5, 200, 60) for c in channels]
    listed = await ask(world, boss, "flipflop admin tables")
    lines = listed.content.splitlines()
    assert len(listed.content) <= 2000 and lines[-1].startswith("… and ") and lines[-1].endswith(" more.")
    shown = len(lines) - 2
    assert shown >= 10 and lines[-1] == f"… and {30 - shown} more."
    assert all("waiting for players" in line for line in lines[1:-1])
    offered = await boss.autocomplete(world.channel, "flipflop admin close", "table", opened[3].id[:5])
    assert opened[3].id in [choice["value"] for choice in offered]
    everything = await boss.autocomplete(world.channel, "flipflop admin close", "table", "")
    assert len(everything) == 25 and all(len(choice["name"]) <= 100 for choice in everything)


async def test_a_large_export_is_gzipped_and_one_too_large_is_explained(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = world.members[0]
    await world.bot.ledger.grant(world.guild.id, ann.id, 5, world.admin.id)
    data = await privacy.export(world.bot.db, ann.id)
    assert data is not None
    plain = len(privacy.export_file(data, 10**9)[1])
    zipped = len(privacy.export_file(data, 0)[1])
    assert zipped < plain
    monkeypatch.setattr(privacy_cog, "ATTACHMENT_BYTES", (zipped + plain) // 2)
    answer = await ask(world, ann, "flipflop privacy export")
    (attached,) = answer.attachments
    assert attached.filename == f"flipflop-data-{ann.id}.json.gz"
    assert json.loads(gzip.decompress(await attached.read()))["member"] == str(ann.id)
    monkeypatch.setattr(privacy_cog, "ATTACHMENT_BYTES", zipped // 2)  # far below: times in it vary
    refused = await ask(world, ann, "flipflop privacy export")
    assert "too large to send here" in refused.content and not refused.attachments


async def test_a_confirmed_request_that_fails_says_nothing_changed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = world.members[0]
    await world.bot.ledger.balance(world.guild.id, ann.id)
    question = await ask(world, ann, "flipflop privacy forget")

    async def broken(*_: object, **__: object) -> None:
        raise StoreError("the database went away")

    monkeypatch.setattr(privacy, "forget", broken)
    before = await dump(world)
    failed = await ann.click(question.message, custom_id=buttons(question)["Forget me"])
    assert failed.response.content.startswith("Something went wrong on our side; nothing was changed.")
    assert not buttons(failed.response) and await dump(world) == before


async def test_forget_also_forgets_a_remembered_turn_ping_choice(world: World) -> None:
    ann = world.members[0]
    await ann.slash(world.channel, "flipflop notify", turn="off")
    assert "**off**" in (await ann.slash(world.channel, "flipflop notify")).response.content
    question = await ask(world, ann, "flipflop privacy forget")
    done = await ann.click(question.message, custom_id=buttons(question)["Forget me"])
    assert done.response.content.startswith("Done:")
    rows = await world.bot.db.fetchone("SELECT COUNT(*) FROM notify_choices WHERE user_id = ?", (ann.id,))
    assert rows == (0,)
    # Not only the row: the bot's memory of the choice goes too, so they are pinged again (the default).
    assert "**on**" in (await ann.slash(world.channel, "flipflop notify")).response.content


async def test_forget_reaches_the_rounds_dealt_after_the_member_was_out(world: World) -> None:
    """A member out of the game (out of chips, or gone between rounds) stays a seat of the later rounds'
    transcripts, never dealt in (R2.3): export lists those rounds and forget rewrites them too."""
    cat = world.members[2]
    pairs = await out_of_the_game(world)  # the case at hand: out before the game's last round
    out = pairs[0][1]
    later = {out: [rid for rid, who in pairs if who is out]}
    rounds = await world.bot.db.fetchall("SELECT id, transcript FROM rounds ORDER BY id")
    named = [rid for rid, transcript in rounds if str(out.id) in transcript]
    exported = await privacy.export(world.bot.db, out.id)
    assert exported is not None
    assert [r["id"] for r in exported["tables"]["rounds"]] == named
    assert all(str(out.id) in json.dumps(r) for r in exported["tables"]["rounds"])  # only rows naming them
    question = await ask(world, out, "flipflop privacy forget")
    done = await out.click(question.message, custom_id=buttons(question)["Forget me"])
    assert done.response.content.startswith("Done:")
    assert names_anywhere(await dump(world), out.id) == []
    for round_id in later[out]:  # still replayed and told, with the pseudonym in the empty seat
        story = await cat.slash(world.channel, "flipflop round", id=round_id)
        assert story.ephemeral and str(out.id) not in story.response.content


async def test_a_question_asked_before_a_restart_is_answered_and_changes_nothing(
    world: World, db_path: Path
) -> None:
    boss, ann, ben, cat, dan = world.admin, *world.members[:4]
    table = await open_table(world, [ann, ben, cat])
    await world.bot.ledger.balance(world.guild.id, dan.id)
    forget = await ask(world, dan, "flipflop privacy forget")
    close = await ask(world, boss, "flipflop admin close", table=table.id)
    await restart(world, db_path)  # the questions' buttons were only held in the old process
    before = await dump(world)
    for who, question, label in ((dan, forget, "Forget me"), (boss, close, "Close the table")):
        for clicked in (label, "Cancel"):
            late = await who.click(question.message, custom_id=buttons(question)[clicked])
            assert late.ephemeral and late.response is not None, clicked
            assert late.response.content == (
                "This question has expired, so nothing was changed. Use the command again to be asked again."
            )
    assert await dump(world) == before
    assert table_in(world) is not None


async def test_a_second_click_on_an_answered_question_is_told_so_and_does_nothing() -> None:
    """Two quick clicks: the first answers, the second (before its buttons went) is told it is over.

    simcord lets no click overlap another, so the question is asked directly.
    """
    said: list[tuple[str, bool]] = []
    done: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, *, ephemeral: bool = False, **_: Any) -> None:
            said.append((text, ephemeral))

    class Click:
        user = type("User", (), {"id": 7})()
        response = Response()

    async def yes(_: Any) -> str:
        done.append("yes")
        return "done"

    view = Confirm(7, "Yes", "No", yes, "kept", "failed", "gone")
    assert all(str(b.custom_id).startswith("ff:q:") for b in view.children if isinstance(b, Button))
    assert await view.interaction_check(Click())  # type: ignore[arg-type]
    view.answered = True  # the first click's answer
    assert not await view.interaction_check(Click())  # type: ignore[arg-type]
    assert said == [("gone", True)] and done == []
    view.stop()
