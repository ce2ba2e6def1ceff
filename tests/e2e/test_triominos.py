"""Tri-Ominos end to end through SimCord: a whole game through slash commands with autocomplete
and the well draw, a game with computer players filling seats, and refusals that store nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import TilehostBot
from games.triominos import GAME, Options
from tests.e2e.helpers import build_bot, game_state, make_world, rows, seat_names, shown, table_counts

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.triominos")
MAX_PLIES = 200


@pytest.fixture
def simcord_bot(db_path: str, seed: list[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, seed)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "triangles")


def short_game_seed(players: int, options: Options) -> int:
    """A seed whose game, taking the first suggestion every time, is short and draws from the
    well at least once."""
    for seed in range(1000, 1400):
        state = GAME.new(players, options, seed=seed)
        kinds = []
        while GAME.to_act(state) is not None and len(kinds) < 40:
            move = GAME.rank_moves(state, GAME.legal_moves(state))[0]
            kinds.append(move.kind)
            state, _ = GAME.apply(state, move)
        if GAME.to_act(state) is None and "draw" in kinds:
            return seed
    raise AssertionError("no short game")


async def take_turn(channel: Any, who: Any, *, check_filter: bool = False) -> tuple[str, Any]:
    """``who`` takes the first suggestion; ``draw`` and ``pass`` go through their own commands."""
    choices = await who.autocomplete(channel, "triominos play", "move", "")
    assert choices, "autocomplete offers the legal moves"
    value = choices[0]["value"]
    if value in ("draw", "pass"):
        assert len(choices) == 1
        return value, await who.slash(channel, f"triominos {value}")
    if check_filter:
        cell = value.split("@")[1]
        filtered = await who.autocomplete(channel, "triominos play", "move", f"@{cell}")
        assert filtered and all(f"@{cell}" in choice["value"] for choice in filtered)
    return value, await who.slash(channel, "triominos play", move=value)


async def test_whole_game_through_slash_commands(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    seed[0] = short_game_seed(2, Options(target=200))
    lobby = await alice.slash(channel, "triominos new", target=200, max_draws="unlimited")
    assert "target=200" in lobby.response.content
    await bob.slash(channel, "triominos join")
    started = shown(await alice.slash(channel, "triominos start"))
    assert started.attachments and "well: 38" in started.content and "opens at 0,0" in started.content
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    names = seat_names(db_path, game_id)
    hand = shown(await alice.slash(channel, "triominos hand"))
    assert hand.ephemeral and hand.attachments
    rules = shown(await bob.slash(channel, "triominos rules"))
    assert rules.ephemeral and rules.embeds and "hexagon" in str(rules.embeds[0].to_dict())
    board = shown(await bob.slash(channel, "triominos board"))
    assert board.ephemeral and board.attachments

    played: list[str] = []
    for ply in range(MAX_PLIES):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            break
        value, result = await take_turn(channel, people[names[to_act]], check_filter=ply == 1)
        message = shown(result)
        assert not message.ephemeral and message.attachments, message.content
        if value == "draw":
            assert "from the well" in message.content
        played.append(value)
        if ply == 3:
            await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    assert game_state(db_path, game_id)[0] == "finished"
    assert "draw" in played
    assert "Game over" in channel.last_message.content
    assert "wins the round" in channel.last_message.content  # the round summary
    assert "left in the other hands" in channel.last_message.content  # the round-end scoring
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    exported = shown(await alice.slash(channel, "triominos export", game_id=game_id))
    data = (await exported.attachments[0].read()).decode()
    assert 'game: "triominos"' in data and played[-1] in data


async def test_game_with_computers_filling_seats(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "triominos new", target=200, max_draws="3")
    await alice.slash(channel, "triominos computer")
    await alice.slash(channel, "triominos computer")
    await alice.slash(channel, "triominos start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    for _ in range(MAX_PLIES):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[to_act] == "alice", "the computers move at once"
        await take_turn(channel, alice)
    assert game_state(db_path, game_id)[0] == "finished"
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] > 0
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 3


async def test_bad_notation_and_illegal_moves_store_nothing(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    await alice.slash(channel, "triominos new")
    await bob.slash(channel, "triominos join")
    await alice.slash(channel, "triominos start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, ply, to_act = game_state(db_path, game_id)
    names = seat_names(db_path, game_id)
    mover, waiting = people[names[to_act]], people[names[1 - to_act]]
    legal = (await mover.autocomplete(channel, "triominos play", "move", ""))[0]["value"]
    before = table_counts(db_path)
    checks = [
        (mover, "triominos play", {"move": "hello"}, "is not a Tri-Ominos move"),
        (mover, "triominos play", {"move": "021@0,0"}, "never turned over"),
        (mover, "triominos play", {"move": "012@4,4"}, "opens at 0,0"),
        (mover, "triominos draw", {}, "not allowed now"),
        (mover, "triominos pass", {}, "not allowed now"),
        (waiting, "triominos play", {"move": legal}, "not your turn"),
        (cara, "triominos draw", {}, "not playing"),
    ]
    for who, command, options, expected in checks:
        message = shown(await who.slash(channel, command, **options))
        assert message.ephemeral, (command, options)
        assert expected in message.content, (command, options, message.content)
    assert table_counts(db_path) == before
    assert game_state(db_path, game_id)[1] == ply
    assert rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ?", game_id) == [(0,)]
    played = shown(await mover.slash(channel, "triominos play", move=legal))
    assert not played.ephemeral and game_state(db_path, game_id)[1] == ply + 1
    later = shown(await mover.slash(channel, "triominos play", move="555@9,9"))
    assert later.ephemeral and game_state(db_path, game_id)[1] == ply + 1
