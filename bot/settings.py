"""Configuration from the environment (and a `.env` file in the working folder).

Every setting is checked when it is read: a value that makes no sense stops the bot at once with
one line per bad setting, naming the setting, the value it has and what is allowed (exit code
2). Secrets are never shown: the token never, a database password masked (``***``) wherever a
URL is printed or logged (:func:`mask`, :class:`RedactingFormatter`).

Plain code rather than a settings library: the settings are a few strings, each needs its own
message in words an admin can act on, and the runtime install stays lean (pydantic-settings
would bring pydantic and its compiled core for fifteen environment variables).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from bot.lanes import LONG_NICE
from bot.limits import Rate
from bot.shards import ShardError, Shards, parse_ids
from games.ai import DEFAULT_SECONDS, Budget
from games.ai.budget import MAX_SCALE

DEFAULT_DB = "data/tilehost.db"
LOCAL_DB = "data/local.db"
"""Local mode's database: never the real server's ``TILEHOST_DB``."""
LOCAL_HOST = "127.0.0.1"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_RATE_USER = Rate(12, 60)
"""Each user: 12 boards (or hints, or replays) at once, then one more every 5 seconds (a whole
solitaire can be finished with hints, a flood of boards cannot)."""
DEFAULT_RATE_CHANNEL = Rate(40, 20)
"""Each channel: 40 of a kind at once, then two more a second."""
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
MAX_TURN_HOURS = 168
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})

CommandSync = Literal["always", "changed", "never"]
"""When the bot syncs its slash commands at start: ``always`` (a simulated Discord, new at every
start: tests and local mode), ``changed`` (only when they differ from the last sync this
database recorded: ``python -m bot``), ``never`` (``python -m bot sync`` does it)."""


class ConfigError(Exception):
    """One or more settings are missing or malformed; the message has one line per setting."""


@dataclass(frozen=True)
class Setting:
    """One environment variable: what it is for and what it accepts (the docs list them all)."""

    name: str
    default: str
    allowed: str
    meaning: str


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "DISCORD_TOKEN",
        "unset: local mode",
        "the bot token from the Developer Portal (three parts separated by dots)",
        "the bot's password: with it the bot connects to Discord; without it `python -m bot` starts "
        "local mode",
    ),
    Setting(
        "DEV_GUILD_ID",
        "unset",
        "a server id (a number like 123456789012345678)",
        "a server where commands are synced at once (for development); otherwise they are global",
    ),
    Setting(
        "TILEHOST_DB",
        DEFAULT_DB,
        "a SQLite file path, or postgresql://user:password@host/database",
        "the database",
    ),
    Setting(
        "TILEHOST_TURN_HOURS",
        "24",
        f"a whole number of hours from 0 to {MAX_TURN_HOURS}; 0: no turn clock",
        "the default time a player has for a move in async games (a lobby's `clock_hours` changes it "
        "for one game, a server's `/tilehost clock` for its games)",
    ),
    Setting(
        "TILEHOST_COMPUTER_EFFORT",
        "1",
        f"a number from 0.1 to {MAX_SCALE:g} (1: each game's default)",
        "how many search playouts a `hard` computer player (and a hint) makes for one move, as a "
        "multiple of each game's own number (1: at most about 2 s a move on a 2-core machine); see "
        "docs/computer-players.md",
    ),
    Setting(
        "TILEHOST_COMPUTER_SECONDS",
        f"{DEFAULT_SECONDS:g}",
        "a number of seconds from 0.1 to 30",
        "the most a `hard` computer player (and a hint) may think about one move: a cap for a very "
        "busy machine (its strength is in playouts, TILEHOST_COMPUTER_EFFORT)",
    ),
    Setting(
        "TILEHOST_LONG_NICE",
        str(LONG_NICE),
        "a whole number from 0 to 19",
        "the CPU niceness of the worker processes that run long work (computer moves, hints, "
        "reviews, replays): 10 leaves the cores to boards and the bot's own work when both want them; "
        "0 where other programs on the machine must not starve it",
    ),
    Setting(
        "TILEHOST_RATE_USER",
        str(DEFAULT_RATE_USER),
        "REQUESTS/SECONDS, like 12/60 (1 to 10000 requests, per at most 86400 seconds)",
        "how many boards, hints or replays one user may ask for (each kind counted apart)",
    ),
    Setting(
        "TILEHOST_RATE_CHANNEL",
        str(DEFAULT_RATE_CHANNEL),
        "REQUESTS/SECONDS, like 40/20",
        "the same for one channel, all its users together",
    ),
    Setting(
        "TILEHOST_SHARD_COUNT",
        "unset: discord.py picks",
        "a whole number of shards, at least 1, the same in every process",
        "how many Discord shards the bot has in all",
    ),
    Setting(
        "TILEHOST_SHARDS",
        "every shard",
        "shard ids like 0-3 or 0,2,5 (needs TILEHOST_SHARD_COUNT)",
        "the shards this process runs",
    ),
    Setting("LOG_LEVEL", "INFO", ", ".join(LOG_LEVELS), "how much the bot logs"),
    Setting(
        "TILEHOST_OWNER_IDS",
        "unset",
        "Discord user ids separated by commas",
        "who may use `/tilehost sync` besides the application's owner (or its team)",
    ),
    Setting(
        "TILEHOST_HEALTH_FILE",
        "unset",
        "a file path",
        "a file the running bot touches every 30 s while it is connected; `python -m bot check --alive` "
        "reads it (the container's health check)",
    ),
    Setting(
        "TILEHOST_LOCAL_DB",
        LOCAL_DB,
        "a SQLite file path, or a postgresql:// URL",
        "local mode's database (local mode never uses TILEHOST_DB)",
    ),
    Setting(
        "TILEHOST_LOCAL_HOST",
        LOCAL_HOST,
        "an IP address to listen on: 127.0.0.1 (this machine only), or 0.0.0.0 in a container",
        "where local mode's page listens",
    ),
    Setting(
        "TILEHOST_LOCAL_PORT",
        "unset: any free port",
        "a port number from 1 to 65535",
        "local mode's page port",
    ),
    Setting(
        "TILEHOST_NO_BROWSER",
        "unset",
        "1 or 0 (also true/false, yes/no, on/off)",
        "1: local mode prints its address but opens no browser (also when CI is set, or with no desktop)",
    ),
)
SETTING_NAMES = frozenset(setting.name for setting in SETTINGS)
_ALLOWED = {setting.name: setting.allowed for setting in SETTINGS}


@dataclass(frozen=True, repr=False)
class Settings:
    """Everything the bot reads from its environment."""

    token: str
    dev_guild_id: int | None = None
    db_path: str = DEFAULT_DB
    """The database: a SQLite file path, or a ``postgresql://`` URL."""
    turn_hours: int = 24
    """The default turn clock in hours; 0: no clock."""
    computer_seconds: float = DEFAULT_SECONDS
    """The most seconds a ``hard`` computer player (and a hint) may spend on one move: a cap
    for a very busy machine (the strength is in playouts, ``computer_effort``)."""
    computer_effort: float = 1.0
    """How many search playouts a ``hard`` decision makes, as a multiple of each game's own
    number (1: at most about 2 s a move on a 2-core machine)."""
    long_nice: int = LONG_NICE
    """The niceness of the long lane's worker processes (0-19)."""
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

    command_sync: CommandSync = "always"
    """When the slash commands are synced at start (see :data:`CommandSync`): a bot built in
    code (tests) is on a new simulated Discord each time; ``python -m bot`` syncs on change."""
    owner_ids: frozenset[int] = frozenset()
    """Who may use ``/tilehost sync`` besides the application's owner or team."""
    health_file: str | None = None
    """A file the running bot touches while connected (the container's health check)."""

    local_db: str = LOCAL_DB
    local_host: str = LOCAL_HOST
    local_port: int = 0
    """Local mode's page port (0: any free port)."""
    open_browser: bool = True
    """Local mode opens its page in a browser where there is a desktop (TILEHOST_NO_BROWSER)."""

    def __repr__(self) -> str:
        shown = []
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == "token":
                value = "<set>" if value else ""
            elif isinstance(value, str):
                value = mask(value)
            shown.append(f"{field.name}={value!r}")
        return f"Settings({', '.join(shown)})"

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
    def runs_shard_zero(self) -> bool:
        """True when this process runs shard 0 (or is not split into shards): the one process of
        an instance that syncs the slash commands."""
        return self.shard_ids is None or 0 in self.shard_ids

    @property
    def computer_budget(self) -> Budget:
        """What a ``hard`` computer (and a hint) may spend on one decision."""
        if self.computer_iterations is not None:
            return Budget(playouts=self.computer_iterations, seconds=None)
        return Budget(seconds=self.computer_seconds, scale=self.computer_effort)

    @property
    def turn_seconds(self) -> int:
        """The default async turn clock in seconds (0: no clock)."""
        return self.turn_hours * 3600


# -- secrets -----------------------------------------------------------------------------------

_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)(?P<password>[^@\s/]*)(?=@)")
_QUERY_PASSWORD = re.compile(r"(?P<head>[?&]password=)(?P<password>[^&\s]*)", re.IGNORECASE)


def mask(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***``
    (``postgresql://bot:secret@db/tilehost`` -> ``postgresql://bot:***@db/tilehost``)."""
    text = _URL_PASSWORD.sub(lambda match: match["head"] + "***", text)
    return _QUERY_PASSWORD.sub(lambda match: match["head"] + "***", text)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """:func:`mask`, and every secret in ``secrets`` (the token) replaced by ``***``."""
    for secret in secrets:
        if len(secret) >= 8:
            text = text.replace(secret, "***")
    return mask(text)


class RedactingFormatter(logging.Formatter):
    """A log formatter that never writes a secret: URL passwords and the token become ``***``,
    in messages and tracebacks alike (a library may put a connection URL in its error)."""

    def __init__(self, fmt: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        self.secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)


LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the settings' level, through :class:`RedactingFormatter` (unless logging
    was set up already, as pytest does)."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(RedactingFormatter(LOG_FORMAT, secrets=(settings.token,)))
        root.addHandler(handler)
    root.setLevel(settings.log_level)


# -- reading -----------------------------------------------------------------------------------


class _Problems:
    """Collects one line per bad setting."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def refuse(self, name: str, value: str, why: str | None = None) -> None:
        shown = _shown(name, value)
        self.lines.append(f"{name}={shown} is not allowed: {why or _ALLOWED[name]}.")

    def raise_if_any(self) -> None:
        if self.lines:
            raise ConfigError("\n".join(self.lines))


def _shown(name: str, value: str) -> str:
    if name == "DISCORD_TOKEN":
        return f"<{len(value)} characters, not shown>"
    text = mask(value.strip())
    return repr(text if len(text) <= 120 else text[:117] + "...")


def _whole(problems: _Problems, env: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    text = env.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        problems.refuse(name, text)
        return None
    if not low <= value <= high:
        problems.refuse(name, text)
        return None
    return value


def _flag(problems: _Problems, env: Mapping[str, str], name: str) -> bool:
    text = env.get(name, "").strip().lower()
    if text in TRUE_WORDS:
        return True
    if text not in FALSE_WORDS:
        problems.refuse(name, text)
    return False


def token_application_id(token: str) -> int | None:
    """The bot's user id written in the first part of its token (for a bot, its application's
    id), or None when the token does not have that shape."""
    first = token.split(".")[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() else None


def _token(problems: _Problems, env: Mapping[str, str]) -> str:
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        return ""
    if token.lower().startswith("bot "):
        problems.refuse("DISCORD_TOKEN", token, "write the token alone, without 'Bot ' before it")
    elif not re.fullmatch(r"[\w-]+\.[\w-]+\.[\w-]+", token) or token_application_id(token) is None:
        problems.refuse(
            "DISCORD_TOKEN",
            token,
            "it is not a bot token (three parts separated by dots): copy it from the Developer Portal, "
            "your app -> Bot -> Reset Token (the application id, public key and client secret are "
            "other things)",
        )
    return token


def _database(problems: _Problems, env: Mapping[str, str], name: str, default: str) -> str:
    database = env.get(name, "").strip() or default
    if is_postgres(database):
        try:
            parts = urlsplit(database)
            parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
        except ValueError as error:
            problems.refuse(name, database, f"a malformed postgresql:// URL ({error})")
            return database
        if not (parts.hostname or "host=" in parts.query):
            problems.refuse(
                name, database, "a postgresql:// URL needs a server: postgresql://user:password@host/database"
            )
    elif "://" in database:
        problems.refuse(name, database)
    elif Path(database).is_dir():
        problems.refuse(
            name, database, "it is a folder; name the database file in it (like data/tilehost.db)"
        )
    return database


def _rate(problems: _Problems, env: Mapping[str, str], name: str, default: Rate) -> Rate:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return Rate.parse(text)
    except ValueError:
        problems.refuse(name, text)
        return default


def _effort(problems: _Problems, env: Mapping[str, str]) -> float:
    name = "TILEHOST_COMPUTER_EFFORT"
    text = env.get(name, "").strip()
    if not text:
        return 1.0
    try:
        effort = float(text)
    except ValueError:
        problems.refuse(name, text)
        return 1.0
    if not 0.1 <= effort <= MAX_SCALE:
        problems.refuse(name, text)
        return 1.0
    return effort


def _seconds(problems: _Problems, env: Mapping[str, str], name: str, default: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        problems.refuse(name, text)
        return default
    if not 0.1 <= seconds <= 30:
        problems.refuse(name, text)
        return default
    return seconds


def _log_level(problems: _Problems, env: Mapping[str, str]) -> str:
    text = env.get("LOG_LEVEL", "").strip()
    level = text.upper() or "INFO"
    if level not in LOG_LEVELS:
        problems.refuse("LOG_LEVEL", text)
        return "INFO"
    return level


def _ids(problems: _Problems, env: Mapping[str, str], name: str) -> frozenset[int]:
    text = env.get(name, "").strip()
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not all(part.isdigit() and 0 < int(part) < 1 << 64 for part in parts):
        problems.refuse(name, text)
        return frozenset()
    return frozenset(int(part) for part in parts)


def _host(problems: _Problems, env: Mapping[str, str]) -> str:
    text = env.get("TILEHOST_LOCAL_HOST", "").strip()
    if not text:
        return LOCAL_HOST
    if text == "localhost":
        return LOCAL_HOST
    try:
        ipaddress.ip_address(text)
    except ValueError:
        problems.refuse("TILEHOST_LOCAL_HOST", text)
        return LOCAL_HOST
    return text


def _shards(problems: _Problems, env: Mapping[str, str]) -> tuple[int | None, frozenset[int] | None]:
    """``(shard_count, shard_ids)`` from TILEHOST_SHARD_COUNT and TILEHOST_SHARDS."""
    count_text = env.get("TILEHOST_SHARD_COUNT", "").strip()
    ids_text = env.get("TILEHOST_SHARDS", "").strip()
    count = _whole(problems, env, "TILEHOST_SHARD_COUNT", 1, 100_000) if count_text else None
    if count is None:
        if ids_text and not count_text:
            problems.refuse(
                "TILEHOST_SHARDS",
                ids_text,
                "TILEHOST_SHARD_COUNT is not set: say how many shards the bot has in all (for example "
                "TILEHOST_SHARD_COUNT=16 with TILEHOST_SHARDS=0-3)",
            )
        return None, None
    try:
        ids = parse_ids(ids_text) if ids_text else None
        Shards(ids or frozenset(range(count)), count)
    except ShardError as error:
        problems.refuse("TILEHOST_SHARDS", ids_text, f"{error} (with TILEHOST_SHARD_COUNT={count})")
        return None, None
    return count, ids


def read_env_file(env_file: str | Path | None) -> dict[str, str]:
    """The environment, with ``env_file``'s values filling in what it does not set."""
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        from dotenv import dotenv_values

        values = {key: value for key, value in dotenv_values(env_file).items() if value is not None}
    return values | dict(os.environ)


def token_set(env_file: str | Path | None = ".env") -> bool:
    """True when a DISCORD_TOKEN is set (so ``python -m bot`` connects to Discord rather than
    starting local mode), whether or not the other settings are right."""
    return bool(read_env_file(env_file).get("DISCORD_TOKEN", "").strip())


def load_settings(env_file: str | Path | None = ".env", *, require_token: bool = True) -> Settings:
    """Read and check every setting; ``.env`` values fill in what the environment does not set.
    Raises :class:`ConfigError` with one line for each setting that is wrong."""
    env = read_env_file(env_file)
    problems = _Problems()
    token = _token(problems, env)
    if require_token and not token:
        problems.lines.append(
            "DISCORD_TOKEN is not set. Create a bot in the Discord Developer Portal "
            "(https://discord.com/developers/applications -> your app -> Bot -> Reset Token), then put "
            "DISCORD_TOKEN=<the token> in a file named .env in the project folder (copy .env.example), "
            "or export DISCORD_TOKEN in your shell. See docs/hosting.md, 'Create the Discord application'."
        )
    turn_hours = _whole(problems, env, "TILEHOST_TURN_HOURS", 0, MAX_TURN_HOURS)
    long_nice = _whole(problems, env, "TILEHOST_LONG_NICE", 0, 19)
    shard_count, shard_ids = _shards(problems, env)
    port = _whole(problems, env, "TILEHOST_LOCAL_PORT", 1, 65_535)
    health = env.get("TILEHOST_HEALTH_FILE", "").strip() or None
    settings = Settings(
        token=token,
        dev_guild_id=_whole(problems, env, "DEV_GUILD_ID", 1, (1 << 64) - 1),
        db_path=_database(problems, env, "TILEHOST_DB", DEFAULT_DB),
        turn_hours=24 if turn_hours is None else turn_hours,
        computer_seconds=_seconds(problems, env, "TILEHOST_COMPUTER_SECONDS", DEFAULT_SECONDS),
        computer_effort=_effort(problems, env),
        long_nice=LONG_NICE if long_nice is None else long_nice,
        log_level=_log_level(problems, env),
        shard_count=shard_count,
        shard_ids=shard_ids,
        autoshard=shard_count is None,
        rate_user=_rate(problems, env, "TILEHOST_RATE_USER", DEFAULT_RATE_USER),
        rate_channel=_rate(problems, env, "TILEHOST_RATE_CHANNEL", DEFAULT_RATE_CHANNEL),
        command_sync="changed",
        owner_ids=_ids(problems, env, "TILEHOST_OWNER_IDS"),
        health_file=health,
        local_db=_database(problems, env, "TILEHOST_LOCAL_DB", LOCAL_DB),
        local_host=_host(problems, env),
        local_port=port or 0,
        open_browser=not _flag(problems, env, "TILEHOST_NO_BROWSER"),
    )
    if settings.local_host != LOCAL_HOST and not settings.local_port:
        problems.refuse(
            "TILEHOST_LOCAL_HOST",
            settings.local_host,
            "listening beyond this machine needs TILEHOST_LOCAL_PORT too (the page answers only at the "
            "port it listens on, so the same port is published outside: 127.0.0.1:8765:8765)",
        )
    problems.raise_if_any()
    return settings


def is_postgres(database: str) -> bool:
    """True when the database setting names a PostgreSQL server rather than a SQLite file."""
    return database.startswith(POSTGRES_SCHEMES)
