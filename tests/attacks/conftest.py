"""Fixtures of the attack tests: the real bot with every game, on a SQLite file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.client import TilehostBot, create_bot
from bot.settings import Settings
from tests.e2e.helpers import TEST_PLAYOUTS

ALL_GAMES = (
    "cogs.lobby",
    "cogs.standings",
    "cogs.triominos",
    "cogs.geominos",
    "cogs.geronimos",
    "cogs.puzzominos",
    "cogs.tileup",
    "tests.support.tiny.cog",
)


@pytest.fixture
def seed() -> list[int]:
    """The seed of the next game (a test may change it before ``/<game> new``)."""
    return [1000]


@pytest.fixture
def make_bot(db_path: str, seed: list[int]) -> Callable[..., TilehostBot]:
    """Build the real bot on the test database (call again to restart on the same data);
    keyword arguments change its settings. A hard decision costs playouts, not seconds."""

    def build(**changes: Any) -> TilehostBot:
        base = Settings(token="test-token", db_path=db_path, turn_hours=24, computer_iterations=TEST_PLAYOUTS)
        settings = replace(base, **changes)
        return create_bot(settings, extensions=ALL_GAMES, seed_source=lambda: seed[0])

    return build


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot()
