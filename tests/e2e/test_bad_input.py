"""Bad input at a table, in every game: each refusal is private, says what was wrong, and stores
nothing; the move the refusals were made around is then recorded.

One table: (game, who, command, options, words the refusal must contain). ``who`` is the player to
act (``mover``), the other player (``waiting``) or someone not seated (``stranger``); ``{legal}``
in an option is the first legal move autocomplete offers the mover, ``{tile}`` its first word.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import default_extensions
from games.geronimos import GAME as GERONIMOS
from games.geronimos import Options as GeronimosOptions
from tests.e2e.helpers import (
    game_state,
    make_world,
    posts,
    private,
    refused,
    room,
    start_game,
    table_counts,
    to_act,
)

EXTENSIONS = default_extensions()

Case = tuple[str, str, str, dict[str, str], str]
CASES: tuple[Case, ...] = (
    ("geominos", "mover", "play", {"move": "banana"}, "not a Geominos move"),
    ("geominos", "mover", "play", {"move": "teapot a0 k12"}, "no tile called"),
    ("geominos", "mover", "play", {"move": "{tile} a45 k12"}, "rotation is 0, 90, 180 or 270"),
    ("geominos", "mover", "play", {"move": "{tile} a0 a1"}, "matches no pips"),
    ("geominos", "mover", "play", {"move": "{tile} a0 k11"}, "already taken"),
    ("geominos", "mover", "play", {"move": "pass"}, "passed over automatically"),
    ("geominos", "mover", "play", {"move": "x" * 5000}, "too long"),
    ("geominos", "waiting", "play", {"move": "{legal}"}, "not your turn"),
    ("geominos", "stranger", "play", {"move": "{legal}"}, "not playing in this"),
    ("geominos", "waiting", "hint", {}, "not your turn"),
    ("triominos", "mover", "play", {"move": "hello"}, "is not a Tri-Ominos move"),
    ("triominos", "mover", "play", {"move": "021@0,0"}, "never turned over"),
    ("triominos", "mover", "play", {"move": "012@4,4"}, "opens at 0,0"),
    ("triominos", "mover", "play", {"move": "9" * 5000}, "too long"),
    ("triominos", "mover", "draw", {}, "not allowed now"),
    ("triominos", "mover", "pass", {}, "not allowed now"),
    ("triominos", "waiting", "play", {"move": "{legal}"}, "not your turn"),
    ("triominos", "stranger", "draw", {}, "not playing"),
    ("geronimos", "mover", "play", {"move": "hello"}, "is not a Geronimos move"),
    ("geronimos", "mover", "play", {"move": "123456@0,0 please"}, "is not a Geronimos move"),
    ("geronimos", "mover", "play", {"move": "@9,9"}, "does not fit at 9,9"),
    ("geronimos", "mover", "play", {"move": "L@1,0"}, "not a Leader"),
    ("geronimos", "mover", "play", {"move": "@0,0^"}, "does not fit at 0,0"),
    ("geronimos", "mover", "play", {"move": "1" * 5000}, "too long"),
    ("geronimos", "mover", "discard", {}, "must be played"),
    ("geronimos", "waiting", "play", {"move": "{legal}"}, "not your turn"),
    ("geronimos", "stranger", "discard", {}, "not playing"),
    ("puzzominos", "mover", "play", {"move": "L to the left"}, "`L to the left` is not a move"),
    ("puzzominos", "mover", "play", {"move": "Q@1,1"}, "there is no piece Q"),
    ("puzzominos", "mover", "play", {"move": "Lr7@0,0"}, "r7 does not exist"),
    ("puzzominos", "mover", "play", {"move": "Ir0@5,5"}, "top-left corner of its bounding box at 0,0"),
    ("puzzominos", "mover", "play", {"move": "L" * 5000}, "too long"),
    ("puzzominos", "mover", "pass", {}, "only pass to decline a Free Turn's second piece"),
    ("puzzominos", "waiting", "play", {"move": "Ir0@0,0"}, "not your turn"),
    ("puzzominos", "mover", "undo", {}, "`undo` is for solitaire"),
    ("puzzominos", "mover", "giveup", {}, "`giveup` is for solitaire"),
    ("puzzominos", "stranger", "play", {"move": "Ir0@0,0"}, "not playing"),
    ("tileup", "mover", "play", {"move": "hello"}, "`hello`: this is not a move"),
    ("tileup", "mover", "play", {"move": "X4@C5"}, "X4 is not a tile"),
    ("tileup", "mover", "play", {"move": "O4@Z9"}, "there is no square Z9"),
    ("tileup", "mover", "play", {"move": "O4@A1"}, "you have no O4"),
    ("tileup", "mover", "play", {"move": "O" * 5000}, "too long"),
    ("tileup", "mover", "end", {}, "take your action first"),
    ("tileup", "mover", "score", {"card": "7@F6"}, "there is no goal card 7"),
    ("tileup", "mover", "score", {"card": "1"}, "cannot score"),
    ("tileup", "mover", "discard", {"what": "goal 3"}, "only at the end of your turn"),
    ("tileup", "waiting", "tiles", {}, "not your turn"),
    ("tileup", "stranger", "goal", {}, "not playing"),
)
GAMES = tuple(dict.fromkeys(case[0] for case in CASES))


def seed_for(game: str) -> int:
    """The seed of each game's table (Geronimos: one whose first card is not a Leader)."""
    if game == "geronimos":
        return next(s for s in range(1000, 1100) if GERONIMOS.new(2, GeronimosOptions(), seed=s).drawn != "L")
    return 1000


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tiles Club", "games")


@pytest.mark.parametrize("game", GAMES)
async def test_bad_input_is_refused_privately_and_stores_nothing(
    world: Any, db_path: str, seed: list[int], game: str
) -> None:
    env, channel, people = world
    seed[0] = seed_for(game)
    alice, bob = people["alice"], people["bob"]
    game_id = await start_game(env, channel, game, alice, bob)
    thread = room(channel, game_id)
    mover = to_act(db_path, game_id, people)
    who = {"mover": mover, "waiting": bob if mover is alice else alice, "stranger": people["cara"]}
    legal = (await mover.autocomplete(thread, f"{game} play", "move", ""))[0]["value"]
    before, posted, ply = table_counts(db_path), len(posts(thread)), game_state(db_path, game_id)[1]
    for _, role, command, options, expected in (case for case in CASES if case[0] == game):
        filled = {key: value.format(legal=legal, tile=legal.split()[0]) for key, value in options.items()}
        refused(env, await who[role].slash(thread, f"{game} {command}", **filled), expected)
    assert table_counts(db_path) == before
    assert game_state(db_path, game_id)[1] == ply
    assert len(posts(thread)) == posted, "refusals are private: nothing is posted"
    played = private(await mover.slash(thread, f"{game} play", move=legal))
    assert played.content.startswith("✅ Recorded"), played.content
    assert game_state(db_path, game_id)[1] > ply
