"""Geronimos end to end through SimCord: whole games through slash commands with autocomplete,
a computer opponent, refusals that store nothing, and a drawn game in the results table."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.client import TilehostBot
from games.geronimos import GAME, Options
from tests.e2e.helpers import build_bot, game_state, make_world, rows, seat_names, shown, table_counts

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.geronimos")
DRAWN_CARD = re.compile(
    r"must play the (?:start card, to lay next to the first card|bonus card|card): (\d{6}|a Leader)"
)
MAX_PLIES = 200


@pytest.fixture
def simcord_bot(db_path: str, seed: list[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, seed)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Little Bighorn", "battle")


def first_suggestion_draws(options: Options, seed: int) -> bool:
    """Does a game end drawn, with a discard on the way, when both players always take the
    first suggestion?"""
    state = GAME.new(2, options, seed=seed)
    discarded = False
    while GAME.to_act(state) is not None:
        move = GAME.rank_moves(state, GAME.legal_moves(state))[0]
        discarded = discarded or move.is_discard
        state, _ = GAME.apply(state, move)
    outcome = GAME.outcome(state)
    return discarded and outcome is not None and outcome.is_draw


def drawn_card(content: str) -> str:
    """The card the turn message says must be played (``L`` for a Leader)."""
    found = DRAWN_CARD.search(content)
    assert found is not None, content
    return "L" if found[1] == "a Leader" else found[1]


def stored_moves(db_path: str, game_id: int) -> list[str]:
    """The moves stored for a game, in order."""
    stored = rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", game_id)
    return [notation for (notation,) in stored]


async def take_turn(channel: Any, who: Any, *, check_filter: bool = False) -> Any:
    """``who`` plays the first suggestion (with `/geronimos discard` when that is the only move)."""
    choices = await who.autocomplete(channel, "geronimos play", "move", "")
    assert choices, "autocomplete offers the legal moves"
    value = choices[0]["value"]
    if check_filter and "@" in value:
        cell = value.split("@")[1]
        filtered = await who.autocomplete(channel, "geronimos play", "move", f"@{cell}")
        assert filtered and all(f"@{cell}" in choice["value"] for choice in filtered)
    if value == "discard":
        assert len(choices) == 1
        return await who.slash(channel, "geronimos discard")
    return await who.slash(channel, "geronimos play", move=value)


async def play_out(channel: Any, db_path: str, game_id: int, people: dict[str, Any]) -> list[str]:
    """Every human to act takes the first suggestion until the game ends; returns the public
    messages. Every turn message names the next card to play (a bonus card as such), or offers
    the bonus cards earned."""
    messages: list[str] = []
    for ply in range(MAX_PLIES):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            return messages
        who = people[seat_names(db_path, game_id)[to_act]]
        result = await take_turn(channel, who, check_filter=ply % 10 == 0)
        message = shown(result)
        assert not message.ephemeral and message.attachments, message.content
        messages.append(message.content)
        if "Game over" not in message.content and "`bonus` draws the next" not in message.content:
            card = drawn_card(message.content)  # the next card to play is public
            if "draws bonus card" in message.content:
                assert f"must play the bonus card: {'a Leader' if card == 'L' else card}" in message.content
    raise AssertionError("the game did not end")


async def test_whole_game_through_slash_commands(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    lobby = await alice.slash(channel, "geronimos new", bag=20, leaders=2, table="rings")
    assert "bag=20" in lobby.response.content and "leaders=2" in lobby.response.content
    await bob.slash(channel, "geronimos join")
    started = shown(await alice.slash(channel, "geronimos start"))
    assert "lays first" in started.content and started.attachments
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, _, to_act = game_state(db_path, game_id)
    mover = people[seat_names(db_path, game_id)[to_act]]
    card = drawn_card(started.content)
    hand = shown(await mover.slash(channel, "geronimos hand"))
    assert hand.ephemeral and hand.attachments and hand.content.endswith(card)
    rules = shown(await bob.slash(channel, "geronimos rules"))
    assert rules.ephemeral and rules.embeds and "Leader" in str(rules.embeds[0].to_dict())
    board = shown(await bob.slash(channel, "geronimos board"))
    assert board.ephemeral and board.attachments

    await take_turn(channel, mover, check_filter=True)
    await take_turn(channel, people[seat_names(db_path, game_id)[game_state(db_path, game_id)[2]]])
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    messages = await play_out(channel, db_path, game_id, people)

    assert game_state(db_path, game_id)[0] == "finished"
    moves = stored_moves(db_path, game_id)
    assert len(moves) >= 20 and "discard" in moves
    assert any("draws bonus card" in text for text in messages), "this seed's game has bonus cards"
    assert "surrounded" in messages[-1] and "Game over" in channel.last_message.content
    results = rows(db_path, "SELECT seat, rank FROM results WHERE game_id = ?", game_id)
    assert len(results) == 2
    exported = shown(await alice.slash(channel, "geronimos export", game_id=game_id))
    data = (await exported.attachments[0].read()).decode()
    assert 'game: "geronimos"' in data and moves[-1] in data


async def test_game_against_a_computer(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "geronimos new", bag=20, leaders=4, table="open")
    await alice.slash(channel, "geronimos computer")
    await alice.slash(channel, "geronimos start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    for _ in range(MAX_PLIES):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[to_act] == "alice", "the computer moves at once"
        hint = shown(await alice.slash(channel, "geronimos hint"))
        assert hint.ephemeral and "/geronimos play" in hint.content
        await take_turn(channel, alice)
    assert game_state(db_path, game_id)[0] == "finished"
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] > 0
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2


async def test_bad_notation_and_illegal_moves_store_nothing(
    world: Any, db_path: str, seed: list[int]
) -> None:
    _env, channel, people = world
    seed[0] = next(s for s in range(1000, 1100) if GAME.new(2, Options(), seed=s).drawn != "L")
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    await alice.slash(channel, "geronimos new")
    await bob.slash(channel, "geronimos join")
    await alice.slash(channel, "geronimos start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, ply, to_act = game_state(db_path, game_id)
    names = seat_names(db_path, game_id)
    mover, waiting = people[names[to_act]], people[names[1 - to_act]]
    legal = (await mover.autocomplete(channel, "geronimos play", "move", ""))[0]["value"]
    before = table_counts(db_path)
    checks = [
        (mover, "geronimos play", {"move": "hello"}, "is not a Geronimos move"),
        (mover, "geronimos play", {"move": "123456@0,0 please"}, "is not a Geronimos move"),
        (mover, "geronimos play", {"move": "@9,9"}, "does not fit at 9,9"),
        (mover, "geronimos play", {"move": "L@1,0"}, "not a Leader"),
        (mover, "geronimos play", {"move": "@0,0^"}, "does not fit at 0,0"),
        (mover, "geronimos discard", {}, "must be played"),
        (waiting, "geronimos play", {"move": legal}, "not your turn"),
        (cara, "geronimos discard", {}, "not playing"),
    ]
    for who, command, options, expected in checks:
        message = shown(await who.slash(channel, command, **options))
        assert message.ephemeral, (command, options)
        assert expected in message.content, (command, options, message.content)
    assert table_counts(db_path) == before
    assert game_state(db_path, game_id)[1] == ply
    assert rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ?", game_id) == [(0,)]
    played = shown(await mover.slash(channel, "geronimos play", move=legal))
    assert not played.ephemeral and game_state(db_path, game_id)[1] == ply + 1


async def test_a_drawn_game_is_recorded_as_a_draw(world: Any, db_path: str, seed: list[int]) -> None:
    _env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    options = Options(bag=20, leaders=0, table="rings")
    seed[0] = next(s for s in range(2000) if first_suggestion_draws(options, s))
    await alice.slash(channel, "geronimos new", bag=20, leaders=0, table="rings")
    await bob.slash(channel, "geronimos join")
    await alice.slash(channel, "geronimos start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    await play_out(channel, db_path, game_id, people)
    assert game_state(db_path, game_id)[0] == "finished"
    assert "discard" in stored_moves(db_path, game_id), (
        "the drawn cards that fit nowhere went through /geronimos discard"
    )
    assert "a draw between" in channel.last_message.content
    results = rows(db_path, "SELECT rank, won, draw FROM results WHERE game_id = ? ORDER BY seat", game_id)
    assert results == [(1, 0, 1), (1, 0, 1)]
