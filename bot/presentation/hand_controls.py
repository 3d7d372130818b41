"""A player's private hand's controls, as plain data: exactly their legal moves now, in fixed places.

Rows: the cards (one or two rows), then the moves (Draw, Take, Drop — Take disabled rather
than missing, so Drop is always third; or after a draw **Select cards…** and one-click
spreads and lay-offs; or, selecting, what the selection can do), then a menu (tonk out,
which spread to lay off on), then Refresh, Hint and **Leave game…** (which only asks). No
control that drops or leaves ever takes the place of the one just clicked
(``tests/cogs/test_hand_cards.py`` checks every transition). Each control carries its row;
a hand control's ``value`` is what its code carries after the operation (a card, the cards
of a spread, a selection ``~…``, a lay-off ``card@spread``, a confirmation's deadline).
The Discord side (``cogs.flipflop.screens``) makes each a button or menu with its custom id,
which also carries the table's ``seq``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.cards import DEFAULT_STYLE, CardEmoji, Look
from bot.i18n import N_, Texts
from bot.presentation.controls import (
    LABEL_CHARS,
    OPTION_CHARS,
    Button,
    Control,
    Menu,
    Option,
    Style,
    fit,
)
from bot.presentation.render import card_emoji, look, plain, plain_cards
from bot.table.model import Table
from engine import Card, Discard, Draw, Drop, LayOff, Leave, Spread, TonkOut
from engine.ai.review import seats_of
from engine.cards import sort_key
from engine.codec import cards_text
from engine.view import PlayerView

HAND_OPS = (
    "stock", "take", "drop", "refresh", "leave", "leaveok", "hint", "discard", "spread", "layoff", "pick",
    "away", "back",
)  # fmt: skip
"""What a hand's buttons ask for (their custom ids' template lists exactly these)."""
HAND_MENU_OPS = ("spread", "layoff", "discard", "tonk")
"""What a hand's menus ask for."""
CARDS_PER_ROW = 5
"""A hand's cards on its first row: a whole hand as dealt (Discord's five buttons a row)."""
QUICK = 4
"""Spreads and lay-offs offered as one-click buttons after a draw (with **Select cards…**, one row)."""
LAST_ROW = 4
"""Refresh, Hint, the practice review, Leave and Away: the last of Discord's five rows."""


def _label(text: str) -> str:
    return fit(text, LABEL_CHARS)


def _cards_in(limit: int, t: Texts, say: Callable[[Texts], str]) -> str:
    """``say(t)``, a text naming cards, in ``limit`` characters with every card in it.

    Cards in words (the ``text`` style) can make it too long ("Weka chini mzungu wa tatu wa
    majembe, …"); cut, two spreads could read the same. Then the cards are written short
    (``Q♤ Q♡ Q♧``), which always fits and tells every spread apart.
    """
    text = say(t)
    seen = look(t)
    if len(text) > limit and seen.words:
        text = say(t.with_faces(Look(seen.faces, DEFAULT_STYLE)))
    return fit(text, limit)


def _lay_down(cards: Sequence[Card], t: Texts) -> str:
    """**Lay down …** naming the spread's every card."""
    label = N_("Lay down {cards}")
    return _cards_in(LABEL_CHARS, t, lambda u: u.gettext(label).format(cards=plain_cards(cards, u)))


def _tonk_option(tk: TonkOut, t: Texts) -> Option:
    """A tonk out's two spreads, as a menu option naming every card."""
    both = _cards_in(OPTION_CHARS, t, lambda u: f"{plain_cards(tk.first, u)} + {plain_cards(tk.second, u)}")
    return Option(f"{cards_text(tk.first)}|{cards_text(tk.second)}", both)


def _hand(
    op: str,
    text: str,
    style: Style = "secondary",
    emoji: str | CardEmoji | None = None,
    *,
    value: str | None = None,
    row: int | None = None,
    disabled: bool = False,
) -> Button:
    return Button("hand", op, _label(text) if text else "", style, emoji, value, row, disabled)


def playing(view: PlayerView) -> bool:
    """The player has drawn and may lay down, lay off and discard now."""
    return view.to_act == view.player and any(isinstance(a, Discard) for a in view.legal)


def picked(view: PlayerView, selection: str | None) -> tuple[Card, ...] | None:
    """The cards a selection names that are in the hand now, or None when not selecting.

    Selecting only makes sense while the player may lay down (after drawing).
    """
    if selection is None or not selection.startswith("~") or not playing(view):
        return None
    hand = {c.code: c for c in view.hand}
    return tuple(sorted({hand[code] for code in selection[1:].split(".") if code in hand}, key=sort_key))


def card_rows(hand: Sequence[Card]) -> list[list[Card]]:
    """A hand, sorted: up to five cards on one row; a sixth (after a draw) on a row of its own.

    The sixth card's row comes *below* the moves (see ``card_buttons``), so the moves stay on
    the row under the first five: a second click on **Draw** lands on **Select cards…**, never
    on a card it would discard.
    """
    cs = sorted(hand, key=sort_key)
    return [cs[i : i + CARDS_PER_ROW] for i in range(0, len(cs), CARDS_PER_ROW)]


def card_buttons(
    v: PlayerView,
    t: Texts,
    selection: tuple[Card, ...] | None,
    clickable: bool = True,
    drawn: Card | None = None,
) -> tuple[list[Control], int, int]:
    """The hand as card buttons, the moves' row and the row free for a menu below them.

    The first five cards are the first row; a sixth goes on the row after the moves' row (so
    it never takes the place of a move). After drawing a card's button discards it, or, while
    selecting, picks it (green) or puts it back; otherwise the cards are shown, not clickable.
    The card just drawn (``drawn``) is blue, wherever sorting put it, as the text marks it.
    """
    out: list[Control] = []
    may = clickable and playing(v)
    discards = {a.card for a in v.legal if isinstance(a, Discard)}
    hand = v.hand if v.player in v.players and v.in_round else ()
    rows = card_rows(hand)
    moves = 1 if rows else 0
    for r, row in enumerate(rows):
        r = r + 1 if r else r  # the sixth card: below the moves
        for c in row:
            if selection is None:
                style: Style = "primary" if c == drawn else "secondary"
                out.append(_card(c, t, "discard", style, c.code, r, off=not (may and c in discards)))
                continue
            chosen = c in selection
            after = [x for x in selection if x != c] if chosen else sorted([*selection, c], key=sort_key)
            value = "~" + ".".join(x.code for x in after)
            style = "success" if chosen else "secondary"
            out.append(_card(c, t, "pick", style, value, r, off=not may, tick=chosen))
    return out, moves, moves + len(rows)


def _card(
    card: Card, t: Texts, op: str, style: Style, value: str, row: int, *, off: bool, tick: bool = False
) -> Button:
    """One card's button: its face (an emoji), or its name in words when the reader's style is text."""
    face = card_emoji(card, t)
    text = "" if face is not None else plain(card, t)
    label = ("✓ " + text) if tick and text else text
    return _hand(op, label, style, face, value=value, row=row, disabled=off)


def hand_controls(
    table: Table,
    v: PlayerView,
    t: Texts,
    selection: tuple[Card, ...] | None = None,
    drawn: Card | None = None,
) -> list[Control]:
    """The hand's controls, in rows that keep their places (see the module's docstring)."""
    out, moves, menu = card_buttons(v, t, selection, drawn=drawn)
    if v.can_act and selection is not None:
        out += _selecting(v, t, selection, moves, menu)
    elif v.can_act:
        out += [_opening_button(a, v, t, moves) for a in _opening_moves(v)]
        if playing(v):
            out += _quick(v, t, moves, menu)
    return out + last_row(table, v, t)


def _opening_moves(v: PlayerView) -> list[Draw | Drop]:
    """The turn's first moves in their places: Draw from stock, Take, then Drop.

    With an empty pile Take stays in its place, disabled, so Drop never moves to second.
    """
    start = [a for a in v.legal if isinstance(a, Draw)]
    if start and not any(a.source == "discard" for a in start):
        start.append(Draw(v.player, "discard"))
    start.sort(key=lambda a: a.source == "discard")
    return [*start, *(a for a in v.legal if isinstance(a, Drop))]


def _opening_button(a: Draw | Drop, v: PlayerView, t: Texts, row: int) -> Button:
    """The button for one of the turn's first moves (``_opening_moves``)."""
    if isinstance(a, Drop):
        drop = t.gettext("Drop ({value})").format(value=t.number(v.hand_value))
        return _hand("drop", drop, "danger", "✋", row=row)
    if a.source == "stock":
        return _hand("stock", t.gettext("Draw from stock"), "primary", "🂠", row=row)
    top = v.top_discard
    take = t.gettext("Take {card}").format(card=plain(top, t)) if top else t.gettext("Take the discard")
    face = card_emoji(top, t) if top else None
    return _hand("take", take, "primary", face, row=row, disabled=a not in v.legal)


def last_row(table: Table, v: PlayerView, t: Texts) -> list[Control]:
    """Refresh, Hint, the practice review, **Leave game…** and Away/I'm back, on the last row.

    They live there so they never move into the place of a move just clicked; Leave only
    asks (see ``cogs.flipflop.screens.leave_confirm_screen``).
    """
    out: list[Control] = [_hand("refresh", t.gettext("Refresh"), "secondary", "🔄", row=LAST_ROW)]
    if table.practice and v.still_playing:
        out.append(_hand("hint", t.gettext("Hint"), "success", "💡", row=LAST_ROW))
    if (review := practice_review(table, int(v.player), t)) is not None:
        out.append(review)
    if any(isinstance(a, Leave) for a in v.legal):
        out.append(_hand("leave", t.gettext("Leave game…"), "secondary", row=LAST_ROW))
    if table.is_seated(int(v.player)) and v.player not in v.dead:  # not once they left (R8.4)
        if table.is_away(v.player):
            out.append(_hand("back", t.gettext("I'm back"), "success", "👋", row=LAST_ROW))
        else:
            out.append(_hand("away", t.gettext("Away"), "secondary", "💤", row=LAST_ROW))
    return out


def practice_review(table: Table, user_id: int, t: Texts) -> Button | None:
    """In a practice hand: **Analyse my last round**, once a round the player played in has finished.

    A ``review`` control: its operation is the kind of round (``p``, a practice table's), its
    value the round's number at the table.
    """
    if not table.practice or not table.practice_rounds:
        return None
    last = table.practice_rounds[-1]
    if table.pid(user_id) not in seats_of(last["transcript"]):
        return None
    text = _label(t.gettext("Analyse my last round"))
    return Button("review", "p", text, "secondary", "🔍", str(int(last["number"])), LAST_ROW)


def _spread_kind(s: Spread, t: Texts) -> str:
    """A spread as a menu option says what it is and how much it lowers the hand."""
    run = PlayerView.spread_kind(s.cards) == "run"
    text = (
        t.gettext("Run · lowers your hand by {value}")
        if run
        else t.gettext("Set · lowers your hand by {value}")
    )
    return fit(text.format(value=t.number(sum(c.value for c in s.cards))), OPTION_CHARS)


def _layoff_button(lo: LayOff, t: Texts, row: int, face: CardEmoji | None = None) -> Button:
    """One lay-off as a button: the card and the spread's number say what it does."""
    text = t.gettext("Lay off {card} on #{spread}").format(
        card=plain(lo.card, t), spread=t.number(lo.target + 1)
    )
    return _hand("layoff", text, "primary", face, value=f"{lo.card.code}@{lo.target}", row=row)


def _quick(v: PlayerView, t: Texts, row: int, menu: int) -> list[Control]:
    """After a draw: **Select cards…**, the best spreads and lay-offs as one click each, tonk out.

    **Select cards…** is always first (greyed, and named **Nothing to lay down**, when no spread
    or lay-off can be made), so the moves' row is never empty and a second click on **Draw**
    never reaches a card below it.
    """
    spreads = sorted(
        (a for a in v.legal if isinstance(a, Spread)), key=lambda s: -sum(c.value for c in s.cards)
    )
    layoffs = sorted((a for a in v.legal if isinstance(a, LayOff)), key=lambda lo: -lo.card.value)
    tonks = [a for a in v.legal if isinstance(a, TonkOut)]
    nothing = not (spreads or layoffs)
    pick = t.gettext("Nothing to lay down") if nothing else t.gettext("Select cards…")  # greyed: says why
    out: list[Control] = [_hand("pick", pick, "secondary", "☑️", value="~", row=row, disabled=nothing)]
    for s in spreads[:QUICK]:
        out.append(_hand("spread", _lay_down(s.cards, t), "primary", value=cards_text(s.cards), row=row))
    for lo in layoffs[: QUICK - min(len(spreads), QUICK)]:
        out.append(_layoff_button(lo, t, row, card_emoji(lo.card, t)))
    if tonks:
        options = tuple(_tonk_option(tk, t) for tk in tonks[:25])
        placeholder = _label(t.gettext("🎉 Tonk out! Lay down your whole hand…"))
        out.append(Menu("hand", "tonk", placeholder, options, menu))
    return out


def _selecting(v: PlayerView, t: Texts, selection: tuple[Card, ...], row: int, menu: int) -> list[Control]:
    """What the picked cards can do: only what is legal now is enabled, and the labels say what."""
    chosen = set(selection)
    spread = next((a for a in v.legal if isinstance(a, Spread) and set(a.cards) == chosen), None)
    single = selection[0] if len(selection) == 1 else None
    layoffs = [a for a in v.legal if isinstance(a, LayOff) and a.card == single]
    discard = single is not None and any(isinstance(a, Discard) and a.card == single for a in v.legal)
    lay = _lay_down(spread.cards, t) if spread else t.gettext("Lay down (pick a run or a set)")
    out: list[Control] = [
        _hand(
            "spread",
            lay,
            "primary",
            value=cards_text(spread.cards) if spread else "",
            row=row,
            disabled=spread is None,
        )
    ]
    if len(layoffs) == 1:
        out.append(_layoff_button(layoffs[0], t, row))
    elif layoffs:  # several spreads fit: which one is not a card, so it is a menu
        on = {s.index: s.cards for s in v.spreads}
        options = tuple(
            Option(
                f"{lo.card.code}@{lo.target}",
                fit(f"#{lo.target + 1} " + plain_cards(on.get(lo.target, ()), t), OPTION_CHARS),
            )
            for lo in layoffs[:25]
        )
        out.append(Menu("hand", "layoff", _label(t.gettext("Lay off on which spread?")), options, menu))
    else:
        text = t.gettext("Lay off (pick one card that fits a spread)")
        out.append(_hand("layoff", text, "primary", value="", row=row, disabled=True))
    discarding = t.gettext("Discard {card}").format(card=plain(single, t)) if single else t.gettext("Discard")
    which = single.code if single else ""
    out.append(_hand("discard", discarding, "secondary", value=which, row=row, disabled=not discard))
    out.append(_hand("pick", t.gettext("Cancel"), "secondary", value="", row=row))
    return out


def leave_confirm_controls(table: Table, v: PlayerView, t: Texts, now: float, seconds: int) -> list[Control]:
    """The cards (not clickable), **Keep playing**, and **Yes, leave** alone on the row below.

    **Yes, leave** carries the second it expires (``now`` + ``seconds``).
    """
    out, rows, below = card_buttons(v, t, None, clickable=False)
    out.append(_hand("refresh", t.gettext("Keep playing"), "success", row=rows))
    until = str(int(now) + seconds)
    out.append(_hand("leaveok", t.gettext("Yes, leave"), "danger", value=until, row=below))
    return out
