#!/usr/bin/env python3
"""Check a Flip Flop deal on your own: an independent verifier written from docs/FAIRNESS.md alone.

It shares no code with the bot (only the Python standard library), so a
player can read all of it, copy it anywhere and run it:

    python3 verify_deal.py --server-seed HEX --commitment HEX --client-seed TEXT --round N
        [--deck "AC 2C ..."] [--seats N]

It prints whether SHA-256(server seed) is the published commitment, then the
deck in dealing order, and, when --deck is given, whether it is the deck
that was dealt, and with --seats the first dealer's seat. Exit status: 0 all good, 1 a mismatch, 2 malformed input.
"""

import argparse
import hashlib
import hmac
import sys


def stream_of_integers(server_seed, client_seed, round_number):
    """Yield the 4-byte big-endian unsigned integers of the HMAC-SHA256 byte stream."""
    counter = 0
    while True:
        message = (client_seed + ":" + str(round_number) + ":" + str(counter)).encode("utf-8")
        block = hmac.new(server_seed, message, hashlib.sha256).digest()
        for offset in (0, 4, 8, 12, 16, 20, 24, 28):
            yield int.from_bytes(block[offset : offset + 4], byteorder="big", signed=False)
        counter += 1


def dealing_order(server_seed, client_seed, round_number):
    """Fisher-Yates with rejection sampling, from suits C D H S each A 2 3 4 5 6 7 8 9 T J Q K."""
    deck = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    integers = stream_of_integers(server_seed, client_seed, round_number)
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        x = next(integers)
        while x >= limit:
            x = next(integers)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def first_dealer(server_seed, client_seed, round_number, seats):
    """The first dealer's seat (0 = first to join): the same rejection sampling on the "dealer" stream."""
    counter = 0
    while True:
        message = (client_seed + ":" + str(round_number) + ":dealer:" + str(counter)).encode("utf-8")
        block = hmac.new(server_seed, message, hashlib.sha256).digest()
        for offset in (0, 4, 8, 12, 16, 20, 24, 28):
            x = int.from_bytes(block[offset : offset + 4], byteorder="big", signed=False)
            if x < 2**32 - (2**32 % seats):
                return x % seats
        counter += 1


def main():
    """Read the arguments, run the checks, return the exit status."""
    parser = argparse.ArgumentParser(description="Verify a Flip Flop deal from its revealed seeds.")
    parser.add_argument("--server-seed", required=True, help="revealed server seed, 64 hex digits")
    parser.add_argument("--commitment", required=True, help="published commitment, 64 hex digits")
    parser.add_argument("--client-seed", required=True, help="published client seed (quote it)")
    parser.add_argument("--round", required=True, type=int, help="round number, 1 for the first round")
    parser.add_argument("--deck", help="the dealt deck: 52 codes, spaces or commas between them")
    parser.add_argument("--seats", type=int, help="for a first round: how many players sat, to check the dealer")
    args = parser.parse_args()

    try:
        server_seed = bytes.fromhex(args.server_seed)
    except ValueError:
        server_seed = b""
    if len(server_seed) != 32:
        print("malformed: the server seed must be 64 hex digits", file=sys.stderr)
        return 2
    if args.round < 1:
        print("malformed: the round must be 1 or more", file=sys.stderr)
        return 2
    commitment = args.commitment.strip().lower()
    if len(commitment) != 64 or any(digit not in "0123456789abcdef" for digit in commitment):
        print("malformed: the commitment must be 64 hex digits", file=sys.stderr)
        return 2
    if args.seats is not None and not 1 <= args.seats <= 52:
        print("malformed: the number of seats must be 1 or more", file=sys.stderr)
        return 2

    dealt = None
    if args.deck is not None:
        dealt = args.deck.replace(",", " ").upper().split()
        cards = {rank + suit for suit in "CDHS" for rank in "A23456789TJQK"}
        strange = [code for code in dealt if code not in cards]
        if strange or len(dealt) != 52 or len(set(dealt)) != 52:
            why = (
                repr(strange[0]) + " is not a card code (write them like AC, TD, KS)"
                if strange
                else "a deck has 52 different cards; got %d, %d different" % (len(dealt), len(set(dealt)))
            )
            print("malformed: " + why, file=sys.stderr)
            return 2

    good = True
    if hashlib.sha256(server_seed).hexdigest() == commitment:
        print("commitment OK")
    else:
        print("commitment WRONG: this seed was not the one committed to")
        good = False

    deck = dealing_order(server_seed, args.client_seed, args.round)
    print("deck: " + " ".join(deck))
    if dealt is not None:
        if dealt == deck:
            print("dealt deck OK")
        else:
            print("dealt deck WRONG: it is not the deck these seeds give")
            good = False
    if args.seats is not None:
        dealer = first_dealer(server_seed, args.client_seed, args.round, args.seats)
        print("first dealer: seat " + str(dealer) + " (seat 0 is the first player who joined)")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
