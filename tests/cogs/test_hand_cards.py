"""The hand as cards you click, and no click landing on a control that drops or leaves."""

from __future__ import annotations

import copy
from typing import Any

from bot.i18n import texts
from bot.presentation.table_render import BETWEEN, GREEN, OVER, PLAYING
from bot.table.model import Table
from cogs.flipflop.controls import parse_action
from cogs.flipflop.screens import Screen, hand_screen, leave_confirm_screen
from engine import IllegalAction
from engine.cards import Card
from tests.cogs.helpers import (
    Hands,
    accent,
    buttons,
    card_buttons,
    channel_text,
    my_hand,
    open_table,
    play_step,
    section,
    table_in,
    table_message,
    walk,
)
from tests.conftest import World

T = texts("en")
DESTRUCTIVE = {"drop", "leaveok"}
"""Controls that drop, leave or forfeit: never where the pointer was after a click."""
GAME_MOVES = {"stock", "take", "drop", "discard", "spread", "layoff"}


def grid(screen: Screen) -> list[list[dict[str, Any]]]:
    """The controls as Discord lays them out: rows in order, empty rows gone."""
    if screen.view is None:
        return []
    return [list(row["components"]) for row in screen.view.to_components()]


def parts(control: dict[str, Any]) -> tuple[str, str | None]:
    """A hand control's op and value from its custom id."""
    bits = str(control.get("custom_id", "")).split(":")
    if len(bits) < 5 or bits[1] not in ("a", "s"):
        return "", None
    return bits[4], bits[5] if len(bits) > 5 else None


def successors(table: Table, uid: int, control: dict[str, Any]) -> list[tuple[Table, Screen, str | None]]:
    """The screens a click on ``control`` can lead to (with the table they show and the selection)."""
    op, value = parts(control)
    if control.get("type") == 3:  # a menu: each of its choices
        out = []
        for option in control["options"]:
            out += successors(table, uid, {"type": 2, "custom_id": f"ff:a:x:0:{op}:{option['value']}"})
        return out
    if op in GAME_MOVES:
        action = parse_action(table.pid(uid), op, value)
        if action is None:
            return []
        after = copy.deepcopy(table)
        assert after.game is not None
        try:
            after.game.apply(action)
        except IllegalAction:
            return []
        return [(after, hand_screen(after, uid, T), None)]
    if op == "pick":
        return [(table, hand_screen(table, uid, T, selection=value or None), value or None)]
    if op == "leave":
        return [(table, leave_confirm_screen(table, uid, 0, T), None)]
    if op in ("refresh", "leaveok"):  # an expired Yes, leave answers with the hand
        return [(table, hand_screen(table, uid, T), None)]
    return []


def check(table: Table, uid: int, screen: Screen, depth: int, seen: list[int]) -> None:
    """After every click on ``screen`` (``depth`` clicks deep), nothing destructive sits under the pointer."""
    for r, row in enumerate(grid(screen)):
        for i, control in enumerate(row):
            if control.get("disabled"):
                continue
            for after, next_screen, _ in successors(table, uid, control):
                seen[0] += 1
                rows = grid(next_screen)
                there = rows[r][i] if r < len(rows) and i < len(rows[r]) else None
                if there is not None:
                    assert parts(there)[0] not in DESTRUCTIVE, (
                        [[x.get("label") for x in w] for w in grid(screen)],
                        [[x.get("label") for x in w] for w in rows],
                    )
                if depth > 1 and parts(control)[0] != "drop":
                    check(after, uid, next_screen, depth - 1, seen)


async def test_no_click_lands_on_a_control_that_drops_or_leaves(world: World) -> None:
    """Every hand screen of a played game, every control on it, two clicks deep."""
    await open_table(world, world.members[:3], stake=5, buy_in=40)
    hands = Hands(world)
    seen = [0]
    for _ in range(12):
        table = table_in(world)
        if table is None:
            break
        for m in world.members[:3]:
            if table.game is not None and table.pid(m.id) in table.game.order:
                check(table, m.id, hand_screen(table, m.id, T), 2, seen)
        if not await play_step(world, hands, drop_below=12):
            break
    assert seen[0] > 100  # transitions checked


async def test_five_cards_on_one_row_and_a_draw_never_puts_a_card_under_the_pointer(world: World) -> None:
    """A dealt hand is one row of five; after a draw the moves keep the row under them (Select
    cards… under Draw) and the sixth card sits below them, so a second click never discards."""
    await open_table(world, world.members[:3], stake=5, buy_in=40)
    hands = Hands(world)
    draws = 0
    for _ in range(12):
        table = table_in(world)
        if table is None or table.game is None:
            break
        for m in world.members[:3]:
            if table.pid(m.id) not in table.game.order:
                continue
            screen = hand_screen(table, m.id, T)
            rows = grid(screen)
            cards = [c for c in (rows[0] if rows else []) if parts(c)[0] == "discard"]
            view = table.game.view(table.pid(m.id))
            if view.in_round and len(view.hand) == 5:
                assert len(cards) == 5  # the whole hand on one row
            for r, row in enumerate(rows):
                for i, control in enumerate(row):
                    if parts(control)[0] not in ("stock", "take") or control.get("disabled"):
                        continue
                    for _after, next_screen, _ in successors(table, m.id, control):
                        draws += 1
                        after = grid(next_screen)
                        assert sum(parts(c)[0] == "discard" for c in after[0]) == 5
                        sixth = [r for r in after[2:] if [parts(c)[0] for c in r] == ["discard"]]
                        assert len(sixth) == 1  # the sixth card: alone, below the moves
                        there = after[r][i] if i < len(after[r]) else None
                        assert there is None or parts(there)[0] not in ("discard", *DESTRUCTIVE)
        if not await play_step(world, hands, drop_below=12):
            break
    assert draws >= 6


async def test_discarding_takes_two_clicks_and_a_spread_at_most_four(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    actor = next(m for m in world.members if str(m.id) == g.to_act)
    hand = await my_hand(world, actor)
    drawn = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])  # click 1
    discards = card_buttons(drawn.response)
    assert len(discards) == 6
    assert "Click one of your cards below to discard it" in drawn.response.content
    blue = [  # the card just drawn is the one blue card button (style 1: primary)
        code for code, custom_id in discards.items()
        if any(c.get("custom_id") == custom_id and c.get("style") == 1 for c in walk(drawn.response))
    ]
    just = g.view(str(actor.id)).just_drawn
    assert just is not None and blue == [just.code], blue
    code = next(iter(discards))
    before = len(g.round.discard)
    await actor.click(drawn.response.message, custom_id=discards[code])  # click 2: the card is discarded
    assert len(g.round.discard) == before + 1 and g.round.discard[-1].code == code
    assert "discarded" in channel_text(world) or g.to_act != str(actor.id)


def give(table: Table, pid: str, codes: list[str]) -> None:
    """Put these cards in a player's hand, swapped with whatever held them (the deck stays whole)."""
    assert table.game is not None and table.game.round is not None
    r = table.game.round
    hand = r.hands[pid]
    for code in codes:
        wanted = Card.parse(code)
        if wanted in hand:
            continue
        piles = [r.stock, r.discard, *r.hands.values()]
        pile = next(p for p in piles if wanted in p)
        mine = next(c for c in hand if c.code not in codes)
        pile[pile.index(wanted)], hand[hand.index(mine)] = mine, wanted


async def test_a_spread_takes_two_clicks_or_is_picked_card_by_card(world: World) -> None:
    """After a draw, a spread is one button; or Select cards…, its cards, Lay down."""
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None and g.round is not None
    actor = next(m for m in world.members if str(m.id) == g.to_act)
    pid = str(actor.id)
    hand = await my_hand(world, actor)
    drawn = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])  # click 1
    give(table, pid, ["7S", "7D", "7C"])
    fresh = await actor.click(drawn.response.message, custom_id=buttons(drawn.response)["Refresh"])
    quick = [label for label in buttons(fresh.response) if label.startswith("Lay down 7")]
    assert quick  # one click lays it down: two clicks from the start of the turn
    picking = await actor.click(fresh.response.message, custom_id=buttons(fresh.response)["Select cards…"])
    screen = picking.response
    for code in ["7S", "7D", "7C"]:
        lay = next(
            c
            for r in screen.message.components
            for c in r.to_dict()["components"]
            if ":spread:" in c["custom_id"]
        )
        assert lay.get("disabled")  # not a spread yet: Lay down is not clickable
        picks = card_buttons(screen, "pick")
        key = next(k for k in picks if code in picks[k].split(":")[5][1:].split("."))
        screen = (await actor.click(screen.message, custom_id=picks[key])).response
    lay = next(
        c
        for r in screen.message.components
        for c in r.to_dict()["components"]
        if ":spread:" in c["custom_id"]
    )
    assert not lay.get("disabled")
    before = len(g.round.spreads)
    await actor.click(screen.message, custom_id=lay["custom_id"])
    assert len(g.round.spreads) == before + 1
    assert {c.code for c in g.round.spreads[-1].cards} == {"7S", "7D", "7C"}


async def test_stay_after_all_is_said_in_the_log(world: World) -> None:
    table = await open_table(world, world.members[:3])
    ann = world.members[0]
    await ann.click(table_message(world), label="Leave after this round")
    await world.env.settle()
    assert "will leave after this round" in channel_text(world)
    await ann.click(table_message(world), label="Stay after all")
    await world.env.settle()
    text = channel_text(world)
    assert text.index("stays at the table after all") > text.index("will leave after this round")
    assert int(ann.id) not in table.leave_after_round


async def test_the_last_move_says_who_dropped(world: World) -> None:
    table = await open_table(world, world.members[:3])
    g = table.game
    assert g is not None
    first = next(m for m in world.members if str(m.id) == g.to_act)
    hand = await my_hand(world, first)
    drawn = await first.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
    discards = card_buttons(drawn.response)
    await first.click(drawn.response.message, custom_id=discards[next(iter(discards))])
    second = next(m for m in world.members if str(m.id) == g.to_act)
    hand = await my_hand(world, second)
    drop = next(label for label in buttons(hand) if label.startswith("Drop ("))
    await second.click(hand.message, custom_id=buttons(hand)[drop])
    await world.env.settle()
    last = section(table_message(world), "Last move")
    assert f"✋ {second.name} drops with" in last and "discarded" not in last  # as the round log says it


async def test_the_table_colour_says_its_state(world: World) -> None:
    ann, ben, cat = world.members[:3]
    lobby = (await ann.slash(world.channel, "flipflop start")).response.message
    assert accent(lobby) == GREEN
    await ben.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await world.env.settle()
    assert accent(table_message(world)) == PLAYING
    table = table_in(world)
    assert table is not None and table.game is not None
    hands = Hands(world)
    while table.game.in_round:
        await play_step(world, hands, drop_below=40)
    await world.env.settle()
    assert accent(table_message(world)) in (BETWEEN, OVER)
    assert (accent(table_message(world)) == OVER) == table.game.public_view().over


LONG_NAMES = [
    "Anastasia Konstantinopolskaya-Lee",
    "김수한무거북이와두루미삼천갑자동방삭치치카포사리사리센터",
    "ધર્મેન્દ્રકુમાર ભટ્ટાચાર્ય પટેલ દેસાઈ",
    "Алесь Станіслававіч Завадскі-Мураўёў",
    "Mwanaisha Nyambura wa Kilimanjaro",
]
"""Display names as long as Discord allows (32 characters), in several scripts."""


def within_discord_limits(screen: Screen) -> None:
    """A hand message within Discord's limits: text, rows, buttons, labels, custom ids, menus."""
    assert screen.content is None or len(screen.content) <= 2000
    if screen.view is None:
        return
    rows = screen.view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    for row in rows:
        for c in row["components"]:
            assert len(c.get("custom_id", "")) <= 100
            assert len(c.get("label", "")) <= 80 and len(c.get("placeholder", "")) <= 150
            assert len(c.get("options", [])) <= 25
            assert all(
                len(o["label"]) <= 100 and len(o.get("description", "")) <= 100 for o in c.get("options", [])
            )


async def test_every_hand_screen_fits_discord_at_five_players_with_long_names_in_every_language(
    world: World,
) -> None:
    ann, ben, cat, dan = world.members[:4]
    eve = world.guild.add_member(world.env.create_user("eve"))
    table = await open_table(world, [ann, ben, cat, dan, eve])
    for member, name in zip([ann, ben, cat, dan, eve], LONG_NAMES, strict=True):
        table.names[member.id] = name
    assert table.game is not None
    checked = 0
    for language in ("en", "fil", "be", "sw", "ko", "gu"):
        t = texts(language)
        for member in (ann, ben, cat, dan, eve):
            view = table.game.view(table.pid(member.id))
            screens = [hand_screen(table, member.id, t), leave_confirm_screen(table, member.id, 0, t)]
            if view.to_act == view.player:
                after = copy.deepcopy(table)
                assert after.game is not None
                after.game.apply(parse_action(after.pid(member.id), "stock", None))  # type: ignore[arg-type]
                everything = "~" + ".".join(c.code for c in after.game.view(after.pid(member.id)).hand)
                screens += [
                    hand_screen(after, member.id, t),
                    hand_screen(after, member.id, t, selection=everything),
                ]
            for screen in screens:
                within_discord_limits(screen)
                checked += 1
    assert checked >= 6 * 5 * 2 + 6 * 2


def test_a_card_control_with_a_bad_value_is_no_action() -> None:
    """A tampered or garbled card control plays nothing (the click is told so, privately)."""
    for op, value in [
        ("discard", "ZZ"),
        ("discard", ""),
        ("spread", ""),
        ("spread", "7S.XX"),
        ("layoff", "7S"),
    ]:
        assert parse_action("1", op, value) is None
    assert parse_action("1", "discard", "7S") is not None


def test_a_selection_keeps_only_cards_in_the_hand() -> None:
    from cogs.flipflop.screens import picked  # noqa: PLC0415

    class View:
        to_act = player = "1"
        hand = (Card.parse("7S"), Card.parse("7D"))
        legal = (parse_action("1", "discard", "7S"),)

    assert picked(View(), "~7S.KH.ZZ") == (Card.parse("7S"),)  # type: ignore[arg-type]
    assert picked(View(), None) is None and picked(View(), "7S") is None  # type: ignore[arg-type]


async def test_the_hand_comes_with_a_picture_of_its_cards_large_enough_to_tell_apart(world: World) -> None:
    """Card emojis are ~20 pixels; the hand's picture shows each card at 72, the one just drawn raised."""
    ann, ben, cat = world.members[:3]
    await ben.slash(world.channel, "flipflop cards", style="text")
    table = await open_table(world, [ann, ben, cat])
    assert table.game is not None
    for member in (ann, cat):
        [shown] = (await my_hand(world, member)).attachments
        assert shown.filename == "hand.png" and 0 < shown.size <= 20_000
    assert not (await my_hand(world, ben)).attachments  # a reader of words: the words are the cards
    actor = next(m for m in (ann, ben, cat) if str(m.id) == table.game.to_act)
    if actor is not ben:
        hand = await my_hand(world, actor)
        drawn = await actor.click(hand.message, custom_id=buttons(hand)["Draw from stock"])
        [after] = drawn.response.attachments  # edited with the hand: six cards now
        assert after.filename == "hand.png"
