"""Shared fixtures: a bot factory on a temporary database for SimCord tests."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from bot.client import TilehostBot, create_bot
from bot.settings import Settings

TEST_EXTENSIONS = ("cogs.lobby", "cogs.standings", "tests.support.tinycog")


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "tilehost.db")


@pytest.fixture
def make_bot(db_path: str) -> Callable[..., TilehostBot]:
    """Build a bot on the test database; call it again to 'restart' on the same data."""
    seeds = itertools.count(1000)

    def build(extensions: Sequence[str] = TEST_EXTENSIONS, turn_hours: int = 24) -> TilehostBot:
        settings = Settings(token="test-token", db_path=db_path, turn_hours=turn_hours)
        return create_bot(settings, extensions=extensions, seed_source=lambda: next(seeds))

    return build


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot()
