"""Card faces: the committed pictures are the script's, and every style reads as it should."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import discord
from PIL import Image

from bot.cards import (
    HERE,
    SUIT_TEXT,
    TEXT_ONLY,
    CardEmoji,
    CardFaces,
    Look,
    all_faces,
    recorded_sums,
    words,
)
from bot.i18n import texts
from bot.presentation.render import card, cards, plain, plain_cards, suit_name
from engine.cards import DECK, Card

ROOT = Path(__file__).resolve().parents[2]
EMOJI_SUITS = "♠♣♥♦"
"""Suits that Discord clients may paint as emoji pictures (black ones vanish on the dark theme)."""


def draw_cards() -> ModuleType:
    spec = importlib.util.spec_from_file_location("draw_cards", ROOT / "scripts" / "draw_cards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["draw_cards"] = module
    spec.loader.exec_module(module)
    return module


def test_the_committed_faces_match_their_recorded_hashes() -> None:
    sums = recorded_sums()
    assert len(sums) == 106 == len(all_faces())
    for face in all_faces():
        data = face.path.read_bytes()
        assert hashlib.sha256(data).hexdigest() == sums[f"{face.deck}/{face.path.name}"] == face.digest
        assert len(data) < 4096  # small: 106 of them in the repository
        with Image.open(face.path) as img:
            assert img.size == (128, 128)  # Discord's emoji size


def test_the_script_draws_the_committed_faces(tmp_path: Path) -> None:
    sums = draw_cards().write(tmp_path)
    assert sums == recorded_sums()
    assert (tmp_path / "SHA256SUMS").read_text() == (HERE / "SHA256SUMS").read_text()


def test_emoji_names_are_discord_names_with_the_pictures_hash() -> None:
    names = [f.name for f in all_faces()]
    assert len(set(names)) == 106
    for face in all_faces():
        assert 2 <= len(face.name) <= 32 and face.name.replace("_", "").isalnum()
        assert face.name.endswith(face.digest[:6])
    assert {f.name.split("_")[1] for f in all_faces()} == {c.code for c in DECK} | {"back"}


def test_text_cards_never_use_a_suit_a_client_paints_as_emoji() -> None:
    en = texts("en")
    for c in DECK:
        for text in (card(c), plain(c), card(c, en), plain(c, en)):
            assert not any(s in text for s in EMOJI_SUITS), text
            assert SUIT_TEXT[c.suit] in text
    assert cards([]) == "—"
    assert plain_cards(DECK[:2]) == "A♧ 2♧"


def test_the_text_style_says_cards_in_words_in_each_language() -> None:
    faces = TEXT_ONLY
    ks, th = Card.parse("KS"), Card.parse("TH")
    assert faces.text(ks, "text", texts("en")) == "king of spades"
    assert faces.text(th, "text", texts("en")) == "10 of hearts"
    assert faces.text(ks, "text", texts("ko")) == "스페이드 킹"
    assert words(None, texts("en")) == "a card face down"
    t = texts("fil").with_faces(Look(TEXT_ONLY, "text"))
    assert cards([ks, th], t=t) == "hari ng espada, 10 ng puso"
    assert texts("fil").faces is None  # the shared texts are not changed by a reader's look


def test_a_synced_face_shows_as_its_emoji_and_only_in_its_set() -> None:
    faces = CardFaces()
    ks = Card.parse("KS")
    face = next(f for f in all_faces() if f.deck == "four" and f.code == "KS")
    faces.add(face, 1234)
    assert faces.emoji(ks, "four") == CardEmoji(face.name, 1234)
    assert str(faces.emoji(ks, "four")) == str(discord.PartialEmoji(name=face.name, id=1234))
    assert faces.emoji(ks, "classic") is None and faces.emoji(ks, "text") is None
    four = texts("en").with_faces(Look(faces, "four"))
    assert card(ks, four) == f"<:{face.name}:1234>"
    assert card(ks, four.at(True)) == f"<:{face.name}:1234>"  # a practice table keeps the reader's look
    assert plain(ks, four) == "K♤"  # a label can not show an emoji: text
    classic = texts("en").with_faces(Look(faces, "classic"))
    assert card(ks, classic) == "`K♤`"  # not uploaded in this set: text


def test_a_suit_is_named_with_its_sign_or_in_words_alone() -> None:
    en = texts("en")
    assert suit_name("S", en) == "spades ♤"
    assert suit_name("S", en.with_faces(Look(TEXT_ONLY, "text"))) == "spades"
