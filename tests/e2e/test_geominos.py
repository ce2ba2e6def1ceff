"""Geominos end to end through SimCord: whole games by slash command with autocomplete, computer
players, refusals that store nothing, and the live clock (+5, one more minute, forfeit)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.client import TilehostBot
from tests.e2e.helpers import game_state, rows, seat_names, shown, table_counts

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.geominos")
COST = re.compile(r"· (\d+) points?$")


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot(extensions=EXTENSIONS)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    people = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "cara")}
    return simcord_env, channel, people


def game_id(db_path: str) -> int:
    return int(rows(db_path, "SELECT MAX(id) FROM games")[0][0])


def to_act(db_path: str, people: dict[str, Any]) -> Any:
    gid = game_id(db_path)
    _, _, seat = game_state(db_path, gid)
    return people[seat_names(db_path, gid)[seat]]


def costs(choices: list[dict[str, Any]]) -> list[int]:
    found = [COST.search(choice["name"]) for choice in choices]
    assert all(found), [choice["name"] for choice in choices]
    return [int(match[1]) for match in found if match]


async def check_narrowing(player: Any, channel: Any, choices: list[dict[str, Any]]) -> None:
    """Typing the tile name, then side and rotation, then the square narrows the list."""
    tile, turned, square = choices[0]["value"].split()
    by_tile = await player.autocomplete(channel, "geominos play", "move", tile[:3].lower())
    assert by_tile and all(choice["value"].startswith(tile) for choice in by_tile)
    by_pose = await player.autocomplete(channel, "geominos play", "move", f"{tile[:3]} {turned}")
    assert by_pose and all(choice["value"].startswith(f"{tile} {turned}") for choice in by_pose)
    exact = await player.autocomplete(channel, "geominos play", "move", f"{tile} {turned} {square}")
    assert exact[0]["value"] == choices[0]["value"]
    assert costs(by_tile) == sorted(costs(by_tile))


async def test_whole_game_through_slash_commands(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    lobby = await alice.slash(channel, "geominos new", mode="five", minutes=3)
    assert "lobby" in lobby.response.content and "live clock 3 min a move" in lobby.response.content
    assert "turn clock: live, 3 min a move" in lobby.response.content and "24 h" not in lobby.response.content
    await bob.slash(channel, "geominos join")
    started = shown(await alice.slash(channel, "geominos start"))
    assert started.attachments and re.search(r"<t:\d+:R>", started.content)
    gid = game_id(db_path)
    hand = shown(await alice.slash(channel, "geominos hand"))
    assert hand.ephemeral and hand.attachments and "Your hand" in hand.content
    for turn in range(100):
        status, _, _ = game_state(db_path, gid)
        if status != "playing":
            break
        player = to_act(db_path, people)
        choices = await player.autocomplete(channel, "geominos play", "move", "")
        assert choices and costs(choices) == sorted(costs(choices)), "cheapest first, with the cost"
        if turn < 2:
            await check_narrowing(player, channel, choices)
        result = shown(await player.slash(channel, "geominos play", move=choices[0]["value"]))
        assert result.attachments and "pips on light squares " in result.content
    assert game_state(db_path, gid)[0] == "finished"
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", gid)) == 2
    assert "Game over" in channel.last_message.content and "fewest wins" in channel.last_message.content
    record = rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", gid)
    assert len(record) == 20


async def test_computer_players_fill_seats(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "geominos new", mode="all")
    await alice.slash(channel, "geominos computer")
    await alice.slash(channel, "geominos computer")
    await alice.slash(channel, "geominos start")
    gid = game_id(db_path)
    for _ in range(30):
        status, _, seat = game_state(db_path, gid)
        if status != "playing":
            break
        assert seat_names(db_path, gid)[seat] == "alice", "computers move at once"
        choice = (await alice.autocomplete(channel, "geominos play", "move", ""))[0]["value"]
        await alice.slash(channel, "geominos play", move=choice)
    assert game_state(db_path, gid)[0] == "finished"
    movers = rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", gid)
    assert movers[0][0] >= 10
    outcome = json.loads(rows(db_path, "SELECT outcome FROM games WHERE id = ?", gid)[0][0])
    assert len(outcome["scores"]) == 3


async def test_bad_notation_and_illegal_moves_are_refused(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    await alice.slash(channel, "geominos new")
    await bob.slash(channel, "geominos join")
    await alice.slash(channel, "geominos start")
    gid = game_id(db_path)
    mover = to_act(db_path, people)
    waiting = bob if mover is alice else alice
    legal = (await mover.autocomplete(channel, "geominos play", "move", ""))[0]["value"]
    tile = legal.split()[0]
    before = table_counts(db_path)
    checks = [
        (mover, "banana", "not a Geominos move"),
        (mover, "teapot a0 k12", "no tile called"),
        (mover, f"{tile} a45 k12", "rotation is 0, 90, 180 or 270"),
        (mover, f"{tile} a0 a1", "matches no pips"),
        (mover, f"{tile} a0 k11", "already taken"),
        (waiting, legal, "not your turn"),
        (cara, legal, "not playing in this"),
    ]
    for who, text, expected in checks:
        result = shown(await who.slash(channel, "geominos play", move=text))
        assert result.ephemeral, text
        assert expected in result.content, (text, result.content)
    assert table_counts(db_path) == before
    assert game_state(db_path, gid)[1] == 0
    hint = shown(await mover.slash(channel, "geominos hint"))
    assert hint.ephemeral and "/geominos play move:" in hint.content
    board = shown(await waiting.slash(channel, "geominos board"))
    assert board.ephemeral and board.attachments and "<t:" in board.content
    rules = shown(await cara.slash(channel, "geominos rules"))
    assert rules.ephemeral and rules.embeds and "Chair B90 K12" in str(rules.embeds[0].to_dict())


async def test_live_clock_penalty_extra_minute_then_forfeit(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "geominos new", minutes=1)
    await bob.slash(channel, "geominos join")
    started = shown(await alice.slash(channel, "geominos start"))
    gid = game_id(db_path)
    _, _, seat = game_state(db_path, gid)
    late = seat_names(db_path, gid)[seat]
    start = env.now().timestamp()
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", gid)[0][0]
    assert deadline == pytest.approx(start + 60, abs=2)
    assert f"<t:{int(deadline)}:R>" in started.content
    await env.advance_time(61)
    message = channel.last_message.content
    assert f"{late}** ran out of time" in message and "time penalty +5" in message
    snapshot = json.loads(rows(db_path, "SELECT snapshot FROM games WHERE id = ?", gid)[0][0])
    assert snapshot["scores"][seat] == 5 and snapshot["to_act"] == seat
    extra = rows(db_path, "SELECT deadline FROM games WHERE id = ?", gid)[0][0]
    assert extra == pytest.approx(env.now().timestamp() + 60, abs=2)
    assert f"<t:{int(extra)}:R>" in message
    await env.advance_time(30)
    assert game_state(db_path, gid)[0] == "playing"
    await env.advance_time(31)
    assert game_state(db_path, gid)[0] == "finished"
    assert "forfeits" in channel.last_message.content and "Game over" in channel.last_message.content
    notations = rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", gid)
    assert notations == [("!timeout",), ("!timeout",)]
    ranks = dict(rows(db_path, "SELECT seat, rank FROM results WHERE game_id = ?", gid))
    assert ranks[seat] == 2 and ranks[1 - seat] == 1


async def test_async_clock_uses_hours(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "geominos new", clock="async", hours=2)
    await bob.slash(channel, "geominos join")
    await alice.slash(channel, "geominos start")
    gid = game_id(db_path)
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", gid)[0][0]
    assert deadline == pytest.approx(env.now().timestamp() + 2 * 3600, abs=2)
    await env.advance_time(2 * 3600 + 1)
    assert "one more period" in channel.last_message.content
    await env.advance_time(2 * 3600 + 1)
    assert game_state(db_path, gid)[0] == "finished"
