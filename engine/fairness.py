"""The provably fair shuffle: commit to a secret seed, deal from it, reveal it after the round.

Why: a player must be able to check, with a few lines of any language and no
code of ours, that the deck they were dealt was fixed before anything they did
and was not chosen by the bot. The scheme (docs/FAIRNESS.md gives it with test
vectors and the commands to check a round by hand):

- ``server_seed``: 32 random bytes, drawn per round; its **commitment**
  ``SHA-256(server_seed)`` (64 lowercase hex digits) is published before any
  part of the round's ``client_seed`` exists.
- The byte stream is ``HMAC-SHA256(key=server_seed, msg=f"{client_seed}:{round}:{counter}")``
  (message in UTF-8) for ``counter`` 0, 1, 2, …, the 32-byte blocks concatenated;
  it is read as 4-byte big-endian unsigned integers.
- Fisher–Yates from the deck in notation order (R1.5: suits C, D, H, S, each
  A 2 … T J Q K): for ``i`` from 51 down to 1, ``n = i + 1``,
  ``limit = 2**32 - (2**32 % n)``; read integers until one, ``x``, is
  ``< limit`` (rejection sampling: no modulo bias); swap positions ``i`` and
  ``x % n``. The result is the dealing order (position 0 dealt first, R3.2).
- A table's first dealer (R3.1) is drawn the same way from a stream of its
  own (``…:{round}:dealer:{counter}``), so the bot can not choose who gets
  which hand either.

This module is deliberately standard-library only and imports nothing from the
engine, so that it can be read, copied and run on its own. It speaks R1.5 card
codes (``AC``, ``TD``); the bot turns codes into cards.

Command line (exit status 0 = checked and correct, 1 = a mismatch, 2 = malformed input)::

    python -m engine.fairness deck --server-seed HEX --client-seed TEXT --round N
    python -m engine.fairness dealer --server-seed HEX --client-seed TEXT --round N --seats N
    python -m engine.fairness verify --server-seed HEX --commitment HEX
        [--client-seed TEXT --round N --deck "AC 2C …" [--seats N]]   (one line)

``verify --seats`` (a table's first round: how many sat) prints the first dealer's seat too.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import itertools
import secrets
import struct
import sys
from collections.abc import Callable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

SEED_BYTES = 32
"""Length of a server seed: 32 bytes, shown as 64 hex digits."""

WORD_RANGE = 2**32
"""The integers read from the byte stream are 4-byte big-endian, so 0 ≤ x < 2**32."""

NOTATION_ORDER: tuple[str, ...] = tuple(rank + suit for suit in "CDHS" for rank in "A23456789TJQK")
"""The 52 codes of R1.5 in the order the shuffle starts from: AC 2C … KC AD … KS."""

_T = TypeVar("_T")
_EIGHT_WORDS = struct.Struct(">8I")  # one HMAC-SHA256 block = eight 4-byte big-endian words


class FairnessInputError(ValueError):
    """A seed, commitment, round or deck that is not well formed (the CLI's exit status 2)."""


def new_server_seed() -> bytes:
    """Draw a fresh server seed from the operating system's CSPRNG (``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """The published commitment: SHA-256 of the seed's 32 raw bytes, as 64 lowercase hex digits."""
    return hashlib.sha256(_checked_seed(server_seed)).hexdigest()


def seed_from_hex(text: str) -> bytes:
    """Read a server seed written as 64 hex digits (either case); raise ``FairnessInputError`` otherwise."""
    cleaned = text.strip()
    if len(cleaned) != 2 * SEED_BYTES:
        raise FairnessInputError(
            f"a server seed is {2 * SEED_BYTES} hex digits, not {len(cleaned)} characters"
        )
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        raise FairnessInputError("a server seed may hold only the hex digits 0-9 and a-f") from None


def commitment_from_hex(text: str) -> str:
    """Normalise a commitment (64 hex digits, either case) to lowercase; raise ``FairnessInputError``."""
    cleaned = text.strip().lower()
    if len(cleaned) != 64 or any(c not in "0123456789abcdef" for c in cleaned):
        raise FairnessInputError("a commitment is 64 hex digits (a SHA-256 digest)")
    return cleaned


def parse_deck(text: str | Sequence[str]) -> list[str]:
    """Read a deck as 52 distinct R1.5 codes (spaces or commas between them, either case).

    Raises ``FairnessInputError`` naming the first problem found.
    """
    codes = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    deck = [code.strip().upper() for code in codes]
    known = set(NOTATION_ORDER)
    for code in deck:
        if code not in known:
            raise FairnessInputError(f"{code!r} is not a card code (write them like AC, TD, KS)")
    if len(deck) != len(NOTATION_ORDER):
        raise FairnessInputError(f"a deck has 52 cards; got {len(deck)}")
    if len(set(deck)) != len(deck):
        twice = sorted({c for c in deck if deck.count(c) > 1})
        raise FairnessInputError(f"a deck holds each card once; repeated: {' '.join(twice)}")
    return deck


def byte_blocks(server_seed: bytes, client_seed: str, round: int) -> Iterator[bytes]:
    """The byte stream, block by block: HMAC-SHA256(server_seed, f"{client_seed}:{round}:{counter}")."""
    return _hmac_blocks(server_seed, f"{client_seed}:{_checked_round(round)}:")


def words(server_seed: bytes, client_seed: str, round: int) -> Iterator[int]:
    """The stream read as 4-byte big-endian unsigned integers, in order."""
    return _words(byte_blocks(server_seed, client_seed, round))


def uniform_below(n: int, next_word: Callable[[], int], word_range: int = WORD_RANGE) -> int:
    """A number in ``0 … n - 1``, every one equally likely, by rejection sampling.

    Words at or above ``limit = word_range - (word_range % n)`` (the largest
    multiple of ``n`` that fits) are thrown away and the next one is read, so
    ``x % n`` carries no modulo bias.
    """
    limit = word_range - (word_range % n)
    x = next_word()
    while x >= limit:
        x = next_word()
    return x % n


def fisher_yates(
    items: MutableSequence[_T], next_word: Callable[[], int], word_range: int = WORD_RANGE
) -> None:
    """Shuffle ``items`` in place, drawing from ``next_word`` (uniform on ``0 … word_range - 1``).

    For ``i`` from the last index down to 1 it picks ``j`` uniformly in
    ``0 … i`` (``uniform_below(i + 1)``) and swaps positions ``i`` and ``j``.
    The deal uses ``word_range = 2**32``; the parameter exists so that tests
    can show, with small words, that the rejection is what removes the bias.
    """
    for i in range(len(items) - 1, 0, -1):
        j = uniform_below(i + 1, next_word, word_range)
        items[i], items[j] = items[j], items[i]


def deck_codes(server_seed: bytes, client_seed: str, round: int) -> list[str]:
    """The 52 card codes in dealing order (position 0 dealt first) for this seed, client seed and round."""
    deck = list(NOTATION_ORDER)
    fisher_yates(deck, words(server_seed, client_seed, round).__next__)
    return deck


def first_dealer(server_seed: bytes, client_seed: str, round: int, seats: int) -> int:
    """The first dealer's seat (0 = the first player to join), drawn as verifiably as the deck (R3.1).

    R3.1 leaves the first dealer to chance; drawn by the bot it would let the
    bot choose which hand each player gets from a fair deck. So it comes from
    a stream of its own, ``HMAC-SHA256(server_seed, f"{client_seed}:{round}:dealer:{counter}")``,
    read like the deck's: ``uniform_below(seats)`` on its integers.
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 52:
        raise FairnessInputError("the number of seats is a whole number from 1 to 52")
    blocks = _hmac_blocks(server_seed, f"{client_seed}:{_checked_round(round)}:dealer:")
    return uniform_below(seats, _words(blocks).__next__)


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found: the commitment, the deck when one was given, the first dealer's seat.

    ``first_dealer`` is the seat the seeds draw when the number of seats was given (R3.1: a
    table's first round), to compare with who dealt.
    """

    commitment_matches: bool
    deck_matches: bool | None
    expected_deck: tuple[str, ...] | None
    first_dealer: int | None = None

    @property
    def ok(self) -> bool:
        """True when every check that was asked for passed."""
        return self.commitment_matches and self.deck_matches is not False

    def lines(self) -> list[str]:
        """A plain account of each check, one line each (what the CLI prints)."""
        out = [
            "commitment: OK, SHA-256(server seed) matches"
            if self.commitment_matches
            else "commitment: MISMATCH, SHA-256(server seed) is not the published commitment"
        ]
        if self.deck_matches is not None:
            out.append(
                "deck: OK, the seeds give exactly this deck"
                if self.deck_matches
                else "deck: MISMATCH, the seeds give another deck: " + " ".join(self.expected_deck or ())
            )
        if self.first_dealer is not None:
            out.append(f"first dealer: seat {self.first_dealer} (seat 0 is the first player who joined)")
        return out


def verify(
    server_seed: bytes,
    published_commitment: str,
    client_seed: str | None = None,
    round: int | None = None,
    deck: Sequence[str] | None = None,
    seats: int | None = None,
) -> Verification:
    """Check a revealed seed against its commitment and, when all three are given, the dealt deck.

    ``client_seed``, ``round`` and ``deck`` go together: give all or none
    (else ``FairnessInputError``). With ``seats`` (a table's first round: how many sat) the
    result also holds the first dealer's seat the seeds draw, to compare with who dealt.
    Malformed values raise ``FairnessInputError``.
    """
    matches = hmac.compare_digest(commitment(server_seed), commitment_from_hex(published_commitment))
    if client_seed is None and round is None and deck is None:
        if seats is not None:
            raise FairnessInputError("give the client seed, the round and the deck with the seats")
        return Verification(matches, None, None)
    if client_seed is None or round is None or deck is None:
        raise FairnessInputError("give the client seed, the round and the deck together")
    dealt = parse_deck(deck)
    expected = deck_codes(server_seed, client_seed, round)
    dealer = None if seats is None else first_dealer(server_seed, client_seed, round, seats)
    return Verification(matches, dealt == expected, tuple(expected), dealer)


def _hmac_blocks(server_seed: bytes, prefix: str) -> Iterator[bytes]:
    """HMAC-SHA256(server_seed, prefix + counter) for counter 0, 1, 2, … (the message in UTF-8)."""
    key = _checked_seed(server_seed)
    try:
        head = prefix.encode()
    except UnicodeEncodeError:
        raise FairnessInputError("the client seed is not text that UTF-8 can encode") from None
    return (hmac.digest(key, head + str(counter).encode(), "sha256") for counter in itertools.count())


def _words(blocks: Iterator[bytes]) -> Iterator[int]:
    for block in blocks:
        yield from _EIGHT_WORDS.unpack(block)


def _checked_seed(server_seed: bytes) -> bytes:
    if not isinstance(server_seed, bytes) or len(server_seed) != SEED_BYTES:
        raise FairnessInputError(f"a server seed is {SEED_BYTES} bytes")
    return server_seed


def _checked_round(round: int) -> int:
    if isinstance(round, bool) or not isinstance(round, int) or round < 1:
        raise FairnessInputError("the round is a whole number, 1 for a table's first round")
    return round


def _round_arg(text: str) -> int:
    try:
        return _checked_round(int(text, 10))
    except (ValueError, FairnessInputError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a round number (1, 2, 3 …)") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.fairness",
        description="Recompute or check a Flip Flop deal from its revealed seeds (docs/FAIRNESS.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    deck = commands.add_parser("deck", help="print the 52 card codes of a round in dealing order")
    dealer = commands.add_parser("dealer", help="print the first dealer's seat (0 = the first to join)")
    for sub in (deck, dealer):
        sub.add_argument(
            "--server-seed", required=True, metavar="HEX", help="the revealed seed, 64 hex digits"
        )
        sub.add_argument("--client-seed", required=True, metavar="TEXT", help="the published client seed")
        sub.add_argument("--round", required=True, type=_round_arg, metavar="N", help="the round number")
    dealer.add_argument("--seats", required=True, type=int, metavar="N", help="how many players were seated")
    check = commands.add_parser("verify", help="check a revealed seed against its commitment (and a deck)")
    check.add_argument("--server-seed", required=True, metavar="HEX", help="the revealed seed, 64 hex digits")
    check.add_argument("--commitment", required=True, metavar="HEX", help="the published commitment")
    check.add_argument("--client-seed", metavar="TEXT", help="the published client seed")
    check.add_argument("--round", type=_round_arg, metavar="N", help="the round number")
    check.add_argument("--deck", metavar="CODES", help='the dealt deck, e.g. "AC 2C 3C …" (52 codes)')
    check.add_argument(
        "--seats", type=int, metavar="N", help="a first round: how many sat, to print the first dealer"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 correct, 1 mismatch, 2 malformed input)."""
    args = _parser().parse_args(argv)
    try:
        seed = seed_from_hex(args.server_seed)
        if args.command == "deck":
            print(" ".join(deck_codes(seed, args.client_seed, args.round)))
            return 0
        if args.command == "dealer":
            print(first_dealer(seed, args.client_seed, args.round, args.seats))
            return 0
        result = verify(seed, args.commitment, args.client_seed, args.round, args.deck, args.seats)
    except FairnessInputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("\n".join(result.lines()))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
