"""The daily challenge through SimCord, in two servers: the same target for everyone, played in a
private thread of one's own (the channel sees no board, only one line when someone finishes);
time from the first move to the last; hints and giving up counted as such; one attempt a day
in any server; nothing of a solution shown to others before they finish (no replay or record of
another's daily, nor of anyone's solitaire of the day's target, no public solitaire of it that
day); a daily leaderboard per server and everywhere; a streak; a restart in the middle of an
attempt."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import SetupError

from bot.between import daily
from games.puzzosolo.rules import first_solution, format_place
from tests.e2e.helpers import build_bot, game_state, posts, private, refused, rows, shown

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.puzzominos")


@pytest.fixture
def world(simcord_env: Any) -> Any:
    env = simcord_env
    home, away = env.create_guild("Home Club"), env.create_guild("Away Club")
    users = {name: env.create_user(name) for name in ("alice", "bob", "cara")}
    people = {
        "alice": home.add_member(users["alice"]),
        "bob": home.add_member(users["bob"]),
        "alice away": away.add_member(users["alice"]),
        "cara": away.add_member(users["cara"]),
    }
    return env, home.create_text_channel("puzzles"), away.create_text_channel("puzzles"), people


def thread_of(channel: Any, name: str, day: str | None = None) -> Any:
    """The member's daily thread in ``channel`` (of ``day``, if given)."""
    (found,) = [
        thread
        for thread in channel.threads
        if thread.name.endswith(f"· {name}") and (day is None or thread.name.startswith(f"Daily {day} "))
    ]
    return found


async def play(member: Any, thread: Any, move: str) -> str:
    answer = private(await member.slash(thread, "puzzominos play", move=move))
    assert answer.content.startswith("✅ Recorded"), answer.content
    return str(answer.content)


def solution(day: str) -> list[str]:
    return [format_place(place) for place in first_solution(daily.target_of(day))]


def attachments_in(channel: Any) -> list[str]:
    return [a.filename for message in posts(channel) for a in message.attachments]


async def test_daily_in_two_servers(world: Any, db_path: str, seed: list[int]) -> None:
    env, home, away, people = world
    alice, bob, cara, alice_away = people["alice"], people["bob"], people["cara"], people["alice away"]
    today = env.bot.service.dailies.today()
    target = daily.target_of(today)
    moves = solution(today)

    # alice starts: a private thread of her own, an empty board there, nothing in the channel
    started = private(await alice.slash(home, "puzzominos daily"))
    thread = thread_of(home, "alice", today)
    assert f"**{target.name}**" in started.content and thread.mention in started.content
    assert thread.history(viewer=alice), "her board is in her thread"
    with pytest.raises(SetupError):
        thread.history(viewer=bob)  # a private thread: bob cannot open it
    assert not posts(home), "the channel shows nothing while she plays"
    ((game_id, channel_id, thread_id),) = rows(db_path, "SELECT id, channel_id, thread_id FROM games")
    assert channel_id == thread_id == thread.id

    # she plays the whole solution, a minute between moves: one board message, edited
    await env.advance_time(30)
    for move in moves:
        await play(alice, thread, move)
        await env.advance_time(60)
    boards = [m for m in posts(thread) if m.attachments]
    assert len(boards) == 1 and "solved" in boards[0].content
    (notice,) = posts(home)
    took = daily.duration(60 * (len(moves) - 1))
    assert (
        f"**alice** finished today's daily challenge (`{target.name}`): solved without hints in {took}"
        in (notice.content)
    )
    assert "1st of 1 in this server · streak 1 day" in notice.content
    assert not notice.attachments and not notice.mentions, "a line, no board, no pings"

    # one attempt a day, in any server
    again = private(await alice_away.slash(away, "puzzominos daily"))
    assert (
        "You have played today's daily challenge" in again.content and "solved without hints" in again.content
    )
    assert not away.threads, "no second thread"

    # bob: his own thread; alice's record is hidden from him until he has finished
    private(await bob.slash(home, "puzzominos daily"))
    bobs = thread_of(home, "bob")
    refused(env, await bob.slash(home, "puzzominos replay", game_id=game_id), "stays hidden from you")
    refused(env, await bob.slash(home, "puzzominos export", game_id=game_id), "stays hidden from you")
    # the day's target cannot be played as a public solitaire today
    refused(env, await bob.slash(home, "puzzominos solo", target=target.name), "today's daily challenge")
    refused(env, await bob.slash(home, "puzzominos board"), "no Puzz-Ominos game here")
    await play(bob, bobs, moves[0])

    # a restart in the middle of his attempt: it goes on
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    await play(bob, bobs, moves[1])
    hint = private(await bob.slash(bobs, "puzzominos hint"))
    assert hint.content.startswith("✅ Recorded"), hint.content
    private(await bob.slash(bobs, "puzzominos giveup"))
    bob_line = posts(home)[-1].content
    assert "**bob** finished today's daily challenge" in bob_line
    assert f"gave up with 3 of {target.needed} pieces placed (1 hint)" in bob_line
    assert "2nd of 2 in this server" in bob_line and "streak" not in bob_line
    assert not attachments_in(home), "the channel never shows a board (his give-up shows a solution)"
    replay = await bob.slash(home, "puzzominos replay", game_id=game_id)
    assert shown(replay).attachments, "finished: he may watch hers now"

    # cara, in the other server, plays two pieces and stops for now
    private(await cara.slash(away, "puzzominos daily"))
    caras = thread_of(away, "cara")
    await play(cara, caras, moves[0])

    # the leaderboards: this server, and everywhere
    here = (await alice.slash(home, "puzzominos dailyboard")).response
    text = here.embeds[0].description
    assert text.splitlines()[0].startswith(f"**1.** <@{alice.id}> — solved without hints in {took}")
    assert text.splitlines()[1].startswith(f"**2.** <@{bob.id}> — gave up with 3 of")
    assert f"<@{cara.id}>" not in text, "this server's board"
    everywhere = (await cara.slash(away, "puzzominos dailyboard", scope="global")).response.embeds[0]
    assert f"Still playing: <@{cara.id}>" in everywhere.description
    assert f"<@{alice.id}>" in everywhere.description and f"<@{bob.id}>" in everywhere.description

    # today, bob gives up a public solitaire of tomorrow's target (its record shows a solution)
    now = env.bot.service.now()
    tomorrow = daily.day_of(daily.next_day_starts(today) + 3600)
    await bob.slash(home, "puzzominos solo", target=daily.target_of(tomorrow).name)
    ((public_solo,),) = rows(db_path, "SELECT MAX(id) FROM games WHERE host_id = ?", bob.id)
    await bob.slash(home, "puzzominos giveup")
    assert game_state(db_path, public_solo)[0] != "playing"
    assert shown(await alice.slash(home, "puzzominos replay", game_id=public_solo)).attachments

    # the next day: another target; its public solitaire is hidden from alice until she has
    # finished; she solves it too, and her streak grows
    await env.advance_time(daily.next_day_starts(today) - now + 3600)
    assert env.bot.service.dailies.today() == tomorrow and daily.target_of(tomorrow) != target
    refused(env, await alice.slash(home, "puzzominos replay", game_id=public_solo), "today's daily challenge")
    refused(env, await alice.slash(home, "puzzominos export", game_id=public_solo), "today's daily challenge")
    assert shown(await bob.slash(home, "puzzominos replay", game_id=public_solo)).attachments, "his own"
    private(await alice.slash(home, "puzzominos daily"))
    second = thread_of(home, "alice", tomorrow)
    for move in solution(tomorrow):
        await play(alice, second, move)
    assert "streak 2 days" in posts(home)[-1].content
    assert shown(await alice.slash(home, "puzzominos replay", game_id=public_solo)).attachments
    yesterday = (await bob.slash(home, "puzzominos dailyboard", day=today)).response.embeds[0]
    assert yesterday.title.startswith(f"Daily challenge {today} — {target.name}")
