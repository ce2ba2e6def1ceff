"""The database and shard settings, and which games a process's shards own."""

from __future__ import annotations

import pytest

from bot.client import ShardedTilehostBot, TilehostBot, create_bot
from bot.limits import Rate
from bot.settings import DEFAULT_RATE_CHANNEL, DEFAULT_RATE_USER, ConfigError, Settings, load_settings
from bot.shards import ShardError, Shards, parse_ids, shard_of

SETTINGS = (
    "TILEHOST_DB",
    "TILEHOST_SHARDS",
    "TILEHOST_SHARD_COUNT",
    "TILEHOST_RATE_USER",
    "TILEHOST_RATE_CHANNEL",
)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    return monkeypatch


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
    env.setenv("TILEHOST_RATE_USER", "fast")
    with pytest.raises(ConfigError, match="TILEHOST_RATE_USER must be REQUESTS/SECONDS, like 12/60"):
        load_settings(None)


def test_postgresql_url(env: pytest.MonkeyPatch) -> None:
    env.setenv("TILEHOST_DB", " postgresql://bot:secret@db.example/tilehost ")
    assert load_settings(None).db_path == "postgresql://bot:secret@db.example/tilehost"
    env.setenv("TILEHOST_DB", "mysql://db/tilehost")
    with pytest.raises(ConfigError, match="postgresql://"):
        load_settings(None)


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
        (None, "0-3", "TILEHOST_SHARD_COUNT is not"),
        ("4", "2-9", "shard 4 does not exist"),
        ("4", "3-1", "counts down"),
        ("4", "a", "like 0-3"),
        ("0", "", "at least 1"),
        ("many", "", "whole number"),
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
