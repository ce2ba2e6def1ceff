"""Fixtures shared by the end-to-end tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def seed() -> list[int]:
    """The seed of the next game (a test may change it before ``/<game> new``)."""
    return [1000]
