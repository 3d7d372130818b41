"""Words for stored history: who a recorded member is, a round's story line by line, stats.

``bot.history`` hands out data (member ids, ``(code, params)`` story lines,
``Stats``); this module words it for Discord, as short lines. Members are
mentions (sent with mentions switched off), computer levels their label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.history import RoundSummary, Stats, computer_level
from bot.i18n import N_, Texts
from bot.presentation.computer_names import computer_name, level_name
from bot.presentation.render import plain, plain_cards
from bot.privacy import PSEUDONYM_FLOOR
from engine import Card

END_WORD = {
    "out": N_("went out"),
    "tonk": N_("tonk out"),
    "drop": N_("drop"),
    "caught": N_("caught drop"),
    "stock": N_("stock ran out"),
    "fifty": N_("50 at the deal"),
    "forty_nine": N_("49 at the deal"),
}
"""How a round ended (``bot.history.WAYS``), in a word or three (translated where shown)."""

POT_NAME = {"game": N_("game pot"), "flip": N_("flip pot"), "flop": N_("flop pot")}
"""The three pots by name, as the story lines say them."""


def _end(reason: str, t: Texts) -> str:
    return t.gettext(END_WORD[reason]) if reason in END_WORD else reason


def _pot(pot: str, t: Texts) -> str:
    return t.gettext(POT_NAME[pot]) if pot in POT_NAME else pot


COMPUTER_SEAT = re.compile(r"([a-z]+)#(\d+)")
"""A computer seat in a round's story (``bot.history.computer_seat``): its level and number."""


def who(member: int | str, t: Texts) -> str:
    """A recorded member: a mention for a person, ``🤖 Basic 2`` for a computer seat, else its level."""
    if isinstance(member, str) and (seat := COMPUTER_SEAT.fullmatch(member)):
        return computer_name(seat[1], int(seat[2]), t)
    if isinstance(member, int):
        level = computer_level(member)
        if level is not None:
            return f"🤖 {level_name(level, t)}"
        if member <= PSEUDONYM_FLOOR:  # a member who asked to be forgotten: no mention, no name
            return f"👤 {str(member)[-4:]}"
        return f"<@{member}>"
    return str(member)


def _cards(codes: Sequence[str], t: Texts) -> str:
    return plain_cards([Card.parse(code) for code in codes], t) or t.gettext("no cards")


Line = Callable[[Mapping[str, Any], str, str, Texts], str]
"""A story line's wording: the event's params, its player and card already worded, the texts."""


def _round_started(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    n = t.number
    return t.gettext(
        "🃏 Round {number}: {dealer} deals; upcard {upcard}, pots game {game} · flip {flip} · flop {flop}"
    ).format(
        number=n(p["number"]),
        dealer=who(p["dealer"], t),
        upcard=plain(Card.parse(p["upcard"]), t),
        game=n(p["pots"]["game"]),
        flip=n(p["pots"]["flip"]),
        flop=n(p["pots"]["flop"]),
    )


def _drew(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    if p["source"] == "discard":
        text = (
            t.gettext("{player} draws {card} from the discard pile")
            if card
            else t.gettext("{player} draws from the discard pile")
        )
    else:
        text = (
            t.gettext("{player} draws {card} from the stock")
            if card
            else t.gettext("{player} draws from the stock")
        )
    return text.format(player=player, card=card)


def _discarded(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("{player} discards {card}").format(player=player, card=card)


def _spread_laid(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    text = (
        t.gettext("{player} lays a run: {cards}")
        if p["kind"] == "run"
        else t.gettext("{player} lays a set: {cards}")
    )
    return text.format(player=player, cards=_cards(p["cards"], t))


def _laid_off(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("{player} lays off {card} on spread #{index}").format(
        player=player, card=card, index=t.number(p["index"])
    )


def _card_shown(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("{player} shows {card} for the {pot}").format(
        player=player, card=card, pot=_pot(p["pot"], t)
    )


def _dropped(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("✋ {player} drops with {value}").format(player=player, value=t.number(p["value"]))


def _player_left(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("🚪 {player} leaves").format(player=player)


def _round_ended(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    hands = [
        f"  {who(m, t)}: {_cards(cards, t)} ({p['values'].get(m, p['values'].get(str(m), '?'))})"
        for m, cards in p["hands"].items()
    ]
    end = _end(p["reason"], t)
    return (f"🏁 {end} — {player}" if player else f"🏁 {end}") + "\n" + "\n".join(hands)


def _pot_paid(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    shares = ", ".join(f"{who(m, t)} {t.number(v)}" for m, v in p["shares"].items())
    return t.gettext("💰 {pot} ({total}): {shares}").format(
        pot=_pot(p["pot"], t), total=t.number(p["total"]), shares=shares
    )


def _pot_carried(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("↪️ {pot} ({amount}) carries over").format(
        pot=_pot(p["pot"], t), amount=t.number(p["amount"])
    )


def _side_stake_paid(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    amount = t.number(p["amount"])
    if p.get("to_player") is not None:
        return t.gettext("↳ {player} pays a side stake of {amount} to {to}").format(
            player=player, amount=amount, to=who(p["to_player"], t)
        )
    return t.gettext("↳ {player} pays a side stake of {amount} to the {pot}").format(
        player=player, amount=amount, pot=_pot(p["to_pot"], t)
    )


def _next_dealer(p: Mapping[str, Any], player: str, card: str, t: Texts) -> str:
    return t.gettext("next deal: {player}").format(player=player)


LINES: dict[str, Line] = {
    "round_started": _round_started,
    "drew": _drew,
    "discarded": _discarded,
    "spread_laid": _spread_laid,
    "laid_off": _laid_off,
    "card_shown": _card_shown,
    "dropped": _dropped,
    "player_left": _player_left,
    "round_ended": _round_ended,
    "pot_paid": _pot_paid,
    "pot_carried": _pot_carried,
    "side_stake_paid": _side_stake_paid,
    "next_dealer": _next_dealer,
}
"""Each stored action kind that is worth a line, and how it is worded."""


def _line(code: str, p: Mapping[str, Any], t: Texts) -> str | None:
    """One event of a recorded round as a short line (None: not worth a line)."""
    player = who(p["player"], t) if "player" in p and p["player"] is not None else ""
    card = plain(Card.parse(p["card"]), t) if p.get("card") else ""
    wording = LINES.get(code)
    return None if wording is None else wording(p, player, card, t)


def _key(member: Any) -> Any:
    """JSON turned the story's member keys into texts: read them back as ids."""
    if isinstance(member, str) and member.lstrip("-").isdigit():
        return int(member)
    return member


def story_lines(lines: Sequence[tuple[str, Mapping[str, Any]]], number: int, t: Texts) -> list[str]:
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
        if (text := _line(code, fixed, t)) is not None:
            out.append(text)
    return out


def history_line(summary: RoundSummary, t: Texts) -> str:
    """One recorded round: id, when, how it ended, who won which pot, who played."""
    pots = []
    for pot, winners in summary.winners.items():
        won = " & ".join(who(m, t) for m in winners) if winners else t.gettext("carried")
        pots.append(f"{_pot(pot, t)}: {won}")
    players = " ".join(who(m, t) for m in dict.fromkeys(summary.members))
    head = t.gettext("`#{id}` {when} · round {number} at table `{table}` · {end} · {pots}").format(
        id=summary.round_id,
        when=f"<t:{int(summary.ended_at)}:R>",
        number=t.number(summary.number),
        table=summary.table_id,
        end=_end(summary.end, t),
        pots=" · ".join(pots),
    )
    return f"{head}\n  {players}"


def stats_text(member: int, s: Stats, t: Texts) -> str:
    """``/flipflop stats``: a member's record here, and their rating as its ordinal (μ − 3σ)."""
    if s.rounds == 0:
        return t.gettext("{member} hasn't finished a round of Flip Flop in this server yet.").format(
            member=who(member, t)
        )
    wins, n = s.wins, t.number
    ways = t.gettext(
        "out {out} · tonk {tonk} · drop {drop} · caught drop {caught} · stock {stock} · 49/50 {deal}"
    ).format(
        out=n(wins["out"]),
        tonk=n(wins["tonk"]),
        drop=n(wins["drop"]),
        caught=n(wins["caught"]),
        stock=n(wins["stock"]),
        deal=n(wins["fifty"] + wins["forty_nine"]),
    )
    biggest = t.chips(s.biggest_pot) if s.biggest_pot is not None else t.gettext("none yet")
    net = ("+" if s.net >= 0 else "") + n(s.net)
    lines = [
        t.gettext("📊 **{member}** in this server").format(member=who(member, t)),
        t.gettext("Games **{games}** · rounds **{rounds}** · net **{net}** chips").format(
            games=n(s.games), rounds=n(s.rounds), net=net
        ),
        t.gettext("Rounds won: {ways}").format(ways=ways),
        t.gettext("Pots won: game {game} · flip {flip} · flop {flop} · biggest {biggest}").format(
            game=n(s.game_pots), flip=n(s.flip_pots), flop=n(s.flop_pots), biggest=biggest
        ),
        t.gettext("Drops {drops}, caught {caught}").format(drops=n(s.drops), caught=n(s.caught)),
    ]
    if s.rating is None:
        lines.append(t.gettext("Rating: none yet (it comes with the first finished game)"))
    else:
        r = s.rating.rating
        lines.append(
            t.ngettext(
                "Rating **{rating}** (μ {mu} − 3 × σ {sigma}; {count} rated game)",
                "Rating **{rating}** (μ {mu} − 3 × σ {sigma}; {count} rated games)",
                s.rating.games,
            ).format(
                rating=t.decimal(r.ordinal),
                mu=t.decimal(r.mu),
                sigma=t.decimal(r.sigma, 2),
                count=n(s.rating.games),
            )
        )
    return "\n".join(lines)
