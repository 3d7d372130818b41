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


DISCORD_PERMISSIONS = {
    "Create Posts": "게시물 만들기",
    "Send Messages in Posts": "게시물에서 메시지 보내기",
    "Create Public Threads": "공개 스레드 만들기",
    "Send Messages in Threads": "스레드에서 메시지 보내기",
    "Manage Server": "서버 관리하기",
    "View Channel": "채널 보기",
    "Send Messages": "메시지 보내기",
    "Embed Links": "링크 첨부",
}
"""Each Discord permission the bot names, and its name in Discord's Korean client (Server Settings, Roles)."""


def test_discord_permissions_are_named_as_the_korean_client_names_them() -> None:
    """Four permissions were left in English in Korean (**Create Public Threads**, **Send Messages in
    Threads**, **Create Posts**, **Send Messages in Posts**) and Manage Server was 서버 관리: a server
    manager looks them up by the names their client shows."""
    english = {k: v[0] or k for k, v in forms_of("en").items()}
    korean = forms_of("ko")
    names = sorted(DISCORD_PERMISSIONS, key=len, reverse=True)
    seen = set()
    for msgid, text in english.items():
        rest = text
        for name in names:  # the longest first: "Send Messages in Threads" is not "Send Messages"
            if re.search(rf"\b{name}\b", rest):
                rest = re.sub(rf"\b{name}\b", "", rest)
                seen.add(name)
                for form in korean[msgid]:
                    assert DISCORD_PERMISSIONS[name] in form, (msgid, name, form)
        for form in korean[msgid]:
            assert not re.search("|".join(names), form), (msgid, form)
    assert seen == set(DISCORD_PERMISSIONS)
