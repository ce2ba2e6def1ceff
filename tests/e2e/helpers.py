"""Helpers for the SimCord tests: what a command showed, and the database rows."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import discord

from bot.client import TilehostBot, create_bot
from bot.settings import Settings


def shown(result: Any) -> Any:
    """The message a command finally showed (a deferred reply is edited by its followup)."""
    return result.followups[-1] if result.followups else result.response


def rows(db_path: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of a query on the bot's database."""
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, params).fetchall()


def table_counts(db_path: str) -> dict[str, int]:
    """How many rows each table holds (to check that nothing was stored)."""
    return {
        table: rows(db_path, f"SELECT COUNT(*) FROM {table}")[0][0]
        for table in ("games", "seats", "moves", "results")
    }


def game_state(db_path: str, game_id: int) -> tuple[str, int, int | None]:
    """``(status, ply, seat to act)`` of a stored game."""
    status, ply, snapshot = rows(db_path, "SELECT status, ply, snapshot FROM games WHERE id = ?", game_id)[0]
    to_act = json.loads(snapshot)["to_act"] if snapshot else None
    return status, ply, to_act


def seat_names(db_path: str, game_id: int) -> dict[int, str]:
    """Seat number -> player name."""
    return dict(rows(db_path, "SELECT seat, name FROM seats WHERE game_id = ?", game_id))


def build_bot(db_path: str, extensions: Sequence[str], seed: list[int]) -> TilehostBot:
    """The real bot on the test database with ``extensions``; every game gets the seed in
    ``seed[0]`` (a test may change it before ``new``). Call again to restart on the same data."""
    settings = Settings(token="test-token", db_path=db_path, turn_hours=24)
    return create_bot(settings, extensions=extensions, seed_source=lambda: seed[0])


def make_world(env: Any, guild: str, channel: str, names: Sequence[str] = ("alice", "bob", "cara")) -> Any:
    """A server with one text channel and members called ``names``: ``(env, channel, people)``."""
    server = env.create_guild(guild)
    room = server.create_text_channel(channel)
    people = {name: server.add_member(env.create_user(name)) for name in names}
    return env, room, people


PUBLIC_KINDS = (
    discord.MessageType.default,
    discord.MessageType.reply,
    discord.MessageType.chat_input_command,
)
"""Messages the bot writes (a reply to a slash command included), not Discord's system notes."""


def room(channel: Any, game_id: int) -> Any:
    """Where a game's boards go: its thread (named ``<Game> #<id> · ...``), else the channel."""
    for thread in channel.threads:
        if f" #{game_id} " in f"{thread.name} ":
            return thread
    return channel


def posts(place: Any) -> list[Any]:
    """The bot's own messages in a channel or thread (not Discord's system messages)."""
    return [
        message
        for message in place.history()
        if message.author.bot and message.type in PUBLIC_KINDS and not message.flags.ephemeral
    ]


def boards(place: Any) -> list[Any]:
    """The bot's messages with a board picture."""
    return [
        message for message in posts(place) if any(a.filename.endswith(".png") for a in message.attachments)
    ]


def last_board(place: Any) -> Any:
    """The newest board message."""
    found = boards(place)
    assert found, "no board was posted"
    return found[-1]


def only_game(db_path: str) -> int:
    """The id of the one game in the database."""
    ((game_id,),) = rows(db_path, "SELECT id FROM games")
    return int(game_id)


def to_act(db_path: str, game_id: int, people: dict[str, Any]) -> Any:
    """The member whose turn it is."""
    _, _, seat = game_state(db_path, game_id)
    return people[seat_names(db_path, game_id)[seat]]


def private(result: Any) -> Any:
    """The private answer to a command, checked to be ephemeral."""
    message = shown(result)
    assert message is not None and message.ephemeral, message
    return message
