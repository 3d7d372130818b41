"""Every setting .env.example offers is one the bot reads, and the README's settings table lists it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]


def example_variables() -> list[str]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", text, re.MULTILINE)


def read_by_the_bot() -> set[str]:
    names = set()
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        names.add(str(alias.choices[-1]) if alias is not None and hasattr(alias, "choices") else name.upper())
    return names


def settings_table() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("### Settings", 1)[1].split("\n### ", 1)[0]


def test_every_example_variable_is_a_setting_and_in_the_readme_table() -> None:
    variables = example_variables()
    assert {"DISCORD_TOKEN", "MIN_ACCOUNT_DAYS", "TABLE_COOLDOWN_SECONDS", "LIVE_KEY"} <= set(variables)
    assert set(variables) <= read_by_the_bot()
    table = settings_table()
    assert [v for v in variables if f"`{v}`" not in table] == []


def test_the_example_values_load(tmp_path: Path) -> None:
    """.env.example, copied to .env with a token filled in, starts the bot's settings as documented."""
    env = tmp_path / ".env"
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    env.write_text(example.replace("DISCORD_TOKEN=", "DISCORD_TOKEN=x", 1))
    s = load_settings({}, env)
    assert s.discord_token == "x"
    assert (s.min_account_days, s.min_member_days, s.table_cooldown_seconds) == (7, 1, 60)
    assert (s.calls_per_second, s.invalid_requests_limit, s.house_float) == (45, 2000, 1000)
    assert s.round_pause == 8 and s.live_port == 8088 and s.live_url is None
