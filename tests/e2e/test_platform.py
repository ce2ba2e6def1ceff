"""The platform end to end through SimCord, with the test-only Tiny Tiles game: a whole game in
its thread, what the channel and the thread show, who gets pinged, restarts."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot import looping
from tests.e2e.helpers import (
    boards,
    game_state,
    last_board,
    only_game,
    posts,
    private,
    room,
    rows,
    shown,
    start_game,
    to_act,
)

SEAT_WORDS = re.compile(r"\bseat \d", re.IGNORECASE)


@pytest.fixture
def table(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    people = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "cara")}
    return simcord_env, guild, channel, people


def pinged(message: Any) -> set[int]:
    """The users a message pings (its mentions, as Discord resolves them)."""
    return {user.id for user in message.mentions}


async def play_out(env: Any, channel: Any, db_path: str, people: dict[str, Any], restart: Any = None) -> int:
    """Play the game here to its end with the first suggestion each time; return the plies."""
    game_id = only_game(db_path)
    place = room(channel, game_id)
    plies = 0
    while game_state(db_path, game_id)[0] == "playing":
        mover = to_act(db_path, game_id, people)
        choices = await mover.autocomplete(place, "tiny play", "move", "")
        assert choices, "autocomplete offers the legal moves"
        ack = private(await mover.slash(place, "tiny play", move=choices[0]["value"]))
        assert ack.content.startswith("✅ Recorded"), ack.content
        plies += 1
        if restart is not None and plies == 3:
            await env.restart_bot(restart())
    return plies


async def test_whole_game_in_its_thread_with_a_restart(table: Any, make_bot: Any, db_path: str) -> None:
    env, _, channel, people = table
    alice, bob = people["alice"], people["bob"]
    lobby = await alice.slash(channel, "tiny new")
    assert "lobby" in lobby.response.content and not lobby.response.ephemeral
    assert private(await bob.slash(channel, "tiny join")).content.startswith("You have a seat")
    assert "**bob**" in posts(channel)[0].content, "the lobby message is edited, not reposted"
    started = private(await alice.slash(channel, "tiny start"))
    game_id = only_game(db_path)
    thread = room(channel, game_id)
    assert thread is not channel and thread.name.startswith(f"Tiny Tiles #{game_id} · ")
    assert f"<#{thread.id}>" in started.content
    assert f"<#{thread.id}>" in posts(channel)[0].content and not posts(channel)[0].components
    hand = await alice.slash(thread, "tiny hand")
    assert private(hand).attachments
    plies = await play_out(env, channel, db_path, people, restart=make_bot)

    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    in_thread, in_channel = posts(thread), posts(channel)
    assert len(in_thread) == plies, "one board per turn (every tiny move ends a turn; the last one is edited)"
    assert len(in_channel) == 2, "the channel keeps the lobby and gets the result"
    assert "Game over" in in_channel[-1].content and in_channel[-1].attachments
    assert "Game over" in in_thread[-1].content
    for message in [*in_thread, *in_channel]:
        assert not SEAT_WORDS.search(message.content), message.content


async def test_the_live_session_knows_its_thread_and_board_message(table: Any, db_path: str) -> None:
    env, _, channel, people = table
    game_id = await start_game(env, channel, "tiny", people["alice"], people["bob"])
    thread = room(channel, game_id)
    await env.bot.announcer.caught_up(game_id)
    session = env.bot.service.get(game_id)
    assert thread is not channel and session is not None
    assert session.row.thread_id == thread.id, "the thread is in the live row, not only in storage"
    assert session.row.message_id == last_board(thread).id, "and so is the turn's board message"
    ((stored_thread, stored_message),) = rows(
        db_path, "SELECT thread_id, message_id FROM games WHERE id = ?", game_id
    )
    assert (stored_thread, stored_message) == (session.row.thread_id, session.row.message_id)


async def test_a_restart_right_after_a_board_still_knows_that_board(
    table: Any, db_path: str, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, _, channel, people = table
    game_id = await start_game(env, channel, "tiny", people["alice"], people["bob"])
    thread = room(channel, game_id)
    await env.bot.announcer.caught_up(game_id)
    board = last_board(thread).id
    frozen: list[bool] = []
    monkeypatch.setattr(looping, "freeze_the_heap", lambda: frozen.append(True) or True)
    await env.restart_bot(make_bot())  # no move since the board
    assert frozen == [True], "the bot froze the heap once it had restored its games"
    ((stored,),) = rows(db_path, "SELECT message_id FROM games WHERE id = ?", game_id)
    assert stored == board
    session = env.bot.service.get(game_id)
    assert session is not None and session.row.message_id == board


async def test_pings_go_to_the_player_whose_turn_starts(table: Any, db_path: str) -> None:
    env, _, channel, people = table
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await alice.slash(channel, "tiny start")
    await play_out(env, channel, db_path, people)
    game_id = only_game(db_path)
    thread = room(channel, game_id)
    turns = boards(thread)
    moves = rows(db_path, "SELECT seat, user_id FROM moves WHERE game_id = ? ORDER BY ply", game_id)
    seats = dict(rows(db_path, "SELECT seat, user_id FROM seats WHERE game_id = ?", game_id))
    first = seats[moves[0][0]]
    assert pinged(turns[0]) == {first}, "the first board pings the first player"
    for message, (_seat, user) in zip(turns[1:-1], moves, strict=False):
        assert user not in pinged(message), "nobody is pinged for the turn they just played"
        assert len(pinged(message)) == 1
    result = posts(channel)[-1]
    last_mover = moves[-1][1]
    assert pinged(result) == set(seats.values()) - {last_mover}, "the others are pinged with the result"


async def test_names_never_ping_or_format(table: Any, db_path: str) -> None:
    env, guild, channel, people = table
    rogue = guild.add_member(env.create_user("rogue"), nick="@everyone <@1> **big**")
    await rogue.slash(channel, "tiny new")
    await people["alice"].slash(channel, "tiny join")
    await rogue.slash(channel, "tiny start")
    await play_out(env, channel, db_path, {**people, "@everyone <@1> **big**": rogue, "rogue": rogue})
    game_id = only_game(db_path)
    for message in [*posts(channel), *posts(room(channel, game_id))]:
        assert not message.mention_everyone, message.content
        assert "**big**" not in message.content.replace("\\*", ""), message.content
        assert pinged(message) <= {people["alice"].id, rogue.id}


async def test_threads_turned_off_play_in_the_channel(table: Any, db_path: str) -> None:
    env, guild, channel, people = table
    alice, bob = people["alice"], people["bob"]
    assert "tilehost" not in " ".join(bob.available_commands(channel)), "only for those who manage the server"
    admins = guild.create_role(
        "admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True)
    )
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    private(await admin.slash(channel, "tilehost threads", enabled=False))
    assert rows(db_path, "SELECT threads FROM guild_settings") == [(0,)]
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await alice.slash(channel, "tiny start")
    game_id = only_game(db_path)
    assert room(channel, game_id) is channel and not channel.threads
    plies = await play_out(env, channel, db_path, people)
    assert len(posts(channel)) == 1 + plies + 1, "the lobby, one board per turn, then the result"


async def test_without_thread_permission_the_game_plays_in_the_channel(
    simcord_env: Any, db_path: str
) -> None:
    env = simcord_env
    guild = env.create_guild("Locked Club")
    me = env.bot.user
    channel = guild.create_text_channel(
        "games", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    people = {name: guild.add_member(env.create_user(name)) for name in ("alice", "bob")}
    await people["alice"].slash(channel, "tiny new")
    await people["bob"].slash(channel, "tiny join")
    await people["alice"].slash(channel, "tiny start")
    game_id = only_game(db_path)
    assert room(channel, game_id) is channel
    assert last_board(channel).attachments
    await play_out(env, channel, db_path, people)
    assert "Game over" in posts(channel)[-1].content


async def test_the_board_and_export_of_the_last_game_after_it_ends(table: Any, db_path: str) -> None:
    env, _, channel, people = table
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "tiny new")
    await bob.slash(channel, "tiny join")
    await alice.slash(channel, "tiny start")
    await play_out(env, channel, db_path, people)
    board = private(await bob.slash(channel, "tiny board"))
    assert "Game over" in board.content and board.attachments
    exported = shown(await bob.slash(channel, "tiny export"))
    data = await exported.attachments[0].read()
    assert b'game: "tiny"' in data
