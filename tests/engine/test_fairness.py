"""The provably fair shuffle: fixed vectors, tamper detection, no modulo bias, the CLI."""

from __future__ import annotations

import ast
import hmac
import itertools
import math
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import fairness
from engine.cards import DECK
from engine.fairness import (
    NOTATION_ORDER,
    FairnessInputError,
    commitment,
    deck_codes,
    first_dealer,
    fisher_yates,
    new_server_seed,
    verify,
    words,
)

ROOT = Path(__file__).resolve().parents[2]

uncompiled = pytest.mark.uncompiled
"""A test of the command line or of the independent verifiers: ``engine.fairness`` imports no rule module
(``test_the_shuffle_runs_no_rule_module``) and the verifiers none of the bot's code, so what these run is
never compiled, and ``make test`` runs them once, not again with the engine compiled (pyproject.toml)."""

ZERO_SEED = bytes(32)
COUNTING_SEED = bytes(range(32))
CLICKS = "1180000000000000001-1180000000000000002"

# The vectors of docs/FAIRNESS.md: (server seed, client seed, round, commitment, deck in dealing order).
VECTORS = [
    (
        ZERO_SEED,
        "x",
        1,
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        "8D AH 7C TC 4S 7H 3S 6C 4C 5S KD AC QC JD AS TD 7D 5C 3C 3H 2C KH TS QS KS 7S "
        "8C 6S 3D 6H 2S KC JH TH 2H 4H 5H 9D 5D 8H 2D JC 9C QH 8S 6D JS QD AD 9S 4D 9H",
    ),
    (
        COUNTING_SEED,
        CLICKS,
        1,
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "7H 7D AD JS 2S 8D 4C QH JC QS 3H JH 5C 9C AH AC TC 6H KC 4D 9D 8C 5S 2D 6C 5H "
        "TH 4S AS 6D 4H 5D KD 2H 7S 8H 3C QC TD 9S 8S TS 3D 9H 7C KS KH 2C 3S 6S QD JD",
    ),
    (
        COUNTING_SEED,
        CLICKS + ":lucky 7",
        2,
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "7C AS KD QD QS QC KS TH 9D 2S 2H 6H 6C 3H 3S 5H 6S AD 8C 7D JC 3C 5D 9C 4D KH "
        "9S 9H 2D 8S QH JD 2C AH 6D TD AC TC TS 7H JS 4H 8D 4S 5C 7S 4C JH 5S 3D KC 8H",
    ),
]
VECTOR_IDS = ["zero-seed", "counting-seed", "with-player-text"]

# The first dealer's seat (docs/FAIRNESS.md): (server seed, client seed, round, seats, seat).
DEALER_VECTORS = [
    (ZERO_SEED, "x", 1, 3, 2),
    (COUNTING_SEED, CLICKS, 1, 3, 0),
    (COUNTING_SEED, CLICKS, 1, 4, 2),
    (COUNTING_SEED, CLICKS, 1, 5, 3),
]


def test_notation_order_is_the_engines_deck_order() -> None:
    """R1.5: the shuffle starts from the engine's own codes, clubs first, ace to king."""
    assert list(NOTATION_ORDER) == [card.code for card in DECK]


@pytest.mark.parametrize(("seed", "client", "round_number", "commit", "deck"), VECTORS, ids=VECTOR_IDS)
def test_fixed_vectors(seed: bytes, client: str, round_number: int, commit: str, deck: str) -> None:
    assert commitment(seed) == commit
    assert deck_codes(seed, client, round_number) == deck.split()


def test_byte_stream_is_hmac_sha256_of_client_seed_round_counter() -> None:
    stream = words(COUNTING_SEED, CLICKS, 1)
    first_block = b"".join(x.to_bytes(4, "big") for x in itertools.islice(stream, 8))
    second_block = b"".join(x.to_bytes(4, "big") for x in itertools.islice(stream, 8))
    assert first_block.hex() == "83d826d763944ca0e5908ec22f24d07e4aa068a177d0e5e0085cf81d111b2794"
    assert second_block == hmac.digest(COUNTING_SEED, f"{CLICKS}:1:1".encode(), "sha256")


def test_new_seeds_are_32_fresh_bytes() -> None:
    seeds = {new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 32 for seed in seeds)


def test_every_deck_is_the_52_cards_once() -> None:
    for i in range(50):
        deck = deck_codes(COUNTING_SEED, f"c{i}", i + 1)
        assert sorted(deck) == sorted(NOTATION_ORDER)


def test_the_deck_depends_on_every_input() -> None:
    base = deck_codes(COUNTING_SEED, CLICKS, 1)
    assert deck_codes(ZERO_SEED, CLICKS, 1) != base
    assert deck_codes(COUNTING_SEED, CLICKS + "3", 1) != base
    assert deck_codes(COUNTING_SEED, CLICKS, 2) != base


def test_rejection_sampling_throws_away_words_at_or_above_the_limit() -> None:
    """For n = 52 the limit is 2**32 - (2**32 % 52); a word at the limit is skipped, not reduced."""
    limit_52 = 2**32 - (2**32 % 52)
    supplied: Iterator[int] = iter([limit_52, 2**32 - 1, 53] + [0] * 50)
    deck = list(NOTATION_ORDER)
    fisher_yates(deck, supplied.__next__)
    # i = 51 took 53 % 52 = 1 (the two large words were rejected): KS and 2C swapped.
    assert deck[51] == "2C"
    assert next(supplied, None) is None


@pytest.mark.parametrize(("seed", "client", "round_number", "seats", "seat"), DEALER_VECTORS)
def test_first_dealer_vectors(seed: bytes, client: str, round_number: int, seats: int, seat: int) -> None:
    assert first_dealer(seed, client, round_number, seats) == seat


def test_first_dealer_reads_its_own_stream_with_rejection() -> None:
    blocks = (hmac.digest(COUNTING_SEED, f"{CLICKS}:1:dealer:{k}".encode(), "sha256") for k in range(4))
    integers = [int.from_bytes(block[i : i + 4], "big") for block in blocks for i in range(0, 32, 4)]
    first_kept = next(x for x in integers if x < 2**32 - (2**32 % 5))
    assert first_dealer(COUNTING_SEED, CLICKS, 1, 5) == first_kept % 5


@pytest.mark.statistical
def test_every_seat_is_as_likely_to_deal_first() -> None:
    draws = 20_000
    for seats in (3, 4, 5):
        counts = Counter(first_dealer(ZERO_SEED, f"d:{i}", 1, seats) for i in range(draws))
        expected = draws / seats
        statistic = sum((counts[s] - expected) ** 2 / expected for s in range(seats))
        assert set(counts) == set(range(seats))
        assert statistic < chi_square_limit(seats - 1, 4.75)


@pytest.mark.parametrize("seats", [0, 53, True, 2.0])
def test_first_dealer_refuses_a_bad_number_of_seats(seats: Any) -> None:
    with pytest.raises(FairnessInputError):
        first_dealer(ZERO_SEED, "x", 1, seats)


# ---- no modulo bias --------------------------------------------------------------------------------------


def chi_square_limit(dof: int, z: float) -> float:
    """Wilson–Hilferty: the chi-square quantile with ``dof`` degrees of freedom at normal score ``z``."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def position_chi_square(decks: Iterator[list[str]], shuffles: int) -> float:
    """Chi-square of the 52 × 52 table (position, card) against the uniform expectation."""
    counts: Counter[tuple[int, str]] = Counter()
    for deck in decks:
        counts.update(enumerate(deck))
    expected = shuffles / 52
    return sum((counts[(p, c)] - expected) ** 2 / expected for p in range(52) for c in NOTATION_ORDER)


@pytest.mark.statistical
def test_no_bias_over_card_positions_in_100000_real_shuffles() -> None:
    """Every card is equally likely at every position: the real scheme, 100,000 deals.

    Deterministic (fixed seeds), so it can not flake; the bound is the 1 - 1e-6
    quantile of chi-square with 51 × 51 degrees of freedom.
    """
    shuffles = 100_000
    decks = (deck_codes(COUNTING_SEED, f"chi:{i}", 1 + i % 7) for i in range(shuffles))
    statistic = position_chi_square(decks, shuffles)
    assert statistic < chi_square_limit(51 * 51, 4.75)
    assert statistic > chi_square_limit(51 * 51, -4.75)  # too even would be as suspicious


def small_word_shuffles(biased: bool, shuffles: int) -> Iterator[list[str]]:
    """Shuffles drawing 8-bit words, where a bare ``x % n`` would be visibly biased (256 % 52 = 48)."""
    source = random.Random(13)
    next_word: Callable[[], int] = lambda: source.getrandbits(8)  # noqa: E731
    for _ in range(shuffles):
        deck = list(NOTATION_ORDER)
        if biased:
            for i in range(51, 0, -1):
                j = next_word() % (i + 1)
                deck[i], deck[j] = deck[j], deck[i]
        else:
            fisher_yates(deck, next_word, word_range=256)
        yield deck


@pytest.mark.statistical
def test_the_same_chi_square_catches_modulo_bias_that_rejection_removes() -> None:
    """The test above has teeth: with 8-bit words the bare modulo fails it and the rejection passes."""
    shuffles = 30_000
    bound = chi_square_limit(51 * 51, 4.75)
    assert position_chi_square(small_word_shuffles(True, shuffles), shuffles) > bound
    assert position_chi_square(small_word_shuffles(False, shuffles), shuffles) < bound


# ---- verify ----------------------------------------------------------------------------------------------


def test_verify_accepts_the_true_seed_commitment_and_deck() -> None:
    seed, client, round_number, commit, deck = VECTORS[1]
    result = verify(seed, commit.upper(), client, round_number, deck.split())
    assert result.ok and result.commitment_matches and result.deck_matches


def test_verify_detects_a_wrong_seed() -> None:
    _, client, round_number, commit, deck = VECTORS[1]
    result = verify(ZERO_SEED, commit, client, round_number, deck.split())
    assert not result.ok
    assert not result.commitment_matches
    assert result.deck_matches is False


def test_verify_detects_a_wrong_commitment() -> None:
    seed = VECTORS[1][0]
    result = verify(seed, commitment(ZERO_SEED))
    assert not result.ok and result.deck_matches is None


def test_verify_detects_a_changed_deck() -> None:
    seed, client, round_number, commit, deck = VECTORS[1]
    cards = deck.split()
    cards[0], cards[1] = cards[1], cards[0]
    result = verify(seed, commit, client, round_number, cards)
    assert result.commitment_matches
    assert result.deck_matches is False and not result.ok
    assert result.expected_deck == tuple(deck.split())


def test_verify_detects_another_client_seed_or_round() -> None:
    seed, client, round_number, commit, deck = VECTORS[1]
    assert not verify(seed, commit, client + "9", round_number, deck.split()).ok
    assert not verify(seed, commit, client, round_number + 1, deck.split()).ok


@pytest.mark.parametrize(
    "bad",
    [
        lambda: commitment(b"short"),
        lambda: deck_codes(COUNTING_SEED, "x", 0),
        lambda: deck_codes(COUNTING_SEED, "x", True),
        lambda: deck_codes(COUNTING_SEED, "\udcff", 1),
        lambda: verify(COUNTING_SEED, "abc"),
        lambda: verify(COUNTING_SEED, "g" * 64),
        lambda: verify(COUNTING_SEED, "0" * 64, "x", 1, None),
        lambda: verify(COUNTING_SEED, "0" * 64, "x", 1, ["AC"] * 52),
        lambda: verify(COUNTING_SEED, "0" * 64, "x", 1, ["ZZ"]),
        lambda: verify(COUNTING_SEED, "0" * 64, "x", 1, list(NOTATION_ORDER[:51])),
    ],
    ids=[
        "short-seed",
        "round-0",
        "round-bool",
        "unencodable-client-seed",
        "short-commitment",
        "non-hex-commitment",
        "deck-missing",
        "repeated-card",
        "unknown-card",
        "51-cards",
    ],
)
def test_malformed_input_is_refused_clearly(bad: Callable[[], object]) -> None:
    with pytest.raises(FairnessInputError) as error:
        bad()
    assert str(error.value)


def test_the_shuffle_runs_no_rule_module() -> None:
    """engine.fairness imports the standard library only: the compiled engine never runs under it."""
    tree = ast.parse((ROOT / "engine" / "fairness.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported and all(name.split(".")[0] in sys.stdlib_module_names for name in imported), imported


# ---- command line ----------------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.fairness", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@uncompiled
def test_cli_deck_prints_the_52_codes_on_one_line() -> None:
    seed, client, round_number, _, deck = VECTORS[2]
    proc = run_cli("deck", "--server-seed", seed.hex(), "--client-seed", client, "--round", str(round_number))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == deck + "\n"


@uncompiled
def test_cli_verify_statuses() -> None:
    seed, client, round_number, commit, deck = VECTORS[1]
    good = run_cli("verify", "--server-seed", seed.hex(), "--commitment", commit)
    assert (good.returncode, good.stdout.split(":")[0]) == (0, "commitment")
    assert "OK" in good.stdout
    full = ["--client-seed", client, "--round", str(round_number)]
    with_deck = run_cli("verify", "--server-seed", seed.hex(), "--commitment", commit, *full, "--deck", deck)
    assert with_deck.returncode == 0
    assert with_deck.stdout.count("OK") == 2
    changed = deck.replace("7H 7D", "7D 7H")
    tampered = run_cli(
        "verify", "--server-seed", seed.hex(), "--commitment", commit, *full, "--deck", changed
    )
    assert tampered.returncode == 1
    assert "deck: MISMATCH" in tampered.stdout
    wrong = run_cli("verify", "--server-seed", ZERO_SEED.hex(), "--commitment", commit)
    assert wrong.returncode == 1
    assert "commitment: MISMATCH" in wrong.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["deck", "--server-seed", "00", "--client-seed", "x", "--round", "1"],
        ["deck", "--server-seed", "zz" * 32, "--client-seed", "x", "--round", "1"],
        ["deck", "--server-seed", "00" * 32, "--client-seed", "x", "--round", "0"],
        ["deck", "--server-seed", "00" * 32, "--client-seed", "x", "--round", "one"],
        ["deck", "--server-seed", "00" * 32, "--round", "1"],
        ["verify", "--server-seed", "00" * 32, "--commitment", "xyz"],
        ["verify", "--server-seed", "00" * 32, "--commitment", "0" * 64, "--round", "1"],
        ["verify", "--server-seed", "00" * 32, "--commitment", "0" * 64, "--client-seed", "x", "--round", "1",
         "--deck", "AC 2C"],
        ["shuffle"],
        [],
    ],
    ids=["short-seed", "non-hex-seed", "round-0", "round-word", "no-client-seed", "bad-commitment",
         "deck-parts-missing", "short-deck", "unknown-command", "nothing"],
)  # fmt: skip
@uncompiled
def test_cli_malformed_input_exits_2_without_a_traceback(args: list[str]) -> None:
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip()
    assert proc.stdout == ""


@uncompiled
def test_cli_dealer_prints_the_seat() -> None:
    for seed, client, round_number, seats, seat in DEALER_VECTORS:
        args = ["--server-seed", seed.hex(), "--client-seed", client, "--round", str(round_number)]
        proc = run_cli("dealer", *args, "--seats", str(seats))
        assert (proc.returncode, proc.stdout) == (0, f"{seat}\n")
    bad = run_cli(
        "dealer", "--server-seed", ZERO_SEED.hex(), "--client-seed", "x", "--round", "1", "--seats", "0"
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "seats" in bad.stderr


@uncompiled
def test_cli_verify_with_seats_prints_the_first_dealer_after_the_checks() -> None:
    """``/flipflop verify`` prints this for a table's first round: the seeds' dealer beside the checks."""
    seed, client, round_number, seats, seat = DEALER_VECTORS[0]
    commit = commitment(seed)
    deck = " ".join(deck_codes(seed, client, round_number))
    args = ["--server-seed", seed.hex(), "--commitment", commit, "--client-seed", client]
    proc = run_cli("verify", *args, "--round", str(round_number), "--deck", deck, "--seats", str(seats))
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.splitlines()[-1]
    assert last == f"first dealer: seat {seat} (seat 0 is the first player who joined)"
    assert proc.stdout.count(": OK") == 2
    for bad in (["--seats", "0"], ["--seats", "53"]):
        refused = run_cli("verify", *args, "--round", str(round_number), "--deck", deck, *bad)
        assert (refused.returncode, refused.stdout) == (2, "") and "seats" in refused.stderr
    alone = run_cli("verify", "--server-seed", seed.hex(), "--commitment", commit, "--seats", "3")
    assert (alone.returncode, alone.stdout) == (2, "") and "Traceback" not in alone.stderr


@uncompiled
def test_main_returns_the_status_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    seed, client, round_number, commit, deck = VECTORS[0]
    assert fairness.main(["verify", "--server-seed", seed.hex(), "--commitment", commit]) == 0
    assert "commitment: OK" in capsys.readouterr().out


# ---- independent verifiers (docs/verify_deal.py, docs/verify_deal.js) -------------------------------------


@uncompiled
@pytest.mark.parametrize(("seed", "client", "round_number", "commit", "deck"), VECTORS, ids=VECTOR_IDS)
def test_independent_python_verifier_agrees(
    seed: bytes, client: str, round_number: int, commit: str, deck: str
) -> None:
    """docs/verify_deal.py shares no code with the bot, yet gives the same deck and checks."""
    script = ROOT / "docs" / "verify_deal.py"
    assert "import engine" not in script.read_text() and "from engine" not in script.read_text()
    common = ["--server-seed", seed.hex(), "--commitment", commit, "--client-seed", client]
    proc = subprocess.run(
        [sys.executable, str(script), *common, "--round", str(round_number), "--deck", deck],
        capture_output=True, text=True, check=False, cwd=ROOT / "docs",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"deck: {deck}\n" in proc.stdout
    assert "commitment OK" in proc.stdout and "dealt deck OK" in proc.stdout
    changed = deck.split()
    changed[10], changed[11] = changed[11], changed[10]
    tampered = subprocess.run(
        [sys.executable, str(script), *common, "--round", str(round_number), "--deck", " ".join(changed)],
        capture_output=True, text=True, check=False, cwd=ROOT / "docs",
    )  # fmt: skip
    assert tampered.returncode == 1
    assert "dealt deck WRONG" in tampered.stdout


@uncompiled
def test_independent_python_verifier_agrees_on_random_seeds() -> None:
    script = ROOT / "docs" / "verify_deal.py"
    for i in range(5):
        seed = new_server_seed()
        client = f"{1180000000000000000 + i}-{1180000000000000100 + i}:ünïcode ✓"
        proc = subprocess.run(
            [sys.executable, str(script), "--server-seed", seed.hex(), "--commitment", commitment(seed),
             "--client-seed", client, "--round", str(i + 1)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode == 0
        assert f"deck: {' '.join(deck_codes(seed, client, i + 1))}\n" in proc.stdout


@uncompiled
def test_independent_verifiers_agree_on_the_first_dealer() -> None:
    node = shutil.which("node")
    for seed, client, round_number, seats, seat in DEALER_VECTORS:
        python = subprocess.run(
            [sys.executable, str(ROOT / "docs" / "verify_deal.py"), "--server-seed", seed.hex(),
             "--commitment", commitment(seed), "--client-seed", client, "--round", str(round_number),
             "--seats", str(seats)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert python.returncode == 0
        assert f"first dealer: seat {seat} " in python.stdout
        if node is not None:  # the JavaScript one too, where node is installed
            js = subprocess.run(
                [node, str(ROOT / "docs" / "verify_deal.js"), seed.hex(), commitment(seed), client,
                 str(round_number), "", str(seats)],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert js.returncode == 0
            assert f"first dealer: seat {seat} " in js.stdout


@pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("CI"),  # CI machines have Node: it runs there
    reason="no node on this machine; the Python verifier is tested",
)
@uncompiled
@pytest.mark.parametrize(("seed", "client", "round_number", "commit", "deck"), VECTORS, ids=VECTOR_IDS)
def test_independent_javascript_verifier_agrees(
    seed: bytes, client: str, round_number: int, commit: str, deck: str
) -> None:
    node = shutil.which("node")
    assert node is not None
    script = str(ROOT / "docs" / "verify_deal.js")
    proc = subprocess.run(
        [node, script, seed.hex(), commit, client, str(round_number), deck],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"deck: {deck}\n" in proc.stdout and "dealt deck OK" in proc.stdout
    swapped = deck.split()
    swapped[0], swapped[1] = swapped[1], swapped[0]
    wrong = subprocess.run(
        [node, script, seed.hex(), commitment(b"\x01" * 32), client, str(round_number), " ".join(swapped)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert wrong.returncode == 1
    assert "commitment WRONG" in wrong.stdout and "dealt deck WRONG" in wrong.stdout


@uncompiled
def test_independent_verifiers_read_a_deck_as_the_project_does() -> None:
    """Either case, spaces or commas: the same deck; not 52 different card codes: malformed (2), not WRONG."""
    seed, client, round_number, commit, deck = VECTORS[0]
    codes = deck.split()
    decks = {
        deck.lower(): 0,
        ",".join(codes): 0,
        " ".join(codes[:2]): 2,  # too short
        " ".join([codes[0], *codes[:51]]): 2,  # a card twice, one missing
        " ".join([*codes[:51], "1H"]): 2,  # not a card
    }
    for dealt, status in decks.items():
        every_verifier_answers(status, seed, commit, client, round_number, dealt)


def every_verifier_answers(
    status: int, seed: bytes, commit: str, client: str, round_number: int, deck: str
) -> None:
    """The project's verifier and both of docs/ (Python; Node where it is installed) exit with ``status``;
    each script says "malformed" exactly when that status is 2."""
    assert fairness.main(["verify", "--server-seed", seed.hex(), "--commitment", commit, "--client-seed",
                          client, "--round", str(round_number), "--deck", deck]) == status  # fmt: skip
    script = str(ROOT / "docs" / "verify_deal.py")
    python = subprocess.run(
        [sys.executable, script, "--server-seed", seed.hex(), "--commitment", commit, "--client-seed",
         client, "--round", str(round_number), "--deck", deck],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert python.returncode == status, (commit, deck, python.stdout, python.stderr)
    assert ("malformed" in python.stderr) == (status == 2)
    node = shutil.which("node")
    if node is not None:
        js = subprocess.run(
            [node, script[:-2] + "js", seed.hex(), commit, client, str(round_number), deck],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert js.returncode == status, (commit, deck, js.stdout, js.stderr)
        assert ("malformed" in js.stderr) == (status == 2)


# ---- docs/FAIRNESS.md ------------------------------------------------------------------------------------


def test_the_vectors_written_in_the_docs_are_the_tested_ones() -> None:
    text = (ROOT / "docs" / "FAIRNESS.md").read_text()
    for seed, client, round_number, commit, deck in VECTORS:
        assert f"server seed: `{seed.hex()}`" in text
        assert f"commitment: `{commit}`" in text
        assert f"client seed: `{client}`, round `{round_number}`" in text
        assert f"deck: `{deck}`" in text
    for seed, client, round_number, seats, seat in DEALER_VECTORS:
        assert f"| `{seed.hex()[:8]}…` | `{client}` | {round_number} | {seats} | {seat} |" in text


def test_the_python_shown_in_the_docs_deals_the_same_deck() -> None:
    text = (ROOT / "docs" / "FAIRNESS.md").read_text()
    snippet = text.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(snippet, namespace)  # noqa: S102 - our own documentation
    dealing_order = namespace["dealing_order"]
    assert callable(dealing_order)
    for seed, client, round_number, _, deck in VECTORS:
        assert dealing_order(seed, client, round_number) == deck.split()


@uncompiled
def test_independent_verifiers_call_a_malformed_commitment_malformed_as_the_project_does() -> None:
    """docs/FAIRNESS.md: the verifiers answer with the project's exit statuses; a commitment that is not
    64 hex digits is malformed input (2), not a commitment that does not match (1)."""
    seed, client, round_number, commit, deck = VECTORS[0]
    for given, status in [(commit, 0), (commit.upper(), 0), (commit[:-1] + "0", 1), (commit[:-1], 2),
                          (commit[:-1] + "z", 2), ("", 2)]:  # fmt: skip
        every_verifier_answers(status, seed, given, client, round_number, deck)
