"""The coach's words: hints, what to watch for, a round looked back at, practice labels.

Pure functions from ``engine.ai.coach``'s results to text, every word through the
catalogs (``t: Texts``). Cards read as everywhere else (``bot.presentation.render.card``).
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

PRACTICE_BANNER = N_(
    "🎓 **Practice table** — every chip here is a *practice chip*: none comes from or goes to "
    "your balance, and nothing counts in history, stats, ratings or the leaderboard."
)
PRACTICE_TITLE = N_("🎓 PRACTICE — {title}")
PRACTICE_FOOTER = N_("{footer} · practice chips only")

REASON_TEXT: dict[str, str] = {
    "only": N_("it's the only move the rules allow now"),
    "tonk": N_("it ends the round now: you win the game pot and every other player pays you one extra stake"),
    "spread": N_("your hand goes from {before} to {after} points, and you still discard this turn"),
    "layoff": N_(
        "spread #{target} takes it: your hand goes from {before} to {after} points, and you still discard"
    ),
    "discard_far": N_(
        "the highest card that fits no spread: {value} points, "
        "where {other}, the next such card, has {other_value}"
    ),
    "discard_lone": N_("the only card that fits no spread: every other card you hold is close to one"),
    "discard_high": N_(
        "every card you hold is close to a spread, and this one costs the most: {value} points, "
        "where {other} has {other_value}"
    ),
    "discard_searched": N_(
        "in play-outs of the hidden cards it did about {difference} chips better than discarding {other}"
    ),
    "discard_instead": N_("in play-outs of the hidden cards it did better than discarding {other}"),
    "drop": N_("nobody is likely to beat {value} (a drop wins in about {chance} of the deals it tried)"),
    "no_drop": N_(
        "a drop with {value} is likely caught (it wins in only about {chance} of the deals it tried)"
    ),
    "take_spread": N_("{card} makes a spread with {with_cards}"),
    "take_layoff": N_("{card} lays off on spread #{target}"),
    "take_low": N_("{card} is low ({value}) and lowers your hand"),
    "take_searched": N_("in play-outs {card} did better than an unknown card"),
    "stock": N_("{card} on the discard pile helps no spread of yours"),
    "stock_searched": N_("in play-outs an unknown card did better"),
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
        return t.gettext("drop")
    if isinstance(action, Draw) and action.source == "stock":
        return t.gettext("draw from the stock")
    if isinstance(action, Draw):
        return t.gettext("take the top discard")
    if isinstance(action, Discard):
        return t.gettext("discard {card}").format(card=card(action.card, t))
    if isinstance(action, Spread):
        return t.gettext("lay down {cards}").format(cards=cards(action.cards, t=t))
    if isinstance(action, LayOff):
        return t.gettext("lay {card} off on spread #{target}").format(
            card=card(action.card, t), target=action.target + 1
        )
    if isinstance(action, TonkOut):
        return t.gettext("tonk out with {first} + {second}").format(
            first=cards(action.first), second=cards(action.second)
        )
    return t.gettext("leave")


def hint_text(t: Texts, hint: Hint) -> str:
    """The hint: the strong player's move and one reason, as the player reads it."""
    move = action_text(t, hint.action)
    why = reason_text(t, hint.reason)
    head = t.gettext("💡 **Hint:** {move} — {why}.").format(move=move[:1].upper() + move[1:], why=why)
    return head + "\n" + t.gettext("-# The strong computer player's choice; practice tables only.")


def watch_text(t: Texts, reason: Reason, to_act: str) -> str:
    """Not this player's turn: whose it is, and what to watch for."""
    lines = [t.gettext("⏳ Not your turn: it's **{name}**'s.").format(name=to_act)]
    wanted: Sequence[Any] = reason.params.get("wanted", ())
    if wanted:
        lines.append(
            t.gettext(
                "👀 Watch the discard pile for {cards}: each would make a spread with your hand."
            ).format(cards=cards(wanted, t=t))
        )
    else:
        lines.append(
            t.gettext("👀 No single card makes a spread with your hand yet: watch what others discard.")
        )
    lines.append(
        t.gettext(
            "Your hand is worth {value}; the lower it is, the better a drop looks on your turn."
        ).format(value=t.number(int(reason.params.get("value", 0))))
    )
    return "\n".join(lines)


def review_line(t: Texts, review: Review) -> str:
    """One decision the strong player would have made differently, with the chips it estimates."""
    better = action_text(t, review.better)
    return t.gettext(
        "• Turn {turn}, holding {hand}: you chose to {chosen}; the strong player would {better} — {why}. "
        "Estimated **{difference} chips** better (over {samples} play-outs)."
    ).format(
        turn=t.number(review.turn),
        hand=cards(review.hand, sort=True, t=t),
        chosen=action_text(t, review.chosen),
        better=better,
        why=reason_text(t, review.reason),
        difference=("+" if review.difference >= 0 else "") + t.decimal(review.difference),
        samples=t.number(review.samples),
    )


def analysis_text(t: Texts, analysis: Analysis, title: str, limit: int = 1900) -> str:
    """A round looked back at, for the player only: the decisions that differ, or a clean bill."""
    lines = [title]
    if not analysis.reviews:
        lines.append(
            t.ngettext(
                "✅ The strong player agrees with your {count} decision (or thinks the difference is tiny).",
                "✅ The strong player agrees with all {count} of your decisions checked "
                "(or thinks the differences are tiny).",
                analysis.checked,
            ).format(count=t.number(analysis.checked))
        )
    else:
        lost = sum(r.difference for r in analysis.reviews)
        lines.append(
            t.ngettext(
                "{count} decision of yours where the strong player would have chosen differently "
                "(estimated {lost} chips in all):",
                "{count} decisions of yours where the strong player would have chosen differently "
                "(estimated {lost} chips in all):",
                len(analysis.reviews),
            ).format(count=t.number(len(analysis.reviews)), lost=t.decimal(lost))
        )
        for review in analysis.reviews:
            line = review_line(t, review)
            if sum(len(x) + 1 for x in lines) + len(line) > limit - 200:
                lines.append(t.gettext("… and more (the message is full)."))
                break
            lines.append(line)
    if analysis.stopped_early:
        lines.append(
            t.gettext(
                "⏱️ The look back stopped early to keep it quick: "
                "{checked} of your {decisions} decisions checked."
            ).format(checked=t.number(analysis.checked), decisions=t.number(analysis.decisions))
        )
    lines.append(
        t.gettext(
            "-# Estimates come from play-outs of the cards you could not see at each moment; "
            "only what you could see then was used."
        )
    )
    return "\n".join(lines)


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
    "analysis_text",
    "hint_text",
    "practice_dress",
    "reason_text",
    "review_line",
    "watch_text",
]
