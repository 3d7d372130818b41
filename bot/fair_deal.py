"""One table's commit–reveal bookkeeping for the provably fair shuffle (docs/FAIRNESS.md).

Why a record of its own: the order of events is what makes a deal fair. The
server seed of round N must be drawn, and its commitment published, before
any part of round N's client seed exists; the client seed must come from
things the bot can neither choose nor foresee; and the seed may be shown only
once round N is over. ``FairDeal`` holds exactly that state for one table and
refuses any step out of order, so the runtime can not get it wrong by
accident. It is pure (no Discord, no I/O, no clock): the runtime calls it and
saves ``to_json()`` with the table.

Life of a table::

    fair = FairDeal()
    fair.commit(1)                       # lobby message shows fair.pending_commitment
    fair.add_interaction(start_click_id) # the Start click (after the commitment)
    dealt = fair.deal(1, seats=4)        # deck for R3.2, first dealer (R3.1); publish dealt.public()
    ...                                  # players' interaction ids feed round 2's client seed
    reveal = fair.reveal(1)              # when round 1 ends: publish reveal.public()
    dealt = fair.deal(2)                 # round 2 was committed when round 1 was dealt

The client seed (docs/FAIRNESS.md, "The client seed"): the ids of the first
``MAX_INTERACTIONS`` Discord interactions received after the commitment, in
the order received, as decimal numbers joined by ``-``; then, for each seated
player who set a text with ``/flipflop seed`` for that round, ``:`` and the
text, in the order the players first set theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.fairness import (
    FairnessInputError,
    Verification,
    commitment,
    deck_codes,
    first_dealer,
    new_server_seed,
    seed_from_hex,
    verify,
)

PLAYER_SEED_MAX = 64
"""Longest text a player may add to a client seed, in characters (after trimming outer spaces)."""

MAX_INTERACTIONS = 16
"""How many interaction ids go into one client seed: one unforeseeable id is enough, and the saved
table stays small however long a round lasts."""

_SNOWFLAKE_LIMIT = 2**64
_FORMAT = 1


class FairDealError(ValueError):
    """A fair-deal step refused: ``code`` names the reason for callers, the message says it to a player.

    Codes: ``seed_empty``, ``seed_too_long``, ``seed_control_character``,
    ``seed_not_printable`` (a player's text); ``no_commitment``,
    ``already_committed``, ``wrong_round``, ``round_in_play``,
    ``nothing_to_reveal`` (steps out of order); ``bad_interaction_id``; ``bad_seats``;
    ``bad_state`` (a saved record that can not be read).
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def check_player_seed(text: str) -> str:
    """Validate a player's ``/flipflop seed`` text and return it trimmed.

    Rules: 1 to ``PLAYER_SEED_MAX`` characters once outer whitespace is
    trimmed; every character printable (``str.isprintable``: no control
    characters such as newlines or tabs, no invisible format characters, no
    separators other than the plain space). Any Unicode letter, digit, symbol
    or emoji is fine but the backtick, which Discord reads as the start or end of
    code in the messages that show the seed.
    """
    cleaned = text.strip()
    if not cleaned:
        raise FairDealError("seed_empty", "Your seed text is empty: write 1 to 64 characters.")
    if len(cleaned) > PLAYER_SEED_MAX:
        raise FairDealError(
            "seed_too_long",
            f"Your seed text is {len(cleaned)} characters long; the limit is {PLAYER_SEED_MAX}.",
            length=len(cleaned),
            limit=PLAYER_SEED_MAX,
        )
    for position, char in enumerate(cleaned, start=1):
        if not char.isprintable():
            control = ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0
            raise FairDealError(
                "seed_control_character" if control else "seed_not_printable",
                f"Your seed text has an invisible or control character (U+{ord(char):04X}) at position "
                f"{position}; use letters, digits, symbols and spaces only.",
                position=position,
                codepoint=ord(char),
            )
        if char == "`":
            raise FairDealError(
                "seed_backtick",
                f"Your seed text has a backtick (`) at position {position}; Discord would read it as "
                "formatting.",
                position=position,
            )
    return cleaned


@dataclass(frozen=True)
class Dealt:
    """A round just dealt: the deck for the deal and what to publish with it.

    ``first_dealer`` is the dealer's seat index (0 = the first to join) when
    ``deal`` was asked for it (a table's first round, R3.1), else None.

    ``deck`` is the secret order of the cards (R3.2, position 0 dealt first):
    it goes to the game and the transcript, never into a message, and is left
    out of ``repr``. ``public()`` is what the table message may show.
    """

    round: int
    deck: tuple[str, ...] = field(repr=False)
    client_seed: str
    commitment: str
    next_round: int
    next_commitment: str
    first_dealer: int | None = None

    def public(self) -> dict[str, Any]:
        """What may be posted now: the round's commitment and client seed, and the next commitment."""
        return {key: value for key, value in asdict(self).items() if key != "deck"}


@dataclass(frozen=True)
class Reveal:
    """A finished round's seeds: everything a player needs to recompute and check its deck."""

    round: int
    server_seed: str
    commitment: str
    client_seed: str

    def public(self) -> dict[str, Any]:
        """What goes into the round's result and transcript (the seed is revealed: the round is over)."""
        return asdict(self)

    def command(
        self, dealt_deck: Sequence[str], client_seed_file: str | None = None, seats: int | None = None
    ) -> str:
        """The command line that checks this round (docs/FAIRNESS.md, "Checking a round").

        ``python -m engine.fairness verify`` with every value filled in: the seeds, the
        commitment and ``dealt_deck``; it says OK or MISMATCH for each, and with ``seats`` (a
        table's first round) the first dealer's seat. With ``client_seed_file`` the client seed
        is read from that file (a long one is offered as a file rather than written out in the
        message).
        """
        quoted = (
            f'"$(cat {client_seed_file})"'
            if client_seed_file is not None
            else "'" + self.client_seed.replace("'", "'\\''") + "'"
        )
        return (
            f"python -m engine.fairness verify --server-seed {self.server_seed} "
            f"--commitment {self.commitment} --client-seed {quoted} --round {self.round} "
            f'--deck "{" ".join(dealt_deck)}"' + ("" if seats is None else f" --seats {seats}")
        )

    def check(self, dealt_deck: Sequence[str], seats: int | None = None) -> Verification:
        """Check this reveal against its commitment and the deck that was dealt (``/flipflop verify``).

        With ``seats`` (a table's first round) the result holds the first dealer the seeds draw.
        """
        return verify(
            seed_from_hex(self.server_seed), self.commitment, self.client_seed, self.round, dealt_deck, seats
        )


@dataclass
class _Sealed:
    """A drawn seed for one round; the seed itself is kept out of ``repr``."""

    round: int
    seed: bytes = field(repr=False)
    client_seed: str = ""

    @property
    def commitment(self) -> str:
        return commitment(self.seed)


class FairDeal:
    """The commit–reveal state of one table: at most one committed round waiting and one round in play.

    Nothing here shows a seed that is not revealed: ``repr``, ``str`` and
    ``to_public`` carry commitments and client seeds only. ``to_json`` is the
    saved form and does hold the secret seeds: it belongs in the table store,
    never in a message or a log line.
    """

    def __init__(self) -> None:
        self._pending: _Sealed | None = None
        self._in_play: _Sealed | None = None
        self._interactions: list[str] = []
        self._player_seeds: dict[str, str] = {}
        self._shown_in: int | None = None
        """The first message created showing the pending commitment (a snowflake), once known."""

    # ---- reading ---------------------------------------------------------------------------------------

    @property
    def pending_round(self) -> int | None:
        """The round that is committed but not dealt yet (None if there is none)."""
        return self._pending.round if self._pending else None

    @property
    def pending_commitment(self) -> str | None:
        """The commitment to publish for the next round to deal."""
        return self._pending.commitment if self._pending else None

    @property
    def in_play_round(self) -> int | None:
        """The round dealt and not yet revealed."""
        return self._in_play.round if self._in_play else None

    @property
    def in_play_commitment(self) -> str | None:
        """The commitment of the round in play (published before it was dealt)."""
        return self._in_play.commitment if self._in_play else None

    def client_seed(self) -> str:
        """The client seed the pending round would be dealt with now (docs/FAIRNESS.md)."""
        return "-".join(self._interactions) + "".join(":" + text for text in self._player_seeds.values())

    def to_public(self) -> dict[str, Any]:
        """Everything that may be shown at any moment: rounds, commitments and client seeds, no seed."""
        return {
            "pending": None
            if self._pending is None
            else {
                "round": self._pending.round,
                "commitment": self._pending.commitment,
                "client_seed_so_far": self.client_seed(),
            },
            "in_play": None
            if self._in_play is None
            else {
                "round": self._in_play.round,
                "commitment": self._in_play.commitment,
                "client_seed": self._in_play.client_seed,
            },
        }

    def __repr__(self) -> str:
        public = self.to_public()
        return f"FairDeal(pending={public['pending']!r}, in_play={public['in_play']!r})"

    __str__ = __repr__

    # ---- the steps, in order ---------------------------------------------------------------------------

    def commit(self, round: int) -> str:
        """Draw the seed of ``round`` and return its commitment, to publish before anything else happens.

        Collected interaction ids and player texts are cleared: whatever is
        added from now on happened after the commitment. ``deal`` commits the
        following round itself; call this for a table's first round.
        """
        _check_round(round)
        if self._pending is not None:
            raise FairDealError(
                "already_committed",
                f"Round {self._pending.round} is already committed; a seed is drawn once.",
                round=self._pending.round,
            )
        if self._in_play is not None and round <= self._in_play.round:
            raise FairDealError(
                "wrong_round", f"Round {round} can not follow round {self._in_play.round}.", round=round
            )
        self._pending = _Sealed(round, new_server_seed())
        self._interactions = []
        self._player_seeds = {}
        self._shown_in = None
        return self._pending.commitment

    def shown_in(self, message_id: int | str) -> bool:
        """The pending commitment is in message ``message_id``, just created; returns whether that is news.

        The first such message is the one a verifier checks the client seed's
        interaction ids against (a snowflake carries its creation time): ids
        of interactions created before it are dropped, and later ones from
        before it ignored, so every id counted is later than a message that
        published the commitment. Later messages showing it change nothing.
        """
        number = int(_snowflake(message_id))
        if self._pending is None or self._shown_in is not None:
            return False
        self._shown_in = number
        self._interactions = [i for i in self._interactions if int(i) > number]
        return True

    def add_interaction(self, interaction_id: int | str) -> bool:
        """Record a Discord interaction id for the pending round's client seed.

        Returns whether it was taken: ids arriving with no round committed,
        repeated ids (a retried delivery) and ids past ``MAX_INTERACTIONS`` are
        ignored. A value that is not a Discord id raises ``bad_interaction_id``.
        """
        text = _snowflake(interaction_id)
        if self._pending is None or text in self._interactions or len(self._interactions) >= MAX_INTERACTIONS:
            return False
        if self._shown_in is not None and int(text) <= self._shown_in:
            return False  # created before the message that published the commitment
        self._interactions.append(text)
        return True

    def set_player_seed(self, player_id: str, text: str) -> int:
        """A seated player's ``/flipflop seed`` text for the next deal; returns the round it will go into.

        Setting it again replaces that player's text (keeping their place in
        the order). Invalid text raises ``FairDealError`` and changes nothing.
        """
        cleaned = check_player_seed(text)
        if self._pending is None:
            raise FairDealError("no_commitment", "No round is waiting to be dealt at this table.")
        self._player_seeds[str(player_id)] = cleaned
        return self._pending.round

    def deal(self, round: int, seats: int | None = None) -> Dealt:
        """Deal the committed ``round``: its deck, and the commitment of ``round + 1``, drawn right now.

        Give ``seats`` (how many players are seated) for a table's first round:
        the first dealer is then drawn from the seeds too (R3.1,
        ``engine.fairness.first_dealer``), so the bot can not pick who gets
        which hand. Refused if ``round`` is not the committed one, or if the
        round before is still in play (reveal it first).
        """
        _check_round(round)
        if seats is not None and (
            isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 52
        ):
            raise FairDealError("bad_seats", f"{seats!r} is not a number of seated players.", seats=seats)
        if self._pending is None:
            raise FairDealError("no_commitment", f"Round {round} was never committed.", round=round)
        if self._pending.round != round:
            raise FairDealError(
                "wrong_round",
                f"Round {self._pending.round} is the one committed, not round {round}.",
                round=round,
                committed=self._pending.round,
            )
        if self._in_play is not None:
            raise FairDealError(
                "round_in_play",
                f"Round {self._in_play.round} is still in play; reveal it before dealing.",
                round=self._in_play.round,
            )
        sealed = self._pending
        sealed.client_seed = self.client_seed()
        deck = deck_codes(sealed.seed, sealed.client_seed, round)
        dealer = None if seats is None else first_dealer(sealed.seed, sealed.client_seed, round, seats)
        self._in_play, self._pending = sealed, None
        next_commitment = self.commit(round + 1)
        return Dealt(
            round, tuple(deck), sealed.client_seed, sealed.commitment, round + 1, next_commitment, dealer
        )

    def reveal(self, round: int) -> Reveal:
        """The round has ended: give up its seed for publication. Only the round in play can be revealed."""
        if self._in_play is None or self._in_play.round != round:
            raise FairDealError(
                "nothing_to_reveal",
                f"Round {round} is not the round in play, so its seed is not revealed.",
                round=round,
            )
        sealed, self._in_play = self._in_play, None
        return Reveal(round, sealed.seed.hex(), sealed.commitment, sealed.client_seed)

    # ---- saving ----------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The saved form (plain JSON types). It holds secret seeds: store it, never show or log it."""
        return {
            "format": _FORMAT,
            "pending": None if self._pending is None else _sealed_json(self._pending),
            "in_play": None if self._in_play is None else _sealed_json(self._in_play),
            "interactions": list(self._interactions),
            "player_seeds": [[player, text] for player, text in self._player_seeds.items()],
            "shown_in": None if self._shown_in is None else str(self._shown_in),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FairDeal:
        """Read ``to_json``'s form back; anything malformed raises ``FairDealError('bad_state')``."""
        try:
            if data["format"] != _FORMAT:
                raise ValueError(f"format {data['format']!r}")
            fair = cls()
            fair._pending = _sealed_from(data["pending"])
            fair._in_play = _sealed_from(data["in_play"])
            interactions = [_snowflake(i) for i in data["interactions"]]
            if len(interactions) > MAX_INTERACTIONS or len(set(interactions)) != len(interactions):
                raise ValueError("interactions")
            fair._interactions = interactions
            fair._player_seeds = {str(p): check_player_seed(t) for p, t in data["player_seeds"]}
            shown_in = data.get("shown_in")  # absent from tables saved before it was kept
            fair._shown_in = None if shown_in is None else int(_snowflake(shown_in))
            if fair._pending and fair._in_play and fair._pending.round <= fair._in_play.round:
                raise ValueError("rounds out of order")
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise FairDealError("bad_state", f"The saved fair-deal record is unreadable ({error}).") from None
        return fair


def _check_round(round: int) -> None:
    if isinstance(round, bool) or not isinstance(round, int) or round < 1:
        raise FairDealError("wrong_round", f"{round!r} is not a round number (1, 2, 3 …).", round=round)


def _snowflake(value: int | str) -> str:
    """A Discord id as its decimal text; anything else raises ``bad_interaction_id``."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        number = -1
    elif isinstance(value, int):
        number = value
    else:
        number = int(value) if value.isascii() and value.isdecimal() else -1
    if not 0 < number < _SNOWFLAKE_LIMIT:
        raise FairDealError("bad_interaction_id", f"{value!r} is not a Discord interaction id.")
    return str(number)


def _sealed_json(sealed: _Sealed) -> dict[str, Any]:
    return {"round": sealed.round, "seed": sealed.seed.hex(), "client_seed": sealed.client_seed}


def _sealed_from(data: Any) -> _Sealed | None:
    if data is None:
        return None
    round, client_seed = data["round"], data["client_seed"]
    if isinstance(round, bool) or not isinstance(round, int) or round < 1 or not isinstance(client_seed, str):
        raise ValueError("round or client seed")
    try:
        seed = seed_from_hex(data["seed"])
    except FairnessInputError as error:
        raise ValueError(str(error)) from None
    return _Sealed(round, seed, client_seed)
