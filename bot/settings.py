"""Settings, read from the environment and ``.env`` when asked for (never at import)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from dotenv import dotenv_values
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

ENV_NAMES = {
    "discord_token": "DISCORD_TOKEN",
    "database_path": "DATABASE_PATH",
    "dev_guild_id": "DEV_GUILD_ID",
    "log_level": "LOG_LEVEL",
    "api_base": "FLIPFLOP_API_BASE",
    "round_pause": "ROUND_PAUSE_SECONDS",
}


class SettingsError(Exception):
    """A setting is malformed; the message names the variable and what is wrong."""


class Settings(BaseModel):
    """What the bot needs to run. See ``.env.example`` and the README."""

    model_config = ConfigDict(frozen=True)

    discord_token: str | None = None
    database_path: Path = Path("data/flipflop.sqlite3")
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    round_pause: float = Field(default=8.0, ge=0, le=120)
    """Seconds between a round's result and the next deal."""
    api_base: str | None = None
    """Testing aid only: point discord.py at a local fake Discord (``http://127.0.0.1:PORT``)."""

    @field_validator("discord_token", "api_base", "round_pause", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


def load_settings(environ: Mapping[str, str] | None = None, env_file: str | Path = ".env") -> Settings:
    """Build the settings from ``.env`` (if present) overlaid by the environment."""
    values: dict[str, str] = {}
    if Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    raw = {field: values[name] for field, name in ENV_NAMES.items() if name in values}
    if raw.get("dev_guild_id", "x").strip() == "":
        raw.pop("dev_guild_id")
    try:
        return Settings.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        name = ENV_NAMES.get(str(err["loc"][0]), str(err["loc"][0]))
        raise SettingsError(f"{name} is not valid: {err['msg']} (got {err.get('input')!r}).") from None
