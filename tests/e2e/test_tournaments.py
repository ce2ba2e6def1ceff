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


def tournament_row(db_path: str) -> tuple[str, int]:
    """``(status, round)`` of the one tournament."""
    ((status, number),) = rows(db_path, "SELECT status, round FROM tournaments")
    return status, number


def byes(db_path: str) -> list[int]:
    import json

    return [
        p
        for (found,) in rows(db_path, "SELECT byes FROM tournament_rounds ORDER BY number")
        for p in json.loads(found)
    ]


def member(people: dict[str, Any], db_path: str, number: int) -> Any:
    return people[entrant_names(db_path)[number]]


def round_posts(channel: Any) -> list[Any]:
    return [m for m in posts(channel) if "— **round " in m.content]


async def open_swiss(org: Any, channel: Any, **extra: Any) -> Any:
    options = {"game": "tiny", "format": "swiss", "rounds": 3, "clock_hours": 1, "options": "hand=2"}
    return await org.slash(channel, "tournament new", **(options | extra))


async def test_a_swiss_of_seven_over_three_rounds(club: Any, db_path: str, seeds: Any) -> None:
    env, _, channel, org, people = club
    await open_swiss(org, channel, signup_hours=2, name="Autumn Swiss")
    signup = posts(channel)[0]
    for words in (
        "Autumn Swiss",
        "Swiss, 3 rounds",
        "2 players a table",
        "a win 1, a draw ½",
        "bye",
        "Buchholz less the weakest round",
        "Sonneborn-Berger",
        "1 h a move",
        "Sign-up closes <t:",
    ):
        assert words in signup.content, words
    for name in MEMBERS[:5]:
        await people[name].click(posts(channel)[0], label="Join")
    for name in MEMBERS[5:]:
        private(await people[name].slash(channel, "tournament join"))
    assert "Players (7/64):** ann, bob, cat, dan, eve, fay, gus" in posts(channel)[0].content
    refused(env, await people["ann"].slash(channel, "tournament join"), "already signed up")
    assert len(rows(db_path, "SELECT * FROM tournament_entrants")) == 7

    # sign-up closes at its time and round 1 starts by itself: 3 tables, the lowest seed sits out
    await env.advance_time(2 * HOUR + 1)
    assert tournament_row(db_path) == ("running", 1)
    assert byes(db_path) == [7]
    refused(env, await people["ann"].slash(channel, "tournament join"), "sign-up for autumn swiss is closed")
    (first,) = round_posts(channel)
    tables = tournament_tables(db_path, 1)
    assert len(tables) == 3 and "Bye: **gus** (1 point)" in first.content
    for _, seats, game_id, _ in tables:
        thread = thread_of(channel, game_id)
        assert thread.mention in first.content, "each game is linked"
        names = [entrant_names(db_path)[p] for p in seats]
        assert list(seat_names(db_path, game_id).values()) == names, "seated in the tournament's order"
    assert "Join" not in str(posts(channel)[0].components), "sign-up is closed: no buttons"

    # round 1: one game played out move by move, two won by resignation
    played = await play_out(channel, db_path, tables[0][2], people)
    assert played > 5
    await resign(channel, db_path, tables[1][2], member(people, db_path, tables[1][1][1]))
    await resign(channel, db_path, tables[2][2], member(people, db_path, tables[2][1][0]))
    assert tournament_row(db_path) == ("running", 2)
    second = round_posts(channel)[-1]
    assert "Standings after round 1:" in second.content and second.attachments, "text and picture"
    assert second.attachments[0].filename.endswith("standings.png")
    tables = tournament_tables(db_path, 2)
    assert len(tables) == 3 and len(byes(db_path)) == 2 and byes(db_path)[1] != 7, "the bye rotates"

    # round 2: one resignation, then a restart of the bot in the middle of the round
    await resign(channel, db_path, tables[0][2], member(people, db_path, tables[0][1][0]))
    await env.restart_bot(build_bot(db_path, EXTENSIONS, lambda: next(seeds)))
    assert tournament_row(db_path) == ("running", 2)
    await play_out(channel, db_path, tables[1][2], people)
    assert tournament_row(db_path) == ("running", 2), "the round waits for its last game"
    # the last game: nobody moves, the move clock runs out, the player to act forfeits
    late_seat = game_state(db_path, tables[2][2])[2]
    late = seat_names(db_path, tables[2][2])[late_seat]
    await env.advance_time(HOUR + 5)
    assert game_state(db_path, tables[2][2])[0] == "finished"
    assert tournament_row(db_path) == ("running", 3)
    assert "Standings after round 2:" in round_posts(channel)[-1].content
    import json

    ((result,),) = rows(db_path, "SELECT result FROM tournament_tables WHERE game_id = ?", tables[2][2])
    absent = json.loads(result)["absent"]
    assert [tables[2][1][s] for s in absent] == [
        next(n for n, m in entrant_names(db_path).items() if m == late)
    ]
    assert len(set(byes(db_path))) == 3, "three byes, three different players"

    # round 3: all by resignation; the tournament ends with the winner and the final table
    for _, seats, game_id, _ in tournament_tables(db_path, 3):
        await resign(channel, db_path, game_id, member(people, db_path, seats[1]))
    assert tournament_row(db_path)[0] == "finished"
    final = posts(channel)[-1]
    assert "wins **Autumn Swiss**" in final.content and "Final standings:" in final.content
    assert final.attachments and final.attachments[0].filename.endswith("standings.png")
    ranks = rows(
        db_path, "SELECT name, final_rank, final_points FROM tournament_entrants ORDER BY final_rank"
    )
    winner = ranks[0][0]
    assert f"**{winner}** wins" in final.content
    assert all(rank is not None for _, rank, _ in ranks)
    assert sum(points for *_, points in ranks) == 3 * 3 + 3, "a point a table and a point a bye"

    # ratings moved as for any game; the tournament is in the winner's history
    assert rows(db_path, "SELECT COUNT(DISTINCT user_id) FROM ratings")[0][0] == 7
    history = shown(await people[winner].slash(channel, "history"))
    embed = history.embeds[0]
    assert any("Autumn Swiss" in field.value and "1st of 7" in field.value for field in embed.fields)
    standings = private(await people["ann"].slash(channel, "tournament standings"))
    assert "final standings" in standings.content and standings.attachments
    for message in [*posts(channel), *(m for t in channel.threads for m in posts(t))]:
        assert "seat " not in message.content.lower()


async def test_a_round_robin_of_four_at_tables_of_three(club: Any, db_path: str) -> None:
    _, _, channel, org, people = club
    ann = people["ann"]
    await org.slash(
        channel,
        "tournament new",
        game="tiny",
        format="round_robin",
        players_per_table=3,
        clock_hours=1,
        signup_hours=0,
        options="hand=2",
    )
    assert "3 players a table" in posts(channel)[0].content
    private(await ann.slash(channel, "tournament join"))
    for level in ("easy", "normal", "easy"):
        private(await org.slash(channel, "tournament computer", level=level))
    assert (
        "Ada (computer, easy), Babbage (computer, normal), Hopper (computer, easy)"
        in posts(channel)[0].content
    )
    private(await org.slash(channel, "tournament start"))
    resigned = 0
    for _ in range(4):
        status, number = tournament_row(db_path)
        if status != "running":
            break
        ((_, seats, game_id, _),) = tournament_tables(db_path, number)
        assert 1 in seats, "the rounds ann sits out play themselves (computers only)"
        private(await ann.slash(thread_of(channel, game_id), "tiny resign"))
        resigned += 1
        # the computers play on to the end, and the next round starts
        assert game_state(db_path, game_id)[0] == "finished"
    assert resigned == 3
    assert tournament_row(db_path) == ("finished", 4)
    trios = [tuple(sorted(seats)) for r in range(1, 5) for _, seats, _, _ in tournament_tables(db_path, r)]
    assert sorted(trios) == sorted(itertools.combinations([1, 2, 3, 4], 3)), "each trio once"
    assert sorted(byes(db_path)) == [1, 2, 3, 4], "everyone sits out once"
    starters = {seats[0] for r in range(1, 5) for _, seats, _, _ in tournament_tables(db_path, r)}
    assert len(starters) == 4, "everyone starts once"
    final = posts(channel)[-1]
    assert "Final standings:" in final.content and final.attachments
    assert rows(db_path, "SELECT COUNT(*) FROM ratings")[0][0] == 0, "games with computers are not rated"


async def test_refusals_store_nothing(club: Any, db_path: str) -> None:
    env, guild, channel, org, people = club
    ann, bob, cat, dan = (people[n] for n in ("ann", "bob", "cat", "dan"))
    refused(
        env,
        await ann.slash(channel, "tournament new", game="tiny", format="swiss", rounds=3),
        "Manage Server",
    )
    refused(env, await open_swiss(org, channel, rounds=0), "rounds")
    refused(env, await open_swiss(org, channel, players_per_table=4), "2 to 3 players a table")
    refused(env, await open_swiss(org, channel, options="hand=9"), "hand")
    refused(env, await open_swiss(org, channel, format="round_robin"), "leave `rounds:` out")
    assert rows(db_path, "SELECT COUNT(*) FROM tournaments") == [(0,)]

    # a role the server chooses may run tournaments too
    runners = guild.create_role("runners")
    hal = guild.add_member(env.create_user("hal"), roles=[runners])
    refused(env, await ann.slash(channel, "tournament role", role=runners), "")
    private(await org.slash(channel, "tournament role", role=runners))
    await open_swiss(hal, channel, max_players=3, signup_hours=0)
    for who in (ann, bob, cat):
        await who.click(posts(channel)[0], label="Join")
    refused(env, await dan.slash(channel, "tournament join"), "full (3 players is its limit)")
    await dan.click(posts(channel)[0], label="Join")
    assert rows(db_path, "SELECT COUNT(*) FROM tournament_entrants") == [(3,)]
    refused(env, await ann.slash(channel, "tournament start"), "only the organiser")
    refused(env, await ann.slash(channel, "tournament cancel"), "only the organiser")
    await cat.click(posts(channel)[0], label="Leave")
    refused(env, await cat.slash(channel, "tournament leave"), "not signed up")
    refused(env, await hal.slash(channel, "tournament start"), "needs at least 3 players")
    await dan.click(posts(channel)[0], label="Join")
    private(await hal.slash(channel, "tournament start"))
    refused(env, await cat.slash(channel, "tournament join"), "closed")
    assert rows(db_path, "SELECT COUNT(*) FROM tournament_entrants") == [(3,)]


async def test_organiser_tools(club: Any, db_path: str) -> None:
    env, _, channel, org, people = club
    ann, bob, cat, dan = (people[n] for n in ("ann", "bob", "cat", "dan"))
    await open_swiss(org, channel, rounds=3, signup_hours=0)
    for who in (ann, bob, cat, dan):
        private(await who.slash(channel, "tournament join"))
    private(await org.slash(channel, "tournament start"))
    first = tournament_tables(db_path, 1)
    # pause: round 1 ends, round 2 waits; resume starts it
    await org.slash(channel, "tournament pause")
    assert "paused" in posts(channel)[-1].content
    await resign(channel, db_path, first[0][2], member(people, db_path, first[0][1][1]))
    await resign(channel, db_path, first[1][2], member(people, db_path, first[1][1][1]))
    assert tournament_row(db_path) == ("paused", 1)
    await org.slash(channel, "tournament resume")
    assert tournament_row(db_path) == ("running", 2)

    # adjust a round 1 result: recorded with who did it and why
    loser = entrant_names(db_path)[first[0][1][1]]
    winner = entrant_names(db_path)[first[0][1][0]]
    private(
        await org.slash(
            channel, "tournament adjust", round=1, order=f"{loser} > {winner}", reason="wrong tile"
        )
    )
    ((who, reason),) = rows(db_path, "SELECT user_id, reason FROM tournament_adjustments")
    assert (who, reason) == (org.id, "wrong tile")
    assert "changed by org: wrong tile" in posts(channel)[-1].content
    refused(
        env,
        await org.slash(channel, "tournament adjust", round=1, order=f"{loser} > nobody", reason="x y z"),
        "called nobody",
    )

    # withdraw a player mid-round: their game under way is lost; not paired again
    second = tournament_tables(db_path, 2)
    dan_number = next(n for n, name in entrant_names(db_path).items() if name == "dan")
    private(await org.slash(channel, "tournament withdraw", player=dan))
    dans_game = next(g for _, seats, g, _ in second if dan_number in seats)
    assert game_state(db_path, dans_game)[0] == "finished"
    other = next(g for _, seats, g, _ in second if dan_number not in seats)
    await resign(
        channel, db_path, other, member(people, db_path, next(s for _, s, g, _ in second if g == other)[0])
    )
    assert tournament_row(db_path) == ("running", 3)
    third = tournament_tables(db_path, 3)
    assert all(dan_number not in seats for _, seats, _, _ in third) and byes(db_path)[-1:] != [dan_number]

    # cancel: the game under way is called off; finished games stay; no standings, no history
    private(await org.slash(channel, "tournament cancel"))
    assert tournament_row(db_path)[0] == "cancelled"
    assert {game_state(db_path, g)[0] for _, _, g, _ in third} == {"aborted"}
    assert game_state(db_path, first[0][2])[0] == "finished"
    assert "called off" in posts(channel)[-1].content
    history = shown(await ann.slash(channel, "history"))
    assert not any("Tiny Tiles Swiss" in field.value for field in history.embeds[0].fields)


async def test_a_round_deadline_stops_the_games(club: Any, db_path: str) -> None:
    """At the round's deadline every game still running is stopped: the player to move loses,
    the other ranks by the scores then; the next round starts."""
    import json

    env, _, channel, org, people = club
    await open_swiss(org, channel, signup_hours=0, round_hours=2, clock_hours=24)
    for name in MEMBERS[:3]:
        await people[name].click(posts(channel)[0], label="Join")
    private(await org.slash(channel, "tournament computer", level="easy"))
    private(await org.slash(channel, "tournament start"))
    assert "The round ends <t:" in round_posts(channel)[-1].content
    tables = tournament_tables(db_path, 1)
    to_move = {game_id: seats[game_state(db_path, game_id)[2]] for _, seats, game_id, _ in tables if game_id}
    await env.advance_time(2 * HOUR + 5)
    assert tournament_row(db_path) == ("running", 2)
    for table_id, seats, game_id, _ in tables:
        assert game_state(db_path, game_id)[0] == "aborted"
        ((result,),) = rows(db_path, "SELECT result FROM tournament_tables WHERE id = ?", table_id)
        stopped = json.loads(result)
        assert stopped["how"] == "stopped" and [seats[s] for s in stopped["absent"]] == [to_move[game_id]]
    assert "Standings after round 1:" in round_posts(channel)[-1].content
    private(await org.slash(channel, "tournament cancel"))
