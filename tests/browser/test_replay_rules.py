"""The replay page's rules (web/replay/js/rules.js) against the engine, on many real rounds.

The page plays a transcript by itself (it shares no code with the bot); here Node runs its
module on rounds of 3, 4 and 5 basic computers and every stack and pot it ends with must be
``engine.replay``'s.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.i18n.catalogs import texts
from bot.presentation.event_words import AND, DROPS, END_TEXT
from bot.presentation.replay_link import _short_ids, binary_fragment
from bot.presentation.replay_words import page_words, plain
from engine.cards import Card, sort_key
from engine.replay import replay
from tests.browser.replay_rounds import played_game, played_round

RULES = (Path(__file__).resolve().parents[2] / "web" / "replay" / "js" / "rules.js").as_uri()
WORDS = (Path(__file__).resolve().parents[2] / "web" / "replay" / "js" / "words.js").as_uri()


def node(script: str, data: object) -> Any:
    """What a Node module ``script`` prints as JSON, given ``data`` as JSON on its standard input."""
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def page_results(transcripts: list[dict[str, object]]) -> list[dict[str, object]]:
    """What the page's ``playTranscript`` ends each transcript with: stacks and pots of its last round."""
    script = f"""
import {{ playTranscript }} from {json.dumps(RULES)};
import {{ readFileSync }} from "node:fs";
const all = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(all.map((t) => playTranscript(t).at(-1).result)));
"""
    out = node(script, transcripts)
    assert isinstance(out, list)
    return out


def test_the_page_settles_every_round_as_the_engine_does() -> None:
    rounds = [played_round(players, seed, interactions=1) for players in (3, 4, 5) for seed in range(120)]
    games = [
        {**files[0], "rounds": [f["rounds"][0] for f in files]}
        for files in (played_game(players, seed, rounds=12) for players in (3, 5) for seed in range(15))
    ]
    transcripts = rounds + games
    ends = {r["rounds"][0]["actions"][-1][1] for r in rounds if r["rounds"][0]["actions"]}
    assert {"drop", "discard"} <= ends  # rounds end in more than one way
    got = page_results(transcripts)
    for data, page in zip(transcripts, got, strict=True):
        result, status = replay(data)
        assert status == 0
        assert page == {"stacks": result["stacks"], "pots": result["pots"]}, data


CODEC = (Path(__file__).resolve().parents[2] / "web" / "replay" / "js" / "codec.js").as_uri()


def test_the_bots_compact_links_unpack_in_the_page_to_the_same_round() -> None:
    rounds = [played_round(players, seed, interactions=16) for players in (3, 5) for seed in range(1, 41)]
    # ids out of order (negative steps), players' texts, an empty seed and one of another shape
    rounds[0]["reveal"]["client_seed"] = "-".join(reversed(rounds[0]["reveal"]["client_seed"].split("-")))
    rounds[1]["reveal"]["client_seed"] += ":lucky 7:🎲 ünïcode"
    rounds[2]["reveal"]["client_seed"] = ""
    rounds[3]["reveal"]["client_seed"] = "not-ids-007:x"
    del rounds[4]["reveal"]
    rounds[5]["names"] = {}
    del rounds[6]["names"][rounds[6]["seats"][1]["id"]]  # one seat of three unnamed
    packed_forms = [binary_fragment(r) for r in rounds]
    script = f"""
import {{ unpack }} from {json.dumps(CODEC)};
import {{ readFileSync }} from "node:fs";
const links = JSON.parse(readFileSync(0, "utf8"));
const bytes = (t) => Uint8Array.from(atob(t.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
console.log(JSON.stringify(links.map((l) => unpack(bytes(l.slice(3))))));
"""
    for sent, got in zip(rounds, node(script, packed_forms), strict=True):
        want = _short_ids(sent)  # a seat without a name stays without: the page calls it by number
        assert got == want


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_caught_drop_is_said_as_the_bots_round_log_says_it(language: str) -> None:
    """In the bot's own sentences ("✋ … drops with 12." "🏁 … was caught by … with 12."), in its language.

    A transcript without names: the page calls the seats by number."""
    cases = Path(__file__).resolve().parents[1] / "engine" / "cases"
    case = json.loads((cases / "drop-caught-tie.json").read_text())
    script = f"""
import {{ playTranscript }} from {json.dumps(RULES)};
import {{ setWords }} from {json.dumps(WORDS)};
import {{ readFileSync }} from "node:fs";
const [transcript, words] = JSON.parse(readFileSync(0, "utf8"));
setWords(words);
const round = playTranscript(transcript).at(-1);
console.log(JSON.stringify(round.frames.map((f) => f.caption)));
"""
    captions = node(script, [case["transcript"], page_words(language)])
    t = texts(language)
    seat = [t.gettext("seat {number}").format(number=n) for n in (1, 2, 3)]
    drop = t.gettext(DROPS).format(name=seat[0], value=t.number(12))
    catchers = t.gettext(AND).format(names=seat[1], last=seat[2])
    caught = t.gettext(END_TEXT["caught"]).format(who=seat[0], value=12, catchers=catchers, low=12)
    said = plain(f"{drop} · 🏁 {caught}")
    assert any(said in c for c in captions), (said, captions)


def test_the_page_shows_every_hand_in_the_bots_order() -> None:
    """By suit, then rank, as the Discord hand and the live page show it (not as dealt, a drawn card last)."""
    rounds = [played_round(players, seed, interactions=1) for players in (3, 5) for seed in range(10)]
    script = f"""
import {{ playTranscript }} from {json.dumps(RULES)};
import {{ readFileSync }} from "node:fs";
const all = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(all.flatMap((t) => playTranscript(t).flatMap((r) => r.frames.flatMap(
  (f) => f.seats.map((s) => s.hand))))));
"""
    hands = [h for h in node(script, rounds) if len(h) > 1]
    assert len(hands) > 100
    for hand in hands:
        assert hand == [c.code for c in sorted(map(Card.parse, hand), key=sort_key)], hand
