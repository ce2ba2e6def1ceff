"""Races through SimCord (issue 17, break 2): interactions sent together, so that their handlers
overlap in the real bot. Lobby actions racing the start, double clicks on Start and Join, a move
racing a resignation and the clock: every stored game stays whole (seats 0..n-1 matching the
started state, moves 1..ply), survives a restart, and the channel can always go on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.client import TilehostBot
from tests.attacks.support import answered, check_stored_game, together
from tests.e2e.helpers import REFUSALS, only_game, posts, rows, start_game, to_act


@pytest.fixture
def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("races")
    people = {
        name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "cara", "dan")
    }
    return simcord_env, channel, people


def forget_refusals(env: Any) -> None:
    """The refusals the races caused are answered privately; anything else is a bug."""
    unexpected = [
        error for error in env.errors if not isinstance(getattr(error, "original", error), REFUSALS)
    ]
    assert not unexpected, unexpected
    env.errors.clear()


async def still_usable(env: Any, channel: Any, people: dict[str, Any], db_path: str, make_bot: Any) -> None:
    """After a restart the game is there and whole, the host can call it off, and a new game
    can open in the channel."""
    game_id = only_game(db_path)
    await env.restart_bot(make_bot())
    status, _ = check_stored_game(db_path, game_id)
    session = env.bot.service.get(game_id)
    if status == "playing":
        await env.bot.service.ready(session)
        assert session.game.players(session.state) == len(session.seats)
    result = await people["alice"].slash(channel, "tiny abort")
    assert "call" in answered(result).lower() or "aborted" in answered(result).lower(), answered(result)
    assert rows(db_path, "SELECT status FROM games WHERE id = ?", game_id) == [("aborted",)]
    await people["alice"].slash(channel, "tiny new")
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE status = 'lobby'") == [(1,)]
    forget_refusals(env)


ORDERS = [
    ("join", "join2", "computer", "leave", "start"),
    ("start", "join", "join2", "computer", "leave"),
    ("leave", "start", "computer", "join", "join2"),
    ("computer", "join", "start", "join2", "leave"),
]


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(order) for order in ORDERS])
async def test_lobby_actions_racing_the_start(
    world: Any, db_path: str, make_bot: Callable[..., TilehostBot], order: tuple[str, ...]
) -> None:
    env, channel, people = world
    alice, bob, cara, dan = people.values()
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    actions = {
        "join": (cara, "tiny join"),
        "join2": (dan, "tiny join"),
        "computer": (alice, "tiny computer"),
        "leave": (bob, "tiny leave"),
        "start": (alice, "tiny start"),
    }
    async with together(env):
        results = [await who.slash(channel, command) for who, command in (actions[name] for name in order)]
    assert all(answered(result) for result in results), "every interaction is answered"
    game_id = only_game(db_path)
    status, _ = check_stored_game(db_path, game_id)
    session = env.bot.service.get(game_id)
    assert len(session.seats) <= 3
    if status == "playing":
        assert session.game.players(session.state) == len(session.seats)
        mover = to_act(db_path, game_id, people) if session.seat_to_act().user_id else None
        if mover is not None:
            assert answered(await mover.slash(channel, "tiny draw")).startswith("✅ Recorded")
    await still_usable(env, channel, people, db_path, make_bot)


async def test_double_clicks_on_join_and_start(
    world: Any, db_path: str, make_bot: Callable[..., TilehostBot]
) -> None:
    env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    await alice.slash(channel, "tiny new")
    lobby = posts(channel)[0]
    async with together(env):
        await bob.click(lobby, label="Join")
        await bob.click(lobby, label="Join")
        await cara.click(lobby, label="Join")
    game_id = only_game(db_path)
    names = sorted(name for (name,) in rows(db_path, "SELECT name FROM seats WHERE game_id = ?", game_id))
    assert names == ["alice", "bob", "cara"], "a double click takes one seat"
    lobby = posts(channel)[0]
    async with together(env):
        await alice.click(lobby, label="Start")
        await alice.click(lobby, label="Start")
    status, ply = check_stored_game(db_path, game_id)
    assert status == "playing"
    session = env.bot.service.get(game_id)
    assert session.state is not None and session.game.players(session.state) == 3
    mover = to_act(db_path, game_id, people)
    assert answered(await mover.slash(channel, "tiny draw")).startswith("✅ Recorded")
    assert check_stored_game(db_path, game_id) == ("playing", ply + 1)
    await still_usable(env, channel, people, db_path, make_bot)


def players(people: dict[str, Any]) -> list[Any]:
    """Alice hosts a game of three with Bob and Cara (Dan watches)."""
    return [people["alice"], people["bob"], people["cara"]]


async def test_a_move_racing_resignations(
    world: Any, db_path: str, make_bot: Callable[..., TilehostBot]
) -> None:
    env, channel, people = world
    game_id = await start_game(env, channel, "tiny", *players(people), clock_hours=0)
    mover = to_act(db_path, game_id, people)
    others = [p for p in list(people.values())[:3] if p is not mover]
    async with together(env):
        played = await mover.slash(channel, "tiny draw")
        quit_one = await others[0].slash(channel, "tiny resign")
        quit_mover = await mover.slash(channel, "tiny resign")
        again = await mover.slash(channel, "tiny draw")
    assert all(answered(r) for r in (played, quit_one, quit_mover, again))
    notations = [
        n for (n,) in rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", game_id)
    ]
    assert len([n for n in notations if n.startswith("!resign")]) == 2, notations
    status, _ = check_stored_game(db_path, game_id)
    assert status == "finished", "two of three resigned: the game is over"
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 3
    forget_refusals(env)


async def test_a_move_racing_the_clock(
    world: Any, db_path: str, make_bot: Callable[..., TilehostBot]
) -> None:
    env, channel, people = world
    game_id = await start_game(env, channel, "tiny", *players(people), clock_hours=1)
    mover = to_act(db_path, game_id, people)
    await env.advance_time(3600 - 1)
    async with together(env):
        played = await mover.slash(channel, "tiny draw")
        await env.advance_time(2)
    assert answered(played)
    status, ply = check_stored_game(db_path, game_id)
    notations = [
        n for (n,) in rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", game_id)
    ]
    assert notations in (["draw"], ["!timeout"], ["draw", "!timeout"], ["!timeout", "draw"]), notations
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", game_id)[0][0]
    if status == "playing":
        assert deadline is not None and deadline > env.now().timestamp(), "the next turn's clock is armed"
    await env.restart_bot(make_bot())
    assert check_stored_game(db_path, game_id) == (status, ply)
    forget_refusals(env)
