"""A game's place, through SimCord (issue 22, items 2-4): its thread deleted by a moderator,
locked, archived by Discord, or closed to the bot; the bot without the permissions to post,
attach its pictures or make threads; the thread's id lost when its write failed at the start.
The game always goes on, its players are told where, and what the bot may not do is said to
the player who moved and to the host (by direct message), with who can grant it; the game's
place is stored, so a restart finds it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.client import TilehostBot
from tests.e2e.helpers import (
    Pings,
    boards,
    build_bot,
    game_state,
    make_world,
    posts,
    private,
    room,
    rows,
    start_game,
    to_act,
)

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.triominos")
ARCHIVED_THREAD = 50083


@pytest.fixture
def simcord_bot(db_path: str, seed: list[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, seed)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "games", ("alice", "bob", "mod"))


async def begin(world: Any, db_path: str) -> tuple[int, Any]:
    """Alice (the host) and Bob start a Tri-Ominos game and play its first turn: the game's
    id and its thread."""
    env, channel, people = world
    game_id = await start_game(env, channel, "triominos", people["alice"], people["bob"], target=200)
    thread = room(channel, game_id)
    assert thread is not channel
    await turn(thread, to_act(db_path, game_id, people))
    return game_id, thread


async def turn(place: Any, who: Any) -> list[str]:
    """``who`` plays the first suggestion from ``place``: what they were told privately (the
    first answer is "Recorded"; a second says what the bot could not do)."""
    choices = await who.autocomplete(place, "triominos play", "move", "")
    value = choices[0]["value"]
    command = f"triominos {value}" if value in ("draw", "pass") else "triominos play"
    options = {} if value in ("draw", "pass") else {"move": value}
    result = await who.slash(place, command, **options)
    told = [
        message.content for message in (result.response, *result.followups) if message and message.content
    ]
    assert told and told[0].startswith("✅ Recorded"), told
    assert all(message.ephemeral for message in (result.response, *result.followups) if message)
    return told


def stored_place(db_path: str, game_id: int) -> tuple[int | None, int | None]:
    """``(thread_id, room_id)`` as stored."""
    ((thread_id, room_id),) = rows(db_path, "SELECT thread_id, room_id FROM games WHERE id = ?", game_id)
    return thread_id, room_id


def deny(env: Any, channel: Any, **permissions: bool) -> None:
    """A server admin denies the bot ``permissions`` in ``channel`` (its threads inherit them)."""
    denied = discord.Permissions(**permissions).value
    env.backend.set_overwrite(channel.id, Overwrite(env.bot.user.id, OverwriteType.MEMBER, 0, denied))


def allow_again(env: Any, channel: Any) -> None:
    env.backend.delete_overwrite(channel.id, env.bot.user.id)


def direct_messages(who: Any) -> list[str]:
    return [message.content for message in who.user.dm_channel.history()]


def new_ping(pings: Pings, mark: int, place: Any) -> list[frozenset[int]]:
    """Who the messages created in ``place`` since ``mark`` notified."""
    return [users for channel_id, users, _ in pings.created[mark:] if channel_id == place.id and users]


async def restart(env: Any, db_path: str, seed: list[int]) -> None:
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))


# -- the thread goes away ----------------------------------------------------------------------


async def test_a_deleted_thread_goes_on_in_a_new_one_at_once_and_after_a_restart(
    world: Any, db_path: str, seed: list[int]
) -> None:
    env, channel, people = world
    game_id, thread = await begin(world, db_path)
    waiting = to_act(db_path, game_id, people)
    pings = Pings(env)
    env.backend.delete_channel(thread.id)  # a moderator deletes it
    await env.settle()
    new = room(channel, game_id)
    assert new is not channel and new.id != thread.id
    assert stored_place(db_path, game_id) == (new.id, None)
    notice = posts(channel)[-1].content
    assert f"**Tri-Ominos** #{game_id} was deleted: the game goes on in a new thread" in notice
    assert new_ping(pings, 0, new) == [frozenset({waiting.id})], "the player to act is told where"
    assert set(env.backend.channels[new.id].thread_members) >= {
        people["alice"].id,
        people["bob"].id,
    }
    told = await turn(channel, waiting)  # from the channel
    assert len(told) == 1, told
    assert len(boards(new)) == 2 and new_ping(pings, 0, new)[-1] == frozenset(
        {to_act(db_path, game_id, people).id}
    )
    await restart(env, db_path, seed)
    await turn(new, to_act(db_path, game_id, people))
    assert len(boards(new)) == 3, "after a restart the game is still in its new thread"


async def test_a_thread_deleted_unseen_is_replaced_when_the_next_move_is_shown(
    world: Any, db_path: str
) -> None:
    env, channel, people = world
    game_id, thread = await begin(world, db_path)
    env.bot.remove_listener(env.bot.announcer.on_raw_thread_delete, "on_raw_thread_delete")
    env.backend.delete_channel(thread.id)
    await env.settle()
    assert room(channel, game_id) is channel, "the bot did not hear of it"
    told = await turn(channel, to_act(db_path, game_id, people))
    assert len(told) == 1, told
    new = room(channel, game_id)
    assert new is not channel and stored_place(db_path, game_id) == (new.id, None)
    assert "was deleted: the game goes on in a new thread" in posts(channel)[-1].content
    assert len(boards(new)) == 1 and to_act(db_path, game_id, people).mention in boards(new)[0].content


async def test_a_locked_thread_goes_on_in_a_new_one(world: Any, db_path: str) -> None:
    env, channel, people = world
    game_id, thread = await begin(world, db_path)
    env.backend.edit_channel(thread.id, {}, thread_metadata={"locked": True})
    await env.settle()
    new = room_other_than(channel, game_id, thread)
    assert stored_place(db_path, game_id) == (new.id, None)
    assert "was locked: the game goes on in a new thread" in posts(channel)[-1].content
    await turn(new, to_act(db_path, game_id, people))
    assert len(boards(new)) == 2


def room_other_than(channel: Any, game_id: int, old: Any) -> Any:
    threads = [t for t in channel.threads if f" #{game_id} " in f"{t.name} " and t.id != old.id]
    assert len(threads) == 1, [t.name for t in channel.threads]
    return threads[0]


@pytest.fixture
def archiving(simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Discord's archived threads, which SimCord does not enforce: while a thread is archived,
    the bot's posts and edits in it are refused (50083) until it is reopened."""
    env = simcord_env
    edit = env.backend.edit_channel

    def archive(thread: Any) -> None:
        edit(thread.id, {}, thread_metadata={"archived": True})
        for method, path in (
            ("POST", f"/channels/{thread.id}/messages"),
            ("PATCH", f"/channels/{thread.id}/messages/*"),
        ):
            env.inject_error(
                method, path, status=400, code=ARCHIVED_THREAD, message="Thread is archived", times=None
            )

    def reopening(channel_id: int, changes: Any, **kwargs: Any) -> Any:
        metadata = kwargs.get("thread_metadata") or {}
        if metadata.get("archived") is False:
            env.backend.faults[:] = [
                f for f in env.backend.faults if f"/channels/{channel_id}/" not in f["path"]
            ]
        return edit(channel_id, changes, **kwargs)

    monkeypatch.setattr(env.backend, "edit_channel", reopening)
    yield archive


async def test_an_archived_thread_is_reopened(world: Any, db_path: str, archiving: Any) -> None:
    env, channel, people = world
    game_id, thread = await begin(world, db_path)
    before = len(posts(channel))
    archiving(thread)
    await env.settle()
    told = await turn(channel, to_act(db_path, game_id, people))
    assert len(told) == 1, told
    assert room(channel, game_id).id == thread.id and stored_place(db_path, game_id) == (thread.id, None)
    assert not env.backend.channels[thread.id].thread_metadata.archived
    assert len(boards(thread)) == 3 and len(posts(channel)) == before, "no notice: it is the same thread"


async def test_without_threads_left_the_game_goes_on_in_its_channel(
    world: Any, db_path: str, seed: list[int]
) -> None:
    env, channel, people = world
    game_id, thread = await begin(world, db_path)
    deny(env, channel, create_public_threads=True)
    env.backend.delete_channel(thread.id)
    await env.settle()
    assert stored_place(db_path, game_id) == (thread.id, channel.id)
    notice = posts(channel)[-2].content
    assert "was deleted: the game goes on here, in this channel" in notice, notice
    assert to_act(db_path, game_id, people).mention in posts(channel)[-1].content
    alice = people["alice"]
    assert any("**Create Public Threads**" in text for text in direct_messages(alice)), "the host is told"
    await restart(env, db_path, seed)
    count = len(boards(channel))
    await turn(channel, to_act(db_path, game_id, people))
    assert len(boards(channel)) == count + 1


# -- what the bot may not do ---------------------------------------------------------------------


async def test_without_attach_files_boards_go_without_pictures_and_everyone_is_told(
    world: Any, db_path: str
) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id, thread = await begin(world, db_path)
    deny(env, channel, attach_files=True)
    mover = to_act(db_path, game_id, people)
    told = await turn(thread, mover)
    assert len(told) == 2 and "**Attach Files**" in told[1] and f"<#{channel.id}>" in told[1], told
    assert "a server admin can allow it" in told[1]
    shown = posts(thread)[-1]
    assert not shown.attachments and "No picture: Tilehost may not attach files here" in shown.content
    host_told = [text for text in direct_messages(alice) if "Attach Files" in text]
    assert bool(host_told) == (mover is bob), "the host is told by direct message when someone else moved"
    allow_again(env, channel)
    await turn(thread, to_act(db_path, game_id, people))
    assert posts(thread)[-1].attachments, "pictures come back with the permission"


async def test_without_send_messages_in_threads_the_game_goes_on_in_its_channel(
    world: Any, db_path: str
) -> None:
    env, channel, people = world
    game_id, thread = await begin(world, db_path)
    deny(env, channel, send_messages_in_threads=True)
    mover = to_act(db_path, game_id, people)
    told = await turn(thread, mover)
    assert len(told) == 2 and "**Send Messages in Threads**" in told[1], told
    assert stored_place(db_path, game_id) == (thread.id, channel.id)
    assert "is closed to Tilehost" in posts(channel)[-2].content
    assert (
        posts(channel)[-1].attachments
        and to_act(db_path, game_id, people).mention in posts(channel)[-1].content
    )
    await turn(thread, to_act(db_path, game_id, people))  # a command in the old thread still finds it
    assert len(boards(channel)) == 2


async def test_without_create_public_threads_the_host_is_told_at_the_start(world: Any, db_path: str) -> None:
    env, channel, people = world
    deny(env, channel, create_public_threads=True)
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "triominos new", target=200)
    await bob.slash(channel, "triominos join")
    result = await alice.slash(channel, "triominos start")
    said = private(result).content
    assert "has started." in said and "**Create Public Threads**" in said, said
    game_id = int(rows(db_path, "SELECT id FROM games")[0][0])
    assert room(channel, game_id) is channel and stored_place(db_path, game_id) == (None, channel.id)


async def test_without_send_messages_nothing_is_posted_and_that_is_said(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    deny(env, channel, create_public_threads=True)
    game_id = await start_game(env, channel, "triominos", alice, bob, target=200)
    deny(env, channel, create_public_threads=True, send_messages=True)
    before = len(posts(channel))
    mover = to_act(db_path, game_id, people)
    told = await turn(channel, mover)
    assert len(told) == 2 and "no board could be posted" in told[1] and "**Send Messages**" in told[1], told
    assert len(posts(channel)) == before
    assert game_state(db_path, game_id)[1] >= 1, "the move is stored"


# -- the thread's id, lost ---------------------------------------------------------------------


def failing_thread_writes(env: Any, monkeypatch: pytest.MonkeyPatch, times: int | None) -> list[int]:
    """The database refuses to store a game's thread ``times`` times (None: always)."""
    storage = env.bot.storage
    write = storage.set_thread
    failed: list[int] = []

    async def refuse(game_id: int, thread_id: int) -> None:
        if times is None or len(failed) < times:
            failed.append(thread_id)
            raise OSError("disk I/O error")
        await write(game_id, thread_id)

    monkeypatch.setattr(storage, "set_thread", refuse)
    return failed


async def test_a_thread_write_that_fails_once_is_tried_again(
    world: Any, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, people = world
    failed = failing_thread_writes(env, monkeypatch, times=1)
    game_id = await start_game(env, channel, "triominos", people["alice"], people["bob"], target=200)
    thread = room(channel, game_id)
    assert failed == [thread.id] and stored_place(db_path, game_id) == (thread.id, None)


async def test_a_lost_thread_id_is_found_again_after_a_restart(
    world: Any, db_path: str, seed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, people = world
    failing_thread_writes(env, monkeypatch, times=None)
    game_id = await start_game(env, channel, "triominos", people["alice"], people["bob"], target=200)
    thread = room(channel, game_id)
    await turn(thread, to_act(db_path, game_id, people))
    assert len(boards(thread)) == 2, "the game plays in its thread all along"
    assert stored_place(db_path, game_id) == (None, None)
    env.errors.clear()
    monkeypatch.undo()
    await restart(env, db_path, seed)
    await turn(channel, to_act(db_path, game_id, people))  # from the channel: shown in the thread
    assert len(boards(thread)) == 3 and len(boards(channel)) == 0
    assert stored_place(db_path, game_id) == (thread.id, None)
    await restart(env, db_path, seed)
    board = private(await people["bob"].slash(thread, "triominos board"))
    assert f"#{game_id}" in board.content, "the thread answers for its game"


async def test_a_lost_thread_answers_for_its_game_after_a_restart(
    world: Any, db_path: str, seed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, people = world
    failing_thread_writes(env, monkeypatch, times=None)
    game_id = await start_game(env, channel, "triominos", people["alice"], people["bob"], target=200)
    thread = room(channel, game_id)
    env.errors.clear()
    monkeypatch.undo()
    await restart(env, db_path, seed)
    await turn(thread, to_act(db_path, game_id, people))
    assert stored_place(db_path, game_id) == (thread.id, None)
    assert len(boards(thread)) == 2 and len(boards(channel)) == 0
