"""The Rematch button through SimCord: under a game's result, one press by a player opens a lobby
at the same table with the same players (computers seated) and options, in the last game's order
moved on by one; the others take their seats with one press, and the lobby says who has; the
start keeps the planned order and another player begins. Refusals: not a player, a second press,
a table that has a lobby already, a rematch already played. No result changes."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import errors
from tests.e2e.helpers import (
    build_bot,
    game_state,
    make_world,
    posts,
    private,
    room,
    rows,
    seat_names,
    start_game,
)

EXTENSIONS = ("cogs.lobby", "cogs.between", "cogs.tournament", "tests.support.tiny.cog")


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "games", ("alice", "bob", "cara", "dan"))


async def play_out(channel: Any, db_path: str, game_id: int, people: dict[str, Any]) -> None:
    """Every person to act takes the first suggestion until the game ends."""
    place = room(channel, game_id)
    for _ in range(100):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            return
        who = people.get(seat_names(db_path, game_id)[seat])
        assert who is not None, "a computer's turn plays itself"
        choice = (await who.autocomplete(place, "tiny play", "move", ""))[0]["value"]
        private(await who.slash(place, "tiny play", move=choice))
    raise AssertionError("the game did not end")


def labels(message: Any) -> list[str]:
    return [child.label for row in message.components for child in row.children]


def result_of(channel: Any, game_id: int) -> Any:
    """The game's result message in the channel."""
    found = [m for m in posts(channel) if f"#{game_id}" in m.content and "Game over" in m.content]
    assert found, [m.content for m in posts(channel)]
    return found[-1]


def lobby_of(channel: Any, game_id: int) -> Any:
    (found,) = [m for m in posts(channel) if m.content.startswith(f"**Tiny Tiles** #{game_id} — ")]
    return found


def first_mover(db_path: str, game_id: int) -> str:
    """Who made the game's first move (a person or a computer, by name)."""
    ((seat,),) = rows(db_path, "SELECT seat FROM moves WHERE game_id = ? AND ply = 1", game_id)
    return seat_names(db_path, game_id)[seat]


async def test_rematch_same_players_rotated_one_lobby(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob, cara, dan = (people[name] for name in ("alice", "bob", "cara", "dan"))
    first = await start_game(env, channel, "tiny", alice, bob, computers=1, hand=2, clock_hours=12)
    order = seat_names(db_path, first)
    await play_out(channel, db_path, first, people)
    results = rows(db_path, "SELECT * FROM results ORDER BY game_id, seat")
    ratings = rows(db_path, "SELECT * FROM ratings ORDER BY user_id")
    result = result_of(channel, first)
    assert labels(result) == ["Rematch"], "the result carries the Rematch button"

    # not a player: refused, nothing stored
    games = rows(db_path, "SELECT COUNT(*) FROM games")
    refusal = private(await cara.click(result, label="Rematch"))
    assert f"Only the players of Tiny Tiles #{first} can ask for its rematch." == refusal.content
    assert rows(db_path, "SELECT COUNT(*) FROM games") == games

    # after a restart, bob opens it: same options and clock, the computer seated, the order
    # moved on by one
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    opened = private(await bob.click(result, label="Rematch"))
    (second,) = [game_id for (game_id,) in rows(db_path, "SELECT id FROM games WHERE rematch_of = ?", first)]
    assert f"#{second}" in opened.content and "Join" in opened.content
    lobby = lobby_of(channel, second)
    assert f"rematch of #{first}, host **bob**" in lobby.content
    assert labels(lobby) == ["Join", "Add computer", "Start"]
    planned = [order[seat] for seat in (1, 2, 0)]
    for number, name in enumerate(planned, start=1):
        assert f"{number}. **{name}**" in lobby.content, lobby.content
    assert "alice** — not yet" in lobby.content and "bob** — ✅ in" in lobby.content
    assert "Ada** (computer, normal) — ✅ in" in lobby.content
    assert "(2 of 3 in)" in lobby.content and "<@" not in lobby.content, "a lobby pings nobody"
    ((options, clock, guild),) = rows(
        db_path, "SELECT options, turn_seconds, guild_id FROM games WHERE id = ?", second
    )
    assert (options, clock, guild) == rows(
        db_path, "SELECT options, turn_seconds, guild_id FROM games WHERE id = ?", first
    )[0]

    # a second press by bob opens nothing more; a stranger cannot take a seat in it
    again = private(await bob.click(result, label="Rematch"))
    assert "you have a seat in it already" in again.content
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE rematch_of = ?", first) == [(1,)]
    refused_join = private(await dan.click(lobby_of(channel, second), label="Join"))
    assert "its seats are for that game's players" in refused_join.content

    # alice takes her seat with one press of the same button; the lobby says so
    joined = private(await alice.click(result, label="Rematch"))
    assert f"You have a seat in the rematch, **Tiny Tiles** #{second}." == joined.content
    lobby = lobby_of(channel, second)
    assert "(3 of 3 in)" in lobby.content and "not yet" not in lobby.content

    # bob starts: the planned order, and someone other than the last game's first player begins
    await bob.click(lobby, label="Start")
    assert game_state(db_path, second)[0] == "playing"
    assert list(seat_names(db_path, second).values()) == planned
    _, _, to_act = game_state(db_path, second)
    assert seat_names(db_path, second)[to_act] != first_mover(db_path, first)
    assert rows(db_path, "SELECT * FROM results ORDER BY game_id, seat") == results, "no result changed"
    assert rows(db_path, "SELECT * FROM ratings ORDER BY user_id") == ratings

    # the rematch ends: pressing the first game's button again says the rematch was played
    await play_out(channel, db_path, second, people)
    over = private(await alice.click(result, label="Rematch"))
    assert f"The rematch of Tiny Tiles #{first} is #{second}, and it is over." == over.content

    # a table with a lobby of its own refuses a rematch; once it is closed, the rematch opens
    await cara.slash(channel, "tiny new")
    busy = private(await alice.click(result_of(channel, second), label="Rematch"))
    assert "already has an open Tiny Tiles lobby" in busy.content
    private(await cara.slash(channel, "tiny abort"))
    private(await alice.click(result_of(channel, second), label="Rematch"))
    (third,) = [game_id for (game_id,) in rows(db_path, "SELECT id FROM games WHERE rematch_of = ?", second)]
    assert "host **alice**" in lobby_of(channel, third).content


async def test_no_rematch_for_a_tournament_game(simcord_env: Any, db_path: str) -> None:
    """A tournament's game is listed by /turns like any other, and ends without a Rematch button
    (the tournament pairs the next round); the service refuses a rematch of it whatever asks."""
    env = simcord_env
    guild = env.create_guild("Cup Club")
    channel = guild.create_text_channel("cup")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    org = guild.add_member(env.create_user("org"), roles=[admins])
    people = {name: guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")}
    await org.slash(
        channel, "tournament new", game="tiny", format="swiss", rounds=1, clock_hours=1, options="hand=2"
    )
    for member in people.values():
        private(await member.slash(channel, "tournament join"))
    private(await org.slash(channel, "tournament start"))
    ((game_id,),) = rows(db_path, "SELECT game_id FROM tournament_tables WHERE game_id IS NOT NULL")
    player = people[seat_names(db_path, game_id)[0]]
    listed = private(await player.slash(channel, "turns")).embeds[0].description
    assert f"**Tiny Tiles** #{game_id} · Cup Club" in listed, "/turns lists a tournament's game like any"
    await play_out(channel, db_path, game_id, people)
    result = result_of(channel, game_id)
    assert labels(result) == [], "no Rematch under a tournament game's result"
    with pytest.raises(errors.SessionError, match="tournament pairs the next round"):
        player = seat_names(db_path, game_id)[0]
        await env.bot.service.rematch(game_id, people[player].id, player)
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE rematch_of IS NOT NULL") == [(0,)]
