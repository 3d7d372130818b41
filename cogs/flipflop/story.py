"""Words for stored history (issue 13): who a recorded member is, a round's story line by line, stats.

``bot.history`` hands out data (member ids, ``(code, params)`` story lines,
``Stats``); this module words it for Discord, as short lines. Members are
mentions (sent with mentions switched off), computer levels their label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.history import RoundSummary, Stats, computer_level
from bot.render import chips
from bot.runtime import LEVEL_LABEL
from engine import Card

END_WORD = {
    "out": "went out",
    "tonk": "tonk out",
    "drop": "drop",
    "caught": "caught drop",
    "stock": "stock ran out",
    "fifty": "50 at the deal",
    "forty_nine": "49 at the deal",
}
"""How a round ended (``bot.history.WAYS``), in a word or three."""


def who(member: int | str) -> str:
    """A recorded member: a mention for a person, ``🤖 Basic`` for a computer level."""
    if isinstance(member, int):
        level = computer_level(member)
        if level is not None:
            return f"🤖 {LEVEL_LABEL.get(level, level)}"
        return f"<@{member}>"
    return str(member)


def _cards(codes: Sequence[str]) -> str:
    return " ".join(Card.parse(code).label for code in codes) or "no cards"


def _line(code: str, p: Mapping[str, Any]) -> str | None:
    """One event of a recorded round as a short line (None: not worth a line)."""
    player = who(p["player"]) if "player" in p and p["player"] is not None else ""
    if code == "round_started":
        return (
            f"🃏 Round {p['number']}: {who(p['dealer'])} deals; upcard {Card.parse(p['upcard']).label}, "
            f"pots game {p['pots']['game']} · flip {p['pots']['flip']} · flop {p['pots']['flop']}"
        )
    if code == "drew":
        card = f" {Card.parse(p['card']).label}" if p.get("card") else ""
        return f"{player} draws{card} from the {p['source']}"
    if code == "discarded":
        return f"{player} discards {Card.parse(p['card']).label}"
    if code == "spread_laid":
        return f"{player} lays a {p['kind']}: {_cards(p['cards'])}"
    if code == "laid_off":
        return f"{player} lays off {Card.parse(p['card']).label} on spread #{p['index']}"
    if code == "card_shown":
        return f"{player} shows {Card.parse(p['card']).label} for the {p['pot']} pot"
    if code == "dropped":
        return f"✋ {player} drops with {p['value']}"
    if code == "player_left":
        return f"🚪 {player} leaves"
    if code == "round_ended":
        hands = [
            f"  {who(m)}: {_cards(cards)} ({p['values'].get(m, p['values'].get(str(m), '?'))})"
            for m, cards in p["hands"].items()
        ]
        end = END_WORD.get(p["reason"], p["reason"])
        return (f"🏁 {end} — {player}" if player else f"🏁 {end}") + "\n" + "\n".join(hands)
    if code == "pot_paid":
        shares = ", ".join(f"{who(m)} {n}" for m, n in p["shares"].items())
        return f"💰 {p['pot']} pot ({p['total']}): {shares}"
    if code == "pot_carried":
        return f"↪️ {p['pot']} pot ({p['amount']}) carries over"
    if code == "side_stake_paid":
        to = who(p["to_player"]) if p.get("to_player") is not None else f"the {p['to_pot']} pot"
        return f"↳ {player} pays a side stake of {p['amount']} to {to}"
    if code == "next_dealer":
        return f"next deal: {player}"
    return None


def _key(member: Any) -> Any:
    """JSON turned the story's member keys into texts: read them back as ids."""
    if isinstance(member, str) and member.lstrip("-").isdigit():
        return int(member)
    return member


def story_lines(lines: Sequence[tuple[str, Mapping[str, Any]]], number: int) -> list[str]:
    """The round turn by turn; the hands as they were at the end come with its last lines.

    ``number`` is the table's round number: the stored transcript replays the
    round on its own, so the engine counts it as round 1.
    """
    out = []
    for code, params in lines:
        fixed = dict(params)
        if code == "round_started":
            fixed["number"] = number
        for field in ("hands", "values", "shares"):
            if isinstance(fixed.get(field), dict):
                fixed[field] = {_key(k): v for k, v in fixed[field].items()}
        if (text := _line(code, fixed)) is not None:
            out.append(text)
    return out


def history_line(summary: RoundSummary) -> str:
    """One recorded round: id, when, how it ended, who won which pot, who played."""
    pots = []
    for pot, winners in summary.winners.items():
        pots.append(f"{pot} " + (" & ".join(who(m) for m in winners) if winners else "carried"))
    players = " ".join(who(m) for m in dict.fromkeys(summary.members))
    return (
        f"`#{summary.round_id}` <t:{int(summary.ended_at)}:R> · round {summary.number} at table "
        f"`{summary.table_id}` · {END_WORD.get(summary.end, summary.end)} · {' · '.join(pots)}\n"
        f"  {players}"
    )


def stats_text(member: int, s: Stats) -> str:
    """``/flipflop stats``: a member's record here, and their rating as its ordinal (μ − 3σ)."""
    if s.rounds == 0:
        return f"{who(member)} hasn't finished a round of Flip Flop in this server yet."
    wins = s.wins
    ways = (
        f"out {wins['out']} · tonk {wins['tonk']} · drop {wins['drop']} · caught drop {wins['caught']} · "
        f"stock {wins['stock']} · 49/50 {wins['fifty'] + wins['forty_nine']}"
    )
    biggest = chips(s.biggest_pot) if s.biggest_pot is not None else "none yet"
    lines = [
        f"📊 **{who(member)}** in this server",
        f"Games **{s.games}** · rounds **{s.rounds}** · net **{s.net:+,}** chips",
        f"Rounds won: {ways}",
        f"Pots won: game {s.game_pots} · flip {s.flip_pots} · flop {s.flop_pots} · biggest {biggest}",
        f"Drops {s.drops}, caught {s.caught}",
    ]
    if s.rating is None:
        lines.append("Rating: none yet (it comes with the first finished game)")
    else:
        r = s.rating.rating
        lines.append(
            f"Rating **{r.ordinal:.1f}** (μ {r.mu:.1f} − 3 × σ {r.sigma:.2f}; "
            f"{s.rating.games} rated game{'' if s.rating.games == 1 else 's'})"
        )
    return "\n".join(lines)
