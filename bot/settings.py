"""Settings, read from the environment and ``.env`` when asked for (never at import).

pydantic-settings reads them: each field names its variable (``DISCORD_TOKEN``,
…), a blank variable counts as not set, the environment wins over ``.env``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

_environ: ContextVar[Mapping[str, str] | None] = ContextVar("flipflop_environ", default=None)


class SettingsError(Exception):
    """A setting is malformed; the message names the variable and what is wrong."""


class _Environ(PydanticBaseSettingsSource):
    """The process environment (or the mapping ``load_settings`` was given), blanks left out."""

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
    api_base: str | None = Field(default=None, validation_alias=AliasChoices("api_base", "FLIPFLOP_API_BASE"))
    """Testing aid only: point discord.py at a local fake Discord (``http://127.0.0.1:PORT``)."""

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
        """Arguments first, then the environment, then ``.env``."""
        return init_settings, _Environ(settings_cls), dotenv_settings


def variable(field: str) -> str:
    """The environment variable behind a settings field."""
    alias = Settings.model_fields[field].validation_alias
    return str(alias.choices[-1]) if isinstance(alias, AliasChoices) else field.upper()


def load_settings(environ: Mapping[str, str] | None = None, env_file: str | Path = ".env") -> Settings:
    """Build the settings from ``.env`` (if present) overlaid by the environment (or ``environ``)."""
    token = _environ.set(environ)
    try:
        env = env_file if Path(env_file).is_file() else None
        return Settings(_env_file=env)  # type: ignore[call-arg]  # pydantic-settings' own argument
    except ValidationError as e:
        err = e.errors()[0]
        where = str(err["loc"][0]) if err["loc"] else "a setting"
        name = variable(where) if where in Settings.model_fields else where.upper()
        raise SettingsError(f"{name} is not valid: {err['msg']} (got {err.get('input')!r}).") from None
    finally:
        _environ.reset(token)
