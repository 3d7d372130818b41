"""DATABASE_URL, SHARD_COUNT and SHARD_IDS: what they accept, and the plain words for what they refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings, parse_shard_ids, shard_of
from bot.storage import store_target


def settings(tmp_path: Path, **env: str) -> Settings:
    return load_settings(env, tmp_path / "no.env")


def test_blank_database_url_means_the_sqlite_file(tmp_path: Path) -> None:
    s = settings(tmp_path, DATABASE_URL="   ", DATABASE_PATH="x/chips.db")
    assert s.database_url is None
    assert store_target(s.database_url, s.database_path) == Path("x/chips.db")


@pytest.mark.parametrize("url", ["postgresql://bot@db:5432/flipflop", "sqlite:///data/a.sqlite3"])
def test_database_url_is_used_when_set(tmp_path: Path, url: str) -> None:
    s = settings(tmp_path, DATABASE_URL=f" {url} ")
    assert s.database_url == url
    assert store_target(s.database_url, s.database_path) == url


@pytest.mark.parametrize(
    ("url", "words"),
    [("mysql://x@y/z", "scheme 'mysql' is not supported"), ("sqlite:///", "needs a file")],
)
def test_unsupported_database_url_is_refused_by_name(tmp_path: Path, url: str, words: str) -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL") as err:
        settings(tmp_path, DATABASE_URL=url)
    assert words in str(err.value)


def test_dotenv_carries_the_scale_settings(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DATABASE_URL=postgresql://bot@db/ff\nSHARD_COUNT=8\nSHARD_IDS=4-7\n")
    s = load_settings({}, env)
    assert (s.database_url, s.shard_count, s.shard_ids) == ("postgresql://bot@db/ff", 8, (4, 5, 6, 7))


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("4,5,6,7", (4, 5, 6, 7)), ("7, 2", (2, 7)), ("0-1,5", (0, 1, 5)), ("3", (3,))],
)
def test_shard_ids_ranges_and_lists(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1-3"}, "SHARD_IDS 2, 3 not below SHARD_COUNT=2"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "two"}, "'two' is not a shard number or range"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "from low to high"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT is not valid"),
        ({"SHARD_COUNT": "many"}, "SHARD_COUNT is not valid"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(tmp_path: Path, env: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError) as err:
        settings(tmp_path, **env)
    assert words in str(err.value)


def test_a_process_owns_the_servers_of_its_shards(tmp_path: Path) -> None:
    guild = (123 << 22) | 999  # shard 123 % 4 == 3 of 4
    assert shard_of(guild, 4) == 3
    assert settings(tmp_path, SHARD_COUNT="4", SHARD_IDS="2-3").owns_guild(guild)
    assert not settings(tmp_path, SHARD_COUNT="4", SHARD_IDS="0,1").owns_guild(guild)
    assert settings(tmp_path).owns_guild(guild)  # one process runs every shard
    assert settings(tmp_path, SHARD_COUNT="4").owns_guild(guild)
