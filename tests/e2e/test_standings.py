"""Leaderboards, ratings, stats, history, replays and records through SimCord."""

from __future__ import annotations

import itertools
import sqlite3
from typing import Any

import pytest

from bot.client import TilehostBot, create_bot
from bot.settings import Settings
from tests.conftest import TEST_EXTENSIONS
from tests.e2e.helpers import game_state, rows, seat_names, shown

DRAW_SEED = 10  # with both players taking the first suggestion, Tiny Tiles ends 21-21


def build(db_path: str, seeds: list[int]) -> TilehostBot:
    source = itertools.chain(seeds, itertools.count(5000))
    settings = Settings(token="test-token", db_path=db_path)
    return create_bot(settings, extensions=TEST_EXTENSIONS, seed_source=lambda: next(source))


@pytest.fixture
def simcord_bot(db_path: str) -> TilehostBot:
    return build(db_path, [DRAW_SEED])


async def play_out(channel: Any, db_path: str, game_id: int, people: dict[str, Any]) -> None:
    """Every person to act takes the first suggestion until the game ends."""
    for _ in range(200):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            return
        who = people[seat_names(db_path, game_id)[to_act]]
        choice = (await who.autocomplete(channel, "tiny play", "move", ""))[0]["value"]
        await who.slash(channel, "tiny play", move=choice)
    raise AssertionError("the game did not end")


def last_game(db_path: str) -> int:
    return rows(db_path, "SELECT MAX(id) FROM games")[0][0]


async def test_standings_across_two_servers(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    home = env.create_guild("Home")
    away = env.create_guild("Away")
    here, there = home.create_text_channel("games"), away.create_text_channel("games")
    alice_user, bob_user, cara_user = (env.create_user(n) for n in ("alice", "bob", "cara"))
    alice, bob = home.add_member(alice_user), home.add_member(bob_user)
    bob_away, cara = away.add_member(bob_user), away.add_member(cara_user)

    # 1. a draw (the seed makes the first suggestions tie 21-21)
    await alice.slash(here, "tiny new")
    await bob.slash(here, "tiny join")
    await alice.slash(here, "tiny start")
    draw_id = last_game(db_path)
    await play_out(here, db_path, draw_id, {"alice": alice, "bob": bob})
    assert rows(db_path, "SELECT SUM(draw) FROM results WHERE game_id = ?", draw_id) == [(2,)]
    # 2. a forfeit: bob resigns
    await alice.slash(here, "tiny new")
    await bob.slash(here, "tiny join")
    await alice.slash(here, "tiny start")
    await bob.slash(here, "tiny resign")
    # 3. against a computer: recorded, but not rated
    await alice.slash(here, "tiny new")
    await alice.slash(here, "tiny computer")
    await alice.slash(here, "tiny start")
    await play_out(here, db_path, last_game(db_path), {"alice": alice})
    # 4. in the other server: bob resigns against cara
    await cara.slash(there, "tiny new")
    await bob_away.slash(there, "tiny join")
    await cara.slash(there, "tiny start")
    await bob_away.slash(there, "tiny resign")

    board = await alice.slash(here, "leaderboard", game="tiny", scope="server", sort="rating")
    text = shown(board).embeds[0].description
    assert text.index(f"<@{alice.id}>") < text.index(f"<@{bob.id}>")
    assert f"<@{cara.id}>" not in text and "computer" not in text
    world = await alice.slash(here, "leaderboard", game="tiny", scope="global", sort="wins")
    assert f"<@{cara.id}>" in shown(world).embeds[0].description

    stats = await alice.slash(here, "stats", game="tiny")
    field = shown(stats).embeds[0].fields[0].value
    assert "Games **3**" in field and "draws 1" in field and "(2 rated)" in field
    bob_stats = await alice.slash(here, "stats", player=bob, game="tiny")
    assert "forfeits 1" in shown(bob_stats).embeds[0].fields[0].value
    rated = rows(
        db_path, "SELECT scope_id, rated_games FROM ratings WHERE user_id = ? ORDER BY scope_id", bob.id
    )
    assert rated == [(0, 3), (home.id, 2), (away.id, 1)]

    history = await alice.slash(here, "history")
    lines = shown(history).embeds[0].description.splitlines()
    assert len(lines) == 3 and all("discord.com/channels" in line for line in lines)

    exported = await alice.slash(here, "tiny export", game_id=draw_id)
    record = shown(exported).attachments[0]
    data = await record.read()
    replay = await bob.slash(here, "tiny replay", game_id=draw_id)
    names = [a.filename for a in shown(replay).attachments]
    assert names == ["tiny-replay.gif", "tiny-scores.png"] and "21" in shown(replay).content
    imported = await bob.slash(here, "tiny import", record=("draw.txt", data))
    assert [a.filename for a in shown(imported).attachments] == names
    broken = data.replace(b"\n0 ", b"\n1 ", 1)
    refused = await bob.slash(here, "tiny import", record=("bad.txt", broken))
    assert shown(refused).ephemeral and "does not replay" in shown(refused).content


async def test_leaderboard_pages_survive_a_restart(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    guild = env.create_guild("Big")
    channel = guild.create_text_channel("games")
    viewer = guild.add_member(env.create_user("viewer"))
    with sqlite3.connect(db_path) as db:
        db.executemany(
            "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, created_at, "
            "updated_at, finished_at) VALUES (?, 'tiny', ?, ?, 0, 'finished', '{}', 0, 1, 1, 1)",
            [(9000 + i, guild.id, channel.id) for i in range(25)],
        )
        db.executemany(
            "INSERT INTO results (game_id, seat, user_id, game, guild_id, rank, score, won, finished_at) "
            "VALUES (?, 0, ?, 'tiny', ?, 1, 10, 1, 1)",
            [(9000 + i, 100 + i, guild.id) for i in range(25)],
        )
        db.executemany(
            "INSERT INTO ratings (scope_id, game, user_id, mu, sigma, display, rated_games, updated_at) "
            "VALUES (?, 'tiny', ?, ?, 2, ?, 1, 0)",
            [(guild.id, 100 + i, 25.0 + i, 19.0 + i) for i in range(25)],
        )
    first = await viewer.slash(channel, "leaderboard", game="tiny")
    assert "Page 1/3" in shown(first).embeds[0].footer.text
    await env.restart_bot(build(env.bot.settings.db_path, []))
    second = await viewer.click(shown(first).message, label="Next ▶")
    embed = shown(second).embeds[0]
    assert "Page 2/3" in embed.footer.text and embed.description.startswith("**11.** <@114>")
