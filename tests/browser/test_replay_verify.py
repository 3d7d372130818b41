"""The replay page's verifier (web/replay/js/verify.js) on docs/FAIRNESS.md's published vectors.

The vectors are read from FAIRNESS.md itself, so the page is held to the published text, not
to a copy of it; Node runs the page's own ES module (Web Crypto, as in the browser).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAIRNESS = (ROOT / "docs" / "FAIRNESS.md").read_text()
VERIFY = (ROOT / "web" / "replay" / "js" / "verify.js").as_uri()


def vectors() -> list[dict[str, object]]:
    """Each "Vector N" block of FAIRNESS.md: seed, commitment, client seed, round, deck."""
    out = []
    for block in re.split(r"\*\*Vector \d+\*\*", FAIRNESS)[1:]:
        field = {
            k: re.search(rf"- {k}: `([^`]*)`", block)
            for k in ("server seed", "commitment", "client seed", "deck")
        }
        found = {k: m.group(1) for k, m in field.items() if m is not None}
        number = re.search(r"client seed: `[^`]*`, round `(\d+)`", block)
        assert number is not None and len(found) == 4, block
        out.append({**found, "round": int(number.group(1))})
    return out


def dealers() -> list[tuple[str, str, int, int, int]]:
    """The first-dealer table: seed prefix, client seed, round, seats, dealer."""
    rows = re.findall(r"^\| `([0-9a-f]{8})…` \| `([^`]*)` \| (\d+) \| (\d+) \| (\d+) \|$", FAIRNESS, re.M)
    return [(s, c, int(r), int(n), int(d)) for s, c, r, n, d in rows]


def run_node(script: str) -> object:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_page_verifier_reproduces_every_published_vector() -> None:
    cases = vectors()
    assert len(cases) == 3
    seeds = {str(c["server seed"])[:8]: c["server seed"] for c in cases}
    table = dealers()
    assert len(table) == 4
    script = f"""
import {{ seedBytes, commitmentOf, dealingOrder, firstDealer, verifyDeal }} from {json.dumps(VERIFY)};
const cases = {json.dumps(cases)};
const table = {json.dumps(table)};
const seeds = {json.dumps(seeds)};
const out = {{ decks: [], commitments: [], dealers: [], verdicts: [] }};
for (const c of cases) {{
  const seed = seedBytes(c["server seed"]);
  out.commitments.push(await commitmentOf(seed));
  out.decks.push((await dealingOrder(seed, c["client seed"], c.round)).join(" "));
  const reveal = {{ server_seed: c["server seed"], commitment: c.commitment,
    client_seed: c["client seed"], round: c.round }};
  out.verdicts.push((await verifyDeal(reveal, c.deck.split(" "), null)).ok);
}}
for (const [prefix, client, round, seats] of table) {{
  out.dealers.push(await firstDealer(seedBytes(seeds[prefix]), client, round, seats));
}}
console.log(JSON.stringify(out));
"""
    got = run_node(script)
    assert isinstance(got, dict)
    assert got["commitments"] == [c["commitment"] for c in cases]
    assert got["decks"] == [c["deck"] for c in cases]
    assert got["dealers"] == [d for *_, d in table]
    assert got["verdicts"] == [True, True, True]


def test_the_page_verifier_says_what_differs_for_a_tampered_seed() -> None:
    case = vectors()[1]
    seed = str(case["server seed"])
    tampered = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    script = f"""
import {{ verifyDeal }} from {json.dumps(VERIFY)};
const reveal = {{ server_seed: {json.dumps(tampered)}, commitment: {json.dumps(case["commitment"])},
  client_seed: {json.dumps(case["client seed"])}, round: {case["round"]} }};
const v = await verifyDeal(reveal, {json.dumps(str(case["deck"]).split())}, {{ seats: 3, dealerSeat: 0 }});
console.log(JSON.stringify(v));
"""
    got = run_node(script)
    assert isinstance(got, dict)
    assert got["ok"] is False
    checks = {c["what"]: c for c in got["checks"]}
    assert checks["commitment"]["ok"] is False and checks["commitment"]["expected"] == case["commitment"]
    assert checks["deck"]["ok"] is False and checks["deck"]["expected"] == case["deck"]
    assert set(checks) == {"commitment", "deck", "dealer"}
