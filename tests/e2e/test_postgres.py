"""The real bot on PostgreSQL with discord.py's sharded client (two shards in one process): a
whole game in its thread with restarts (the thread is remembered), and a turn clock that
survives a restart."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from bot.client import ShardedTilehostBot, TilehostBot, create_bot
from bot.settings import Settings
from tests.conftest import TEST_EXTENSIONS
from tests.e2e.helpers import SEAT_WORDS, last_board, make_world, posts, private, start_game


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


async def test_whole_game_with_restarts(table: Any, make_pg_bot: Callable[[], TilehostBot]) -> None:
    env, channel, alice, bob = table
    assert isinstance(env.bot, ShardedTilehostBot) and env.bot.storage.dialect == "postgresql"
    game_id = await start_game(env, channel, "tiny", alice, bob)
    (thread,) = channel.threads
    assert env.bot.service.get(game_id).row.thread_id == thread.id, "the live session knows its thread"
    for ply in range(200):
        session = env.bot.service.get(game_id)
        if session is None:
            break
        seat = session.seat_to_act()
        player = alice if seat.user_id == alice.id else bob
        assert {user.id for user in last_board(thread).mentions} == {player.id}, "its turn pings the player"
        choices = await player.autocomplete(thread, "tiny play", "move", "")
        ack = private(await player.slash(thread, "tiny play", move=choices[0]["value"]))
        assert ack.content.startswith("✅ Recorded")
        if ply in (2, 7):
            await env.restart_bot(make_pg_bot())
            row = await env.bot.storage.game(game_id)
            assert row is not None and row.thread_id == thread.id, "the thread is remembered"
    row = await env.bot.storage.game(game_id)
    assert row is not None and row.status == "finished"
    assert await env.bot.storage.count_rows("results", game_id) == 2
    moves = len(await env.bot.storage.moves(game_id))
    assert len(posts(thread)) == moves, "one board per turn (every tiny move ends a turn)"
    assert len(channel.threads) == 1 and len(posts(channel)) == 2, "the channel: the lobby, then the result"
    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments
    assert not any(SEAT_WORDS.search(message.content) for message in [*posts(thread), *posts(channel)])
    rated = await env.bot.storage.database.fetch("SELECT rated_games FROM ratings")
    assert [r["rated_games"] for r in rated] == [1, 1, 1, 1]


async def test_clock_survives_a_restart(table: Any, make_pg_bot: Callable[[], TilehostBot]) -> None:
    env, channel, alice, bob = table
    game_id = await start_game(env, channel, "tiny", alice, bob)
    (thread,) = channel.threads
    assert env.bot.service.get(game_id).row.thread_id == thread.id, "the live session knows its thread"
    await env.advance_time(3600)
    await env.restart_bot(make_pg_bot())
    await env.advance_time(23 * 3600 + 1)
    row = await env.bot.storage.game(game_id)
    assert row is not None and row.status == "finished"
    assert [m.notation for m in await env.bot.storage.moves(game_id)] == ["!timeout"]
    assert "ran out of time" in last_board(thread).content
    assert "still your turn" in posts(thread)[-1].content, "the reminder came before the deadline"
    assert "Game over" in posts(channel)[-1].content
