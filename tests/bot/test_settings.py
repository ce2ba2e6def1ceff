"""Every setting is checked (one line per bad setting: the setting, its value, what is allowed),
secrets are never shown, and which games a process's shards own."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import workers
from bot.client import ShardedTilehostBot, TilehostBot, create_bot
from bot.limits import Rate
from bot.settings import (
    DEFAULT_RATE_CHANNEL,
    DEFAULT_RATE_USER,
    SETTING_NAMES,
    ConfigError,
    RedactingFormatter,
    Settings,
    load_settings,
    mask,
    redact,
    token_application_id,
)
from bot.shards import ShardError, Shards, parse_ids, shard_of
from tests.support.tokens import APPLICATION_ID, TOKEN


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    return monkeypatch


def refused(env: pytest.MonkeyPatch, **values: str) -> list[str]:
    """The lines of the error that these settings give."""
    for name, value in values.items():
        env.setenv(name, value)
    with pytest.raises(ConfigError) as raised:
        load_settings(None)
    return str(raised.value).splitlines()


def test_defaults_are_sqlite_and_automatic_sharding(env: pytest.MonkeyPatch) -> None:
    settings = load_settings(None)
    assert settings.db_path == "data/tilehost.db"
    assert settings.autoshard and settings.sharded and settings.shards is None
    assert type(create_bot(settings)) is ShardedTilehostBot
    assert type(create_bot(Settings(token="t"))) is TilehostBot  # as tests build it: unsharded


def test_rate_limits(env: pytest.MonkeyPatch) -> None:
    settings = load_settings(None)
    assert (settings.rate_user, settings.rate_channel) == (DEFAULT_RATE_USER, DEFAULT_RATE_CHANNEL)
    assert Settings(token="t").rate_user is None, "a bot built in code (tests) has no limits"
    env.setenv("TILEHOST_RATE_USER", "3/9")
    env.setenv("TILEHOST_RATE_CHANNEL", "30/15")
    settings = load_settings(None)
    assert (settings.rate_user, settings.rate_channel) == (Rate(3, 9), Rate(30, 15))
    assert refused(env, TILEHOST_RATE_USER="fast") == [
        "TILEHOST_RATE_USER='fast' is not allowed: REQUESTS/SECONDS, like 12/60 (1 to 10000 requests, per at "
        "most 86400 seconds)."
    ]


def test_postgresql_url(env: pytest.MonkeyPatch) -> None:
    env.setenv("TILEHOST_DB", " postgresql://bot:secret@db.example/tilehost ")
    assert load_settings(None).db_path == "postgresql://bot:secret@db.example/tilehost"
    assert refused(env, TILEHOST_DB="mysql://db/tilehost") == [
        "TILEHOST_DB='mysql://db/tilehost' is not allowed: a SQLite file path, or "
        "postgresql://user:password@host/database."
    ]
    [line] = refused(env, TILEHOST_DB="postgresql://bot:secret@/tilehost")
    assert "needs a server" in line and "secret" not in line and "bot:***@" in line


def test_each_bad_setting_is_one_line_naming_the_setting_the_value_and_what_is_allowed(
    env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lines = refused(
        env,
        LOG_LEVEL="verbose",
        TILEHOST_TURN_HOURS="200",
        TILEHOST_COMPUTER_SECONDS="fast",
        DEV_GUILD_ID="my server",
        TILEHOST_LOCAL_PORT="80000",
        TILEHOST_NO_BROWSER="maybe",
        TILEHOST_LOCAL_HOST="my.laptop",
        TILEHOST_OWNER_IDS="ann",
        TILEHOST_DB=str(tmp_path),
    )
    assert lines == [
        "TILEHOST_TURN_HOURS='200' is not allowed: a whole number of hours from 0 to 168; 0: no turn clock.",
        "TILEHOST_LOCAL_PORT='80000' is not allowed: a port number from 1 to 65535.",
        "DEV_GUILD_ID='my server' is not allowed: a server id (a number like 123456789012345678).",
        f"TILEHOST_DB={str(tmp_path)!r} is not allowed: it is a folder; name the database file in it "
        "(like data/tilehost.db).",
        "TILEHOST_COMPUTER_SECONDS='fast' is not allowed: a number of seconds from 0.1 to 30.",
        "LOG_LEVEL='verbose' is not allowed: DEBUG, INFO, WARNING, ERROR.",
        "TILEHOST_OWNER_IDS='ann' is not allowed: Discord user ids separated by commas.",
        "TILEHOST_LOCAL_HOST='my.laptop' is not allowed: an IP address to listen on: 127.0.0.1 (this machine "
        "only), or 0.0.0.0 in a container.",
        "TILEHOST_NO_BROWSER='maybe' is not allowed: 1 or 0 (also true/false, yes/no, on/off).",
    ]


def test_zero_turn_hours_means_no_clock(env: pytest.MonkeyPatch) -> None:
    assert load_settings(None).turn_seconds == 24 * 3600
    env.setenv("TILEHOST_TURN_HOURS", "0")
    assert load_settings(None).turn_seconds == 0, "0 is no clock (as clock_hours:0 in a lobby), not 24"
    env.setenv("TILEHOST_TURN_HOURS", "168")
    assert load_settings(None).turn_hours == 168
    assert refused(env, TILEHOST_TURN_HOURS="-1")[0].startswith("TILEHOST_TURN_HOURS='-1' is not allowed")


def test_levels_flags_owners_and_the_local_page(env: pytest.MonkeyPatch) -> None:
    env.setenv("LOG_LEVEL", "warning")
    env.setenv("TILEHOST_NO_BROWSER", "yes")
    env.setenv("TILEHOST_OWNER_IDS", "11, 22")
    settings = load_settings(None)
    assert settings.log_level == "WARNING" and not settings.open_browser
    assert settings.owner_ids == frozenset({11, 22})
    assert settings.command_sync == "changed", "python -m bot syncs only when the commands changed"
    assert (settings.local_host, settings.local_port, settings.local_db) == ("127.0.0.1", 0, "data/local.db")
    [line] = refused(env, TILEHOST_LOCAL_HOST="0.0.0.0")
    assert "needs TILEHOST_LOCAL_PORT" in line
    env.setenv("TILEHOST_LOCAL_PORT", "8765")
    settings = load_settings(None)
    assert (settings.local_host, settings.local_port) == ("0.0.0.0", 8765)


def test_the_token_is_checked_and_never_shown(env: pytest.MonkeyPatch) -> None:
    assert token_application_id(load_settings(None).token) == APPLICATION_ID
    for wrong in ("0123456789abcdef0123456789abcdef", "1234567890123456789", f"Bot {TOKEN}"):
        [line] = refused(env, DISCORD_TOKEN=wrong)
        assert line.startswith(f"DISCORD_TOKEN=<{len(wrong)} characters, not shown> is not allowed: ")
        assert wrong not in line and "1234567890" not in line
    env.delenv("DISCORD_TOKEN")
    assert load_settings(None, require_token=False).token == ""
    assert "Reset Token" in refused(env)[0]


def test_env_file_fills_in_what_the_environment_leaves(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("TILEHOST_TURN_HOURS=5\nLOG_LEVEL=ERROR\n", encoding="utf-8")
    env.setenv("LOG_LEVEL", "DEBUG")
    settings = load_settings(dotenv)
    assert (settings.turn_hours, settings.log_level) == (5, "DEBUG"), "the environment wins over .env"
    import os

    assert "TILEHOST_TURN_HOURS" not in os.environ, "reading .env changes nothing in the environment"


def test_passwords_in_urls_are_masked_everywhere() -> None:
    assert mask("postgresql://bot:s3cr%40t@db.example:5432/tilehost?sslmode=require") == (
        "postgresql://bot:***@db.example:5432/tilehost?sslmode=require"
    )
    assert (
        mask("could not reach postgres://u:pw@h/db: refused")
        == "could not reach postgres://u:***@h/db: refused"
    )
    assert mask("postgresql://h/db?user=u&password=pw&sslmode=require") == (
        "postgresql://h/db?user=u&password=***&sslmode=require"
    )
    assert mask("data/tilehost.db") == "data/tilehost.db"
    assert redact(f"token {TOKEN} postgresql://a:b@c/d", [TOKEN]) == "token *** postgresql://a:***@c/d"
    settings = Settings(token=TOKEN, db_path="postgresql://bot:secret@db/tilehost")
    assert TOKEN not in repr(settings) and "secret" not in repr(settings) and "bot:***@db" in repr(settings)


def test_logs_never_carry_a_password_or_the_token() -> None:
    formatter = RedactingFormatter("%(message)s", secrets=[TOKEN])
    try:
        raise OSError("connect to postgresql://bot:secret@db/tilehost failed")
    except OSError as error:
        record = logging.LogRecord(
            "bot", logging.ERROR, __file__, 1, "with %s", (TOKEN,), (OSError, error, None)
        )
    text = formatter.format(record)
    assert "secret" not in text and TOKEN not in text and "bot:***@db" in text and "OSError" in text


def test_shards_of_one_process(env: pytest.MonkeyPatch) -> None:
    env.setenv("TILEHOST_SHARD_COUNT", "16")
    env.setenv("TILEHOST_SHARDS", "0-3")
    settings = load_settings(None)
    assert (settings.shard_count, settings.shard_ids, settings.autoshard) == (16, frozenset(range(4)), False)
    assert settings.shards == Shards(frozenset(range(4)), 16)
    bot = create_bot(settings)
    assert isinstance(bot, ShardedTilehostBot) and bot.shard_count == 16 and bot.shard_ids == [0, 1, 2, 3]


def test_every_shard_in_one_process_drives_every_game(env: pytest.MonkeyPatch) -> None:
    env.setenv("TILEHOST_SHARD_COUNT", "4")
    settings = load_settings(None)
    assert settings.shards is None and settings.sharded and not settings.autoshard


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        (None, "0-3", "TILEHOST_SHARD_COUNT is not set"),
        ("4", "2-9", "shard 4 does not exist"),
        ("4", "3-1", "counts down"),
        ("4", "a", "like 0-3"),
        ("0", "", "TILEHOST_SHARD_COUNT='0' is not allowed: a whole number of shards, at least 1"),
        ("many", "", "TILEHOST_SHARD_COUNT='many' is not allowed"),
    ],
)
def test_bad_shard_settings(env: pytest.MonkeyPatch, count: str | None, ids: str, message: str) -> None:
    if count is not None:
        env.setenv("TILEHOST_SHARD_COUNT", count)
    env.setenv("TILEHOST_SHARDS", ids)
    with pytest.raises(ConfigError, match=message):
        load_settings(None)


def test_shard_of_a_server() -> None:
    assert shard_of(None, 16) == 0
    assert shard_of(81384788765712384, 16) == (81384788765712384 >> 22) % 16
    assert [shard_of(n << 22, 3) for n in range(5)] == [0, 1, 2, 0, 1]
    shards = Shards(frozenset({0, 2}), 3)
    assert shards.owns(None) and shards.owns(2 << 22) and not shards.owns(1 << 22)
    assert not shards.covers_all and Shards.all(3).covers_all


def test_shard_lists() -> None:
    assert parse_ids("0-3, 8,10-11") == frozenset({0, 1, 2, 3, 8, 10, 11})
    with pytest.raises(ShardError):
        Shards(frozenset(), 4)


def test_the_long_lanes_niceness_reaches_its_workers(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert load_settings(None).long_nice == 10
    dotenv = tmp_path / ".env"
    dotenv.write_text("TILEHOST_LONG_NICE=3\n", encoding="utf-8")
    settings = load_settings(dotenv)
    assert settings.long_nice == 3, "a value in .env counts, as every other setting's does"
    env.setattr(workers, "_long_nice", workers._long_nice)  # put back after the test
    create_bot(settings)
    assert workers._long_nice == 3
    assert refused(env, TILEHOST_LONG_NICE="20") == [
        "TILEHOST_LONG_NICE='20' is not allowed: a whole number from 0 to 19."
    ]
