"""How long the bot waits on Discord is a setting: Discord's defaults, a compressed clock in tests/e2e."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings
from cogs.flipflop import delivery


def test_the_defaults_are_the_waits_made_for_discord(tmp_path: Path) -> None:
    s = load_settings({}, tmp_path / "none.env")
    assert s.discord_call_seconds == delivery.CALL_SECONDS == 10.0
    assert s.edit_backoff_seconds == delivery.RETRY_SECONDS == (0.5, 4.0)
    assert s.shutdown_drain_seconds == delivery.DRAIN_SECONDS == 5.0
    assert s.outbox_wait_seconds == 5.0


def test_the_environment_compresses_them(tmp_path: Path) -> None:
    s = load_settings(
        {
            "DISCORD_CALL_SECONDS": "2.5",
            "EDIT_BACKOFF_SECONDS": "0.1, 0.8",
            "SHUTDOWN_DRAIN_SECONDS": "1",
            "OUTBOX_WAIT_SECONDS": "0.5",
        },
        tmp_path / "none.env",
    )
    assert (s.discord_call_seconds, s.edit_backoff_seconds) == (2.5, (0.1, 0.8))
    assert (s.shutdown_drain_seconds, s.outbox_wait_seconds) == (1.0, 0.5)
    waits = [delivery.backoff(n, s.edit_backoff_seconds) for n in range(1, 8)]
    assert 0.08 <= waits[0] <= 0.1 and max(waits) <= 0.8  # the same doubling, on the compressed clock


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("EDIT_BACKOFF_SECONDS", "4,0.5", "0 < first <= cap"),
        ("EDIT_BACKOFF_SECONDS", "1", "EDIT_BACKOFF_SECONDS is not valid"),
        ("DISCORD_CALL_SECONDS", "0", "DISCORD_CALL_SECONDS is not valid"),
        ("OUTBOX_WAIT_SECONDS", "-1", "OUTBOX_WAIT_SECONDS is not valid"),
    ],
)
def test_a_bad_wait_is_refused_by_name(tmp_path: Path, name: str, value: str, words: str) -> None:
    with pytest.raises(SettingsError, match=words.replace("(", r"\(")):
        load_settings({name: value}, tmp_path / "none.env")
