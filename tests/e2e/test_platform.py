"""The platform end to end through SimCord, with the test-only Tiny Tiles game."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest


def shown(result: Any) -> Any:
    """The message a command finally showed (a deferred reply is edited by its followup)."""
    return result.followups[-1] if result.followups else result.response


def rows(db_path: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, params).fetchall()


@pytest.fixture
def table(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    return simcord_env, guild, channel, alice, bob


async def test_whole_game_with_restart(table: Any, make_bot: Any, db_path: str) -> None:
    env, _, channel, alice, bob = table
    lobby = await alice.slash(channel, "tiny new")
    assert "lobby" in lobby.response.content
    await bob.slash(channel, "tiny join")
    started = await alice.slash(channel, "tiny start")
    board = shown(started)
    assert board.attachments and board.attachments[0].filename.endswith(".png")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    hand = await alice.slash(channel, "tiny hand")
    assert shown(hand).ephemeral and shown(hand).attachments
    plies = 0
    while True:
        status = rows(db_path, "SELECT status FROM games WHERE id = ?", game_id)[0][0]
        if status != "playing":
            break
        to_act = rows(db_path, "SELECT snapshot FROM games WHERE id = ?", game_id)[0][0]
        import json

        seat = json.loads(to_act)["to_act"]
        seats = dict(rows(db_path, "SELECT seat, name FROM seats WHERE game_id = ?", game_id))
        player = alice if seats[seat] == "alice" else bob
        choices = await player.autocomplete(channel, "tiny play", "move", "")
        assert choices, "autocomplete offers the legal moves"
        result = await player.slash(channel, "tiny play", move=choices[0]["value"])
        assert shown(result).attachments
        plies += 1
        if plies == 3:
            await env.restart_bot(make_bot())
    assert status == "finished"
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    assert "Game over" in channel.last_message.content
