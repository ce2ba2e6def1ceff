"""Every user-facing path of the platform through SimCord: refusals, clocks, buttons, failures."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import game_state, rows, seat_names, shown, table_counts


@pytest.fixture
def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "cara", "dan")]
    return simcord_env, channel, people


async def start_two(channel: Any, alice: Any, bob: Any) -> None:
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await alice.slash(channel, "tiny start")


def player(people: list[Any], name: str) -> Any:
    return next(p for p in people if p.name == name)


async def test_refusals_are_ephemeral_and_store_nothing(world: Any, db_path: str) -> None:
    _env, channel, (alice, bob, cara, dan) = world
    refused = await alice.slash(channel, "tiny join")
    assert shown(refused).ephemeral and "no Tiny Tiles game in this channel" in shown(refused).content
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await cara.slash(channel, "tiny join")
    before = table_counts(db_path)
    checks = [
        (dan, "tiny join", {}, "table is full"),
        (alice, "tiny join", {}, "already have a seat"),
        (alice, "tiny play", {"move": "3"}, "has not started"),
        (bob, "tiny start", {}, "Only the host"),
        (alice, "tiny new", {}, "already has a Tiny Tiles game"),
    ]
    for who, command, options, expected in checks:
        result = await who.slash(channel, command, **options)
        assert shown(result).ephemeral, command
        assert expected in shown(result).content, (command, shown(result).content)
    assert table_counts(db_path) == before
    await alice.slash(channel, "tiny start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, _, to_act = game_state(db_path, game_id)
    names = seat_names(db_path, game_id)
    mover = player([alice, bob, cara], names[to_act])
    waiting = player([alice, bob, cara], names[(to_act + 1) % 3])
    before = table_counts(db_path)
    checks = [
        (mover, "tiny play", {"move": "banana"}, "not a move"),
        (mover, "tiny play", {"move": "9"}, "not allowed now"),
        (waiting, "tiny play", {"move": "draw"}, "not your turn"),
        (dan, "tiny play", {"move": "draw"}, "not playing in this"),
        (dan, "tiny hand", {}, "not playing in this game"),
        (waiting, "tiny hint", {}, "not your turn"),
        (mover, "tiny export", {}, "running game"),
    ]
    for who, command, options, expected in checks:
        result = await who.slash(channel, command, **options)
        assert shown(result).ephemeral, command
        assert expected in shown(result).content, (command, shown(result).content)
    assert table_counts(db_path) == before
    assert game_state(db_path, game_id)[1] == 0


async def test_expired_turn_fires_the_timeout_rule(world: Any, db_path: str) -> None:
    env, channel, (alice, bob, *_) = world
    await start_two(channel, alice, bob)
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, _, to_act = game_state(db_path, game_id)
    late = seat_names(db_path, game_id)[to_act]
    await env.advance_time(23 * 3600 + 60)
    assert "still your turn" in channel.last_message.content
    await env.advance_time(3600)
    assert f"{late}** ran out of time" in channel.last_message.content
    assert "Game over" in channel.last_message.content
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [("!timeout",)]
    ranks = dict(rows(db_path, "SELECT seat, rank FROM results WHERE game_id = ?", game_id))
    assert ranks[to_act] == 2


async def test_clock_survives_a_restart(world: Any, db_path: str, make_bot: Any) -> None:
    env, channel, (alice, bob, *_) = world
    await start_two(channel, alice, bob)
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    await env.advance_time(3600)
    await env.restart_bot(make_bot())
    await env.advance_time(23 * 3600 + 1)
    assert game_state(db_path, game_id)[0] == "finished"
    assert "ran out of time" in channel.last_message.content


async def test_buttons_work_after_a_restart(world: Any, db_path: str, make_bot: Any) -> None:
    env, channel, (alice, bob, *_) = world
    lobby = await alice.slash(channel, "tiny new")
    await env.restart_bot(make_bot())
    message = lobby.response.message
    joined = await bob.click(message, label="Join")
    assert "bob" in shown(joined).content or "2/3" in channel.last_message.content
    computer = await alice.click(channel.last_message, label="Add computer")
    assert "(computer)" in shown(computer).content
    await alice.click(channel.last_message, label="Start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    assert game_state(db_path, game_id)[0] == "playing"
    hand = await bob.click(channel.last_message, label="My tiles")
    assert shown(hand).ephemeral and shown(hand).attachments


async def test_computers_fill_seats_and_answer(world: Any, db_path: str) -> None:
    _env, channel, (alice, *_) = world
    await alice.slash(channel, "tiny new")
    await alice.slash(channel, "tiny computer")
    await alice.slash(channel, "tiny computer")
    await alice.slash(channel, "tiny start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    for _ in range(40):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[to_act] == "alice", "computers move at once"
        choices = await alice.autocomplete(channel, "tiny play", "move", "")
        await alice.slash(channel, "tiny play", move=choices[0]["value"])
    assert game_state(db_path, game_id)[0] == "finished"
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] > 0


async def test_discord_failure_after_a_move_loses_nothing(world: Any, db_path: str) -> None:
    env, channel, (alice, bob, *_) = world
    await start_two(channel, alice, bob)
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, _, to_act = game_state(db_path, game_id)
    mover = alice if seat_names(db_path, game_id)[to_act] == "alice" else bob
    env.inject_error("POST", "/webhooks/*", status=500)
    await mover.slash(channel, "tiny draw")
    assert game_state(db_path, game_id)[1] == 1, "the move is stored"
    assert "played `draw`" in channel.last_message.content, "the board is posted in the channel instead"
    assert channel.last_message.attachments
    env.errors.clear()


async def test_failed_lobby_reply_is_posted_in_the_channel(world: Any, db_path: str) -> None:
    env, channel, (alice, _bob, *_) = world
    env.inject_error("POST", "/interactions/*/callback", status=500)
    await alice.slash(channel, "tiny new")
    assert rows(db_path, "SELECT status FROM games") == [("lobby",)]
    assert "lobby #1" in channel.last_message.content
    env.errors.clear()


async def test_unexpected_error_says_nothing_was_recorded(
    world: Any, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, (alice, bob, *_) = world
    await start_two(channel, alice, bob)
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    _, _, to_act = game_state(db_path, game_id)
    mover = alice if seat_names(db_path, game_id)[to_act] == "alice" else bob

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(env.bot.storage, "record_move", broken)
    result = await mover.slash(channel, "tiny draw")
    assert shown(result).ephemeral and "nothing was recorded" in shown(result).content
    assert game_state(db_path, game_id)[1] == 0
    assert [type(error) for error in env.errors] == [RuntimeError] or all(
        "disk is full" in str(error) for error in env.errors
    )
    env.errors.clear()


async def test_board_rules_and_games_listing(world: Any, db_path: str) -> None:
    _env, channel, (alice, bob, *_) = world
    await start_two(channel, alice, bob)
    board = await bob.slash(channel, "tiny board")
    assert shown(board).ephemeral and shown(board).attachments
    rules = await bob.slash(channel, "tiny rules")
    assert shown(rules).embeds and shown(rules).attachments
    listing = await bob.slash(channel, "games")
    assert "Running here" in str(shown(listing).embeds[0].to_dict())
    help_text = await bob.slash(channel, "help")
    assert "/tiny" in shown(help_text).content
    settings = await bob.slash(channel, "settings reminders", direct_messages=True)
    assert "on" in shown(settings).content
    resigned = await bob.slash(channel, "tiny resign")
    assert "resigned" in shown(resigned).content and "Game over" in shown(resigned).content
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    exported = await bob.slash(channel, "tiny export", game_id=game_id)
    data = await shown(exported).attachments[0].read()
    assert b'game: "tiny"' in data and b"!resign" in data
