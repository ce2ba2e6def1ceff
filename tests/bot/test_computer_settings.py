"""The computer players' settings: the effort (a multiple of each game's playouts) and the time
cap, checked as the environment gives them."""

from __future__ import annotations

import pytest

from bot.settings import ConfigError, Settings, load_settings
from games.ai import DEFAULT_SECONDS, Budget

NAMES = ("TILEHOST_COMPUTER_SECONDS", "TILEHOST_COMPUTER_EFFORT")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return monkeypatch


def test_the_defaults_are_each_games_playouts_with_a_cap(env: pytest.MonkeyPatch) -> None:
    settings = load_settings(None, require_token=False)
    assert settings.computer_budget == Budget(seconds=DEFAULT_SECONDS, scale=1.0)
    assert settings.computer_budget.playouts_for(600) == 600


def test_effort_and_cap_from_the_environment(env: pytest.MonkeyPatch) -> None:
    env.setenv("TILEHOST_COMPUTER_EFFORT", "0.5")
    env.setenv("TILEHOST_COMPUTER_SECONDS", "4")
    budget = load_settings(None, require_token=False).computer_budget
    assert budget.seconds == 4 and budget.playouts_for(600) == 300


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("TILEHOST_COMPUTER_EFFORT", "lots", "EFFORT='lots' is not allowed: a number from 0.1 to 10"),
        ("TILEHOST_COMPUTER_EFFORT", "0", "EFFORT='0' is not allowed: a number from 0.1 to 10"),
        ("TILEHOST_COMPUTER_EFFORT", "11", "EFFORT='11' is not allowed: a number from 0.1 to 10"),
        ("TILEHOST_COMPUTER_SECONDS", "0", "SECONDS='0' is not allowed: a number of seconds from 0.1 to 30"),
    ],
)
def test_wrong_values_say_what_to_set(env: pytest.MonkeyPatch, name: str, value: str, message: str) -> None:
    env.setenv(name, value)
    with pytest.raises(ConfigError, match=message):
        load_settings(None, require_token=False)


def test_tests_fix_the_playouts_without_a_cap() -> None:
    budget = Settings(token="t", computer_iterations=6).computer_budget
    assert budget == Budget(playouts=6, seconds=None)
