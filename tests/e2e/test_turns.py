"""`/turns` through SimCord: a member's running games in two servers, their own turns first and
nearest deadline first, each with whose turn it is, the deadline, the score and a link to its
thread; nobody else's games; and the same list under a reminder sent by direct message."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.helpers import game_state, private, room, rows, seat_names, start_game

EXTENSIONS = ("cogs.lobby", "cogs.between", "tests.support.tiny.cog")
LINK = re.compile(r"\[open\]\(https://discord\.com/channels/(\d+)/(\d+)\)")
DEADLINE = re.compile(r"<t:(\d+):R>")


@pytest.fixture
def world(simcord_env: Any) -> Any:
    env = simcord_env
    home, away = env.create_guild("Home Club"), env.create_guild("Away Club")
    users = {name: env.create_user(name) for name in ("alice", "bob", "cara", "dan")}
    people = {
        "home": {name: home.add_member(users[name]) for name in ("alice", "bob", "cara")},
        "away": {name: away.add_member(users[name]) for name in ("alice", "dan")},
    }
    return env, home.create_text_channel("games"), away.create_text_channel("games"), people


def listed(result: Any) -> tuple[str, str]:
    """The private list's title and text."""
    message = private(result)
    assert message.embeds, message.content
    embed = message.embeds[0]
    return embed.title or "", embed.description or ""


async def test_turns_across_two_servers_own_turns_first(world: Any, db_path: str) -> None:
    env, home, away, people = world
    alice, bob, cara = (people["home"][name] for name in ("alice", "bob", "cara"))
    alice_away, dan = people["away"]["alice"], people["away"]["dan"]

    def mover(game_id: int, members: dict[str, Any]) -> Any:
        _, _, seat = game_state(db_path, game_id)
        return members[seat_names(db_path, game_id)[seat]]

    # three games: two at home (12 h and 48 h a move), one away (24 h); alice plays in all
    quick = await start_game(env, home, "tiny", alice, bob, clock_hours=12)
    slow = await start_game(env, home, "tiny", cara, alice, clock_hours=48)
    far = await start_game(env, away, "tiny", dan, alice_away)
    games = {quick: people["home"], slow: people["home"], far: people["away"]}
    # make it alice's turn in the slow game and the far one, and not hers in the quick one
    for game_id, members in games.items():
        want_alice = game_id != quick
        if (mover(game_id, members).name == "alice") != want_alice:
            who = mover(game_id, members)
            place = room(home if members is people["home"] else away, game_id)
            choice = (await who.autocomplete(place, "tiny play", "move", ""))[0]["value"]
            private(await who.slash(place, "tiny play", move=choice))
    assert mover(quick, people["home"]).name == "bob"
    assert mover(slow, people["home"]).name == mover(far, people["away"]).name == "alice"

    title, text = listed(await alice.slash(home, "turns"))
    assert title == "Your games: 2 turns to play, of 3 games", title
    lines = text.splitlines()
    assert len(lines) == 3, text
    # her own turns first, nearest deadline first (the away game's 24 h before the slow 48 h)
    assert f"#{far} · Away Club — **your turn**" in lines[0], lines[0]
    assert f"#{slow} · Home Club — **your turn**" in lines[1], lines[1]
    assert f"#{quick} · Home Club — bob to play" in lines[2], lines[2]
    deadlines = [int(DEADLINE.search(line).group(1)) for line in lines]  # type: ignore[union-attr]
    assert deadlines[0] < deadlines[1], "nearest deadline first among her own turns"
    stored = dict(rows(db_path, "SELECT id, CAST(deadline AS INTEGER) FROM games WHERE status = 'playing'"))
    assert deadlines == [stored[far], stored[slow], stored[quick]]
    # the score (names as written, "you" for her) and a link to each game's thread
    for line, game_id, channel in ((lines[0], far, away), (lines[1], slow, home), (lines[2], quick, home)):
        scores = dict(rows(db_path, "SELECT seat, name FROM seats WHERE game_id = ?", game_id))
        assert "you " in line and all(name in line for name in scores.values() if name != "alice"), line
        guild, place = LINK.search(line).groups()  # type: ignore[union-attr]
        thread = room(channel, game_id)
        assert thread is not channel and int(place) == thread.id and int(guild) == channel.guild.id
    assert "<@" not in text, "the list mentions nobody"

    # the same command in the other server, or in a thread, lists the same games
    assert listed(await alice_away.slash(away, "turns"))[1] == text
    # bob sees his one game (his turn; the others' games not at all); cara hers (not her turn)
    title, text = listed(await bob.slash(home, "turns"))
    assert (
        title == "Your games: 1 turn to play, of 1 game" and f"#{quick} · Home Club — **your turn**" in text
    )
    assert f"#{slow}" not in text and f"#{far}" not in text
    title, text = listed(await cara.slash(home, "turns"))
    assert (
        title == "Your games: 1 game, none waiting for you" and f"#{slow}" in text and "alice to play" in text
    )
    # a member in no game is told how to start one
    quiet = env.create_guild("Quiet")
    eve = quiet.add_member(env.create_user("eve"))
    title, text = listed(await eve.slash(quiet.create_text_channel("chat"), "turns"))
    assert title == "Your games" and "no game under way" in text


async def test_reminder_by_direct_message_carries_the_list(world: Any, db_path: str) -> None:
    env, home, away, people = world
    alice, bob = people["home"]["alice"], people["home"]["bob"]
    dan, alice_away = people["away"]["dan"], people["away"]["alice"]
    private(await alice.slash(home, "settings reminders", direct_messages=True))
    here = await start_game(env, home, "tiny", alice, bob, clock_hours=24)
    there = await start_game(env, away, "tiny", dan, alice_away, clock_hours=72)

    def mover(game_id: int, members: dict[str, Any], channel: Any) -> Any:
        _, _, seat = game_state(db_path, game_id)
        return members[seat_names(db_path, game_id)[seat]]

    for game_id, members, channel in ((here, people["home"], home), (there, people["away"], away)):
        who = mover(game_id, members, channel)
        if who.name != "alice":
            place = room(channel, game_id)
            choice = (await who.autocomplete(place, "tiny play", "move", ""))[0]["value"]
            private(await who.slash(place, "tiny play", move=choice))
    await env.advance_time(23 * 3600 + 60)  # the home game's reminder (an hour before its deadline)
    dms = [message.content for message in alice.user.dm_channel.history()]
    assert len(dms) == 1, dms
    reminder = dms[0]
    assert "still your turn" in reminder and "Your games: 2 turns to play, of 2 games" in reminder
    assert f"#{here} · Home Club — **your turn**" in reminder
    assert f"#{there} · Away Club — **your turn**" in reminder
    assert reminder.index(f"#{here} ·") < reminder.index(f"#{there} ·"), "nearest deadline first"
