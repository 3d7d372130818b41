"""Words a second playtest in Filipino, Swahili and Belarusian found wrong, each held to its fix."""

from __future__ import annotations

import re

from tests.bot.test_glossary_words import english
from tests.bot.test_new_user_words import forms_of


def test_belarusian_until_you_click_is_the_future_never_the_imperative() -> None:
    """"пакуль вы не націсніце **Вярнуцца**" put the imperative (націсніце, "click!") where the
    sentence means "until you click": the future, націснеце. Every away message says it."""
    be, en = forms_of("be"), english()
    wrong = {m: f for m, forms in be.items() for f in forms if re.search(r"\bне\s+націсніце\b", f)}
    assert not wrong, wrong
    until = [m for m in be if re.search(r"until you click", en[m])]
    assert len(until) >= 10, until
    for msgid in until:
        for form in be[msgid]:
            assert re.search(r"пакуль вы не\s+націснеце\b", form), (msgid, form)
