"""Tile Up! end to end through SimCord: a whole game of multi-command turns, computer players
filling seats, the ephemeral screen image, and refusals that store nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import TilehostBot
from tests.e2e.helpers import build_bot, game_state, make_world, rows, seat_names, shown, table_counts

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.tileup")
MAX_TURNS = 120
PLACEMENTS_A_TURN = 4


@pytest.fixture
def simcord_bot(db_path: str, seed: list[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, seed)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "stacks")


def only_game(db_path: str) -> int:
    ((game_id,),) = rows(db_path, "SELECT id FROM games")
    return int(game_id)


def to_act(db_path: str, game_id: int, people: dict[str, Any]) -> Any:
    """The member whose turn it is."""
    _, _, seat = game_state(db_path, game_id)
    return people[seat_names(db_path, game_id)[seat]]


def public(result: Any) -> Any:
    """A public turn message with the board attached."""
    message = shown(result)
    assert not message.ephemeral, message.content
    assert message.attachments and message.attachments[0].filename.endswith(".png"), message.content
    return message


async def suggestions(channel: Any, who: Any, command: str, option: str, typed: str = "") -> list[str]:
    return [choice["value"] for choice in await who.autocomplete(channel, f"tileup {command}", option, typed)]


async def take_turn(channel: Any, who: Any, seen: set[str]) -> Any:
    """Score what can be scored, place tiles (or draw), end, and discard when over the limits.

    ``seen`` collects the commands used. Returns the last result of the turn."""
    for choice in await who.autocomplete(channel, "tileup score", "card", ""):
        card = choice["value"]
        assert card.startswith("score ") and " +" in choice["name"], (
            choice
        )  # only scorable cards, with points
        message = public(await who.slash(channel, "tileup score", card=card.removeprefix("score ")))
        assert "+" in message.content
        seen.add("score")
        break
    placed = 0
    while placed < PLACEMENTS_A_TURN:
        moves = await suggestions(channel, who, "play", "move")
        places = [move for move in moves if "@" in move and not move.startswith("score")]
        if not places:
            break
        message = public(await who.slash(channel, "tileup play", move=places[0]))
        assert "placing: " in message.content and "or `end`" in message.content
        placed += 1
        seen.add("play")
    if not placed:
        action = "tiles" if "tiles" in await suggestions(channel, who, "play", "move", "tiles") else "goal"
        message = public(await who.slash(channel, f"tileup {action}"))
        assert "score cards or `end`" in message.content
        seen.add(action)
    result = await who.slash(channel, "tileup end")
    seen.add("end")
    while "over the limits" in public(result).content:
        choices = await suggestions(channel, who, "discard", "what")
        assert choices and all(choice.startswith("discard ") for choice in choices)
        result = await who.slash(channel, "tileup discard", what=choices[-1].removeprefix("discard "))
        seen.add("discard")
    return result


async def test_whole_game_through_slash_commands(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    lobby = await alice.slash(channel, "tileup new")
    assert "Tile Up!" in lobby.response.content
    await bob.slash(channel, "tileup join")
    started = public(await alice.slash(channel, "tileup start"))
    assert "take one action" in started.content and "bag 103" in started.content
    game_id = only_game(db_path)

    mover = to_act(db_path, game_id, people)
    screen = shown(await mover.slash(channel, "tileup hand"))
    assert screen.ephemeral and screen.attachments and screen.attachments[0].filename.endswith(".png")
    assert "goal 3:" in screen.content
    rules = shown(await bob.slash(channel, "tileup rules"))
    assert rules.ephemeral and rules.embeds and "goal card" in str(rules.embeds[0].to_dict())

    seen: set[str] = set()
    for turn in range(MAX_TURNS):
        if game_state(db_path, game_id)[0] != "playing":
            break
        last = await take_turn(channel, to_act(db_path, game_id, people), seen)
        if turn == 3:
            await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    assert game_state(db_path, game_id)[0] == "finished"
    assert "Game over" in shown(last).content and "all four corners" in shown(last).content
    assert {"play", "tiles", "end", "score"} <= seen
    results = rows(db_path, "SELECT seat, rank FROM results WHERE game_id = ?", game_id)
    assert len(results) == 2
    exported = shown(await alice.slash(channel, "tileup export", game_id=game_id))
    data = (await exported.attachments[0].read()).decode()
    lines = data.splitlines()
    assert 'game: "tileup"' in data and {"0 end", "1 end"} <= set(lines)
    assert any(line.startswith(("0 score ", "1 score ")) for line in lines)


async def test_computers_fill_seats(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "tileup new")
    await alice.slash(channel, "tileup computer")
    await alice.slash(channel, "tileup computer")
    await alice.slash(channel, "tileup start")
    game_id = only_game(db_path)
    assert len(seat_names(db_path, game_id)) == 3
    seen: set[str] = set()
    for _ in range(4):
        assert to_act(db_path, game_id, people) is alice, "the computers move at once"
        hint = shown(await alice.slash(channel, "tileup hint"))
        assert hint.ephemeral and "/tileup play" in hint.content
        await take_turn(channel, alice, seen)
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] >= 8, "each computer turn is several moves ending with end"
    ends = rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND notation = 'end'", game_id)
    assert ends[0][0] >= 12
    assert "Game over" not in channel.last_message.content


async def test_bad_notation_and_illegal_moves_store_nothing(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    await alice.slash(channel, "tileup new")
    await bob.slash(channel, "tileup join")
    await alice.slash(channel, "tileup start")
    game_id = only_game(db_path)
    mover = to_act(db_path, game_id, people)
    waiting = bob if mover is alice else alice
    before = table_counts(db_path)
    checks = [
        (mover, "tileup play", {"move": "hello"}, "`hello`: this is not a move"),
        (mover, "tileup play", {"move": "X4@C5"}, "X4 is not a tile"),
        (mover, "tileup play", {"move": "O4@Z9"}, "there is no square Z9"),
        (mover, "tileup play", {"move": "O4@A1"}, "you have no O4"),
        (mover, "tileup end", {}, "take your action first"),
        (mover, "tileup score", {"card": "7@F6"}, "there is no goal card 7"),
        (mover, "tileup score", {"card": "1"}, "cannot score"),
        (mover, "tileup discard", {"what": "goal 3"}, "only at the end of your turn"),
        (waiting, "tileup tiles", {}, "not your turn"),
        (cara, "tileup goal", {}, "not playing"),
    ]
    for who, command, options, expected in checks:
        message = shown(await who.slash(channel, command, **options))
        assert message.ephemeral, (command, options)
        assert expected in message.content, (command, options, message.content)
    assert table_counts(db_path) == before
    assert rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ?", game_id) == [(0,)]
    drew = public(await mover.slash(channel, "tileup tiles"))
    assert "draws 3 tiles" in drew.content
    again = shown(await mover.slash(channel, "tileup goal"))
    assert again.ephemeral and "already took your action" in again.content
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [("tiles",)]
    screen = shown(await mover.slash(channel, "tileup hand"))
    assert screen.ephemeral and screen.attachments
    assert len([part for part in screen.content.split(": ", 1)[1].split(", ") if len(part) == 2]) == 6


async def test_running_out_of_time_ends_the_turn_without_a_forfeit(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "tileup new", clock_hours=2)
    await bob.slash(channel, "tileup join")
    await alice.slash(channel, "tileup start")
    game_id = only_game(db_path)
    late = to_act(db_path, game_id, people)
    public(await late.slash(channel, "tileup tiles"))
    await env.advance_time(2 * 3600 + 60)
    assert "ran out of time" in channel.last_message.content
    assert "Game over" not in channel.last_message.content
    status, _, seat = game_state(db_path, game_id)
    assert status == "playing" and people[seat_names(db_path, game_id)[seat]] is not late
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", game_id) == [
        ("tiles",),
        ("!timeout",),
    ]
