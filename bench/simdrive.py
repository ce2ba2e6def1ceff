"""Drive the real bot through SimCord outside pytest: the load bench (``bench/load.py``) and the
SIGKILL durability run (``bench/durability.py``) share it.

A world of one server with ``channels`` text channels, two people per channel (their ids are the
same in every process that builds the same world, so a restarted bot finds its players again).
Games are Tri-Ominos (``GAME``); games play in their channel (threads off, as in local mode). The
scripted players take the first suggestion: the engine's best-ranked legal move for the player
to act, sent as ``/triominos play``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import workers
from bot.client import TilehostBot, create_bot
from bot.sessions import Session
from bot.settings import Settings

GAME = "triominos"
EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.triominos")
SETTLE_SECONDS = 600.0
OPTIONS: dict[str, Any] = {"target": 200, "max_draws": "3"}
"""The shortest Tri-Ominos match (200 points), at most three draws a turn."""


@dataclass
class Table:
    """One channel, its two people, and the game running there (if any)."""

    channel: Any
    people: list[Any]
    game_id: int | None = None
    finished: int = 0


@dataclass
class World:
    env: Any
    bot: TilehostBot
    guild: Any
    tables: list[Table] = field(default_factory=list)

    def person(self, user_id: int | None) -> Any:
        for table in self.tables:
            for person in table.people:
                if person.id == user_id:
                    return person
        return None

    def table_of(self, channel_id: int) -> Table | None:
        return next((t for t in self.tables if t.channel.id == channel_id), None)


def make_bot(db_path: str, seed: int = 1) -> TilehostBot:
    """The real bot on ``db_path`` with the Tri-Ominos cog; every game gets its own seed."""
    counter = iter(range(seed * 1_000_000, seed * 1_000_000 + 1_000_000))
    settings = Settings(token="load", db_path=db_path, turn_hours=24)
    return create_bot(settings, extensions=EXTENSIONS, seed_source=lambda: next(counter))


@contextlib.asynccontextmanager
async def running(db_path: str, channels: int, *, seed: int = 1) -> AsyncIterator[World]:
    """The bot running on a SimCord world with ``channels`` channels (games in channels)."""
    import simcord

    workers.warm()
    bot = make_bot(db_path, seed)
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_SECONDS)
    guild = env.create_guild("Load Club")
    world = World(env, bot, guild)
    for index in range(channels):
        channel = guild.create_text_channel(f"table-{index}")
        people = [guild.add_member(env.create_user(f"p{index}-{seat}")) for seat in range(2)]
        world.tables.append(Table(channel, people))
    await env.start()
    try:
        await bot.storage.set_threads(guild.id, False)
        for session in bot.service.sessions():
            table = world.table_of(session.row.channel_id)
            if table is not None and session.game.name == GAME:
                table.game_id = session.id
        yield world
    finally:
        await env.shutdown()
        await bot.close()


async def open_game(
    world: World, table: Table, computers: int = 0, clock_hours: int = 0, level: str = "easy"
) -> int:
    """Open, fill and start a game at ``table`` (its two people, and ``computers`` more seats
    of computers playing at ``level``)."""
    host, guest = table.people
    await host.slash(table.channel, f"{GAME} new", clock_hours=clock_hours, **OPTIONS)
    await guest.slash(table.channel, f"{GAME} join")
    for _ in range(computers):
        await host.slash(table.channel, f"{GAME} computer", level=level)
    await host.slash(table.channel, f"{GAME} start")
    session = next(s for s in world.bot.service.in_channel(table.channel.id, (GAME,)))
    table.game_id = session.id
    return session.id


def session_of(world: World, table: Table) -> Session | None:
    """The running game at a table (None when it has ended)."""
    if table.game_id is None:
        return None
    session = world.bot.service.get(table.game_id)
    if session is None or session.is_over or session.state is None:
        return None
    return session


def next_move(world: World, table: Table) -> tuple[Any, int, str] | None:
    """``(person, ply the move will have, notation)`` for the person to act at ``table``, or
    None when nobody (a person) is to act there."""
    session = session_of(world, table)
    if session is None:
        return None
    seat = session.seat_to_act()
    if seat is None or seat.user_id is None:
        return None
    game, state = session.game, session.state
    move = game.rank_moves(state, game.legal_moves(state))[0]
    return world.person(seat.user_id), session.ply + 1, game.format_move(state, move)


async def send_move(table: Table, person: Any, notation: str) -> Any:
    """The person's ``/triominos play`` (``draw``/``pass`` have their own commands)."""
    if notation in ("draw", "pass"):
        return await person.slash(table.channel, f"{GAME} {notation}")
    return await person.slash(table.channel, f"{GAME} play", move=notation)
