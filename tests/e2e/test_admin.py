"""Server admins' tools through SimCord (issue 23): ``/tilehost clock`` (the server's default turn
clock), ``season`` (close the leaderboard season and start afresh; the past one stays visible),
``forget`` (a player's data, on request), ``log`` and ``undo``; each refused to a member without
Manage Server, each recorded with who did it, the reversible ones undone."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.storage.store import FORMER_PLAYER
from tests.e2e.helpers import game_state, private, refused, room, rows, seat_names, shown

ADMIN_COMMANDS = ("clock", "season", "forget", "log", "undo")


@pytest.fixture
def world(simcord_env: Any) -> Any:
    """A server with an admin (Manage Server), a moderator (Manage Channels only) and players."""
    env = simcord_env
    guild = env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    admins = guild.create_role(
        "admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True)
    )
    mods = guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    people = {
        "admin": guild.add_member(env.create_user("admin"), roles=[admins]),
        "mod": guild.add_member(env.create_user("mod"), roles=[mods]),
        **{name: guild.add_member(env.create_user(name)) for name in ("alice", "bob", "cara")},
    }
    return env, guild, channel, people


def games_of(db_path: str) -> list[int]:
    return [row[0] for row in rows(db_path, "SELECT id FROM games ORDER BY id")]


async def play_game(
    env: Any, channel: Any, db_path: str, host: Any, guest: Any, *, finish: bool = True
) -> int:
    """``host`` and ``guest`` play a Tiny Tiles game here (to its end, unless not ``finish``)."""
    await host.slash(channel, "tiny new")
    private(await guest.slash(channel, "tiny join"))
    private(await host.slash(channel, "tiny start"))
    game_id = games_of(db_path)[-1]
    people = {host.name: host, guest.name: guest}
    place = room(channel, game_id)
    for _ in range(200 if finish else 1):
        status, _, to_act = game_state(db_path, game_id)
        if status != "playing":
            break
        mover = people[seat_names(db_path, game_id)[to_act]]
        choice = (await mover.autocomplete(place, "tiny play", "move", ""))[0]["value"]
        private(await mover.slash(place, "tiny play", move=choice))
    return game_id


async def test_members_without_manage_server_are_refused(world: Any) -> None:
    env, _, channel, people = world
    listed = " ".join(people["alice"].available_commands(channel))
    assert not any(f"tilehost {name}" in listed for name in ADMIN_COMMANDS), "hidden from members"
    for name, options in (
        ("clock", {"hours": 48}),
        ("season", {"confirm": True}),
        ("forget", {"player": people["bob"], "confirm": True}),
        ("log", {}),
        ("undo", {"action": 1}),
    ):
        refused(env, await people["mod"].slash(channel, f"tilehost {name}", **options), "Manage Server")


async def test_the_servers_default_clock(world: Any, db_path: str) -> None:
    env, _, channel, people = world
    admin, alice = people["admin"], people["alice"]
    said = private(await admin.slash(channel, "tilehost clock"))
    assert "the bot's default (24 hours a move)" in said.content
    said = private(await admin.slash(channel, "tilehost clock", hours=48))
    assert "now give 48 hours a move (was the bot's default (24 hours a move))" in said.content
    assert "Clock: 48 hours a move" in shown(await alice.slash(channel, "tiny new")).content
    private(await alice.slash(channel, "tiny abort"))
    assert "Clock: 2 hours a move" in shown(await alice.slash(channel, "tiny new", clock_hours=2)).content
    private(await alice.slash(channel, "tiny abort"))

    logged = private(await admin.slash(channel, "tilehost log")).content
    assert "**#1** <t:" in logged and f"<@{admin.id}>: default clock set to 48 hours a move" in logged
    assert "`/tilehost undo action:1`" in logged
    said = private(await admin.slash(channel, "tilehost undo", action=1))
    assert (
        said.content.startswith("Undone: #1 (default clock set to 48 hours a move") and "#2" in said.content
    )
    assert "Clock: 24 hours a move" in shown(await alice.slash(channel, "tiny new")).content
    refused(env, await admin.slash(channel, "tilehost undo", action=1), "#1 was undone already")
    refused(env, await admin.slash(channel, "tilehost undo", action=2), "An undo cannot be undone")
    refused(env, await admin.slash(channel, "tilehost undo", action=9), "There is no #9")
    assert rows(db_path, "SELECT number, user_id, action FROM admin_log ORDER BY number") == [
        (1, admin.id, "clock"),
        (2, admin.id, "undo"),
    ]


async def test_a_new_season_starts_the_leaderboards_afresh(world: Any, db_path: str) -> None:
    env, _, channel, people = world
    admin, alice, bob, cara = people["admin"], people["alice"], people["bob"], people["cara"]
    await play_game(env, channel, db_path, alice, bob)
    board = shown(await alice.slash(channel, "leaderboard", game="tiny", scope="server", sort="wins"))
    assert f"<@{bob.id}>" in board.embeds[0].description

    said = private(await admin.slash(channel, "tilehost season"))
    assert "This closes season 1" in said.content and "confirm:True" in said.content
    assert rows(db_path, "SELECT COUNT(*) FROM seasons") == [(0,)], "nothing happens without confirm"
    said = private(await admin.slash(channel, "tilehost season", confirm=True))
    assert said.content.startswith("Season 2 has started") and "`/leaderboard season:1`" in said.content
    now = shown(await alice.slash(channel, "leaderboard", game="tiny", scope="server", sort="wins"))
    assert "No finished" in now.embeds[0].description and "season 2" in now.embeds[0].title
    past = shown(
        await alice.slash(channel, "leaderboard", game="tiny", scope="server", sort="rating", season=1)
    )
    assert f"<@{bob.id}>" in past.embeds[0].description and "season 1" in past.embeds[0].title
    assert (
        f"<@{bob.id}>"
        in shown(await alice.slash(channel, "leaderboard", game="tiny", scope="global", sort="wins"))
        .embeds[0]
        .description
    ), "the global leaderboard does not change"

    said = private(await admin.slash(channel, "tilehost undo", action=1))
    assert "leaderboard season 2 started" in said.content
    back = shown(await alice.slash(channel, "leaderboard", game="tiny", scope="server", sort="wins"))
    assert f"<@{bob.id}>" in back.embeds[0].description

    private(await admin.slash(channel, "tilehost season", confirm=True))
    await env.advance_time(60)
    await play_game(env, channel, db_path, cara, bob)
    refused(env, await admin.slash(channel, "tilehost undo", action=3), "Games have finished in season 2")
    refused(
        env, await alice.slash(channel, "leaderboard", game="tiny", scope="server", season=7), "no season 7"
    )


async def test_removing_a_players_data(world: Any, db_path: str) -> None:
    env, _, channel, people = world
    admin, alice, bob, cara = people["admin"], people["alice"], people["bob"], people["cara"]
    finished = await play_game(env, channel, db_path, alice, bob)
    running = await play_game(env, channel, db_path, bob, cara, finish=False)
    assert game_state(db_path, running)[0] == "playing"

    said = private(await admin.slash(channel, "tilehost forget", player=bob))
    assert "It cannot be undone" in said.content and "confirm:True" in said.content
    assert bob.id in [row[0] for row in rows(db_path, "SELECT user_id FROM seats")], "not without confirm"
    said = private(await admin.slash(channel, "tilehost forget", player=bob, confirm=True))
    assert said.content.startswith("Done: They left or resigned 1 running game first.")
    assert game_state(db_path, running)[0] == "finished", "a two-player game ends when one resigns"

    for table in ("seats", "moves", "results"):
        assert not rows(db_path, f"SELECT 1 FROM {table} WHERE user_id = ?", bob.id), table
    assert not rows(db_path, "SELECT 1 FROM ratings WHERE user_id = ? AND scope_id <> 0", bob.id)
    for game_id in (finished, running):
        assert FORMER_PLAYER in seat_names(db_path, game_id).values()
        assert "bob" not in seat_names(db_path, game_id).values()
    board = shown(await alice.slash(channel, "leaderboard", game="tiny", scope="server", sort="wins"))
    assert (
        f"<@{bob.id}>" not in board.embeds[0].description and f"<@{alice.id}>" in board.embeds[0].description
    )
    record = await alice.slash(channel, "tiny export", game_id=finished)
    text = (await shown(record).attachments[0].read()).decode()
    assert FORMER_PLAYER in text and "bob" not in text

    logged = private(await admin.slash(channel, "tilehost log")).content
    assert "a player's data removed on request" in logged and "cannot be undone" in logged
    assert f"<@{bob.id}>" not in logged and "bob" not in logged
    refused(env, await admin.slash(channel, "tilehost undo", action=1), "cannot be undone")


def test_paging_buttons_remember_a_past_season_and_old_ones_still_work() -> None:
    """A leaderboard's buttons carry their season in their custom id; buttons posted before
    seasons existed (no season part) still match, and page the current season."""
    from cogs.standings import PageButton

    template = PageButton.__discord_ui_compiled_template__
    old = template.fullmatch("lb:tiny:123:wins:1:next")
    assert old is not None and old["season"] is None
    new = PageButton("tiny", 123, "wins", 1, "next", season=2)
    assert new.item.custom_id == "lb:tiny:123:wins:1:next:s2"
    match = template.fullmatch(new.item.custom_id)
    assert match is not None and match["season"] == "2" and match["page"] == "1"
