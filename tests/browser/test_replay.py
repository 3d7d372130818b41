"""The replay page (web/replay/) in headless Chromium: rounds by link and by file, stepped, verified.

The page is served as any static host would serve it (a plain HTTP file server); the rounds
are real rounds of the engine dealt by the fair-deal scheme, written as the bot writes them.
Every figure the page shows at a round's end is checked against ``engine.replay``.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from bot.i18n.catalogs import texts
from bot.presentation.event_words import DISCARDED
from bot.presentation.replay_link import binary_fragment, fragment, replay_link
from bot.presentation.replay_words import plain
from engine.replay import replay
from tests.browser.replay_rounds import played_game, played_round

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "web" / "replay"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, no access log."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        """Say nothing."""


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """web/replay/ served on a free port, as GitHub Pages or any static host would."""
    handler = functools.partial(QuietHandler, directory=str(PAGE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


@pytest.fixture
def replay_page(browser: Browser) -> Iterator[Page]:
    """A fresh desktop-sized tab; errors the page throws fail the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def final_figures(page: Page) -> tuple[list[int], dict[str, int]]:
    """The stacks (seat order) and pots the page shows now."""
    stacks = [
        int(s)
        for s in page.locator("#table .seat .stack").evaluate_all("els => els.map(e => e.dataset.stack)")
    ]
    pots = {
        pot: int(page.locator(f"#table .pot-{pot} .pot-amount").get_attribute("data-amount") or "-1")
        for pot in ("game", "flip", "flop")
    }
    return stacks, pots


def expected_figures(data: dict[str, Any]) -> tuple[list[int], dict[str, int]]:
    """``engine.replay``'s stacks (seat order) and pots after the round."""
    result, status = replay(data)
    assert status == 0, result["error"]
    return [result["stacks"][s["id"]] for s in data["seats"]], result["pots"]


def test_a_round_opens_from_its_link_plays_to_the_end_and_verifies(
    site: str, replay_page: Page, shots: Path
) -> None:
    data = played_round(3, seed=11, interactions=2)
    link = replay_link(site, data)
    assert "#b=" in link and len(link) <= 512  # the whole round rides in the link
    page = replay_page
    page.goto(link)
    expect(page.locator("#round-title")).to_have_text("Round 1 · #11")
    expect(page.locator("#table .seat")).to_have_count(3)
    expect(page.locator("#table .seat-name")).to_have_text(["ann", "ben", "cat"])
    assert page.locator("#table").get_attribute("data-frame") == "0"
    page.locator("#forward").click()
    expect(page.locator("#table")).to_have_attribute("data-frame", "1")
    page.locator("#back").click()
    expect(page.locator("#table")).to_have_attribute("data-frame", "0")
    page.keyboard.press("End")
    expect(page.locator("#table")).to_have_attribute("data-last", "true")
    assert final_figures(page) == expected_figures(data)
    # every hand face up at the end: 5 cards a seat were dealt, all of them are still shown somewhere
    assert page.locator("#table .seat .hand .card.back").count() == 0
    page.locator("#verify").click()
    expect(page.locator("#verdict")).to_have_attribute("data-ok", "true")
    expect(page.locator("#verdict")).to_contain_text("✔ This deal checks out")
    expect(page.locator("#verdict")).to_contain_text("✔ first dealer")
    page.screenshot(path=shots / "replay.png", full_page=True)


def test_the_move_list_and_arrow_keys_step_through_the_round(site: str, replay_page: Page) -> None:
    data = played_round(3, seed=12, interactions=1)
    page = replay_page
    page.goto(replay_link(site, data))
    moves = page.locator("#moves button:not([data-kind=end])")
    # the deal, then one per action (waited for: read at once, the list was still empty in one CI run)
    expect(moves).to_have_count(len(data["rounds"][0]["actions"]) + 1)
    moves.nth(3).click()
    expect(page.locator("#table")).to_have_attribute("data-frame", "3")
    expect(moves.nth(3)).to_have_class("current")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#table")).to_have_attribute("data-frame", "4")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#table")).to_have_attribute("data-frame", "2")
    page.locator("#play").click()
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#table")).to_have_attribute("data-frame", "3")
    page.locator("#play").click()
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "false")


def test_a_round_opens_from_its_file_and_on_a_phone(
    site: str, browser: Browser, tmp_path: Path, shots: Path
) -> None:
    data = played_round(5, seed=21, interactions=16)
    path = tmp_path / "round-21.json"
    path.write_text(json.dumps(data, indent=1))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(site)
    expect(page.locator("#intro")).to_be_visible()
    page.locator("#files").set_input_files(str(path))
    expect(page.locator("#table .seat")).to_have_count(5)
    steps = len(data["rounds"][0]["actions"])
    for _ in range(steps):
        page.locator("#forward").click()
    expect(page.locator("#table")).to_have_attribute("data-last", "true")
    assert final_figures(page) == expected_figures(data)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    boxes = [page.locator(f"#{b}").bounding_box() for b in ("first", "back", "play", "forward", "last")]
    assert all(b is not None for b in boxes)  # the step buttons: one row, each label on one line
    middles = [b["y"] + b["height"] / 2 for b in boxes if b]
    words = [b["height"] for b in boxes[1:4] if b]  # ◀ Back, ▶ Play, Forward ▶: as tall as the ⏮ button
    assert max(middles) - min(middles) < 4 and boxes[0] and max(words) <= boxes[0]["height"], boxes
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=shots / "replay-phone.png", full_page=False)
    page.locator("#verify").click()
    expect(page.locator("#verdict")).to_have_attribute("data-ok", "true")
    context.close()


def test_several_files_are_a_game_stepped_round_by_round(
    site: str, replay_page: Page, tmp_path: Path
) -> None:
    files = played_game(3, seed=5, rounds=3)
    assert len(files) == 3
    paths = []
    for data in reversed(files):  # picked in any order: the page puts them in round order
        path = tmp_path / f"round-{data['round_id']}.json"
        path.write_text(json.dumps(data))
        paths.append(str(path))
    page = replay_page
    page.goto(site)
    page.locator("#files").set_input_files(paths)
    for number, data in enumerate(files, start=1):
        expect(page.locator("#round-title")).to_have_text(f"Round {number} · #{100 + number} ({number} of 3)")
        page.locator("#last").click()
        expect(page.locator("#table")).to_have_attribute("data-last", "true")
        assert final_figures(page) == expected_figures(data)
        page.locator("#verify").click()
        expect(page.locator("#verdict")).to_have_attribute("data-ok", "true")
        if number < 3:
            page.locator("#next-round").click()
    expect(page.locator("#next-round")).to_be_disabled()
    # the game opened from its files becomes one link to share
    page.locator("#share").click()
    expect(page.locator("#shared")).to_contain_text("now links to these rounds")
    assert "#r=" in page.url
    again = page.context.new_page()
    again.goto(page.url)
    expect(again.locator("#round-title")).to_have_text("Round 1 · #101 (1 of 3)")
    again.keyboard.press("PageDown")
    again.keyboard.press("PageDown")
    expect(again.locator("#round-title")).to_have_text("Round 3 · #103 (3 of 3)")
    again.keyboard.press("End")
    expect(again.locator("#table")).to_have_attribute("data-last", "true")
    assert final_figures(again) == expected_figures(files[2])


def test_a_tampered_seed_shows_a_cross_and_what_differs(site: str, replay_page: Page, shots: Path) -> None:
    data = played_round(3, seed=11, interactions=2)
    seed = data["reveal"]["server_seed"]
    data["reveal"]["server_seed"] = ("1" if seed[0] != "1" else "2") + seed[1:]
    page = replay_page
    page.goto(replay_link(site, data))
    page.locator("#verify").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-ok", "false")
    expect(verdict).to_contain_text("✘ This deal does NOT check out")
    expect(verdict).to_contain_text(f"the published commitment is {data['reveal']['commitment']}")
    expect(verdict).to_contain_text("✘ deck: the seeds give another deck; the first difference is card")
    page.screenshot(path=shots / "replay-tampered.png", full_page=True)


def test_a_game_link_of_json_rounds_opens_too(site: str, replay_page: Page) -> None:
    files = played_game(3, seed=5, rounds=2)
    page = replay_page
    page.goto(site + fragment(files))  # the deflated JSON form: a list of rounds
    expect(page.locator("#round-title")).to_have_text("Round 1 · #101 (1 of 2)")
    page.keyboard.press("PageDown")
    expect(page.locator("#round-title")).to_have_text("Round 2 · #102 (2 of 2)")


def cut(link: str) -> str:
    return link[: len(link) - 40]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ("damaged binary link", "This link is damaged"),
        ("damaged json link", "This link is damaged"),
        ("truncated file", "is not JSON (was it cut short or edited?)"),
        ("future version", "replay format 2, newer than this page"),
        ("unknown card", 'unknown card code "ZZ"'),
        ("edited move", "breaks the rules"),
        ("edited deck", "is not the 52 cards once each"),
    ],
)
def test_bad_input_is_one_clear_message_and_nothing_drawn(
    site: str, replay_page: Page, tmp_path: Path, edit: str, message: str
) -> None:
    data = played_round(3, seed=13, interactions=1)
    page = replay_page
    if edit.startswith("damaged"):
        link = site + (binary_fragment(data) or "") if "binary" in edit else site + fragment(data)
        page.goto(cut(link))
    else:
        text = json.dumps(data)
        if edit == "truncated file":
            text = text[: len(text) // 2]
        elif edit == "future version":
            text = json.dumps({**data, "version": 2})
        elif edit == "unknown card":
            data["rounds"][0]["deck"][7] = "ZZ"
            text = json.dumps(data)
        elif edit == "edited move":
            actions = data["rounds"][0]["actions"]
            first = next(i for i, a in enumerate(actions) if a[1] == "discard")
            held = set(data["rounds"][0]["deck"][:15])
            actions[first][2] = next(c for c in data["rounds"][0]["deck"][40:] if c not in held)
            text = json.dumps(data)
        elif edit == "edited deck":
            data["rounds"][0]["deck"][0] = data["rounds"][0]["deck"][1]
            text = json.dumps(data)
        path = tmp_path / "round.json"
        path.write_text(text)
        page.goto(site)
        page.locator("#files").set_input_files(str(path))
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error")).to_contain_text(message)
    expect(page.locator("#viewer")).to_be_hidden()
    assert page.locator("#table .seat").count() == 0


def test_a_round_too_long_for_a_link_asks_for_its_file(site: str, replay_page: Page) -> None:
    data = played_round(5, seed=3, interactions=16)
    link = replay_link(site, data, limit=100)
    assert link.endswith("#file")
    replay_page.goto(link)
    expect(replay_page.locator("#error")).to_contain_text("too long for a link")
    expect(replay_page.locator("#files")).to_be_attached()


SUIT_MARK = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card(code: str) -> str:
    """A card as the page writes it: ``10♥``, ``A♠``."""
    return ("10" if code[0] == "T" else code[0]) + SUIT_MARK[code[1]]


def first_discard(data: dict[str, Any], language: str) -> tuple[int, str]:
    """The first discard's step and its caption in ``language``: the bot's round log's sentence."""
    actions = data["rounds"][0]["actions"]
    i = next(i for i, a in enumerate(actions) if a[1] == "discard")
    who, _, code = actions[i]
    return i + 1, plain(texts(language).gettext(DISCARDED).format(name=data["names"][who], card=card(code)))


@pytest.mark.parametrize("language", ["ko", "be"])
def test_a_link_in_a_language_shows_the_page_in_it(
    site: str, browser: Browser, shots: Path, language: str
) -> None:
    """The bot's link asks for its reader's language: headings, buttons, the moves' captions and
    the verdict read as the bot's catalogs say them, and none of their English is left."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    t = texts(language)
    data = played_round(3, seed=11, interactions=2)
    link = replay_link(site, data, language=language)
    assert f"?lang={language}#b=" in link and len(link) <= 512
    page.goto(link)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#page-title")).to_have_text(t.gettext("Flip Flop replay"))
    expect(page).to_have_title(t.gettext("Flip Flop replay"))
    round_title = t.gettext("Round {number}").format(number=t.number(1))
    expect(page.locator("#round-title")).to_have_text(f"{round_title} · #11")
    expect(page.locator("#verify")).to_have_text(t.gettext("Verify this deal"))
    expect(page.locator("#back")).to_have_text(t.gettext("◀ Back"))
    expect(page.locator("#play")).to_have_text(t.gettext("▶ Play"))
    expect(page.locator("#moves-title")).to_have_text(t.gettext("Moves"))
    expect(page.locator("#language")).to_have_value(language)
    expect(page.locator("#table .pot-game .pot-name")).to_have_text(t.gettext("game"))
    step, said = first_discard(data, language)
    expect(page.locator("#moves")).to_contain_text(said)
    page.locator(f"#moves button[data-frame='{step}']").first.click()
    expect(page.locator("#table .caption")).to_contain_text(said)
    page.locator("#verify").click()
    expect(page.locator("#verdict")).to_have_attribute("data-ok", "true")
    expect(page.locator("#verdict")).to_contain_text(t.gettext("✔ This deal checks out"))
    body = page.locator("body")
    for english in (
        "Verify this deal",
        "Moves",
        "✔ This deal checks out",
        "Forward ▶",
        "discarded",
        "step 1",
    ):
        expect(body).not_to_contain_text(english)
    page.screenshot(path=shots / f"replay-{language}.png", full_page=True)
    context.close()
    assert not errors, errors


def test_a_link_without_a_language_speaks_the_browsers(site: str, browser: Browser) -> None:
    """English in an English browser; a Korean browser reads Korean; one we don't speak, English."""
    data = played_round(3, seed=11, interactions=2)
    link = replay_link(site, data)
    assert "lang=" not in link
    for locale, language in (("en-US", "en"), ("ko-KR", "ko"), ("de-DE", "en")):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(link)
        t = texts(language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#verify")).to_have_text(t.gettext("Verify this deal"))
        step, said = first_discard(data, language)
        expect(page.locator("#moves")).to_contain_text(said)
        context.close()


def test_the_language_picker_keeps_the_open_round_and_step(site: str, replay_page: Page) -> None:
    data = played_round(3, seed=11, interactions=2)
    page = replay_page
    page.goto(replay_link(site, data, language="en"))
    page.locator("#forward").click()
    page.locator("#forward").click()
    expect(page.locator("#table")).to_have_attribute("data-frame", "2")
    page.locator("#language").select_option("sw")
    t = texts("sw")
    expect(page.locator("html")).to_have_attribute("lang", "sw")
    expect(page.locator("#verify")).to_have_text(t.gettext("Verify this deal"))
    expect(page.locator("#table")).to_have_attribute("data-frame", "2")  # the same round, the same step
    frames = len(data["rounds"][0]["actions"]) + 1
    expect(page.locator("#step")).to_have_text(
        t.gettext("step {number} of {count}").format(number=3, count=frames)
    )
    assert "lang=sw" in page.url and "#b=" in page.url  # a link copied now opens the round in Swahili
    again = page.context.new_page()
    again.goto(page.url)
    expect(again.locator("#verify")).to_have_text(t.gettext("Verify this deal"))
    expect(again.locator("#round-title")).to_contain_text("#11")


def test_the_language_picker_says_everything_shown_again_at_once(site: str, replay_page: Page) -> None:
    """A switch says again what Verify and Link to these rounds wrote, and the unnamed seats of a
    compact link (called by number) in the new language, without clicking anything again."""
    data = played_round(3, seed=11, interactions=2, names=False)
    page = replay_page
    page.goto(replay_link(site, data, language="en"))
    expect(page.locator("#table .seat-name")).to_have_text(["seat 1", "seat 2", "seat 3"])
    page.locator("#verify").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("✔ This deal checks out")
    dealer = data["seats"].index(next(s for s in data["seats"] if s["id"] == data["rounds"][0]["dealer"]))
    first_dealer = (
        "✔ first dealer: the seeds draw {index} (0 is the first player who joined), that is {name}, who dealt"
    )
    line = verdict.locator("p", has_text="first dealer")
    # FAIRNESS.md's index explained, the seat (counted from 1) named once: it read "seat 0 (seat 1)"
    expect(line).to_have_text(first_dealer.format(index=dealer, name=f"seat {dealer + 1}"))
    page.locator("#share").click()
    shared = page.locator("#shared")
    expect(shared).to_contain_text("now links to these rounds")
    english = shared.inner_text()
    count = int(english.rsplit("(", 1)[1].split(" ")[0].replace(",", ""))
    page.locator("#language").select_option("ko")
    t = texts("ko")
    seats = [t.gettext("seat {number}").format(number=n) for n in (1, 2, 3)]
    expect(page.locator("#table .seat-name")).to_have_text(seats)
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(verdict).to_contain_text(t.gettext("✔ This deal checks out"))
    expect(verdict).to_contain_text(plain(t.gettext(first_dealer).format(index=dealer, name=seats[dealer])))
    expect(verdict).not_to_contain_text(t.gettext("seat {number}").format(number=dealer))
    note = (
        "Copied: the address bar now links to these rounds ({count} characters)."
        if english.startswith("Copied")
        else "The address bar now links to these rounds ({count} characters)."
    )
    expect(shared).to_have_text(t.gettext(note).format(count=t.number(count)))
    for gone in ("checks out", "first dealer", "address bar", "seat 1"):
        expect(page.locator("body")).not_to_contain_text(gone)


def test_a_files_message_is_said_again_in_the_language_picked(
    site: str, replay_page: Page, tmp_path: Path
) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(played_round(3, seed=13, interactions=1))[:200])
    page = replay_page
    page.goto(site)
    page.locator("#files").set_input_files(str(path))
    expect(page.locator("#error")).to_contain_text("is not JSON")
    page.locator("#language").select_option("ko")
    said = texts("ko").gettext("{source} is not JSON (was it cut short or edited?)")
    expect(page.locator("#error")).to_have_text(said.format(source="round.json"))
    expect(page.locator("#viewer")).to_be_hidden()
