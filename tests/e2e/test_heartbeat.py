"""The running bot's heartbeat (the container's health check, ``python -m bot check --alive``):
with ``TILEHOST_HEALTH_FILE`` set, the bot touches that file while it is connected and its event
loop answers, and removes it when it stops."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.settings import SETTING_NAMES
from tests.conftest import TEST_EXTENSIONS
from tests.e2e.helpers import build_bot

HEALTH = "alive"


@pytest.fixture
def simcord_bot(db_path: str, tmp_path: Path) -> Any:
    return build_bot(db_path, TEST_EXTENSIONS, [1000], health_file=str(tmp_path / HEALTH))


HANG_SECONDS = 120.0
"""How long :func:`appears` waits before the bot is called stuck: a guard, not a speed budget."""


def appears(path: Path, seconds: float = HANG_SECONDS) -> bool:
    """Wait (in a thread: the bot's loop keeps running) until ``path`` exists."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if path.exists():
            return True
        time.sleep(0.05)
    return False


async def test_the_bot_keeps_a_heartbeat_while_it_runs(
    simcord_env: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health = tmp_path / HEALTH
    assert await asyncio.to_thread(appears, health), "the bot writes its first heartbeat"
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TILEHOST_HEALTH_FILE", str(health))
    assert cli.main(["check", "--alive"]) == 0
    await simcord_env.bot.close()
    assert not health.exists(), "a stopped bot is not alive"
    assert cli.main(["check", "--alive"]) == 1
