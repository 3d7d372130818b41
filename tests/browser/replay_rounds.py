"""Rounds for the replay page's tests: real games of the engine, dealt by the fair-deal scheme."""

from __future__ import annotations

import random
from typing import Any

from bot.presentation.replay_link import replay_file
from engine.ai.strategies import BasicStrategy
from engine.cards import Card
from engine.fairness import commitment, deck_codes, first_dealer
from engine.game import Game, Seat

SNOWFLAKE = 1_180_000_000_000_000_000
DISCORD_EPOCH_MS = 1_420_070_400_000
A_ROUND_MS = 1_796_000_000_000
"""December 2026, when these rounds are "played"."""


def interaction_ids(rng: random.Random, count: int) -> list[str]:
    """Snowflakes as Discord makes them for clicks 0.3 to 8 seconds apart (its documented layout).

    ``(ms since 2015 << 22) | worker << 17 | process << 12 | increment``: ids of one round
    share their high bits, as real ones do, so the link's compact form is measured fairly.
    """
    ms = A_ROUND_MS + rng.randrange(86_400_000)
    out = []
    for _ in range(count):
        ms += rng.randrange(300, 8000)
        out.append(
            str(
                (ms - DISCORD_EPOCH_MS) << 22
                | rng.randrange(32) << 17
                | rng.randrange(32) << 12
                | rng.randrange(4096)
            )
        )
    return out


def played_round(
    players: int, seed: int, interactions: int = 16, number: int = 1, names: bool = True
) -> dict[str, Any]:
    """Round ``number`` of a table of ``players`` basic computers, as ``/flipflop round`` attaches it.

    Seat ids and the client seed's ``interactions`` ids are Discord-sized snowflakes, so
    link lengths measured on these rounds are those of real rounds.
    """
    rng = random.Random(seed)
    ids = [str(SNOWFLAKE + rng.randrange(10**17)) for _ in range(players)]
    server_seed = rng.randbytes(32)
    client_seed = "-".join(interaction_ids(rng, interactions))
    game = Game([Seat(p, 200) for p in ids], 5)
    dealer = ids[first_dealer(server_seed, client_seed, 1, players)] if number == 1 else ids[0]
    deck = [Card.parse(c) for c in deck_codes(server_seed, client_seed, number)]
    game.start_round(deck=deck, dealer=dealer)
    strategy = BasicStrategy()
    while game.in_round:
        to_act = game.to_act
        assert to_act is not None
        game.apply(strategy.choose(game.view(to_act), rng))
    reveal = {
        "round": number,
        "server_seed": server_seed.hex(),
        "commitment": commitment(server_seed),
        "client_seed": client_seed,
    }
    shown = {p: n for p, n in zip(ids, ["ann", "ben", "cat", "dan", "eve"], strict=False)} if names else {}
    return replay_file(game.round_transcript(), reveal=reveal, names=shown, number=number, round_id=seed)


def played_game(players: int, seed: int, rounds: int) -> list[dict[str, Any]]:
    """The first ``rounds`` rounds of one game, one file per round as ``/flipflop round`` attaches them."""
    rng = random.Random(seed)
    ids = [str(SNOWFLAKE + rng.randrange(10**17)) for _ in range(players)]
    names = dict(zip(ids, ["ann", "ben", "cat", "dan", "eve"], strict=False))
    game = Game([Seat(p, 200) for p in ids], 5)
    strategy = BasicStrategy()
    files = []
    for number in range(1, rounds + 1):
        if game.over:
            break
        server_seed = rng.randbytes(32)
        client_seed = "-".join(interaction_ids(rng, 3))
        dealer = ids[first_dealer(server_seed, client_seed, 1, players)] if number == 1 else None
        game.start_round(
            deck=[Card.parse(c) for c in deck_codes(server_seed, client_seed, number)], dealer=dealer
        )
        while game.in_round:
            to_act = game.to_act
            assert to_act is not None
            game.apply(strategy.choose(game.view(to_act), rng))
        reveal = {
            "round": number,
            "server_seed": server_seed.hex(),
            "commitment": commitment(server_seed),
            "client_seed": client_seed,
        }
        files.append(
            replay_file(
                game.round_transcript(), reveal=reveal, names=names, number=number, round_id=100 + number
            )
        )
    return files


def measure(rounds: int = 300, base: str = "https://example.github.io/flipflop/replay/") -> None:
    """Print how long the links of 3- and 5-player rounds are, in both forms (README, "Replays")."""
    import statistics

    from bot.presentation.replay_link import LINK_LIMIT, _short_ids, binary_fragment, fragment

    for players in (3, 5):
        for interactions in (1, 4, 16):
            played = [played_round(players, seed, interactions) for seed in range(rounds)]
            for form, make in (
                ("#r= deflated JSON", lambda d: fragment(_short_ids(d))),
                ("#b= binary", binary_fragment),
            ):
                sizes = [len(base + (make(d) or "")) for d in played]
                fits = sum(size <= LINK_LIMIT for size in sizes)
                median = statistics.median(sizes)
                print(
                    f"{players} players, {interactions:2} ids, {form:17}: median {median:.0f}"
                    f" ({min(sizes)}-{max(sizes)}), fits {fits}/{rounds}"
                )


if __name__ == "__main__":
    measure()
