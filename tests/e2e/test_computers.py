"""Computer players at their levels, end to end through SimCord: a game of each kind with a
``hard`` computer seat plays to the end (the person takes the first suggestion every turn), the
lobby and the board name the level, and ``hint`` answers privately with the ``hard`` player's
choice, which does not change when the hidden tiles differ and leads the suggestions.

The ``hard`` player thinks for a few playouts per decision here (``computer_iterations``), so
that decisions are reproducible and the games short; in use it thinks for seconds. Each step
of the test (the person's move) lets the computer play one turn only: SimCord waits for the
bot's work after every step within a wall-clock guard, so a step must never hold a whole game
of computer turns (that made the test depend on the machine's speed and load)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot import workers
from bot.client import TilehostBot
from games import ai
from tests.e2e.helpers import (
    Watch,
    build_bot,
    game_state,
    last_mover,
    make_world,
    only_game,
    posts,
    private,
    room,
    rows,
)

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")
EXTENSIONS = ("cogs.lobby", "cogs.standings", *(f"cogs.{name}" for name in GAMES))
PLAYOUTS = 6
MAX_TURNS = 300
SHORT = {"triominos": {"target": 200}, "geronimos": {"bag": 20}, "geominos": {"mode": "one"}}
"""Options that keep a game short, where the game has them."""


@pytest.fixture
def simcord_bot(db_path: str) -> TilehostBot:
    seeds = iter(range(2000, 3000))
    return build_bot(db_path, EXTENSIONS, lambda: next(seeds), computer_iterations=PLAYOUTS)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Robot Club", "robots", names=("alice",))


async def take_first_suggestion(env: Any, place: Any, who: Any, name: str) -> None:
    """``who`` plays the first suggestion (a verb such as ``pass`` or ``draw`` is its command)."""
    choices = await who.autocomplete(place, f"{name} play", "move", "")
    assert choices, "autocomplete offers the legal moves"
    value = choices[0]["value"]
    verbs = {command.name for command in env.bot.tree.get_command(name).commands}
    if value in verbs:
        private(await who.slash(place, f"{name} {value}"))
    else:
        private(await who.slash(place, f"{name} play", move=value))


async def open_with_computers(channel: Any, alice: Any, name: str, computers: int) -> None:
    await alice.slash(channel, f"{name} new", **SHORT.get(name, {}))
    for _ in range(computers):
        private(await alice.slash(channel, f"{name} computer", level="hard"))
    lobby = posts(channel)[0].content
    assert lobby.count("(computer, hard)") == computers, lobby
    await alice.slash(channel, f"{name} start")


@pytest.mark.parametrize("name", GAMES)
async def test_hard_computers_play_a_game_to_the_end(world: Any, db_path: str, name: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await open_with_computers(channel, alice, name, 1)
    game_id = only_game(db_path)
    watch = Watch(env, channel, db_path)
    place = room(channel, game_id)
    for _ in range(MAX_TURNS):
        status, _, _ = game_state(db_path, game_id)
        if status != "playing":
            break
        await take_first_suggestion(env, place, alice, name)
        watch.after(game_id, last_mover(db_path, game_id))
    assert game_state(db_path, game_id)[0] == "finished"
    levels = {level for (level,) in rows(db_path, "SELECT ai_level FROM seats WHERE user_id IS NULL")}
    assert levels == {"hard"}
    unattended = rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id)
    assert unattended[0][0] > 0
    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments
    watch.finish(game_id)


async def play_to_a_choice_of_alices(
    env: Any, channel: Any, alice: Any, db_path: str, computers: int
) -> tuple[Any, Any]:
    """Open Tri-Ominos with ``computers`` hard computers and play Alice's first suggestions until
    she is to act with a choice (not a forced move): the game's room and session."""
    await open_with_computers(channel, alice, "triominos", computers)
    game_id = only_game(db_path)
    place = room(channel, game_id)
    session = env.bot.service.get(game_id)
    for _ in range(MAX_TURNS):
        if session.seat_of(alice.id) == session.to_act() and session.game.forced_move(session.state) is None:
            break
        await take_first_suggestion(env, place, alice, "triominos")
    return place, session


async def test_a_hint_at_three_players_says_the_share_of_the_others_beaten(world: Any, db_path: str) -> None:
    """With more than two players the search's value is the share of the others the asker can
    expect to finish ahead of: the hint says that, and never calls it a chance of winning."""
    env, channel, people = world
    alice = people["alice"]
    place, session = await play_to_a_choice_of_alices(env, channel, alice, db_path, computers=2)
    assert len(session.seats) == 3
    hint = private(await alice.slash(place, "triominos hint"))
    assert hint.content.startswith("💡 The computer would play `")
    assert (
        "the computer expects you to finish ahead of " in hint.content and " % of the others" in hint.content
    )
    assert "chances" not in hint.content, hint.content


async def test_hint_is_private_the_hard_choice_and_blind_to_hidden_tiles(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    place, session = await play_to_a_choice_of_alices(env, channel, alice, db_path, computers=1)
    seat = session.seat_of(alice.id)
    before = len(posts(place))
    hint = private(await alice.slash(place, "triominos hint"))
    assert hint.content.startswith("💡 The computer would play `")
    assert "the computer rates your chances at" in hint.content
    assert "better than `" in hint.content or "a close call: `" in hint.content, "how sure the hint is"
    notation = hint.content.split("`")[1]
    assert len(posts(place)) == before, "a hint is private"

    choices = await alice.autocomplete(place, "triominos play", "move", "")
    assert choices[0]["value"] == notation and "hint" in choices[0]["name"]

    game, state = session.game, session.state
    seed, budget = session.row.seed + session.ply, env.bot.service.computer_budget
    for world_seed in range(3):
        other = game.determinize(game.view(state, seat), seat, random.Random(world_seed))
        assert other != state or world_seed > 0
        decided = workers.hint(game, other, seat, seed, budget)
        assert decided.notation == notation, "the hint depends only on what the asker can see"


def level_labels(labels: Sequence[str]) -> list[str]:
    return [label.split(":")[0] for label in labels]


def test_the_levels_offered_are_the_engines() -> None:
    assert level_labels(list(ai.LEVELS.values())) == ["easy", "normal", "hard"]
