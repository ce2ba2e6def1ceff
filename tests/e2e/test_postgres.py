"""The real bot on PostgreSQL with discord.py's sharded client (two shards in one process):
a whole game with restarts, and a turn clock that survives a restart."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from bot.client import ShardedTilehostBot, TilehostBot, create_bot
from bot.settings import Settings
from tests.conftest import TEST_EXTENSIONS
from tests.e2e.helpers import make_world, shown


@pytest.fixture
def make_pg_bot(postgres_url: str) -> Callable[[], TilehostBot]:
    seeds = itertools.count(1000)

    def build() -> TilehostBot:
        settings = Settings(token="test-token", db_path=postgres_url, shard_count=2)
        return create_bot(settings, extensions=TEST_EXTENSIONS, seed_source=lambda: next(seeds))

    return build


@pytest.fixture
def simcord_bot(make_pg_bot: Callable[[], TilehostBot]) -> TilehostBot:
    return make_pg_bot()


@pytest.fixture
def table(simcord_env: Any) -> Any:
    env, channel, people = make_world(simcord_env, "Tiles Club", "games", ("alice", "bob"))
    return env, channel, people["alice"], people["bob"]


async def start_game(env: Any, channel: Any, alice: Any, bob: Any) -> int:
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await alice.slash(channel, "tiny start")
    (session,) = env.bot.service.sessions()
    return int(session.id)


async def test_whole_game_with_restarts(table: Any, make_pg_bot: Callable[[], TilehostBot]) -> None:
    env, channel, alice, bob = table
    assert isinstance(env.bot, ShardedTilehostBot) and env.bot.storage.dialect == "postgresql"
    game_id = await start_game(env, channel, alice, bob)
    for ply in range(200):
        session = env.bot.service.get(game_id)
        if session is None:
            break
        seat = session.seat_to_act()
        player = alice if seat.user_id == alice.id else bob
        choices = await player.autocomplete(channel, "tiny play", "move", "")
        assert shown(await player.slash(channel, "tiny play", move=choices[0]["value"])).attachments
        if ply in (2, 7):
            await env.restart_bot(make_pg_bot())
    row = await env.bot.storage.game(game_id)
    assert row is not None and row.status == "finished"
    assert await env.bot.storage.count_rows("results", game_id) == 2
    assert "Game over" in channel.last_message.content
    rated = await env.bot.storage.database.fetch("SELECT rated_games FROM ratings")
    assert [r["rated_games"] for r in rated] == [1, 1, 1, 1]


async def test_clock_survives_a_restart(table: Any, make_pg_bot: Callable[[], TilehostBot]) -> None:
    env, channel, alice, bob = table
    game_id = await start_game(env, channel, alice, bob)
    await env.advance_time(3600)
    await env.restart_bot(make_pg_bot())
    await env.advance_time(23 * 3600 + 1)
    row = await env.bot.storage.game(game_id)
    assert row is not None and row.status == "finished"
    assert [m.notation for m in await env.bot.storage.moves(game_id)] == ["!timeout"]
    assert "ran out of time" in channel.last_message.content
