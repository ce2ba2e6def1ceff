"""Leaderboards, ratings, stats, history, replays and records through SimCord, from games
played in their threads: a draw, a forfeit, a game against a computer (recorded, not rated) and
a game in another server."""

from __future__ import annotations

import itertools
import re
import sqlite3
from typing import Any

import pytest

from bot.client import TilehostBot, create_bot
from bot.settings import Settings
from tests.conftest import TEST_EXTENSIONS
from tests.e2e.helpers import (
    Watch,
    game_state,
    posts,
    private,
    refused,
    room,
    rows,
    seat_names,
    shown,
    start_game,
)

DRAW_SEED = 10  # with both players taking the first suggestion, Tiny Tiles ends 21-21
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


def build(db_path: str, seeds: list[int]) -> TilehostBot:
    source = itertools.chain(seeds, itertools.count(5000))
    settings = Settings(token="test-token", db_path=db_path)
    return create_bot(settings, extensions=TEST_EXTENSIONS, seed_source=lambda: next(source))


@pytest.fixture
def simcord_bot(db_path: str) -> TilehostBot:
    return build(db_path, [DRAW_SEED])


def watch_new_games(env: Any, channel: Any, db_path: str) -> Watch:
    """A :class:`Watch` of the games to come in ``channel`` (what it shows already is older)."""
    watch = Watch(env, channel, db_path)
    watch.seen.update(message.id for message in posts(channel))
    return watch


async def play_out(channel: Any, db_path: str, game_id: int, people: dict[str, Any], watch: Watch) -> None:
    """Every person to act takes the first suggestion, in the game's thread, until the game ends."""
    place = room(channel, game_id)
    watch.after(game_id)
    for _ in range(200):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            return
        who = people[seat_names(db_path, game_id)[to_act]]
        choice = (await who.autocomplete(place, "tiny play", "move", ""))[0]["value"]
        await who.slash(place, "tiny play", move=choice)
        watch.after(game_id)
    raise AssertionError("the game did not end")


def last_game(db_path: str) -> int:
    return int(rows(db_path, "SELECT MAX(id) FROM games")[0][0])


async def test_standings_across_two_servers(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    home = env.create_guild("Home")
    away = env.create_guild("Away")
    here, there = home.create_text_channel("games"), away.create_text_channel("games")
    alice_user, bob_user, cara_user = (env.create_user(n) for n in ("alice", "bob", "cara"))
    alice, bob = home.add_member(alice_user), home.add_member(bob_user)
    bob_away, cara = away.add_member(bob_user), away.add_member(cara_user)

    # 1. a draw (the seed makes the first suggestions tie 21-21)
    watch = watch_new_games(env, here, db_path)
    draw_id = await start_game(env, here, "tiny", alice, bob)
    await play_out(here, db_path, draw_id, {"alice": alice, "bob": bob}, watch)
    watch.finish(draw_id)
    assert rows(db_path, "SELECT SUM(draw) FROM results WHERE game_id = ?", draw_id) == [(2,)]
    drawn = posts(here)[-1]
    assert "a draw between" in drawn.content and "(resigned)" not in drawn.content
    # 2. a forfeit: bob resigns, in the game's thread
    forfeit_id = await start_game(env, here, "tiny", alice, bob)
    private(await bob.slash(room(here, forfeit_id), "tiny resign"))
    assert "**bob** 0 (resigned)" in posts(here)[-1].content
    # 3. against a computer: recorded, but not rated
    watch = watch_new_games(env, here, db_path)
    computer_id = await start_game(env, here, "tiny", alice, computers=1)
    await play_out(here, db_path, computer_id, {"alice": alice}, watch)
    # 4. in the other server: bob resigns against cara
    await start_game(env, there, "tiny", cara, bob_away)
    private(await bob_away.slash(room(there, last_game(db_path)), "tiny resign"))

    board = shown(await alice.slash(here, "leaderboard", game="tiny", scope="server", sort="rating"))
    text = board.embeds[0].description
    assert text.index(f"<@{alice.id}>") < text.index(f"<@{bob.id}>")
    assert f"<@{cara.id}>" not in text and "computer" not in text and "seat" not in text.lower()
    assert "<@" not in (board.content or ""), "players are named in the embed, which pings nobody"
    world = shown(await alice.slash(here, "leaderboard", game="tiny", scope="global", sort="wins"))
    assert f"<@{cara.id}>" in world.embeds[0].description

    field = shown(await alice.slash(here, "stats", game="tiny")).embeds[0].fields[0].value
    assert "Games **3**" in field and "draws 1" in field and "(2 rated)" in field
    bob_stats = shown(await alice.slash(here, "stats", player=bob, game="tiny"))
    assert bob_stats.embeds[0].title == "Stats of bob" and "forfeits 1" in bob_stats.embeds[0].fields[0].value
    rated = rows(
        db_path, "SELECT scope_id, rated_games FROM ratings WHERE user_id = ? ORDER BY scope_id", bob.id
    )
    assert rated == [(0, 3), (home.id, 2), (away.id, 1)]

    lines = shown(await alice.slash(here, "history")).embeds[0].description.splitlines()
    games = (computer_id, forfeit_id, draw_id)
    assert len(lines) == 3 and all(f"#{game}" in line for line, game in zip(lines, games, strict=True))
    results = {message.id: message for message in posts(here)}
    for line in lines:
        guild_id, channel_id, message_id = (int(part) for part in LINK.findall(line)[0])
        assert (guild_id, channel_id) == (home.id, here.id), "the link opens the result in the channel"
        assert "Game over" in results[message_id].content and results[message_id].attachments

    away_id = last_game(db_path)
    refused(
        env, await alice.slash(here, "tiny export", game_id=away_id), f"no game #{away_id} in this server"
    )
    data = await shown(await alice.slash(here, "tiny export", game_id=draw_id)).attachments[0].read()
    replay = shown(await bob.slash(here, "tiny replay", game_id=draw_id))
    names = [a.filename for a in replay.attachments]
    assert names == ["tiny-replay.gif", "tiny-scores.png"] and "alice: 21" in replay.content
    imported = shown(await bob.slash(here, "tiny import", record=("draw.txt", data)))
    assert [a.filename for a in imported.attachments] == names and "bob: 21" in imported.content
    broken = data.replace(b"\n0 ", b"\n1 ", 1)
    refused(env, await bob.slash(here, "tiny import", record=("bad.txt", broken)), "does not replay")


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
