"""Playing through simcord as people would: slash commands, clicks and select choices."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import simcord
from simcord.results import to_discord_message

from bot.audit import audit_guild
from bot.runtime import TableRuntime
from bot.table.model import Table
from engine import Game, PublicView
from tests.conftest import World


class ShowingView:
    """A table's game that shows ``view`` as its public view, and is the game in everything else.

    For a screen test that needs a state hard to reach by play. The game's own
    method can not be replaced on it: the compiled engine's classes are closed.
    """

    def __init__(self, game: Game, view: PublicView) -> None:
        self._game = game
        self._view = view

    def public_view(self) -> PublicView:
        return self._view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def runtime(world: World) -> TableRuntime:
    rt = world.bot.runtime
    assert rt is not None
    return rt


def table_in(world: World, channel: simcord.ChannelHandle | None = None) -> Table | None:
    return runtime(world).in_channel((channel or world.channel).id)


def buttons(message: Any) -> dict[str, str]:
    """label -> custom_id of every button on a message (or response)."""
    out: dict[str, str] = {}
    for c in walk(message):
        if c.get("type") == 2 and c.get("custom_id"):
            out[c.get("label", "")] = c["custom_id"]
    return out


def card_buttons(message: Any, op: str = "discard") -> dict[str, str]:
    """Card code -> custom_id of every enabled card button of a hand (``discard`` or ``pick``)."""
    out: dict[str, str] = {}
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        for c in row.get("components", []):
            parts = str(c.get("custom_id", "")).split(":")
            if (
                c.get("type") == 2
                and not c.get("disabled")
                and len(parts) > 5
                and parts[4] == op
                and parts[5]
            ):
                out[parts[5]] = c["custom_id"]
    return out


def highest(codes: list[str]) -> str:
    """The card of highest value among codes (the one a simple player discards)."""
    from engine.cards import Card

    return max(codes, key=lambda code: (Card.parse(code).value, code))


def selects(message: Any) -> dict[str, list[str]]:
    """op (last part of custom_id) -> option values, for every select menu."""
    out: dict[str, list[str]] = {}
    for c in walk(message):
        if c.get("type") == 3:
            out[c["custom_id"].rsplit(":", 1)[1]] = [o["value"] for o in c["options"]]
    return out


def select_id(message: Any, op: str) -> str:
    for c in walk(message):
        if c.get("type") == 3 and c["custom_id"].endswith(":" + op):
            return str(c["custom_id"])
    raise AssertionError(f"no {op} select")


def message(world: World, channel_id: int, message_id: int) -> discord.Message:
    """One message, without converting the whole history (which grows with every hand shown)."""
    return to_discord_message(world.env, world.env.backend.get_message(channel_id, message_id))


def table_message(world: World, channel: simcord.ChannelHandle | None = None) -> discord.Message:
    table = table_in(world, channel)
    assert table is not None and table.message_id is not None
    return message(world, table.plays_in, table.message_id)


async def open_table(world: World, players: list[simcord.MemberActor], **options: int) -> Table:
    """The first player starts a table, the others join, the host starts it."""
    host = players[0]
    result = await host.slash(world.channel, "flipflop start", **options)
    assert not result.ephemeral, result.response.content if result.response else result
    lobby = result.response.message
    for p in players[1:]:
        joined = await p.click(lobby, label="Join")
        assert joined.acknowledged
    started = await host.click(lobby, label="Start")
    assert started.acknowledged
    table = table_in(world)
    assert table is not None and table.status == "playing"
    return table


def walk(message: Any) -> list[dict[str, Any]]:
    """Every component of a message as Discord receives it, nested ones (V2 containers, rows) included."""
    out: list[dict[str, Any]] = []

    def visit(c: dict[str, Any]) -> None:
        out.append(c)
        for child in c.get("components") or []:
            visit(child)
        if c.get("accessory"):
            visit(c["accessory"])

    for c in message.components or []:
        visit(c if isinstance(c, dict) else c.to_dict())
    return out


def displayed(message: Any) -> str:
    """The text a Components V2 message shows (its text displays, in order)."""
    return "\n".join(c["content"] for c in walk(message) if c.get("type") == 10)


def picture(message: Any) -> tuple[str, str]:
    """A V2 message's one media gallery item: its url and its alt text ("", "" for none)."""
    items = [i for c in walk(message) if c.get("type") == 12 for i in c.get("items", [])]
    assert len(items) <= 1
    return (items[0]["media"]["url"], items[0].get("description") or "") if items else ("", "")


def accent(message: Any) -> int | None:
    """The accent colour of a V2 message's container (the table's state), or None."""
    return next((c.get("accent_color") for c in walk(message) if c.get("type") == 17), None)


def section(message: Any, heading: str) -> str:
    """What a V2 message's text says under a bold ``heading``: the rest of its line, else the lines below
    (up to the next heading or the end of its block)."""
    for c in walk(message):
        if c.get("type") != 10:
            continue
        lines = c["content"].split("\n")
        for i, line in enumerate(lines):
            if line.startswith(f"**{heading}**"):
                rest = [line[len(heading) + 4 :].strip()]
                if rest[0]:  # a heading within its line ("**Last move** …"): that line
                    return rest[0]
                for more in lines[i + 1 :]:
                    if re.fullmatch(r"\*\*[^*]+\*\*", more):  # the next heading
                        break
                    rest.append(more)
                return "\n".join(part for part in rest if part)
    return ""


def channel_text(world: World, channel: simcord.ChannelHandle | None = None) -> str:
    """Everything the channel reads: messages and their embeds (the table's round log included)."""
    out: list[str] = []
    for m in (channel or world.channel).history():
        if m.flags.ephemeral:
            continue
        out.append(m.content or "")
        out.append(displayed(m))
        for e in m.embeds:
            out += [e.title or "", e.description or ""]
    return "\n".join(out)


async def my_hand(world: World, player: simcord.MemberActor) -> simcord.ResponseMessage:
    result = await player.click(table_message(world), label="My hand")
    assert result.ephemeral and result.response is not None
    return result.response


async def every_turn_drops(world: World, table: Table) -> AsyncIterator[tuple[simcord.MemberActor, Any]]:
    """Each player to act clicks **Drop** in their hand, round after round, until the game is over.

    Yields each (member, click result); at a small buy-in a few rounds of drops knock players out.
    """
    g = table.game
    assert g is not None
    by_pid = {str(m.id): m for m in world.members}
    for _ in range(200):
        if g.over:
            return
        if not g.in_round:
            await world.env.advance_time(world.bot.pause_between_rounds + 1)
            continue
        member = by_pid[g.to_act or ""]
        hand = await my_hand(world, member)
        labels = buttons(hand)
        drop = next(label for label in labels if label.startswith("Drop ("))
        yield member, await member.click(hand.message, custom_id=labels[drop])


async def conserved(world: World) -> None:
    """Balances plus chips at tables equal every chip ever brought into the server."""
    g = world.guild.id
    at_tables = sum(t.chips() for t in runtime(world).tables.values() if t.guild_id == g)
    result = await audit_guild(world.bot.ledger, g)
    assert result.ok, result.lines()
    assert result.at_tables == at_tables


class Hands:
    """Each player's one private hand message, kept open as a player would."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.ids: dict[int, int] = {}
        self.opened: dict[int, int] = {}

    async def current(self, player: simcord.MemberActor) -> Any:
        table = table_in(self.world)
        assert table is not None
        mid = self.ids.get(player.id)
        if mid is None:
            response = await my_hand(self.world, player)
            self.ids[player.id] = response.id
            self.opened[player.id] = self.opened.get(player.id, 0) + 1
            return response
        msg = message(self.world, table.plays_in, mid)
        if (
            "Refresh" in buttons(msg)
            and "Draw from stock" not in buttons(msg)
            and not selects(msg)
            and not card_buttons(msg)
        ):
            result = await player.click(msg, custom_id=buttons(msg)["Refresh"])
            return result.response
        return msg


async def play_simple_turn(
    world: World, player: simcord.MemberActor, drop_below: int = 0, hands: Hands | None = None
) -> None:
    """Draw from the stock and discard the highest card; drop instead when the hand is low."""
    hand = await hands.current(player) if hands is not None else await my_hand(world, player)
    hand = getattr(hand, "message", hand)
    labels = buttons(hand)
    drop = [label for label in labels if label.startswith("Drop (")]
    if drop and int(drop[0][6:-1]) < drop_below:
        await player.click(hand, custom_id=labels[drop[0]])
        return
    result = await player.click(hand, custom_id=labels["Draw from stock"])
    hand2 = result.response
    assert hand2 is not None
    discards = card_buttons(hand2)
    if discards:
        await player.click(hand2.message, custom_id=discards[highest(list(discards))])


async def play_step(world: World, hands: Hands, drop_below: int) -> bool:
    """One step of a game played by its members: a turn, or the pause between rounds.

    Returns False once the table has closed. Chips are checked after every step.
    """
    t = table_in(world)
    if t is None:
        return False
    g = t.game
    assert g is not None
    if not g.in_round:
        await world.env.advance_time(world.bot.pause_between_rounds + 1)
    else:
        actor = next(m for m in world.members if str(m.id) == g.to_act)
        await play_simple_turn(world, actor, drop_below=drop_below, hands=hands)
    await conserved(world)
    return True


class Sent:
    """Every text the bot sent, tagged with where it goes (``public`` or ``private``) and its kind."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str, str]] = []
        """(audience, kind, text)"""

    edits_private = False
    """Set by the player while clicking on a private hand: an edit of the clicked message is private."""

    def record(self, method: str, path: str, json: Any) -> None:
        if not isinstance(json, dict) or method not in ("POST", "PATCH"):
            return
        callback = "/callback" in path
        data = json.get("data", json) if callback else json
        if not isinstance(data, dict):
            return
        if callback and json.get("type") == 7:  # UPDATE_MESSAGE: the clicked message is edited
            private = self.edits_private
        else:  # a new message (ephemeral flag) or an edit through the interaction's webhook (a hand)
            private = bool(data.get("flags", 0) & 64) or "/webhooks/" in path
        self._walk("private" if private else "public", data)

    def _walk(self, audience: str, data: dict[str, Any]) -> None:
        add = self.texts.append
        if data.get("content"):
            add((audience, "content", data["content"]))
        for e in data.get("embeds") or []:
            for key in ("title", "description"):
                if e.get(key):
                    add((audience, key, e[key]))
            if (e.get("footer") or {}).get("text"):
                add((audience, "footer", e["footer"]["text"]))
            if (e.get("author") or {}).get("name"):
                add((audience, "title", e["author"]["name"]))
            for f in e.get("fields") or []:
                add((audience, "field_name", f["name"]))
                add((audience, "field_value", f["value"]))
        for c in walk_data(data.get("components") or []):
            if c.get("type") == 10:  # a V2 text display reads as an embed's description did
                add((audience, "description", c["content"]))
            if c.get("label"):
                add((audience, "label", c["label"]))
            if c.get("placeholder"):
                add((audience, "placeholder", c["placeholder"]))
            for o in c.get("options") or []:
                add((audience, "option", o["label"]))
                if o.get("description"):
                    add((audience, "option", o["description"]))


def walk_data(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a payload, nested ones (V2 containers, rows, a section's accessory) included."""
    out: list[dict[str, Any]] = []
    for c in components:
        out += [c, *walk_data(c.get("components") or [])]
        if c.get("accessory"):
            out += walk_data([c["accessory"]])
    return out


async def cancelled_forum_post(world: World) -> tuple[Any, Any]:
    """A forum and its one post, whose lobby the first member opened and cancelled: free for a table."""
    forum = world.guild.create_forum_channel("card-tables")
    await world.members[0].slash(forum, "flipflop start")
    (post,) = forum.threads
    table = table_in(world, post)
    assert table is not None and table.message_id is not None
    await world.members[0].click(message(world, post.id, table.message_id), label="Cancel")
    return forum, post


def deny_bot(world: World, **permissions: bool) -> None:
    """The channel's overwrite takes ``permissions`` from the bot (``send_messages=True``, …), as a
    moderator's edit would; the gateway tells the bot."""
    from simcord.backend.models.channel import Overwrite
    from simcord.enums import OverwriteType

    channel = world.env.backend.get_channel(world.channel.id)
    assert world.bot.user is not None
    deny = discord.Permissions(**permissions).value
    channel.overwrites.append(Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=deny))
    world.env.backend.announce_channel_update(channel.id)


async def out_of_the_game(world: World) -> list[tuple[int, simcord.MemberActor]]:
    """ann, ben and cat play a short game (a buy-in of four stakes) to its end by ``play_step``.

    Returns (round id, member) for each stored round that names a member as a seat without dealing
    them in: a player out of the game (out of chips, or gone between rounds) stays a seat of the
    table's later rounds (R2.3). The tests' deals are seeded, so there is always one.
    """
    ann, ben, cat = world.members[:3]
    opened = await ann.slash(world.channel, "flipflop start", stake=5, buy_in=20)
    for p in (ben, cat):
        await p.click(opened.response.message, label="Join")
    await ann.click(opened.response.message, label="Start")
    hands = Hands(world)
    while await play_step(world, hands, drop_below=25):
        pass
    db = world.bot.db
    out = []
    for rid, transcript in await db.fetchall("SELECT id, transcript FROM rounds ORDER BY id"):
        players = await db.fetchall("SELECT user_id FROM round_players WHERE round_id = ?", (rid,))
        dealt = {u for (u,) in players}
        out += [(rid, who) for who in (ann, ben, cat) if str(who.id) in transcript and who.id not in dealt]
    assert out, "the tests' deals are seeded: someone is out before the game's last round"
    return out
