"""What the bot's own defaults mean in a server: ``TILEHOST_TURN_HOURS=0`` is no turn clock (as
``clock_hours:0`` in a lobby), never the 24 hours it silently became before issue 23."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.client import TilehostBot
from tests.e2e.helpers import game_state, only_game, rows, shown


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot(turn_hours=0)


async def test_zero_turn_hours_means_games_without_a_clock(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    guild = env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    lobby = shown(await alice.slash(channel, "tiny new"))
    assert "Clock: no clock" in lobby.content
    await bob.slash(channel, "tiny join")
    await alice.slash(channel, "tiny start")
    game_id = only_game(db_path)
    assert game_state(db_path, game_id)[0] == "playing"
    assert rows(db_path, "SELECT turn_seconds, deadline FROM games WHERE id = ?", game_id) == [(0, None)]
