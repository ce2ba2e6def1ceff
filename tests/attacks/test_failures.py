"""Failures through SimCord (issue 17, break 3 and the database): Discord answering 5xx or 429 on
every path a reply takes, and a database that is full or read-only during play. A move that was
stored stays stored, the mover is never told "nothing was recorded" about it, the computers
still move; a move the database refused leaves nothing half-stored and is said plainly."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import discord
import pytest

from bot.storage import engines
from bot.ui.replies import NOTHING_RECORDED, STORAGE_DOWN
from tests.attacks.support import answered, check_stored_game, integrity_ok
from tests.e2e.helpers import REFUSALS, only_game, rows, table_counts

REPLY_PATHS = [
    ("POST", "/webhooks/*"),  # the private answer (a followup)
    ("PATCH", "/webhooks/*"),  # editing the deferred answer
    ("POST", "/channels/*/messages"),  # the board of the next turn
    ("PATCH", "/channels/*/messages/*"),  # a turn's board edited by its steps
    ("*", "/channels/*"),  # every message, edit and thread
    ("*", "/webhooks/*"),  # every answer to an interaction after the acknowledgement
]


@pytest.fixture
def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("failures")
    alice = guild.add_member(simcord_env.create_user("alice"))
    return simcord_env, channel, alice


async def against_computers(env: Any, channel: Any, alice: Any, db_path: str) -> int:
    """A Tiny Tiles game of alice against two computers; the computers have moved up to her turn."""
    await alice.slash(channel, "tiny new")
    await alice.slash(channel, "tiny computer")
    await alice.slash(channel, "tiny computer")
    await alice.slash(channel, "tiny start")
    game_id = only_game(db_path)
    assert alice_to_act(db_path, game_id)
    return game_id


def alice_to_act(db_path: str, game_id: int) -> bool:
    status, snapshot = rows(db_path, "SELECT status, snapshot FROM games WHERE id = ?", game_id)[0]
    if status != "playing":
        return False
    seats = dict(rows(db_path, "SELECT seat, name FROM seats WHERE game_id = ?", game_id))
    return seats[json.loads(snapshot)["to_act"]] == "alice"


def forget_errors(env: Any) -> None:
    """Discord's failures and the refusals are expected; any other error is a bug."""
    for error in env.errors:
        original = getattr(error, "original", error)
        assert isinstance(original, (discord.HTTPException, *REFUSALS)), repr(error)
    env.errors.clear()


def stop_failing(env: Any) -> None:
    env.backend.faults.clear()


@pytest.mark.parametrize("status", [500, 503, 429])
@pytest.mark.parametrize(("method", "path"), REPLY_PATHS, ids=[f"{m} {p}" for m, p in REPLY_PATHS])
async def test_a_failing_reply_loses_nothing_and_the_computers_move(
    world: Any, db_path: str, method: str, path: str, status: int
) -> None:
    env, channel, alice = world
    game_id = await against_computers(env, channel, alice, db_path)
    _, ply = check_stored_game(db_path, game_id)
    env.inject_error(method, path, status=status, times=None)
    result = await alice.slash(channel, "tiny draw")
    stop_failing(env)
    _, after = check_stored_game(db_path, game_id)
    assert after >= ply + 3 or not alice_to_act(db_path, game_id), "her move and both computers' are stored"
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ? AND ply = ?", game_id, ply + 1) == [
        ("draw",)
    ]
    told = [
        message.content for message in (result.response, *result.followups) if message and message.content
    ]
    assert all(NOTHING_RECORDED not in text for text in told), (
        "the move was stored: the mover is not told otherwise"
    )
    for text in told:  # stored; and when its board could not be posted, that is said too
        assert (
            text.startswith("✅ Recorded") or "your move is stored, but its board could not be posted" in text
        ), text
    forget_errors(env)
    again = await alice.slash(channel, "tiny draw")
    assert answered(again).startswith("✅ Recorded"), "the game goes on once Discord answers again"
    assert integrity_ok(db_path)


@pytest.mark.parametrize("status", [500, 429])
async def test_a_failing_acknowledgement_stores_nothing(world: Any, db_path: str, status: int) -> None:
    env, channel, alice = world
    game_id = await against_computers(env, channel, alice, db_path)
    before = table_counts(db_path)
    env.inject_error("POST", "/interactions/*/callback", status=status, times=1 if status == 500 else None)
    await alice.slash(channel, "tiny draw")
    stop_failing(env)
    if status == 500:
        assert table_counts(db_path) == before, "Discord never heard the command was received: nothing stored"
    forget_errors(env)
    assert answered(await alice.slash(channel, "tiny draw")).startswith("✅ Recorded")
    check_stored_game(db_path, game_id)


@pytest.mark.parametrize("path", ["/channels/*", "/interactions/*/callback"])
@pytest.mark.parametrize("verb", ["Start", "Join"])
async def test_failing_button_replies_are_truthful(world: Any, db_path: str, verb: str, path: str) -> None:
    env, channel, alice = world
    bob = channel.guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "tiny new")
    await alice.slash(channel, "tiny computer")
    lobby = next(m for m in channel.history() if m.author.bot)
    env.inject_error("*", path, status=500, times=1)
    result = await (alice if verb == "Start" else bob).click(lobby, label=verb)
    stop_failing(env)
    game_id = only_game(db_path)
    status, _ = check_stored_game(db_path, game_id)
    done = status == "playing" if verb == "Start" else len(rows(db_path, "SELECT * FROM seats")) == 3
    told = answered(result)
    assert not (done and NOTHING_RECORDED in told), f"{verb} was stored, but the user was told: {told}"
    forget_errors(env)


async def write_pragma(env: Any, pragma: str) -> None:
    """Change the bot's own writing connection (SQLite): a real full or read-only database."""
    await env.bot.storage.database.on_writer(lambda connection: connection.execute(f"PRAGMA {pragma}"))


def disk_full_on_moves(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own "database or disk is full" when a move line is written, after the game's row
    was already updated in the same transaction (so a half-stored move would show)."""
    execute, executemany = engines._SqliteExecutor.execute, engines._SqliteExecutor.executemany

    async def full(self: Any, sql: str, params: Any = ()) -> int:
        if sql.startswith("INSERT INTO moves"):
            raise sqlite3.OperationalError("database or disk is full")
        return await execute(self, sql, params)

    async def full_many(self: Any, sql: str, rows: Any) -> None:
        if sql.startswith("INSERT INTO moves"):
            raise sqlite3.OperationalError("database or disk is full")
        await executemany(self, sql, rows)

    monkeypatch.setattr(engines._SqliteExecutor, "execute", full)
    monkeypatch.setattr(engines._SqliteExecutor, "executemany", full_many)


@pytest.mark.parametrize("trouble", ["read-only", "full"])
async def test_a_database_that_takes_no_writes_refuses_the_move_plainly(
    world: Any, db_path: str, monkeypatch: pytest.MonkeyPatch, trouble: str
) -> None:
    env, channel, alice = world
    game_id = await against_computers(env, channel, alice, db_path)
    before = table_counts(db_path)
    status, ply = check_stored_game(db_path, game_id)
    if trouble == "read-only":
        await write_pragma(env, "query_only = 1")
    else:
        disk_full_on_moves(env, monkeypatch)
    told = answered(await alice.slash(channel, "tiny draw"))
    assert told == STORAGE_DOWN, told
    assert table_counts(db_path) == before and check_stored_game(db_path, game_id) == (status, ply)
    session = env.bot.service.get(game_id)
    assert session.ply == ply, "nothing changed in memory either"
    env.errors.clear()
    if trouble == "read-only":
        await write_pragma(env, "query_only = 0")
    else:
        monkeypatch.undo()
    assert answered(await alice.slash(channel, "tiny draw")).startswith("✅ Recorded")
    assert check_stored_game(db_path, game_id)[1] >= ply + 1
    assert integrity_ok(db_path)
