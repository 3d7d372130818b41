"""The lobby's, the table's and a hand's controls are plain data made by the presentation package.

Each control names its operation; the Discord side makes the item that carries its code, and
the item's template reads that code back (so a control the presentation offers is always one
a click can reach). Nothing here needs Discord.
"""

from __future__ import annotations

import dataclasses
from itertools import combinations
from pathlib import Path

import discord
import pytest

from bot.cards import TEXT_ONLY, Look
from bot.i18n import LANGUAGES, texts
from bot.presentation.controls import (
    LABEL_CHARS,
    LOBBY_OPS,
    OPTION_CHARS,
    TABLE_OPS,
    Button,
    Control,
    Menu,
    lobby_controls,
    play_again_control,
    rules_controls,
    stored_review,
    table_controls,
)
from bot.presentation.hand_controls import HAND_MENU_OPS, HAND_OPS, hand_controls, leave_confirm_controls
from bot.presentation.table_layout import lobby_page, table_page
from bot.table.model import ComputerSeat, Table
from cogs.flipflop.coach import AnalyseButton
from cogs.flipflop.controls import (
    HandButton,
    HandSelect,
    LobbyButton,
    LobbySelect,
    PlayAgainButton,
    RulesButton,
    TableButton,
)
from cogs.flipflop.screens import item, review_item, rules_view
from engine import Card, Discard, Draw, IllegalAction, Spread, TonkOut
from engine.view import PlayerView
from tests.bot.runtime.fakes import ANN, BEN, CAT, harness

EN = texts("en")


def flat(rows: tuple[tuple[Control, ...], ...]) -> list[Control]:
    return [c for row in rows for c in row]


def lobby(**fields: object) -> Table:
    table = Table(id="ab12", guild_id=1, channel_id=2, host_id=11, stake=5, buy_in=200, **fields)  # type: ignore[arg-type]
    table.seats, table.names, table.lobby.stacks = [11], {11: "ann"}, {11: 200}
    return table


def test_the_lobby_offers_its_buttons_and_the_hosts_menu() -> None:
    table = lobby()
    rows = lobby_controls(table, lobby_page(table, EN), EN)
    ops = [c.op for c in flat(rows)]
    assert ops[:4] == ["join", "leave", "start", "cancel"] and "removecpu" not in ops
    [menu] = [c for c in flat(rows) if isinstance(c, Menu)]
    assert [o.value for o in menu.options] == ["basic", "strong"]  # real chips: no Random for the house
    assert [o.label for o in menu.options] == ["Basic computer", "Strong computer"]
    practice = lobby(practice=True)
    [menu] = [c for c in flat(lobby_controls(practice, lobby_page(practice, EN), EN)) if isinstance(c, Menu)]
    assert [o.value for o in menu.options] == ["basic", "strong", "random"]
    table.computers[-1] = ComputerSeat("basic", 1)
    table.seats.append(-1)
    assert "removecpu" in [c.op for c in flat(lobby_controls(table, lobby_page(table, EN), EN))]


HOST = {"en": "Host", "be": "Гаспадар", "fil": "Host", "gu": "હોસ્ટ", "ko": "호스트", "sw": "Mwenyeji"}
"""The word for the lobby's host in each language."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_menu_says_it_is_the_hosts_before_a_phone_cuts_it(language: str) -> None:
    """A phone shows about 24 characters of the menu's placeholder: "(host)" at its end was cut off."""
    t = texts(language)
    table = lobby()
    [menu] = [c for c in flat(lobby_controls(table, lobby_page(table, t), t)) if isinstance(c, Menu)]
    assert menu.placeholder.startswith(f"🤖 {HOST[language]}:"), menu.placeholder


async def test_the_table_offers_stay_and_back_only_when_they_mean_something(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        page = table_page(table, EN)
        ops = [c.op for c in flat(table_controls(table, page, EN))]
        assert ops[:2] == ["hand", "leave_next"] and "stay" not in ops and "back" not in ops
        await h.runtime.leave_after_round(table.id, BEN)
        await h.runtime.away(table.id, CAT)
        table = h.runtime.tables[table.id]
        rows = table_controls(table, table_page(table, EN), EN, activity=True)
        assert {"stay", "back"} <= {c.op for c in rows[0]} and [c.op for c in rows[-1]] == ["activity"]


async def test_a_hand_offers_exactly_the_players_moves_as_data(tmp_path: Path) -> None:
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        player = table.game.to_act
        assert player is not None
        view = table.game.view(player)
        controls = hand_controls(table, view, EN)
        moves = [c for c in controls if isinstance(c, Button) and c.row == 1]
        assert [c.op for c in moves][:2] == ["stock", "take"]
        assert all(c.op == "discard" and c.disabled for c in controls if c.row == 0)  # cards: not yet
        assert {c.op for c in controls if c.row == 4} >= {"refresh", "away"}
        other = next(p for p in (str(ANN), str(BEN), str(CAT)) if p != player)
        waiting = hand_controls(table, table.game.view(other), EN)
        assert not any(c.op in ("stock", "take", "drop") for c in waiting)
        assert any(isinstance(a, Draw) for a in view.legal)
        confirm = leave_confirm_controls(table, view, EN, 1000.0, 30)
        assert [(c.op, c.value) for c in confirm if c.op == "leaveok"] == [("leaveok", "1030")]


async def test_a_greyed_select_cards_says_why(tmp_path: Path) -> None:
    """After a draw with no spread or lay-off to make, the first move reads **Nothing to lay down**."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None and table.game.to_act is not None
        view = table.game.view(table.game.to_act)
        hand = tuple(Card.parse(c) for c in ("2C", "5D", "9H", "JS", "KC", "7D"))
        discards = tuple(Discard(view.player, c) for c in hand)
        lone = dataclasses.replace(view, hand=hand, legal=discards, just_drawn=hand[-1])
        def pick_of(view: PlayerView) -> Button:
            (pick,) = [c for c in hand_controls(table, view, EN) if isinstance(c, Button) and c.op == "pick"]
            return pick

        pick = pick_of(lone)
        assert pick.disabled and pick.label == "Nothing to lay down"
        run = Spread(view.player, tuple(Card.parse(c) for c in ("3H", "4H", "5H")))
        spreadable = dataclasses.replace(lone, legal=(run, *discards))
        pick = pick_of(spreadable)
        assert not pick.disabled and pick.label == "Select cards…"


async def test_the_card_just_drawn_is_the_blue_one_wherever_sorting_puts_it(tmp_path: Path) -> None:
    """Seen in a playtest: after a draw the sixth button (alone on its row) was another card, the
    hand sorted; the card drawn is marked in the text, and its button is the one blue card."""
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None and table.game.to_act is not None
        view = table.game.view(table.game.to_act)
        hand = tuple(Card.parse(c) for c in ("2C", "5D", "9H", "JS", "KC", "7D"))
        drawn = hand[-1]  # sorted, it is not the sixth button
        after = dataclasses.replace(view, hand=hand, legal=tuple(Discard(view.player, c) for c in hand))
        controls = hand_controls(table, after, EN, drawn=drawn)
        cards = [c for c in controls if isinstance(c, Button) and c.op == "discard"]
        assert {c.value: c.style for c in cards} == {
            c.code: "primary" if c == drawn else "secondary" for c in hand
        }
        assert cards[-1].value != drawn.code
        plain = [c for c in hand_controls(table, after, EN) if isinstance(c, Button) and c.op == "discard"]
        assert {c.style for c in plain} == {"secondary"}  # no card marked: none blue


def test_controls_are_plain_frozen_data() -> None:
    for kind in (Button, Menu):
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    control = Button("table", "hand", "My hand")
    with pytest.raises(dataclasses.FrozenInstanceError):
        control.op = "stay"  # type: ignore[misc]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_control_the_presentation_offers_is_one_a_click_reaches(
    tmp_path: Path, language: str
) -> None:
    """Each op becomes an item whose custom id its own template reads back, within Discord's limits."""
    t = texts(language)
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None
        made: list[Control] = [*flat(lobby_controls(lobby(), lobby_page(lobby(), t), t))]
        made += flat(table_controls(table, table_page(table, t), t, activity=True))
        for player in table.game.seated:
            made += hand_controls(table, table.game.view(player), t)
        kinds = {
            "lobby": (LobbyButton, LobbySelect),
            "table": (TableButton, TableButton),
            "hand": (HandButton, HandSelect),
        }
        for control in made:
            made_item = item(table, control)
            button, menu = kinds[control.family]
            assert isinstance(made_item, menu if isinstance(control, Menu) else button)
            custom_id = made_item.item.custom_id  # type: ignore[attr-defined]
            assert custom_id is not None and len(custom_id) <= 100
            assert made_item.template.fullmatch(custom_id), custom_id  # type: ignore[attr-defined]
            text = control.placeholder if isinstance(control, Menu) else control.label
            assert len(text) <= LABEL_CHARS
        assert {c.op for c in made if c.family == "lobby"} <= {*LOBBY_OPS, "addcpu"}
        assert {c.op for c in made if c.family == "table"} <= set(TABLE_OPS)
        hand_ops = {c.op for c in made if c.family == "hand"}
        assert hand_ops <= {*HAND_OPS, *HAND_MENU_OPS} and {"stock", "take", "refresh"} <= hand_ops
        assert isinstance(item(table, Button("table", "fair", "x")), discord.ui.DynamicItem)


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_play_again_and_review_controls_reach_their_templates(language: str) -> None:
    """The rules' paging, **Play again** and **Analyse my play** are screen-model data too."""
    t = texts(language)
    [(back, ahead)] = rules_controls(1, 6, t)
    assert back.disabled and not ahead.disabled and (back.value, ahead.value) == ("0", "2")
    [(_, last)] = rules_controls(6, 6, t)
    assert last.disabled
    table = lobby()
    made = [
        *rules_view(rules_controls(3, 6, t)).children,
        item(table, play_again_control(t)),
        review_item(stored_review(0xBEEF, t)),
    ]
    kinds = [RulesButton, RulesButton, PlayAgainButton, AnalyseButton]
    for made_item, kind in zip(made, kinds, strict=True):
        assert isinstance(made_item, kind)
        custom_id = made_item.item.custom_id  # type: ignore[attr-defined]
        assert made_item.template.fullmatch(custom_id), custom_id  # type: ignore[attr-defined]
        assert len(made_item.item.label or "") <= LABEL_CHARS  # type: ignore[attr-defined]
    assert made[2].item.custom_id == "ff:p:ab12:again"  # type: ignore[attr-defined]
    assert made[3].item.custom_id == "ff:y:r:beef"  # type: ignore[attr-defined]


RUNS_AND_SETS = [
    ("2D", "3D", "4D", "5D", "6D", "7D"),  # runs of 3 to 6 from one card: "… 6 of diamo…" cut alike
    ("7H", "8H", "9H", "TH", "JH", "QH"),
    ("QS", "QH", "QD", "QC", "KS", "KH"),  # sets of 3 and 4 queens: long in words in Swahili
]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_in_words_every_one_click_spread_and_tonk_out_reads_apart(
    tmp_path: Path, language: str
) -> None:
    """Cards said in words can be too long for a label; cut, two spreads would read the same."""
    t = texts(language).with_faces(Look(TEXT_ONLY, "text"))
    async with harness(tmp_path / "t.db") as h:
        table = await h.game()
        assert table.game is not None and table.game.to_act is not None
        view = table.game.view(table.game.to_act)
        for codes in RUNS_AND_SETS:
            hand = tuple(Card.parse(c) for c in codes)
            spreads = {
                s
                for n in (3, 4, 5, 6)
                for s in combinations(hand, n)
                if len({c.suit for c in s}) == 1 or len({c.rank for c in s}) == 1
            }
            legal = tuple(Spread(view.player, s) for s in spreads if _is_spread(s))
            two = _is_spread(hand[:3]) and _is_spread(hand[3:])
            tonks = (TonkOut(view.player, hand[:3], hand[3:]),) if two else ()
            discards = tuple(Discard(view.player, c) for c in hand)  # drawn: the moves after a draw
            drawn = dataclasses.replace(view, hand=hand, legal=legal + tonks + discards, just_drawn=hand[-1])
            quick = [c for c in hand_controls(table, drawn, t) if isinstance(c, Button) and c.op == "spread"]
            labels = [c.label for c in quick]
            assert quick and len(labels) == len(set(labels)), labels
            assert all(len(label) <= LABEL_CHARS and "…" not in label for label in labels), labels
            for spread in legal:  # picked card by card: its Lay down names every card, within the limit
                chosen = hand_controls(table, drawn, t, spread.cards)
                lay = next(c for c in chosen if isinstance(c, Button) and c.op == "spread")
                assert len(lay.label) <= LABEL_CHARS and "…" not in lay.label, lay.label
            menus = [c for c in hand_controls(table, drawn, t) if isinstance(c, Menu) and c.op == "tonk"]
            for option in (o for m in menus for o in m.options):
                assert len(option.label) <= OPTION_CHARS and "…" not in option.label, option.label


def _is_spread(cards: tuple[Card, ...]) -> bool:
    try:
        PlayerView.spread_kind(cards)
    except IllegalAction:
        return False
    return True
