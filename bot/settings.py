"""Configuration from the environment (and a `.env` file beside the project)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from bot.limits import Rate
from bot.shards import ShardError, Shards, parse_ids
from games.ai import DEFAULT_SECONDS, Budget
from games.ai.budget import MAX_SCALE

DEFAULT_DB = "data/tilehost.db"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_RATE_USER = Rate(12, 60)
"""Each user: 12 boards (or hints, or replays) at once, then one more every 5 seconds (a whole
solitaire can be finished with hints, a flood of boards cannot)."""
DEFAULT_RATE_CHANNEL = Rate(40, 20)
"""Each channel: 40 of a kind at once, then two more a second."""


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to set and where."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str
    dev_guild_id: int | None = None
    db_path: str = DEFAULT_DB
    """The database: a SQLite file path, or a ``postgresql://`` URL."""
    turn_hours: int = 24
    computer_seconds: float = DEFAULT_SECONDS
    """The most seconds a ``hard`` computer player (and a hint) may spend on one move: a cap
    for a very busy machine (the strength is in playouts, ``computer_effort``)."""
    computer_effort: float = 1.0
    """How many search playouts a ``hard`` decision makes, as a multiple of each game's own
    number (1: at most about 2 s a move on a 2-core machine)."""
    computer_iterations: int | None = None
    """Instead, a fixed number of search playouts per decision, with no time cap (tests)."""
    log_level: str = "INFO"
    shard_count: int | None = None
    """How many Discord shards the bot has in all (None: not set)."""
    shard_ids: frozenset[int] | None = None
    """The shards this process runs (None: every shard)."""
    autoshard: bool = False
    """Let discord.py choose the number of shards and run them all in this process (what
    ``python -m bot`` does when no shard is set). False with no shard count: one unsharded
    connection, as tests build the bot."""

    rate_user: Rate | None = None
    """How many boards, hints or replays (each kind counted apart) one user may ask for (None:
    no limit, as tests build the bot on SimCord's still clock; the environment's settings,
    :func:`load_settings`, always have one: ``DEFAULT_RATE_USER`` unless set)."""
    rate_channel: Rate | None = None
    """How many of a kind one channel may ask for, all its users together (None: no limit;
    ``DEFAULT_RATE_CHANNEL`` from the environment unless set)."""

    @property
    def sharded(self) -> bool:
        """True when the bot connects with discord.py's sharded client."""
        return self.autoshard or self.shard_count is not None

    @property
    def shards(self) -> Shards | None:
        """The shards whose games this process drives, or None when it drives every game."""
        if self.shard_count is None:
            return None
        shards = Shards(self.shard_ids or frozenset(range(self.shard_count)), self.shard_count)
        return None if shards.covers_all else shards

    @property
    def computer_budget(self) -> Budget:
        """What a ``hard`` computer (and a hint) may spend on one decision."""
        if self.computer_iterations is not None:
            return Budget(playouts=self.computer_iterations, seconds=None)
        return Budget(seconds=self.computer_seconds, scale=self.computer_effort)

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


def _effort(name: str, value: str | None) -> float:
    if value is None or not value.strip():
        return 1.0
    try:
        effort = float(value)
    except ValueError:
        shown = value.strip()[:20]
        raise ConfigError(f"{name} must be a number (1 is each game's default), not {shown!r}.") from None
    if not 0.1 <= effort <= MAX_SCALE:
        raise ConfigError(
            f"{name} must be between 0.1 and {MAX_SCALE:g} (1 is each game's default), not {effort:g}."
        )
    return effort


def _seconds(name: str, value: str | None, default: float = DEFAULT_SECONDS) -> float:
    if value is None or not value.strip():
        return default
    try:
        seconds = float(value)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {value.strip()[:20]!r}.") from None
    if not 0.1 <= seconds <= 30:
        raise ConfigError(f"{name} must be between 0.1 and 30 seconds, not {seconds:g}.")
    return seconds


def _rate(name: str, value: str | None, default: Rate) -> Rate:
    if value is None or not value.strip():
        return default
    try:
        return Rate.parse(value)
    except ValueError:
        raise ConfigError(
            f"{name} must be REQUESTS/SECONDS, like {default} ({default.burst} per {default.period:g} s), "
            f"not {value!r} (check your .env)."
        ) from None


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
    computer_seconds = _seconds("TILEHOST_COMPUTER_SECONDS", os.environ.get("TILEHOST_COMPUTER_SECONDS"))
    computer_effort = _effort("TILEHOST_COMPUTER_EFFORT", os.environ.get("TILEHOST_COMPUTER_EFFORT"))
    shard_count, shard_ids = _shards(
        os.environ.get("TILEHOST_SHARD_COUNT"), os.environ.get("TILEHOST_SHARDS")
    )
    return Settings(
        token=token,
        dev_guild_id=_int("DEV_GUILD_ID", os.environ.get("DEV_GUILD_ID"), None),
        db_path=_database(os.environ.get("TILEHOST_DB", "")),
        turn_hours=turn_hours,
        computer_seconds=computer_seconds,
        computer_effort=computer_effort,
        log_level=(os.environ.get("LOG_LEVEL", "INFO").strip() or "INFO").upper(),
        shard_count=shard_count,
        shard_ids=shard_ids,
        autoshard=shard_count is None,
        rate_user=_rate("TILEHOST_RATE_USER", os.environ.get("TILEHOST_RATE_USER"), DEFAULT_RATE_USER),
        rate_channel=_rate(
            "TILEHOST_RATE_CHANNEL", os.environ.get("TILEHOST_RATE_CHANNEL"), DEFAULT_RATE_CHANNEL
        ),
    )


def is_postgres(database: str) -> bool:
    """True when the database setting names a PostgreSQL server rather than a SQLite file."""
    return database.startswith(POSTGRES_SCHEMES)


def _database(value: str) -> str:
    database = value.strip() or DEFAULT_DB
    if "://" in database and not is_postgres(database):
        raise ConfigError(
            f"TILEHOST_DB must be a SQLite file path (like {DEFAULT_DB}) or a postgresql:// URL, "
            f"not {database.split('://')[0]}://..."
        )
    return database


def _shards(count_text: str | None, ids_text: str | None) -> tuple[int | None, frozenset[int] | None]:
    """``(shard_count, shard_ids)`` from TILEHOST_SHARD_COUNT and TILEHOST_SHARDS."""
    count = _int("TILEHOST_SHARD_COUNT", count_text, None)
    ids_text = (ids_text or "").strip()
    if count is None:
        if ids_text:
            raise ConfigError(
                "TILEHOST_SHARDS is set but TILEHOST_SHARD_COUNT is not: say how many shards the bot "
                "has in all (for example TILEHOST_SHARD_COUNT=16 with TILEHOST_SHARDS=0-3)."
            )
        return None, None
    try:
        ids = parse_ids(ids_text) if ids_text else None
        Shards(ids or frozenset(range(max(count, 1))), count)
    except ShardError as error:
        raise ConfigError(f"TILEHOST_SHARDS / TILEHOST_SHARD_COUNT: {error}.") from None
    return count, ids
