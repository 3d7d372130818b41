"""/balance, /daily, /leaderboard, /chips through simcord: who sees what, refusals, bad input."""

from __future__ import annotations

import pytest
import simcord
from discord import app_commands

from tests.cogs.helpers import conserved
from tests.conftest import World


async def test_balance_opens_an_account_with_the_starting_balance(world: World) -> None:
    ann = world.members[0]
    result = await ann.slash(world.channel, "balance")
    assert result.ephemeral
    assert "1,000 chips" in result.response.content
    assert "#1 of 1" in result.response.content
    assert await world.bot.ledger.audit(world.guild.id) == []


async def test_daily_once_per_day(world: World) -> None:
    ann = world.members[0]
    first = await ann.slash(world.channel, "daily")
    assert not first.ephemeral and "200 chips" in first.response.content
    second = await ann.slash(world.channel, "daily")
    assert second.ephemeral and "already claimed" in second.response.content
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 1200
    await world.env.advance_time(24 * 3600 + 1)
    third = await ann.slash(world.channel, "daily")
    assert not third.ephemeral
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 1400


async def test_daily_chips_switched_off_are_refused_privately_and_open_no_account(world: World) -> None:
    ann = world.members[0]
    await world.admin.slash(world.channel, "flipflop config", daily_amount=0)
    off = await ann.slash(world.channel, "daily")
    assert off.ephemeral and off.response.content == (
        "Daily chips are switched off on this server. Nothing was changed."
    )
    row = await world.bot.db.fetchone(
        "SELECT COUNT(*) FROM accounts WHERE guild_id = ? AND user_id = ?", (world.guild.id, ann.id)
    )
    assert row == (0,)  # no account opened, no claim recorded
    await world.admin.slash(world.channel, "flipflop config", daily_amount=50)
    on = await ann.slash(world.channel, "daily")  # switched on again: the claim is there at once
    assert not on.ephemeral and "50 chips" in on.response.content


async def test_balance_of_another_member_and_of_a_bot(world: World) -> None:
    ann, ben = world.members[:2]
    await world.bot.ledger.grant(world.guild.id, ben.id, 500, world.admin.id)
    result = await ann.slash(world.channel, "balance", member=ben)
    assert result.ephemeral and "ben has **1,500 chips**" in result.response.content
    assert "#1 of" in result.response.content
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    refused = await ann.slash(world.channel, "balance", member=robot)
    assert refused.ephemeral and "Bots don't have chips" in refused.response.content


async def test_a_members_name_is_shown_as_written_not_as_markdown(world: World) -> None:
    """A name with Markdown in it (``*star*``) reads as typed in /balance and /chips take's refusal."""
    starry = world.guild.add_member(world.env.create_user("*star*_@everyone"))
    seen = (await world.members[0].slash(world.channel, "balance", member=starry)).response.content
    assert seen.startswith("\\*star\\*\\_@\u200beveryone has **1,000 chips**"), seen
    taken = await world.admin.slash(world.channel, "chips take", member=starry, amount=5000, reason="x")
    assert "\\*star\\*\\_@\u200beveryone has only 1,000 chips" in taken.response.content

async def test_leaderboard_shows_top_ten_and_the_callers_place(world: World) -> None:
    extra = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(11)]
    for i, m in enumerate(extra):
        await world.bot.ledger.grant(world.guild.id, m.id, 100 * (i + 1), world.admin.id)
    ann = world.members[0]
    result = await ann.slash(world.channel, "leaderboard")
    assert not result.ephemeral
    text = result.response.embeds[0].description
    assert text.count("\n") >= 10
    assert text.splitlines()[0].startswith(f"🥇 {extra[-1].name} — ")
    assert "<@" not in text  # an embed does not resolve mentions: a client that never met them shows digits
    assert f"{ann.name} (you)" in text and "`12`" in text
    top = await extra[-1].slash(world.channel, "leaderboard")  # the caller among the ten: no line below
    first = top.response.embeds[0].description.splitlines()[0]
    assert first == f"🥇 {extra[-1].name} — 2,100 chips", first
    assert "…" not in top.response.embeds[0].description


async def test_rating_board_marks_the_caller_and_gives_their_place_below_the_ten(world: World) -> None:
    """``/leaderboard by:rating`` names the caller's own place, as the chips board does."""
    extra = [world.guild.add_member(world.env.create_user(f"r{i}")) for i in range(11)]
    ann = world.members[0]
    rows = [(m.id, 33.0 - i, float(30 - i)) for i, m in enumerate(extra)] + [(ann.id, 20.0, -2.84)]
    async with world.bot.db.transaction() as tx:
        for user_id, mu, ordinal in rows:
            await tx.execute(
                "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, games, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (world.guild.id, user_id, mu, (mu - ordinal) / 3, ordinal, 3, 0.0),
            )
    board = await ann.slash(world.channel, "leaderboard", by="rating")
    assert not board.ephemeral
    lines = board.response.embeds[0].description.splitlines()
    assert len(lines) == 12 and lines[10] == "…", lines
    assert lines[11] == f"`12` {ann.name} (you) — rating **-2.8** (3 games), of 12 rated players"
    assert "(you)" not in "\n".join(lines[:11])
    leader = await extra[0].slash(world.channel, "leaderboard", by="rating")
    shown = leader.response.embeds[0].description.splitlines()
    assert shown[0] == f"🥇 {extra[0].name} (you) — rating **30.0** (3 games)" and len(shown) == 10
    nobody = world.guild.add_member(world.env.create_user("unrated"))
    plain = await nobody.slash(world.channel, "leaderboard", by="rating")
    assert "(you)" not in plain.response.embeds[0].description  # no rating, no place


async def test_grant_and_take_by_an_admin_are_public_and_logged(world: World) -> None:
    ann = world.members[0]
    granted = await world.admin.slash(
        world.channel, "chips grant", member=ann, amount=250, reason="  won the\nquiz night "
    )
    assert not granted.ephemeral and "granted **250 chips**" in granted.response.content
    assert "quiz" not in granted.response.content  # the reason is for managers: the audit shows it
    taken = await world.admin.slash(world.channel, "chips take", member=ann, amount=50, reason="spam")
    assert not taken.ephemeral and "1,200 chips" in taken.response.content
    rows = await world.bot.db.fetchall(
        "SELECT reason, change, actor_id, note FROM ledger WHERE user_id = ? ORDER BY id", (ann.id,)
    )
    assert rows == [
        ("starting", 1000, None, None),
        ("grant", 250, world.admin.id, "won the quiz night"),  # on one line
        ("take", -50, world.admin.id, "spam"),
    ]
    assert await world.bot.ledger.audit(world.guild.id) == []


@pytest.mark.parametrize(
    ("command", "reason", "said"),
    [
        ("chips grant", "   ", "Say why in a few words"),
        ("chips take", "\n\t", "Say why in a few words"),
        ("chips grant", "x" * 201, "The reason is 201 characters long; the limit is 200."),
    ],
)
async def test_a_grant_or_take_without_a_reason_is_refused_and_writes_nothing(
    world: World, command: str, reason: str, said: str
) -> None:
    ann = world.members[0]
    await world.bot.ledger.balance(world.guild.id, ann.id)
    before = await world.bot.db.fetchall("SELECT * FROM ledger")
    try:
        result = await world.admin.slash(world.channel, command, member=ann, amount=5, reason=reason)
    except simcord.OptionError:  # Discord itself refuses a reason over its 200 characters
        assert len(reason) > 200
    else:
        assert result.ephemeral and said in result.response.content
        assert "Nothing was changed." in result.response.content
    assert await world.bot.db.fetchall("SELECT * FROM ledger") == before
    with pytest.raises(simcord.OptionError):  # the reason is required
        await world.admin.slash(world.channel, command, member=ann, amount=5)


async def test_the_audit_lists_every_grant_and_take_with_who_and_why(world: World) -> None:
    ann, ben = world.members[:2]
    await world.admin.slash(world.channel, "chips grant", member=ann, amount=250, reason="won the *quiz*")
    await world.admin.slash(world.channel, "chips take", member=ben, amount=50, reason="@everyone spam")
    await world.bot.ledger.grant(world.guild.id, ben.id, 7, world.admin.id)  # an entry from before reasons
    audit = await world.admin.slash(world.channel, "flipflop admin audit")
    assert audit.ephemeral
    lines = audit.response.content.splitlines()
    assert lines[0].startswith("✅ The chips balance: 2,207 chips brought in")
    assert lines[2] == "Latest grants and takes by managers (who, to whom, why):"
    admin = f"<@{world.admin.id}>"
    assert lines[3].endswith(f"{admin} granted **7 chips** to <@{ben.id}>: (no reason recorded)")
    assert lines[4].endswith(f"{admin} took **50 chips** from <@{ben.id}>: “@\u200beveryone spam”")
    assert lines[5].endswith(f"{admin} granted **250 chips** to <@{ann.id}>: “won the \\*quiz\\*”")
    assert lines[5].startswith("• <t:") and ":R>" in lines[5]  # when, as Discord shows it to each reader


async def test_take_more_than_the_balance_is_refused_and_writes_nothing(world: World) -> None:
    ann = world.members[0]
    await world.bot.ledger.balance(world.guild.id, ann.id)
    before = await world.bot.db.fetchall("SELECT * FROM ledger")
    result = await world.admin.slash(world.channel, "chips take", member=ann, amount=5000, reason="x")
    assert result.ephemeral and "has only 1,000 chips" in result.response.content
    assert await world.bot.db.fetchall("SELECT * FROM ledger") == before


async def test_a_grant_past_the_largest_balance_is_refused_and_writes_nothing(world: World) -> None:
    ann = world.members[0]
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 1000
    before = await world.bot.db.fetchall("SELECT * FROM ledger")
    result = await world.admin.slash(
        world.channel, "chips grant", member=ann, amount=1_000_000_000, reason="x"
    )
    assert result.ephemeral, result.response.content
    assert result.response.content == (
        "A grant can't take a balance past 1,000,000,000 chips: this one has 1,000, so you can grant up"
        " to 999,999,000. Nothing was changed."
    )
    assert await world.bot.db.fetchall("SELECT * FROM ledger") == before
    filled = await world.admin.slash(world.channel, "chips grant", member=ann, amount=999_999_000, reason="x")
    assert not filled.ephemeral and await world.bot.ledger.balance(world.guild.id, ann.id) == 1_000_000_000
    full = await world.admin.slash(world.channel, "chips grant", member=ann, amount=1, reason="x")
    assert full.ephemeral and "you can grant up to 0" in full.response.content
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == 1_000_000_000


async def test_grant_to_a_bot_is_refused(world: World) -> None:
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    result = await world.admin.slash(world.channel, "chips grant", member=robot, amount=5, reason="x")
    assert result.ephemeral and "Bots" in result.response.content
    assert await world.bot.db.fetchall("SELECT * FROM ledger WHERE user_id = ?", (robot.id,)) == []


@pytest.mark.parametrize("amount", [0, -5, 10**12])
async def test_bad_amounts_can_not_be_sent(world: World, amount: int) -> None:
    with pytest.raises(simcord.OptionError):
        await world.admin.slash(
            world.channel, "chips grant", member=world.members[0], amount=amount, reason="x"
        )
    assert await world.bot.db.fetchall("SELECT * FROM ledger WHERE reason = 'grant'") == []


async def test_members_without_manage_server_can_not_grant(world: World) -> None:
    ann, ben = world.members[:2]
    assert "chips grant" not in ann.available_commands(world.channel)
    with pytest.raises(simcord.SetupError):
        await ann.slash(world.channel, "chips grant", member=ben, amount=5, reason="x")
    assert await world.bot.db.fetchall("SELECT * FROM ledger WHERE reason = 'grant'") == []


async def test_commands_are_not_offered_in_direct_messages(world: World) -> None:
    user = world.members[0]
    assert "balance" in user.available_commands(world.channel)
    dm_commands = world.env.create_user("loner").available_commands()
    for name in ("balance", "daily", "leaderboard", "chips grant", "flipflop config", "flipflop start"):
        assert name not in dm_commands


async def test_config_view_and_change_by_an_admin(world: World) -> None:
    shown = await world.admin.slash(world.channel, "flipflop config")
    assert shown.ephemeral and "Default stake: **5 chips**, buy-in: **200 chips**" in shown.response.content
    changed = await world.admin.slash(world.channel, "flipflop config", stake=10, buy_in=400, turn_seconds=90)
    assert changed.ephemeral and "Settings saved" in changed.response.content
    s = await world.bot.ledger.settings(world.guild.id)
    assert (s.default_stake, s.default_buy_in, s.turn_seconds) == (10, 400, 90)


@pytest.mark.parametrize(
    ("options", "words"),
    [({"stake": 10, "buy_in": 30}, "four stakes"), ({"stake": 10, "buy_in": 45}, "multiple")],
)
async def test_config_refuses_unplayable_stakes(world: World, options: dict[str, int], words: str) -> None:
    result = await world.admin.slash(world.channel, "flipflop config", **options)
    assert (
        result.ephemeral
        and words in result.response.content
        and "Nothing was changed" in result.response.content
    )
    assert (await world.bot.ledger.settings(world.guild.id)).default_stake == 5


async def test_a_stake_alone_that_the_servers_buy_in_doesnt_suit_names_buy_ins_that_would(
    world: World,
) -> None:
    """The server's buy-in (200) is no multiple of 7, nor four stakes of 60: refused, with two that are."""
    seven = await world.admin.slash(world.channel, "flipflop config", stake=7)
    assert seven.ephemeral and seven.response.content == (
        "The buy-in must be a multiple of the stake (7). Nothing was changed. The server's "
        "buy-in is 200 chips: give a `buy_in` with the stake, such as 196 or 203."
    )
    sixty = await world.admin.slash(world.channel, "flipflop config", stake=60)
    assert "such as 240 or 300." in sixty.response.content
    named = await world.admin.slash(world.channel, "flipflop config", stake=7, buy_in=200)
    assert "such as" not in named.response.content  # the admin named the buy-in: the refusal alone
    assert (await world.bot.ledger.settings(world.guild.id)).default_stake == 5
    taken = await world.admin.slash(world.channel, "flipflop config", stake=7, buy_in=203)
    assert "Settings saved" in taken.response.content


async def test_config_is_for_admins_only(world: World) -> None:
    # Discord applies default permissions to whole groups only, so /flipflop config is
    # offered to everyone in the /flipflop group and refused at run time.
    result = await world.members[0].slash(world.channel, "flipflop config", stake=1, buy_in=4)
    assert result.ephemeral and "Manage Server" in result.response.content
    simcord.assert_error(world.env, app_commands.MissingPermissions)
    assert (await world.bot.ledger.settings(world.guild.id)).default_stake == 5


async def test_starting_balance_setting_applies_to_new_accounts(world: World) -> None:
    await world.admin.slash(world.channel, "flipflop config", starting_balance=50)
    result = await world.members[1].slash(world.channel, "balance")
    assert "**50 chips**" in result.response.content


async def test_config_warns_when_the_default_buy_in_is_more_than_a_new_member_starts_with(
    world: World,
) -> None:
    """Saved all the same (a server may mean it), but said at once and on every look at the settings."""
    low = await world.admin.slash(world.channel, "flipflop config", starting_balance=150)
    warning = (
        "⚠️ The default buy-in (200 chips) is more than a new member starts with (150 chips): they "
        "can't join a table at the default buy-in until they have more chips."
    )
    assert low.ephemeral and "Settings saved" in low.response.content and warning in low.response.content
    assert (await world.bot.ledger.settings(world.guild.id)).starting_balance == 150
    looked = await world.admin.slash(world.channel, "flipflop config")
    assert warning in looked.response.content
    fixed = await world.admin.slash(world.channel, "flipflop config", buy_in=100)
    assert "⚠️" not in fixed.response.content


async def test_leaderboard_names_a_member_the_bot_does_not_know_by_mention_only(world: World) -> None:
    """A member who left the server has no name the bot knows: the mention is the last resort."""
    ann = world.members[0]
    await world.bot.ledger.grant(world.guild.id, 987654321, 5000, world.admin.id)
    board = await ann.slash(world.channel, "leaderboard")
    lines = board.response.embeds[0].description.splitlines()
    assert lines[0] == "🥇 <@987654321> — 6,000 chips"
    assert all("<@" not in line for line in lines[1:])


async def test_a_stake_alone_keeps_the_servers_buy_in_in_stakes(world: World) -> None:
    """README: /flipflop start's defaults come from the server settings; a stake given alone buys in
    for as many stakes as the server's own buy-in (5 / 100 is 20 stakes: stake 10 buys in for 200)."""
    await world.admin.slash(world.channel, "flipflop config", stake=5, buy_in=100)
    ann, ben = world.members[:2]
    opened = await ann.slash(world.channel, "flipflop start", stake=10)
    assert not opened.ephemeral
    table = world.bot.runtime.in_channel(world.channel.id)  # type: ignore[union-attr]
    assert table is not None and (table.stake, table.buy_in) == (10, 200)
    await ann.click(opened.response.message, label="Cancel")
    plain = await ben.slash(world.channel, "flipflop start")
    assert not plain.ephemeral
    table = world.bot.runtime.in_channel(world.channel.id)  # type: ignore[union-attr]
    assert table is not None and (table.stake, table.buy_in) == (5, 100)


async def test_a_stake_too_large_for_the_servers_buy_in_is_refused_as_a_stake(world: World) -> None:
    """A stake alone whose buy-in (the server's 40 stakes) passes the largest amount is refused
    privately, naming the stake and the largest one, not a buy-in nobody typed; nothing opens."""
    ann = world.members[0]
    before = await world.bot.ledger.balance(world.guild.id, ann.id)
    refused = await ann.slash(world.channel, "flipflop start", stake=250_000_000)
    text = refused.response.content
    assert refused.ephemeral and "That stake is too large" in text and "Nothing was changed" in text
    assert "40 stakes" in text and "25,000,000 chips" in text, text
    assert world.bot.runtime.in_channel(world.channel.id) is None  # type: ignore[union-attr]
    assert await world.bot.ledger.balance(world.guild.id, ann.id) == before
    named = await ann.slash(world.channel, "flipflop start", stake=25_000_000)  # the largest stake
    assert named.ephemeral and "but the buy-in is 1,000,000,000 chips" in named.response.content

async def test_balance_names_the_chips_at_a_table_too(world: World) -> None:
    """Seen in a playtest: in a lobby, /balance said 800 chips and nothing of the 200 bought in."""
    ann, ben = world.members[:2]
    opened = await ann.slash(world.channel, "flipflop start")
    mine = (await ann.slash(world.channel, "balance")).response.content
    assert "**800 chips**" in mine and "At a table now: **200 chips** more." in mine, mine
    theirs = (await ben.slash(world.channel, "balance", member=ann)).response.content
    assert "At a table now: **200 chips** more." in theirs, theirs
    own = (await ben.slash(world.channel, "balance")).response.content
    assert "At a table" not in own  # ben holds none
    await ann.click(opened.response.message, label="Cancel")
    assert "At a table" not in (await ann.slash(world.channel, "balance")).response.content


async def test_a_member_who_left_is_looked_up_and_named_as_gone_and_nothing_changes(world: World) -> None:
    """Someone who left keeps their account, rounds and stats here: /balance, /flipflop stats and
    /flipflop history show them (Discord sends a user option without a member: they left, or an id was
    pasted), named as written and "(no longer in this server)"; no look-up opens or moves anything."""
    from tests.cogs.test_game import ended_game  # it imports conftest fixtures: imported here

    ann, ben, cat = world.members[:3]
    await ended_game(world, [ann, ben, cat])
    world.guild.remove_member(cat)
    gone = cat.user
    before = await world.bot.db.fetchall("SELECT * FROM ledger ORDER BY id")
    balance = (await ann.slash(world.channel, "balance", member=gone)).response.content
    held = await world.bot.ledger.balance(world.guild.id, cat.id)
    assert balance.startswith(f"cat (no longer in this server) has **{held:,} chips** — #"), balance
    stats = await ann.slash(world.channel, "flipflop stats", member=gone)
    assert stats.ephemeral and stats.response.content.startswith(
        "📊 **cat (no longer in this server)** in this server\nGames **1** · rounds **1**"
    ), stats.response.content
    history = await world.admin.slash(world.channel, "flipflop history", member=gone)
    assert history.ephemeral and history.response.content.startswith(
        "📜 **Last rounds with cat (no longer in this server)** (newest first"
    ), history.response.content
    assert f"<@{cat.id}>" in history.response.content.splitlines()[-1]  # the round they played, its seats
    assert await world.bot.db.fetchall("SELECT * FROM ledger ORDER BY id") == before


async def test_someone_with_no_records_here_is_told_so_and_no_account_opens(world: World) -> None:
    """A user who never played nor held chips here (an id pasted): a friendly "no records", no account."""
    stranger = world.env.create_user("*never*")
    for command in ("balance", "flipflop stats", "flipflop history"):
        said = await world.members[0].slash(world.channel, command, member=stranger)
        assert said.ephemeral and said.response.content == (
            "\\*never\\* isn't a member of this server and has no Flip Flop records here."
        ), (command, said.response.content)
    taken = await world.admin.slash(world.channel, "chips take", member=stranger, amount=5, reason="x")
    assert taken.ephemeral and taken.response.content == (
        "\\*never\\* isn't a member of this server and has no chips here; nothing was changed."
    )
    opened = await world.bot.db.fetchone("SELECT COUNT(*) FROM accounts WHERE user_id = ?", (stranger.id,))
    assert opened == (0,)


async def test_chips_are_taken_from_one_who_left_but_never_granted_to_them(world: World) -> None:
    """An admin may take chips back from an account its owner left (a take, audited and conserved like
    any); a grant to someone who is no member is refused: chips go to people who can play them."""
    gone = world.env.create_user("*gone*")
    await world.bot.ledger.balance(world.guild.id, gone.id)  # they had an account here, then left
    before = await world.bot.db.fetchall("SELECT * FROM ledger ORDER BY id")
    granted = await world.admin.slash(world.channel, "chips grant", member=gone, amount=5, reason="back pay")
    simcord.assert_error(world.env, app_commands.TransformerError)
    assert granted.ephemeral and granted.response.content == (
        "\\*gone\\* isn't a member of this server (they may have left). Pick a member of this server;"
        " nothing was changed."
    )
    too_many = await world.admin.slash(world.channel, "chips take", member=gone, amount=5000, reason="x")
    assert too_many.ephemeral and too_many.response.content == (
        "\\*gone\\* (no longer in this server) has only 1,000 chips; you can't take 5,000 chips."
        " Nothing was changed."
    )
    assert await world.bot.db.fetchall("SELECT * FROM ledger ORDER BY id") == before
    taken = await world.admin.slash(world.channel, "chips take", member=gone, amount=400, reason="left")
    assert not taken.ephemeral and taken.response.content == (
        f"➖ <@{world.admin.id}> took **400 chips** from \\*gone\\* (no longer in this server)."
        " Their balance: 600 chips."
    )
    assert await world.bot.ledger.held(world.guild.id, gone.id) == 600
    changes = await world.bot.ledger.admin_changes(world.guild.id)
    assert [(c.user_id, c.change, c.note) for c in changes] == [(gone.id, -400, "left")]
    await conserved(world)
