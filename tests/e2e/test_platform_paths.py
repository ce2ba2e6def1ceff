"""Every path of the platform around a game, through SimCord with the test-only Tiny Tiles game:
refusals, the lobby message, double clicks and races, several games from one channel, the
threads setting, missing thread permissions, aborts, reminders and clocks, buttons after a
restart, Discord failures. (The whole game in its thread, its pings and names are in
``test_platform.py``.)"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from simcord import SetupError

from bot import errors
from tests.e2e.helpers import (
    Watch,
    boards,
    game_state,
    last_board,
    make_world,
    posts,
    private,
    refused,
    room,
    rows,
    seat_names,
    shown,
    table_counts,
    to_act,
)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tiles Club", "games", ("alice", "bob", "cara", "dan"))


def newest_game(db_path: str) -> int:
    """The id of the game opened last."""
    return int(rows(db_path, "SELECT MAX(id) FROM games")[0][0])


async def open_table(db_path: str, channel: Any, host: Any, *guests: Any, **options: Any) -> int:
    """``host`` opens a Tiny Tiles lobby here, ``guests`` join, the host starts: the game id."""
    await host.slash(channel, "tiny new", **options)
    for guest in guests:
        await guest.slash(channel, "tiny join")
    private(await host.slash(channel, "tiny start"))
    return newest_game(db_path)


async def take_turn(place: Any, who: Any) -> Any:
    """``who`` plays the first suggestion; the private acknowledgement."""
    choices = await who.autocomplete(place, "tiny play", "move", "")
    assert choices, "autocomplete offers the legal moves"
    ack = private(await who.slash(place, "tiny play", move=choices[0]["value"]))
    assert ack.content.startswith("✅ Recorded"), ack.content
    return ack


async def play_out(db_path: str, game_id: int, place: Any, people: dict[str, Any], watch: Watch) -> None:
    """Everyone to act takes the first suggestion until the game ends, checked after each move."""
    for _ in range(60):
        if game_state(db_path, game_id)[0] != "playing":
            return
        mover = to_act(db_path, game_id, people)
        await take_turn(place, mover)
        watch.after(game_id, mover.id)
    raise AssertionError("the game did not end")


def archived(env: Any, thread: Any) -> bool:
    """Whether the bot archived ``thread``."""
    return any(
        request.method == "PATCH"
        and request.path == f"/channels/{thread.id}"
        and (request.json or {}).get("archived")
        for request in env.http_requests
    )


def pinged(message: Any) -> set[int]:
    """Who a message pings."""
    return {user.id for user in message.mentions}


async def test_refusals_are_private_and_store_nothing(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob, cara, dan = (people[name] for name in ("alice", "bob", "cara", "dan"))
    refused(env, await alice.slash(channel, "tiny join"), "no Tiny Tiles lobby here")
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await cara.slash(channel, "tiny join")
    before = table_counts(db_path)
    checks = [
        (dan, "tiny join", {}, "table is full"),
        (alice, "tiny join", {}, "already have a seat"),
        (dan, "tiny leave", {}, "no seat"),
        (alice, "tiny play", {"move": "3"}, "has not started"),
        (bob, "tiny start", {}, "Only the host"),
        (bob, "tiny computer", {}, "Only the host"),
        (bob, "tiny abort", {}, "Only the host"),
        (alice, "tiny new", {}, "already has an open Tiny Tiles lobby"),
        (alice, "tiny export", {}, "No Tiny Tiles game has ended"),
    ]
    for who, command, options, expected in checks:
        refused(env, await who.slash(channel, command, **options), expected)
    assert table_counts(db_path) == before
    private(await alice.slash(channel, "tiny start"))
    game_id = newest_game(db_path)
    thread = room(channel, game_id)
    assert thread is not channel
    _, _, seat = game_state(db_path, game_id)
    names = seat_names(db_path, game_id)
    mover = people[names[seat]]
    waiting = people[names[(seat + 1) % 3]]
    before = table_counts(db_path)
    checks = [
        (mover, "tiny play", {"move": "banana"}, "not a move"),
        (mover, "tiny play", {"move": "9"}, "not allowed now"),
        (mover, "tiny play", {"move": "7" * 500}, "too long"),
        (waiting, "tiny draw", {}, "not your turn"),
        (dan, "tiny draw", {}, "not playing in this"),
        (dan, "tiny hand", {}, "not playing in this game"),
        (waiting, "tiny hint", {}, "not your turn"),
        (mover, "tiny export", {"game_id": game_id}, "still running"),
        (mover, "tiny replay", {"game_id": game_id}, "still running"),
        (dan, "tiny join", {}, "no Tiny Tiles lobby"),
        (alice, "tiny start", {}, "no Tiny Tiles lobby"),
        (dan, "tiny new", {}, "is being played"),
    ]
    for who, command, options, expected in checks:
        refused(env, await who.slash(thread, command, **options), expected)
    refused(env, await dan.slash(channel, "tiny play", move="3"), "not playing")
    assert table_counts(db_path) == before
    assert game_state(db_path, game_id)[1] == 0


async def test_lobby_message_is_edited_in_place_and_loses_its_buttons(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    opened = await alice.slash(channel, "tiny new")
    assert not opened.response.ephemeral and "lobby" in opened.response.content
    (lobby,) = posts(channel)

    def the_lobby() -> Any:
        (message,) = posts(channel)
        assert message.id == lobby.id, "the lobby is edited, never posted again"
        assert not pinged(message) and "<@" not in message.content, "a lobby pings nobody"
        return message

    assert [c.label for row in the_lobby().components for c in row.children] == [
        "Join",
        "Add computer",
        "Start",
    ]
    assert private(await bob.slash(channel, "tiny join")).content.startswith("You have a seat")
    assert "2. **bob**" in the_lobby().content
    joined = await cara.click(the_lobby(), label="Join")
    assert "3. **cara**" in shown(joined).content and "3. **cara**" in the_lobby().content
    assert private(await cara.slash(channel, "tiny leave")).content.startswith("You left")
    assert "cara" not in the_lobby().content
    await alice.click(the_lobby(), label="Add computer")
    assert "3. **Ada** (computer, normal)" in the_lobby().content
    private(await alice.slash(channel, "tiny start"))
    game_id = newest_game(db_path)
    thread = room(channel, game_id)
    started = the_lobby()
    assert "has started" in started.content and thread.mention in started.content
    assert not started.components, "the lobby's buttons go when the game starts"
    with pytest.raises(SetupError):
        await bob.click(started, label="Join")
    assert boards(thread), "the boards go to the game's thread"


async def test_double_clicks_and_a_join_racing_the_start_keep_seats_consistent(
    world: Any, db_path: str
) -> None:
    env, channel, people = world
    alice, bob, cara, dan = (people[name] for name in ("alice", "bob", "cara", "dan"))
    service = env.bot.service
    await alice.slash(channel, "tiny new")
    lobby = posts(channel)[0]
    await bob.click(lobby, label="Join")
    again = await bob.click(posts(channel)[0], label="Join")
    assert private(again).content == "You already have a seat at this table."
    assert posts(channel)[0].content.count("**bob**") == 1
    first = service.get(newest_game(db_path))
    assert first is not None

    # a join arriving while the start is stored waits for it, then finds the game started
    start, join = await asyncio.gather(
        service.start(first, alice.id), service.join(first, cara.id, "cara"), return_exceptions=True
    )
    assert isinstance(join, errors.AlreadyStarted) and not isinstance(start, BaseException)
    await env.bot.announcer.caught_up(first.id, seconds=30)
    assert sorted(seat_names(db_path, first.id).values()) == ["alice", "bob"]
    assert [seat.name for seat in first.seats] == list(seat_names(db_path, first.id).values())
    thread = room(channel, first.id)
    assert sorted(thread.name.split(" · ")[1].split(", ")) == ["alice", "bob"]
    assert len(boards(thread)) == 1

    # a join stored before the start is in the game; a second start is refused
    other = env.guild.create_text_channel("more-games")
    await cara.slash(other, "tiny new")
    second = service.get(newest_game(db_path))
    assert second is not None
    results = await asyncio.gather(
        service.join(second, dan.id, "dan"),
        service.start(second, cara.id),
        service.start(second, cara.id),
        return_exceptions=True,
    )
    assert [type(result) for result in results[1:]].count(errors.AlreadyStarted) == 1
    await env.bot.announcer.caught_up(second.id, seconds=30)
    assert sorted(seat_names(db_path, second.id).values()) == ["cara", "dan"]
    assert len(other.threads) == 1 and len(boards(room(other, second.id))) == 1

    # the same move twice at once is stored once
    mover = to_act(db_path, second.id, people)
    plays = await asyncio.gather(
        service.play(second, mover.id, "draw"), service.play(second, mover.id, "draw"), return_exceptions=True
    )
    assert isinstance(plays[1], errors.NotYourTurn), plays
    assert rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ?", second.id) == [(1,)]
    await env.bot.announcer.caught_up(second.id, seconds=30)
    assert len(boards(room(other, second.id))) == 2
    # and the game goes on through the commands (which also hands the turn clock back to the bot:
    # armed from this test's own task above, SimCord would not stop it with the bot)
    await take_turn(room(other, second.id), to_act(db_path, second.id, people))
    assert game_state(db_path, second.id)[1] == 2


async def test_several_games_from_one_channel_and_the_threads_setting(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob, cara, dan = (people[name] for name in ("alice", "bob", "cara", "dan"))
    first = await open_table(db_path, channel, alice, bob)
    second = await open_table(db_path, channel, cara, dan)
    one, two = room(channel, first), room(channel, second)
    assert one is not channel and two is not channel and one.id != two.id
    listing = str(private(await dan.slash(channel, "games")).embeds[0].to_dict())
    assert f"<#{one.id}>" in listing and f"<#{two.id}>" in listing
    await take_turn(one, to_act(db_path, first, people))
    await take_turn(two, to_act(db_path, second, people))
    assert game_state(db_path, first)[1] == 1 and game_state(db_path, second)[1] == 1
    mine = private(await cara.slash(channel, "tiny hand"))
    assert f"#{second}" in mine.content, "in the channel, a command means the user's own game"

    admins = env.guild.create_role(
        "admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True)
    )
    admin = env.guild.add_member(env.create_user("admin"), roles=[admins])
    said = private(await admin.slash(channel, "tilehost threads", enabled=False))
    assert "in their channels" in said.content
    third = await open_table(db_path, channel, admin, people["bob"])
    assert room(channel, third) is channel and len(channel.threads) == 2, "with threads off, the channel"
    assert last_board(channel).content.startswith(f"**Tiny Tiles** #{third}")
    refused(env, await dan.slash(channel, "tiny new"), "is being played in this channel")
    await take_turn(one, to_act(db_path, first, people))
    assert game_state(db_path, first)[1] == 2, "a game started in its thread stays there"
    assert len(boards(one)) == 3
    private(await admin.slash(channel, "tilehost threads", enabled=True))
    assert rows(db_path, "SELECT threads FROM guild_settings") == [(1,)]


async def test_a_bot_that_may_not_post_in_threads_plays_in_the_channel(
    simcord_env: Any, db_path: str
) -> None:
    env = simcord_env
    guild = env.create_guild("Strict Club")
    channel = guild.create_text_channel(
        "games", overwrites={env.bot.user: discord.PermissionOverwrite(send_messages_in_threads=False)}
    )
    people = {name: guild.add_member(env.create_user(name)) for name in ("alice", "bob")}
    game_id = await open_table(db_path, channel, people["alice"], people["bob"])
    assert room(channel, game_id) is channel and not channel.threads
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    await play_out(db_path, game_id, channel, people, watch)
    watch.finish(game_id)
    assert "Game over" in posts(channel)[-1].content


async def test_abort_by_the_host_and_by_a_moderator(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    await alice.slash(channel, "tiny new")
    called_off = private(await alice.slash(channel, "tiny abort"))
    assert "was called off" in called_off.content
    (lobby,) = posts(channel)
    assert "was called off" in lobby.content and not lobby.components, "the lobby says so, without buttons"

    game_id = await open_table(db_path, channel, alice, bob)
    thread = room(channel, game_id)
    await take_turn(thread, to_act(db_path, game_id, people))
    assert "tilehost abort" not in bob.available_commands(channel), "only for moderators"
    mods = env.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    mod = env.guild.add_member(env.create_user("mod"), roles=[mods])
    elsewhere = env.create_guild("Elsewhere")
    far = elsewhere.create_text_channel("games")
    stranger = elsewhere.add_member(env.create_user("stranger"))
    away = await open_table(db_path, far, stranger, elsewhere.add_member(env.create_user("friend")))
    refused(env, await mod.slash(channel, "tilehost abort", game_id=away), f"no running game #{away}")
    refused(env, await mod.slash(channel, "tilehost abort", game_id=999), "no running game #999")
    before = table_counts(db_path)
    done = private(await mod.slash(channel, "tilehost abort", game_id=game_id))
    assert f"**Tiny Tiles** #{game_id} was called off" in done.content
    assert game_state(db_path, game_id)[0] == "aborted"
    after = table_counts(db_path)
    assert after == before and not rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)
    assert "was called off" in posts(thread)[-1].content
    assert archived(env, thread), "the game's thread is archived"
    refused(env, await bob.slash(thread, "tiny draw"), "no Tiny Tiles game here")
    assert game_state(db_path, away)[0] == "playing", "a game of another server is untouched"
    await cara.slash(channel, "tiny new")
    assert game_state(db_path, newest_game(db_path))[0] == "lobby", "the channel is free again"


async def test_reminder_and_timeout_ping_only_the_player_to_act(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    private(await bob.slash(channel, "settings reminders", direct_messages=True))
    game_id = await open_table(db_path, channel, alice, bob, cara)
    thread = room(channel, game_id)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    await take_turn(thread, to_act(db_path, game_id, people))
    watch.after(game_id)
    late = to_act(db_path, game_id, people)
    count = len(posts(thread))
    await env.advance_time(23 * 3600 + 60)
    reminder = posts(thread)[-1]
    assert len(posts(thread)) == count + 1 and "still your turn" in reminder.content
    assert pinged(reminder) == {late.id}, "the reminder pings the player to act, nobody else"
    watch.after(game_id)
    dms = [message.content for message in bob.user.dm_channel.history()] if late is bob else []
    assert (late is bob) == bool(dms) and all("still your turn" in text for text in dms)
    await env.advance_time(3600)
    timed_out = posts(thread)[-1]
    assert f"**{late.name}** ran out of time: forfeits" in timed_out.content, timed_out.content
    nxt = to_act(db_path, game_id, people)
    assert pinged(timed_out) == {nxt.id} and nxt is not late, "the next turn pings its player only"
    watch.after(game_id)
    assert rows(db_path, "SELECT notation, user_id FROM moves WHERE game_id = ? ORDER BY ply", game_id)[
        -1
    ] == (
        "!timeout",
        None,
    )
    assert game_state(db_path, game_id)[0] == "playing", "the other two play on"


async def test_clock_survives_a_restart(world: Any, db_path: str, make_bot: Any) -> None:
    env, channel, people = world
    game_id = await open_table(db_path, channel, people["alice"], people["bob"])
    late = to_act(db_path, game_id, people)
    await env.advance_time(3600)
    await env.restart_bot(make_bot())
    await env.advance_time(23 * 3600 + 1)
    assert game_state(db_path, game_id)[0] == "finished"
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [("!timeout",)]
    ranks = dict(rows(db_path, "SELECT user_id, rank FROM results WHERE game_id = ?", game_id))
    assert ranks[late.id] == 2
    assert f"**{late.name}** ran out of time" in last_board(room(channel, game_id)).content
    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments


async def test_buttons_work_after_a_restart(world: Any, db_path: str, make_bot: Any) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "tiny new")
    await env.restart_bot(make_bot())
    joined = await bob.click(posts(channel)[0], label="Join")
    assert "2. **bob**" in shown(joined).content
    computer = await alice.click(posts(channel)[0], label="Add computer")
    assert "(computer, normal)" in shown(computer).content
    await alice.click(posts(channel)[0], label="Start")
    game_id = newest_game(db_path)
    assert game_state(db_path, game_id)[0] == "playing"
    await env.restart_bot(make_bot())
    hand = private(await bob.click(last_board(room(channel, game_id)), label="My tiles"))
    assert hand.attachments and hand.content.startswith("Your hand in **Tiny Tiles**")


async def test_computers_fill_seats_and_answer(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "tiny new", hand=2)
    await alice.slash(channel, "tiny computer")
    await alice.slash(channel, "tiny computer", level="easy")
    await alice.slash(channel, "tiny start")
    game_id = newest_game(db_path)
    thread = room(channel, game_id)
    watch = Watch(env, channel, db_path)
    for _ in range(40):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[seat] == "alice", "computers move at once"
        await take_turn(thread, alice)
        watch.after(game_id)
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] > 0
    assert all(not pinged(message) - {alice.id} for message in posts(thread)), "computers are never pinged"


async def test_discord_failures_after_a_move_lose_nothing(world: Any, db_path: str) -> None:
    env, channel, people = world
    game_id = await open_table(db_path, channel, people["alice"], people["bob"])
    thread = room(channel, game_id)
    mover = to_act(db_path, game_id, people)
    env.inject_error("POST", "/webhooks/*", status=500)
    await mover.slash(thread, "tiny draw")
    assert game_state(db_path, game_id)[1] == 1, "the move is stored though its answer failed"
    assert "played `draw`" in last_board(thread).content, "and its board is shown"
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=500)
    mover = to_act(db_path, game_id, people)
    await mover.slash(thread, "tiny draw")
    assert game_state(db_path, game_id)[1] == 2, "a board that could not be posted loses no move"
    mover = to_act(db_path, game_id, people)
    await take_turn(thread, mover)
    assert game_state(db_path, game_id)[1] == 3
    assert "draw" in last_board(thread).content, "the next board tells what was missed"
    assert all(isinstance(error, discord.HTTPException) for error in env.errors)


async def test_failed_lobby_reply_is_posted_in_the_channel(world: Any, db_path: str) -> None:
    env, channel, people = world
    env.inject_error("POST", "/interactions/*/callback", status=500)
    await people["alice"].slash(channel, "tiny new")
    assert rows(db_path, "SELECT status FROM games") == [("lobby",)]
    (lobby,) = posts(channel)
    assert "lobby, host **alice**" in lobby.content and lobby.components
    await people["bob"].click(lobby, label="Join")
    assert "2. **bob**" in posts(channel)[0].content
    assert all(isinstance(error, discord.HTTPException) for error in env.errors)


async def test_unexpected_error_says_nothing_was_recorded(
    world: Any, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, people = world
    game_id = await open_table(db_path, channel, people["alice"], people["bob"])
    thread = room(channel, game_id)
    mover = to_act(db_path, game_id, people)
    shown_before = len(posts(thread))

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(env.bot.storage, "record_moves", broken)
    said = private(await mover.slash(thread, "tiny draw"))
    assert "nothing was recorded" in said.content
    assert game_state(db_path, game_id)[1] == 0 and len(posts(thread)) == shown_before
    assert [str(getattr(error, "original", error)) for error in env.errors] == ["the disk is full"]
    monkeypatch.undo()
    await take_turn(thread, mover)
    assert game_state(db_path, game_id)[1] == 1, "the game goes on once the disk is back"


async def test_board_rules_listing_help_resign_and_export(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    game_id = await open_table(db_path, channel, alice, bob)
    thread = room(channel, game_id)
    board = private(await cara.slash(thread, "tiny board"))
    assert board.attachments and "Scores: **" in board.content
    public = shown(await cara.slash(thread, "tiny board", public=True))
    assert not public.ephemeral and "<@" not in public.content
    rules = private(await bob.slash(thread, "tiny rules"))
    assert rules.embeds and [a.filename for a in rules.attachments] == ["tiny-rules.png"]
    listing = str(private(await bob.slash(channel, "games")).embeds[0].to_dict())
    assert "Running here" in listing and f"<#{thread.id}>" in listing
    assert "/tiny" in private(await bob.slash(channel, "help")).content
    assert "on" in private(await bob.slash(channel, "settings reminders", direct_messages=True)).content
    resigned = private(await bob.slash(thread, "tiny resign"))
    assert resigned.content.startswith("✅ Recorded: you resigned."), resigned.content
    result = posts(channel)[-1]
    assert "Game over" in result.content and "**alice** wins" in result.content
    assert pinged(result) == {alice.id}, "the result pings the players, not the one who resigned"
    finished = private(await cara.slash(channel, "tiny board"))
    assert "Game over" in finished.content and finished.attachments
    exported = shown(await bob.slash(channel, "tiny export"))
    data = await exported.attachments[0].read()
    assert b'game: "tiny"' in data and b"!resign" in data
    by_id = shown(await bob.slash(channel, "tiny export", game_id=game_id))
    assert await by_id.attachments[0].read() == data
