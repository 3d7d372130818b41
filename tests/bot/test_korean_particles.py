"""Korean particles after placeholders, as a playtest in Korean read them (docs/LANGUAGES.md, Particles)."""

from __future__ import annotations

import re

from tests.bot.test_new_user_words import forms_of

PARTICLE = re.compile(r"\{(\w+)\}[`*]*(이에요|예요|이라|으로|이|가|을|를|은|는|과|와|로|라)(?![가-힣])")
"""A placeholder followed at once by a particle whose form depends on the sound before it."""
AMOUNTS = {"amount", "balance", "buy_in", "chips", "rounds"}
"""Placeholders always said as "칩 N개" or "N라운드": they end in a vowel, so the particle is known."""
AFTER_A_VOWEL = {"예요", "가", "를", "는", "와", "로", "라"}


def test_no_particle_guesses_how_a_placeholder_ends() -> None:
    """A name, a command, a file or "링크", an id or a hash may end in either sound: "{amount}은" read
    "칩 25개은", "{command}이 첨부하는" "/flipflop round이", "{dealer}예요" "민준예요", "{source}은"
    "링크은". A noun carries the particle, or the value comes where none is needed."""
    wrong = [
        (msgid, form)
        for msgid, forms in forms_of("ko").items()
        for form in forms
        for m in PARTICLE.finditer(form)
        if m.group(1) not in AMOUNTS or m.group(2) not in AFTER_A_VOWEL
    ]
    assert not wrong, wrong
