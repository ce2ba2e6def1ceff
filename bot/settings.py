"""Configuration from the environment (and a `.env` file beside the project)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "data/tilehost.db"


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to set and where."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str
    dev_guild_id: int | None = None
    db_path: str = DEFAULT_DB
    turn_hours: int = 24
    log_level: str = "INFO"

    @property
    def turn_seconds(self) -> int:
        """The default async turn clock in seconds."""
        return self.turn_hours * 3600


def _int(name: str, value: str | None, default: int | None) -> int | None:
    if value is None or not value.strip():
        return default
    try:
        return int(value.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {value!r} (check your .env).") from None


def load_settings(env_file: str | Path | None = ".env", *, require_token: bool = True) -> Settings:
    """Read the settings; ``.env`` values fill in what the environment does not set."""
    if env_file is not None and Path(env_file).exists():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Create a bot in the Discord Developer Portal "
            "(https://discord.com/developers/applications -> your app -> Bot -> Reset Token), then put "
            "DISCORD_TOKEN=<the token> in a file named .env in the project folder (copy .env.example), "
            "or export DISCORD_TOKEN in your shell. See the README, section 'Create the Discord application'."
        )
    turn_hours = _int("TILEHOST_TURN_HOURS", os.environ.get("TILEHOST_TURN_HOURS"), 24) or 24
    if not 1 <= turn_hours <= 168:
        raise ConfigError(f"TILEHOST_TURN_HOURS must be between 1 and 168, not {turn_hours}.")
    return Settings(
        token=token,
        dev_guild_id=_int("DEV_GUILD_ID", os.environ.get("DEV_GUILD_ID"), None),
        db_path=os.environ.get("TILEHOST_DB", "").strip() or DEFAULT_DB,
        turn_hours=turn_hours,
        log_level=(os.environ.get("LOG_LEVEL", "INFO").strip() or "INFO").upper(),
    )
