"""Fixtures shared by the end-to-end tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.client import TilehostBot
from tests.e2e.helpers import build_bot


@pytest.fixture
def seed() -> list[int]:
    """The seed of the next game (a test may change it before ``/<game> new``)."""
    return [1000]


@pytest.fixture
def simcord_bot(
    request: pytest.FixtureRequest, db_path: str, seed: list[int], make_bot: Callable[..., TilehostBot]
) -> TilehostBot:
    """The bot a test module plays with: the cogs its ``EXTENSIONS`` name, every game on the
    seed in :func:`seed`; without ``EXTENSIONS``, the shared test bot (:func:`make_bot`)."""
    extensions = getattr(request.module, "EXTENSIONS", None)
    if extensions is None:
        return make_bot()
    return build_bot(db_path, extensions, seed)
