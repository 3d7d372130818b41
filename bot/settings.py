"""Settings, read from the environment and ``.env`` when asked for (never at import).

pydantic-settings checks them: each field names its variable (``DISCORD_TOKEN``,
…), a blank variable counts as not set, the environment wins over ``.env``. A line of ``.env``
is read as plain text, exactly as the same variable in the environment (pydantic-settings' own
``.env`` reader would decode it as JSON first: ``SHARD_IDS=0`` an int, ``0.5,4`` an error).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from dotenv import dotenv_values
from pydantic import AliasChoices, Field, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from bot.storage.base import StoreError, parse_target, redact

_environ: ContextVar[Mapping[str, str] | None] = ContextVar("flipflop_environ", default=None)


HOUSE_FLOAT = 1000
"""The house's default float: five computers at the default 200-chip buy-in (``bot.ledger.GuildSettings``)."""


class SettingsError(Exception):
    """A setting is malformed; the message names the variable and what is wrong."""


class _Environ(PydanticBaseSettingsSource):
    """The process environment (or the mapping ``load_settings`` made of it and ``.env``), blanks left out."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        environ = _environ.get()
        source = os.environ if environ is None else environ
        out: dict[str, Any] = {}
        for name, field in self.settings_cls.model_fields.items():
            alias = field.validation_alias
            variable = alias.choices[-1] if isinstance(alias, AliasChoices) else name.upper()
            value = source.get(str(variable))
            if value is not None and value.strip():
                out[name] = value
        return out


class Settings(BaseSettings):
    """What the bot needs to run. See ``.env.example`` and the README."""

    model_config = SettingsConfigDict(
        frozen=True, populate_by_name=True, env_ignore_empty=True, extra="ignore"
    )

    discord_token: str | None = Field(
        default=None, validation_alias=AliasChoices("discord_token", "DISCORD_TOKEN")
    )
    database_path: Path = Field(
        default=Path("data/flipflop.sqlite3"), validation_alias=AliasChoices("database_path", "DATABASE_PATH")
    )
    database_url: str | None = Field(
        default=None, validation_alias=AliasChoices("database_url", "DATABASE_URL")
    )
    """``postgresql://…`` to share one PostgreSQL between processes, ``sqlite:///path``, or blank.

    Blank means the SQLite file at ``database_path``.
    """
    shard_count: int | None = Field(
        default=None, ge=1, le=1_000_000, validation_alias=AliasChoices("shard_count", "SHARD_COUNT")
    )
    """How many shards the whole bot runs as (all processes together); blank lets Discord say."""
    shard_ids: tuple[int, ...] | None = Field(
        default=None, validation_alias=AliasChoices("shard_ids", "SHARD_IDS")
    )
    """The shards this process runs (``0-3`` or ``4,5,6,7``); blank means all of them."""
    dev_guild_id: int | None = Field(
        default=None, gt=0, validation_alias=AliasChoices("dev_guild_id", "DEV_GUILD_ID")
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO", validation_alias=AliasChoices("log_level", "LOG_LEVEL")
    )
    round_pause: float = Field(
        default=8.0, ge=0, le=120, validation_alias=AliasChoices("round_pause", "ROUND_PAUSE_SECONDS")
    )
    """Seconds between a round's result and the next deal."""
    metrics_port: int | None = Field(
        default=None, ge=1, le=65535, validation_alias=AliasChoices("metrics_port", "METRICS_PORT")
    )
    """Serve Prometheus ``/metrics`` and ``/healthz`` on this port (docs/OPERATORS.md); blank: none."""
    replay_url: str | None = Field(default=None, validation_alias=AliasChoices("replay_url", "REPLAY_URL"))
    """The public address of the static replay page (web/replay/); blank: no "Watch the replay" button."""
    live_url: str | None = Field(default=None, validation_alias=AliasChoices("live_url", "LIVE_URL"))
    """The public address of this process's live table server (the page: ``<LIVE_URL>live/``); blank: off."""
    live_port: int = Field(
        default=8088, ge=1, le=65535, validation_alias=AliasChoices("live_port", "LIVE_PORT")
    )
    """The port the live table server listens on (behind the HTTPS host that ``LIVE_URL`` names)."""
    live_key: str | None = Field(default=None, validation_alias=AliasChoices("live_key", "LIVE_KEY"))
    """The key one-time sign-in links are signed with; blank: a new random key at each start."""
    activity_client_id: str | None = Field(
        default=None, validation_alias=AliasChoices("activity_client_id", "ACTIVITY_CLIENT_ID")
    )
    """The application's id, when it has an Activity (docs/ACTIVITY.md): the table offers **Open table**."""
    activity_client_secret: str | None = Field(
        default=None, validation_alias=AliasChoices("activity_client_secret", "ACTIVITY_CLIENT_SECRET")
    )
    """The application's OAuth2 client secret: the bot trades an Activity's sign-in code with it."""
    activity_api_url: str = Field(
        default="https://discord.com/api/v10",
        validation_alias=AliasChoices("activity_api_url", "ACTIVITY_API_URL"),
    )
    """Where the Activity's code is traded and checked (Discord's API; a test points it at a fake)."""
    house_float: int = Field(
        default=HOUSE_FLOAT,
        ge=0,
        le=1_000_000_000,
        validation_alias=AliasChoices("house_float", "HOUSE_FLOAT"),
    )
    """Chips a server's house account opens with, so a player can seat computers without an admin.

    Credited once, when the house account is first opened, with its own ledger entry
    (reason ``house_float``, counted as brought into the server by the audit). 0: none.
    """
    calls_per_second: int = Field(
        default=45, ge=0, le=50, validation_alias=AliasChoices("calls_per_second", "DISCORD_CALLS_PER_SECOND")
    )
    """Channel-route calls a second for the whole bot, every process together (``bot.budget``); 0: off.

    Discord allows a token 50; interaction replies are not counted."""
    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("redis_url", "REDIS_URL"))
    """``redis://host:port/db`` shares the call budget between processes; blank: each takes its share."""
    invalid_requests_limit: int = Field(
        default=2000,
        ge=10,
        le=8000,
        validation_alias=AliasChoices("invalid_requests_limit", "INVALID_REQUESTS_LIMIT"),
    )
    """401/403/429 responses in 10 minutes (all processes) from which calls known to fail are stopped.

    Discord blocks the address at 10,000."""
    min_account_days: float = Field(
        default=7.0, ge=0, le=365, validation_alias=AliasChoices("min_account_days", "MIN_ACCOUNT_DAYS")
    )
    """How old a Discord account must be for ``/daily`` and a seat at a table played for chips; 0: any."""
    min_member_days: float = Field(
        default=1.0, ge=0, le=365, validation_alias=AliasChoices("min_member_days", "MIN_MEMBER_DAYS")
    )
    """How long a member must have been in the server for the same; 0: from the moment they join.

    Members with Manage Server are not held back by either: they can already grant chips."""
    table_cooldown_seconds: float = Field(
        default=60.0,
        ge=0,
        le=86400,
        validation_alias=AliasChoices("table_cooldown_seconds", "TABLE_COOLDOWN_SECONDS"),
    )
    """Seconds a member waits after opening a table before opening another (any kind); 0: no wait."""
    api_base: str | None = Field(default=None, validation_alias=AliasChoices("api_base", "FLIPFLOP_API_BASE"))
    """Testing aid only: point discord.py at a local fake Discord (``http://127.0.0.1:PORT``)."""

    # How long the bot waits on Discord. The defaults are made for Discord; the end-to-end tests run
    # the real process on a compressed clock (tests/e2e) through these, as the cog tests do in-process.
    discord_call_seconds: float = Field(
        default=10.0,
        gt=0,
        le=120,
        validation_alias=AliasChoices("discord_call_seconds", "DISCORD_CALL_SECONDS"),
    )
    """A table edit (or post) not answered by then counts as failed and is made again: one hung request
    must not hold the channel's edits (discord.py's own waits for a 429 fit well within it)."""
    edit_backoff_seconds: tuple[float, float] = Field(
        default=(0.5, 4.0), validation_alias=AliasChoices("edit_backoff_seconds", "EDIT_BACKOFF_SECONDS")
    )
    """Backoff after a failed table edit (``first,cap``): the first wait, doubling up to the cap.

    Capped well under the 10 s in which a table must show the saved state once Discord answers again."""
    shutdown_drain_seconds: float = Field(
        default=5.0,
        ge=0,
        le=120,
        validation_alias=AliasChoices("shutdown_drain_seconds", "SHUTDOWN_DRAIN_SECONDS"),
    )
    """At shutdown, how long pending table edits may take before the HTTP session closes."""
    outbox_wait_seconds: float = Field(
        default=5.0, gt=0, le=120, validation_alias=AliasChoices("outbox_wait_seconds", "OUTBOX_WAIT_SECONDS")
    )
    """How long a table's change waits to be told after the change before it, if that one is never told."""

    @field_validator("database_url", mode="after")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        """A blank URL means SQLite at ``database_path``; anything else must name a store we have."""
        if value is None or not value.strip():
            return None
        try:
            parse_target(value.strip())
        except StoreError as e:
            raise ValueError(str(e)) from None
        return value.strip()

    @field_validator("replay_url", mode="after")
    @classmethod
    def _replay_url(cls, value: str | None) -> str | None:
        """An http(s) address without a fragment: the bot puts the round in the fragment itself."""
        if value is None or not value.strip():
            return None
        url = value.strip()
        if not url.startswith(("https://", "http://")) or "#" in url or " " in url:
            raise ValueError("the replay page's address starts with https:// (or http://) and has no # part")
        return url

    @field_validator("live_url", mode="after")
    @classmethod
    def _live_url(cls, value: str | None) -> str | None:
        """An http(s) address without a query or fragment (the page's path is added to it)."""
        if value is None or not value.strip():
            return None
        url = value.strip()
        if not url.startswith(("https://", "http://")) or any(c in url for c in "#? "):
            raise ValueError("the live table's address starts with https:// (or http://), without ? or #")
        return url if url.endswith("/") else url + "/"

    @field_validator("edit_backoff_seconds", mode="before")
    @classmethod
    def _backoff(cls, value: object) -> object:
        """``0.5,4`` (as the environment writes it) as (first, cap)."""
        return tuple(part.strip() for part in value.split(",")) if isinstance(value, str) else value

    @field_validator("edit_backoff_seconds", mode="after")
    @classmethod
    def _backoff_range(cls, value: tuple[float, float]) -> tuple[float, float]:
        first, cap = value
        if not 0 < first <= cap <= 60:
            raise ValueError("the first wait and the cap are seconds with 0 < first <= cap <= 60, like 0.5,4")
        return value

    @field_validator("redis_url", mode="after")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        """A blank URL means no Redis; anything else is a ``redis://`` (or ``rediss://``) address."""
        if value is None or not value.strip():
            return None
        url = value.strip()
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(
                "the Redis address starts with redis:// (or rediss://), like redis://127.0.0.1:6379/0"
            )
        return url

    @property
    def processes(self) -> int:
        """How many processes run the bot, from the shard settings (each runs ``len(SHARD_IDS)`` shards)."""
        if self.shard_count is None or not self.shard_ids:
            return 1
        return max(1, -(-self.shard_count // len(self.shard_ids)))

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        """``SHARD_IDS`` needs ``SHARD_COUNT`` (every process must agree on it) and must lie below it."""
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT too (the total number of shards of every process)")
        outside = [i for i in self.shard_ids if i >= self.shard_count]
        if outside:
            raise ValueError(
                f"SHARD_IDS {', '.join(map(str, outside))} not below SHARD_COUNT={self.shard_count}"
                f" (shards are numbered 0 to {self.shard_count - 1})"
            )
        return self

    @model_validator(mode="after")
    def _room(self) -> Settings:
        """Each process's share of the call budget is a call a second at least; two servers, two ports."""
        if self.calls_per_second and not self.redis_url and self.processes > self.calls_per_second:
            raise ValueError(
                f"{self.processes} processes (SHARD_COUNT / SHARD_IDS) can not share"
                f" DISCORD_CALLS_PER_SECOND={self.calls_per_second} without REDIS_URL: each would get less"
                " than one call a second, and together they would pass it. Set REDIS_URL (every process"
                " shares one budget), or run more shards in each process"
            )
        activity = {
            "ACTIVITY_CLIENT_ID": self.activity_client_id,
            "ACTIVITY_CLIENT_SECRET": self.activity_client_secret,
        }
        unset = [name for name, value in activity.items() if not value]
        if len(unset) < len(activity) and (unset or not self.live_url):  # some set: all three are needed
            missing = unset[0] if unset else "LIVE_URL"
            raise ValueError(
                "The Activity needs ACTIVITY_CLIENT_ID, ACTIVITY_CLIENT_SECRET and LIVE_URL;"
                f" {missing} is not set (docs/ACTIVITY.md). Set it, or unset the other Activity settings"
            )
        if self.live_url and self.metrics_port is not None and self.metrics_port == self.live_port:
            raise ValueError(
                f"METRICS_PORT and LIVE_PORT are both {self.live_port}: the metrics and the live table"
                " each need a port of their own"
            )
        return self

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of a server (Discord's ``(guild_id >> 22) % shard_count``)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Arguments first, then the environment over ``.env`` (``load_settings`` lays one over the other)."""
        return init_settings, _Environ(settings_cls)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to (its sharding formula)."""
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0-3`` or ``4,5,6,7`` (or a mix, ``0-1,5``) as sorted shard ids; ``ValueError`` says what is wrong."""
    ids: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        try:
            first, last = (int(low), int(high)) if dash else (int(part), int(part))
        except ValueError:
            raise ValueError(
                f"{part!r} is not a shard number or range; write them like 0-3 or 4,5,6,7"
            ) from None
        if first < 0 or last < first:
            raise ValueError(f"{part!r} is not a range of shard numbers from low to high, like 0-3")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def variable(field: str) -> str:
    """The environment variable behind a settings field."""
    alias = Settings.model_fields[field].validation_alias
    return str(alias.choices[-1]) if isinstance(alias, AliasChoices) else field.upper()


def dotenv_lines(env_file: str | Path) -> dict[str, str]:
    """The variables a ``.env`` file sets, as text (names in capitals); none when there is no file."""
    if not Path(env_file).is_file():
        return {}
    return {name.upper(): value for name, value in dotenv_values(env_file).items() if value is not None}


def load_settings(environ: Mapping[str, str] | None = None, env_file: str | Path = ".env") -> Settings:
    """Build the settings from ``.env`` (if present) overlaid by the environment (or ``environ``)."""
    source = os.environ if environ is None else environ
    given = {name: value for name, value in source.items() if value.strip()}  # blank: not set
    token = _environ.set({**dotenv_lines(env_file), **given})
    try:
        return Settings()
    except ValidationError as e:
        err = e.errors()[0]
        if not err["loc"]:  # a check across settings: its message names them
            raise SettingsError(f"{err['msg'].removeprefix('Value error, ')}.") from None
        where = str(err["loc"][0])
        name = variable(where) if where in Settings.model_fields else where.upper()
        msg = err["msg"].removeprefix("Value error, ")
        given = err.get("input")
        shown = redact(given) if isinstance(given, str) else given  # a URL's password is never echoed
        raise SettingsError(f"{name} is not valid: {msg} (got {shown!r}).") from None
    finally:
        _environ.reset(token)
