"""Tournaments end to end through SimCord, on the test-only Tiny Tiles (a short game):

- a Swiss of seven members over three rounds: sign-up with the Join button and the command,
  pairings posted with links to each game's thread, a bye each round (never twice), games won
  by real moves and by resignation, a forfeit on time (the move clock runs out), a restart of
  the bot in the middle of a round, standings after each round (text and picture), the winner
  and the final table, ratings moved, and the tournament in `/history`;
- a round robin of four for a three-player table (one member, three computers): four rounds,
  each trio once, byes rotating;
- refusals that store nothing: a member without permission, joining twice, a full sign-up, a
  closed sign-up, organiser tools used by someone else;
- organiser tools: withdraw, pause and resume, adjust a result, cancel.
"""

from __future__ import annotations

import itertools
from typing import Any

import discord
import pytest

from bot.client import TilehostBot
from tests.e2e.helpers import build_bot, game_state, posts, private, refused, rows, seat_names, shown

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.tournament", "tests.support.tiny.cog")
MEMBERS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
HOUR = 3600


@pytest.fixture
def seeds() -> itertools.count[int]:
    return itertools.count(7000)


@pytest.fixture
def simcord_bot(db_path: str, seeds: itertools.count[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, lambda: next(seeds))


@pytest.fixture
def club(simcord_env: Any) -> Any:
    """A server with a tournament channel, an organiser (Manage Server) and seven members."""
    env = simcord_env
    guild = env.create_guild("Tile Club")
    channel = guild.create_text_channel("tournaments")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    org = guild.add_member(env.create_user("org"), roles=[admins])
    people = {name: guild.add_member(env.create_user(name)) for name in MEMBERS}
    return env, guild, channel, org, people


def tournament_tables(db_path: str, round_number: int) -> list[tuple[int, list[int], int | None, str | None]]:
    """``(table id, seats, game id, result)`` of a round's tables."""
    import json

    found = rows(
        db_path,
        "SELECT id, seats, game_id, result FROM tournament_tables WHERE round = ? ORDER BY number",
        round_number,
    )
    return [(t, json.loads(s), g, r) for t, s, g, r in found]


def entrant_names(db_path: str) -> dict[int, str]:
    return dict(rows(db_path, "SELECT number, name FROM tournament_entrants"))


def thread_of(channel: Any, game_id: int) -> Any:
    for thread in channel.threads:
        if f" #{game_id} " in f"{thread.name} ":
            return thread
    raise AssertionError(f"no thread for game {game_id}")


async def resign(channel: Any, db_path: str, game_id: int, who: Any) -> None:
    private(await who.slash(thread_of(channel, game_id), "tiny resign"))
    assert game_state(db_path, game_id)[0] == "finished"


async def play_out(channel: Any, db_path: str, game_id: int, people: dict[str, Any]) -> int:
    """Everyone to act takes the first suggestion (real `/tiny play` and `/tiny draw`) until the
    game ends; how many moves were made."""
    place = thread_of(channel, game_id)
    for count in itertools.count():
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            return count
        who = people[seat_names(db_path, game_id)[to_act]]
        choices = await who.autocomplete(place, "tiny play", "move", "")
        value = choices[0]["value"]
        if value == "draw":
            private(await who.slash(place, "tiny draw"))
        else:
            private(await who.slash(place, "tiny play", move=value))
    raise AssertionError("unreachable")


async def test_smoke_swiss(club: Any, db_path: str) -> None:
    env, _, channel, org, people = club
    made = await org.slash(
        channel, "tournament new", game="tiny", format="swiss", rounds=3, clock_hours=1, signup_hours=0, options="hand=2"
    )
    assert shown(made).content.startswith("🏆")
    for name in MEMBERS:
        await people[name].click(posts(channel)[0], label="Join")
    assert len(rows(db_path, "SELECT * FROM tournament_entrants")) == 7
    private(await org.slash(channel, "tournament start"))
    tables = tournament_tables(db_path, 1)
    assert len(tables) == 3
    print(posts(channel)[-1].content)
    names = {n: people[n] for n in MEMBERS}
    for table_id, seats, game_id, _ in tables:
        assert game_id is not None
        await resign(channel, db_path, game_id, names[entrant_names(db_path)[seats[1]]])
    await env.bot.tournament_announcer.caught_up(1)
    print(posts(channel)[-1].content)
    assert len(tournament_tables(db_path, 2)) == 3
