"""bot.fair_deal: the commit–reveal steps in order, the client seed, player texts, saving, no seed leaks."""

from __future__ import annotations

import hashlib
import json
import shlex
from typing import Any

import pytest

from bot.fair_deal import MAX_INTERACTIONS, PLAYER_SEED_MAX, FairDeal, FairDealError, check_player_seed
from engine import fairness
from engine.fairness import NOTATION_ORDER, deck_codes, first_dealer

START_CLICK = 1180000000000000001


def seeds_of(fair: FairDeal) -> list[str]:
    """The secret seeds in a record's saved form (the only place they may be)."""
    saved = fair.to_json()
    return [part["seed"] for part in (saved["pending"], saved["in_play"]) if part is not None]


def assert_no_seed_shown(fair: FairDeal, *shown: Any) -> None:
    seeds = seeds_of(fair)
    assert seeds
    texts = [repr(fair), str(fair), json.dumps(fair.to_public()), *map(repr, shown), *map(str, shown)]
    for seed in seeds:
        for text in texts:
            assert seed not in text
            assert seed.upper() not in text


def dealt_round_one(player_text: str | None = None) -> FairDeal:
    fair = FairDeal()
    fair.commit(1)
    fair.add_interaction(START_CLICK)
    if player_text is not None:
        fair.set_player_seed("ann", player_text)
    fair.deal(1)
    return fair


def test_a_round_from_commitment_to_reveal() -> None:
    fair = FairDeal()
    published = fair.commit(1)
    assert len(published) == 64 and fair.pending_commitment == published
    assert fair.add_interaction(START_CLICK)
    dealt = fair.deal(1)
    assert dealt.commitment == published
    assert dealt.client_seed == str(START_CLICK)
    assert sorted(dealt.deck) == sorted(NOTATION_ORDER)
    assert dealt.next_round == 2 and dealt.next_commitment == fair.pending_commitment != published
    assert fair.in_play_round == 1 and fair.pending_round == 2
    reveal = fair.reveal(1)
    assert hashlib.sha256(bytes.fromhex(reveal.server_seed)).hexdigest() == published
    assert list(dealt.deck) == deck_codes(bytes.fromhex(reveal.server_seed), reveal.client_seed, 1)
    assert reveal.check(dealt.deck).ok
    assert fair.in_play_round is None


def test_the_first_dealer_comes_from_the_same_seeds() -> None:
    fair = FairDeal()
    fair.commit(1)
    fair.add_interaction(START_CLICK)
    dealt = fair.deal(1, seats=4)
    reveal = fair.reveal(1)
    assert dealt.first_dealer == first_dealer(bytes.fromhex(reveal.server_seed), reveal.client_seed, 1, 4)
    assert dealt.public()["first_dealer"] == dealt.first_dealer
    assert fair.deal(2).first_dealer is None


@pytest.mark.parametrize("seats", [0, 53, True, "4"])
def test_a_bad_number_of_seats_is_refused_and_changes_nothing(seats: Any) -> None:
    fair = FairDeal()
    fair.commit(1)
    before = fair.to_json()
    with pytest.raises(FairDealError) as error:
        fair.deal(1, seats=seats)
    assert error.value.code == "bad_seats"
    assert fair.to_json() == before


def test_the_client_seed_is_ids_then_player_texts() -> None:
    fair = FairDeal()
    fair.commit(1)
    fair.add_interaction(START_CLICK)
    fair.add_interaction("1180000000000000002")
    fair.set_player_seed("ben", "lucky 7")
    fair.set_player_seed("ann", "  🍀 clover  ")
    fair.set_player_seed("ben", "lucky 8")  # replaces Ben's text, keeps his place
    assert fair.client_seed() == "1180000000000000001-1180000000000000002:lucky 8:🍀 clover"
    assert fair.deal(1).client_seed == fair.to_public()["in_play"]["client_seed"]


def test_ids_and_texts_collected_during_a_round_go_into_the_next_one() -> None:
    fair = dealt_round_one("first")
    assert fair.client_seed() == ""  # round 2 was committed at the deal: nothing before it counts
    fair.add_interaction(1180000000000000010)
    assert fair.set_player_seed("cat", "second") == 2
    fair.reveal(1)
    dealt = fair.deal(2)
    assert dealt.client_seed == "1180000000000000010:second"


def test_repeated_ids_late_ids_and_ids_with_nothing_committed_are_ignored() -> None:
    fair = FairDeal()
    assert not fair.add_interaction(START_CLICK)  # nothing committed yet
    fair.commit(1)
    assert fair.add_interaction(START_CLICK)
    assert not fair.add_interaction(str(START_CLICK))
    for i in range(2, MAX_INTERACTIONS + 5):
        fair.add_interaction(START_CLICK + i)
    assert len(fair.client_seed().split("-")) == MAX_INTERACTIONS


@pytest.mark.parametrize("bad", [0, -5, 2**64, "12a", "", "١٢٣", True, 1.5, None])
def test_a_value_that_is_no_discord_id_is_refused(bad: Any) -> None:
    fair = FairDeal()
    fair.commit(1)
    with pytest.raises(FairDealError) as error:
        fair.add_interaction(bad)
    assert error.value.code == "bad_interaction_id"
    assert fair.client_seed() == ""


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "seed_empty"),
        ("   ", "seed_empty"),
        ("x" * (PLAYER_SEED_MAX + 1), "seed_too_long"),
        ("two\nlines", "seed_control_character"),
        ("tab\there", "seed_control_character"),
        ("bell\x07", "seed_control_character"),
        ("c1\x85mid", "seed_control_character"),
        ("zero\u200bwidth", "seed_not_printable"),
        ("bidi\u202eflip", "seed_not_printable"),
        ("line\u2028sep", "seed_not_printable"),
    ],
)
def test_bad_player_text_is_refused_with_a_code_and_changes_nothing(text: str, code: str) -> None:
    fair = FairDeal()
    fair.commit(1)
    fair.set_player_seed("ann", "kept")
    before = fair.to_json()
    with pytest.raises(FairDealError) as error:
        fair.set_player_seed("ann", text)
    assert error.value.code == code
    assert str(error.value)
    assert fair.to_json() == before


def test_player_text_limits_accept_what_they_promise() -> None:
    assert check_player_seed("x" * PLAYER_SEED_MAX) == "x" * PLAYER_SEED_MAX
    assert check_player_seed(" Ünïcödé & emoji 🎲:-) ") == "Ünïcödé & emoji 🎲:-)"


def test_a_player_text_needs_a_committed_round() -> None:
    with pytest.raises(FairDealError) as error:
        FairDeal().set_player_seed("ann", "hello")
    assert error.value.code == "no_commitment"


def test_steps_out_of_order_are_refused_and_change_nothing() -> None:
    fair = FairDeal()
    with pytest.raises(FairDealError) as error:
        fair.deal(1)
    assert error.value.code == "no_commitment"
    fair.commit(1)
    cases: list[tuple[Any, str]] = [
        (lambda: fair.commit(1), "already_committed"),
        (lambda: fair.deal(2), "wrong_round"),
        (lambda: fair.deal(0), "wrong_round"),
        (lambda: fair.reveal(1), "nothing_to_reveal"),
    ]
    for step, code in cases:
        before = fair.to_json()
        with pytest.raises(FairDealError) as error:
            step()
        assert error.value.code == code
        assert fair.to_json() == before
    fair.deal(1)
    before = fair.to_json()
    with pytest.raises(FairDealError) as error:
        fair.deal(2)  # round 1 not revealed yet
    assert error.value.code == "round_in_play"
    with pytest.raises(FairDealError) as error:
        fair.reveal(2)  # round 2 is only committed: its seed stays secret
    assert error.value.code == "nothing_to_reveal"
    assert fair.to_json() == before


def test_each_round_gets_its_own_seed() -> None:
    fair = dealt_round_one()
    seeds = set()
    for round_number in range(1, 6):
        seeds.add(fair.reveal(round_number).server_seed)
        fair.deal(round_number + 1)
    assert len(seeds) == 5


def test_no_unrevealed_seed_in_repr_str_public_or_what_a_deal_publishes() -> None:
    fair = FairDeal()
    fair.commit(1)
    assert_no_seed_shown(fair)
    fair.add_interaction(START_CLICK)
    dealt = fair.deal(1)
    assert_no_seed_shown(fair, dealt, dealt.public())
    assert "deck" not in dealt.public()
    assert "deck=" not in repr(dealt)
    reveal = fair.reveal(1)
    assert_no_seed_shown(fair, dealt.public(), reveal.public())  # round 2's seed is nowhere in them
    assert reveal.server_seed in json.dumps(reveal.public())  # round 1's seed, now revealed


def test_saved_and_restored_mid_round_deals_the_same() -> None:
    fair = dealt_round_one("abc")
    fair.add_interaction(1180000000000000042)
    fair.set_player_seed("ben", "xyz")
    saved = json.loads(json.dumps(fair.to_json()))
    restored = FairDeal.from_json(saved)
    assert restored.to_json() == fair.to_json()
    assert restored.reveal(1) == fair.reveal(1)
    assert restored.deal(2).deck == fair.deal(2).deck


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(format=99),
        lambda d: d.pop("interactions"),
        lambda d: d["pending"].update(seed="00"),
        lambda d: d["pending"].update(seed=None),
        lambda d: d["pending"].update(round=0),
        lambda d: d["in_play"].update(round=7),
        lambda d: d.update(interactions=["1", "1"]),
        lambda d: d.update(interactions=[str(i + 1) for i in range(MAX_INTERACTIONS + 1)]),
        lambda d: d.update(player_seeds=[["ann", "a\nb"]]),
        lambda d: d.update(player_seeds="ann"),
    ],
)
def test_an_unreadable_saved_record_is_refused(spoil: Any) -> None:
    saved = dealt_round_one().to_json()
    spoil(saved)
    with pytest.raises(FairDealError) as error:
        FairDeal.from_json(saved)
    assert error.value.code == "bad_state"


def test_a_reveal_check_catches_a_changed_deck_and_prints_its_command() -> None:
    fair = dealt_round_one("it's mine")
    dealt_deck = deck_of(fair)
    reveal = fair.reveal(1)
    assert reveal.check(dealt_deck).ok
    swapped = [dealt_deck[1], dealt_deck[0], *dealt_deck[2:]]
    assert reveal.check(swapped).deck_matches is False
    words = shlex.split(reveal.command(dealt_deck))
    assert words[:4] == ["python", "-m", "engine.fairness", "verify"]
    assert words[words.index("--client-seed") + 1] == "1180000000000000001:it's mine"
    assert words[words.index("--server-seed") + 1] == reveal.server_seed
    assert words[words.index("--commitment") + 1] == reveal.commitment
    assert words[words.index("--deck") + 1] == " ".join(dealt_deck)
    assert fairness.main(words[3:]) == 0  # as printed, it checks out
    assert fairness.main(shlex.split(reveal.command(swapped))[3:]) == 1  # a changed deck: a mismatch


def deck_of(fair: FairDeal) -> list[str]:
    saved = fair.to_json()["in_play"]
    return deck_codes(bytes.fromhex(saved["seed"]), saved["client_seed"], saved["round"])


def test_only_interactions_created_after_the_message_showing_the_commitment_count() -> None:
    fair = FairDeal()
    fair.commit(1)
    early, message, late = 1180000000000000001, 1180000000000000005, 1180000000000000009
    assert fair.add_interaction(early)
    assert fair.shown_in(message)  # the first message created showing round 1's commitment
    assert fair.client_seed() == ""  # the click from before it is dropped
    assert not fair.add_interaction(message - 1) and fair.add_interaction(late)
    assert not fair.shown_in(late + 100)  # a later message showing it changes nothing
    again = FairDeal.from_json(fair.to_json())
    assert not again.add_interaction(message - 2) and again.client_seed() == str(late)
    saved = fair.to_json()
    del saved["shown_in"]  # a table saved before the message was kept
    assert FairDeal.from_json(saved).add_interaction(message - 2)
    fair.deal(1, seats=2)
    assert fair.add_interaction(early)  # round 2's commitment is not shown anywhere yet
