"""Tri-Ominos end to end through SimCord: a whole game in its thread through slash commands and
autocomplete (draws from the well play themselves), a restart, computer players, and refusals
that store nothing; the channel stays quiet (see :class:`tests.e2e.helpers.Watch`)."""

from __future__ import annotations

from typing import Any

import pytest

from games.triominos import GAME, Options
from tests.e2e.helpers import (
    Watch,
    build_bot,
    game_state,
    last_board,
    make_world,
    only_game,
    posts,
    private,
    refused,
    room,
    rows,
    seat_names,
    shown,
    start_game,
    to_act,
)

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.triominos")
MAX_PLIES = 200


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "triangles")


def short_game_seed(players: int, options: Options) -> int:
    """A seed whose game, taking the first suggestion every time, is short and has a turn with
    nothing that fits (the draw plays itself)."""
    for seed in range(1000, 1400):
        state = GAME.new(players, options, seed=seed)
        if len(GAME.legal_moves(state)) < 2:
            continue  # an opening that plays itself: the first board would not be the deal's
        kinds = []
        while GAME.to_act(state) is not None and len(kinds) < 40:
            move = GAME.rank_moves(state, GAME.legal_moves(state))[0]
            kinds.append(move.kind)
            state, _ = GAME.apply(state, move)
        if GAME.to_act(state) is None and "draw" in kinds:
            return seed
    raise AssertionError("no short game")


async def take_turn(place: Any, who: Any, *, check_filter: bool = False) -> tuple[str, Any]:
    """``who`` takes the first suggestion (a real choice: forced draws and passes play themselves)."""
    choices = await who.autocomplete(place, "triominos play", "move", "")
    assert choices, "autocomplete offers the legal moves"
    value = choices[0]["value"]
    if check_filter:
        cell = value.split("@")[1]
        filtered = await who.autocomplete(place, "triominos play", "move", f"@{cell}")
        assert filtered and all(f"@{cell}" in choice["value"] for choice in filtered)
    command = f"triominos {value}" if value in ("draw", "pass") else "triominos play"
    options = {} if value in ("draw", "pass") else {"move": value}
    return value, await who.slash(place, command, **options)


async def test_whole_game_through_slash_commands(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    seed[0] = short_game_seed(2, Options(target=200))
    lobby = await alice.slash(channel, "triominos new", target=200, max_draws="unlimited")
    assert "target: 200" in lobby.response.content
    await bob.slash(channel, "triominos join")
    await alice.slash(channel, "triominos start")
    game_id = only_game(db_path)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    thread = room(channel, game_id)
    first = last_board(thread)
    assert "well: 38" in first.content and "opens at 0,0" in first.content
    hand = private(await alice.slash(thread, "triominos hand"))
    assert hand.attachments
    rules = private(await bob.slash(thread, "triominos rules"))
    assert rules.embeds and "hexagon" in str(rules.embeds[0].to_dict())
    assert private(await bob.slash(thread, "triominos board")).attachments

    for ply in range(MAX_PLIES):
        if game_state(db_path, game_id)[0] != "playing":
            break
        mover = to_act(db_path, game_id, people)
        _, result = await take_turn(thread, mover, check_filter=ply == 1)
        assert private(result).content.startswith("✅ Recorded"), shown(result).content
        watch.after(game_id, mover.id)
        if ply == 3:
            await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    forced = rows(db_path, "SELECT notation FROM moves WHERE game_id = ? AND user_id IS NULL", game_id)
    assert ("draw",) in forced, "a turn with nothing that fits drew by itself"
    story = "\n".join(message.content for message in posts(thread))
    assert "had no choice" in story and "Game over" in story
    assert "wins the round" in story and "left in the other hands" in story
    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    exported = shown(await alice.slash(channel, "triominos export", game_id=game_id))
    data = (await exported.attachments[0].read()).decode()
    assert 'game: "triominos"' in data


async def test_game_with_computers_filling_seats(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "triominos new", target=200, max_draws="3")
    await alice.slash(channel, "triominos computer")
    await alice.slash(channel, "triominos computer", level="easy")
    assert "(computer, easy)" in posts(channel)[0].content
    await alice.slash(channel, "triominos start")
    game_id = only_game(db_path)
    thread = room(channel, game_id)
    watch = Watch(env, channel, db_path)
    for _ in range(MAX_PLIES):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[seat] == "alice", "the computers move at once"
        await take_turn(thread, alice)
        watch.after(game_id)
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] > 0
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 3


async def test_the_player_who_just_moved_is_refused(world: Any, db_path: str) -> None:
    env, channel, people = world
    game_id = await start_game(env, channel, "triominos", people["alice"], people["bob"])
    thread = room(channel, game_id)
    _, ply, _ = game_state(db_path, game_id)
    mover = to_act(db_path, game_id, people)
    legal = (await mover.autocomplete(thread, "triominos play", "move", ""))[0]["value"]
    assert private(await mover.slash(thread, "triominos play", move=legal)).content.startswith("✅")
    assert game_state(db_path, game_id)[1] > ply
    after = game_state(db_path, game_id)[1]
    refused(env, await mover.slash(thread, "triominos play", move="555@9,9"), "not your turn")
    assert game_state(db_path, game_id)[1] == after
