"""The coach's words: hints, what to watch for, a round looked back at, practice labels.

Pure functions from ``engine.ai.coach``'s results to text, every word a message id
(``coach.hint``) worded in the catalogs (``t: Texts``). Cards read as everywhere else
(``bot.presentation.render.card``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import N_, Texts
from bot.presentation.render import card, cards
from engine.actions import Action, Discard, Draw, Drop, LayOff, Spread, TonkOut
from engine.ai.coach import Hint, Reason
from engine.ai.review import Analysis, Review
from engine.cards import Card

PRACTICE_BANNER = N_("coach.practice_banner")
PRACTICE_TITLE = N_("coach.practice_title")
PRACTICE_FOOTER = N_("coach.practice_footer")

REASON_TEXT: dict[str, str] = {
    "only": N_("coach.only"),
    "tonk": N_("coach.tonk"),
    "spread": N_("coach.spread"),
    "layoff": N_("coach.layoff"),
    "discard_far": N_("coach.discard_far"),
    "discard_lone": N_("coach.discard_lone"),
    "discard_high": N_("coach.discard_high"),
    "discard_searched": N_("coach.discard_searched"),
    "discard_instead": N_("coach.discard_instead"),
    "drop": N_("coach.drop"),
    "no_drop": N_("coach.no_drop"),
    "take_spread": N_("coach.take_spread"),
    "take_layoff": N_("coach.take_layoff"),
    "take_low": N_("coach.take_low"),
    "take_searched": N_("coach.take_searched"),
    "stock": N_("coach.stock"),
    "stock_searched": N_("coach.stock_searched"),
}
"""Each ``engine.ai.coach`` reason code, worded for players."""


def _param(value: Any, t: Texts) -> str:
    if isinstance(value, Card):  # a card is a tuple too: it comes first
        return card(value, t)
    if isinstance(value, tuple):
        return cards(value, t=t)
    if isinstance(value, int) and not isinstance(value, bool):
        return t.number(value)
    if isinstance(value, float):
        return t.decimal(value)
    return str(value)


def reason_text(t: Texts, reason: Reason) -> str:
    """One short reason, cards shown as cards."""
    template = REASON_TEXT.get(reason.code)
    if template is None:
        return ""
    params = {k: _param(v, t) for k, v in reason.params.items()}
    if isinstance(reason.params.get("chance"), int):
        params["chance"] = t.percent(int(reason.params["chance"]))  # "80%", "80 %": the language's way
    return t.gettext(template).format(**params)


def action_text(t: Texts, action: Action) -> str:
    """A move as an instruction: "discard `K♠`", "drop", "take `7♥` from the discard pile"."""
    if isinstance(action, Drop):
        return t.gettext("coach.move_drop")
    if isinstance(action, Draw) and action.source == "stock":
        return t.gettext("coach.move_stock")
    if isinstance(action, Draw):
        return t.gettext("coach.move_take")
    if isinstance(action, Discard):
        return t.gettext("coach.move_discard").format(card=card(action.card, t))
    if isinstance(action, Spread):
        return t.gettext("coach.move_spread").format(cards=cards(action.cards, t=t))
    if isinstance(action, LayOff):
        return t.gettext("coach.move_layoff").format(card=card(action.card, t), target=action.target + 1)
    if isinstance(action, TonkOut):
        return t.gettext("coach.move_tonk").format(first=cards(action.first), second=cards(action.second))
    return t.gettext("coach.move_leave")


def hint_text(t: Texts, hint: Hint) -> str:
    """The hint: the Strong computer's move and one reason, as the player reads it."""
    move = action_text(t, hint.action)
    why = reason_text(t, hint.reason)
    head = t.gettext("coach.hint").format(move=move[:1].upper() + move[1:], why=why)
    return head + "\n" + t.gettext("coach.hint_footer")


def watch_text(t: Texts, reason: Reason, to_act: str) -> str:
    """Not this player's turn: whose it is, and what to watch for."""
    lines = [t.gettext("coach.not_your_turn").format(name=to_act)]
    wanted: Sequence[Any] = reason.params.get("wanted", ())
    if wanted:
        lines.append(t.gettext("coach.watch_discards").format(cards=cards(wanted, t=t)))
    else:
        lines.append(t.gettext("coach.no_near_spread"))
    lines.append(t.gettext("coach.hand_worth").format(value=t.number(int(reason.params.get("value", 0)))))
    return "\n".join(lines)


def review_line(t: Texts, review: Review) -> str:
    """One decision the Strong computer would have made differently, with the chips it estimates."""
    better = action_text(t, review.better)
    return t.gettext("coach.review_line").format(
        turn=t.number(review.turn),
        hand=cards(review.hand, sort=True, t=t),
        chosen=action_text(t, review.chosen),
        better=better,
        why=reason_text(t, review.reason),
        difference=("+" if review.difference >= 0 else "") + t.decimal(review.difference),
        samples=t.number(review.samples),
    )


ANALYSIS_PAGES = 3
"""At most this many private messages tell one look back (the rest: "… and more")."""


def analysis_pages(
    t: Texts, analysis: Analysis, title: str, limit: int = 1900, most: int = ANALYSIS_PAGES
) -> list[str]:
    """A round looked back at, for the player only: the decisions that differ, or a clean bill.

    A clean bill names the decisions checked; a round without a choice of theirs says so, and one
    stopped before its first check says only that it stopped.

    The moves the computer made for the player while they were away are not theirs: how many is
    said, and when it made them all, that alone is said.

    Its lines over up to ``most`` messages of at most ``limit`` characters each (a message holds
    2,000; a hand of card faces takes hundreds), the summary first and the footer last; what
    does not fit in them ends with "… and more".
    """
    head = [title]
    if analysis.skipped and not analysis.own:  # nothing of theirs to look back at: said plainly
        head.append(
            t.ngettext("coach.analysis_all_away", "coach.analysis_all_away.plural", analysis.skipped).format(
                count=t.number(analysis.skipped)
            )
        )
        return ["\n".join(head)]
    if analysis.reviews:
        lost = sum(r.difference for r in analysis.reviews)
        head.append(
            t.ngettext(
                "coach.analysis_differs",
                "coach.analysis_differs.plural",
                len(analysis.reviews),
            ).format(count=t.number(len(analysis.reviews)), lost=t.decimal(lost))
        )
    elif analysis.checked:
        head.append(
            t.ngettext(
                "coach.analysis_agrees",
                "coach.analysis_agrees.plural",
                analysis.checked,
            ).format(count=t.number(analysis.checked))
        )
    elif not analysis.decisions:  # every move of theirs was the only one the rules allowed
        head.append(t.gettext("coach.analysis_no_choice"))
    # else it stopped before checking any decision: the stopped line says so, and nothing more
    if analysis.skipped:
        head.append(
            t.ngettext("coach.analysis_skipped", "coach.analysis_skipped.plural", analysis.skipped).format(
                count=t.number(analysis.skipped)
            )
        )
    tail = []
    if analysis.stopped_early:
        tail.append(
            t.gettext("coach.analysis_stopped").format(
                checked=t.number(analysis.checked), decisions=t.number(analysis.decisions)
            )
        )
    tail.append(t.gettext("coach.analysis_footer"))
    full = t.gettext("coach.analysis_full")
    room = limit - sum(len(x) + 1 for x in tail) - len(full) - 1  # any page may turn out the last

    def size(lines: list[str]) -> int:
        return sum(len(x) + 1 for x in lines)

    pages = [head]
    for review in analysis.reviews:
        line = review_line(t, review)
        if size(pages[-1]) + len(line) > room:
            if len(pages) == most:
                pages[-1].append(full)
                break
            pages.append([])
        pages[-1].append(line)
    pages[-1] += tail
    return ["\n".join(lines) for lines in pages]


def practice_dress(t: Texts, title: str, description: str | None, footer: str | None) -> tuple[str, str, str]:
    """A practice table's title, banner and footer (its chip amounts say so already: ``Texts.at``)."""
    return (
        t.gettext(PRACTICE_TITLE).format(title=title),
        t.gettext(PRACTICE_BANNER) + ("\n" + description if description else ""),
        t.gettext(PRACTICE_FOOTER).format(footer=footer or ""),
    )


__all__ = [
    "PRACTICE_BANNER",
    "REASON_TEXT",
    "action_text",
    "analysis_pages",
    "hint_text",
    "practice_dress",
    "reason_text",
    "review_line",
    "watch_text",
]
