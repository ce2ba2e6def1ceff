"""The invite's permissions are enough (issue 23): on a server where the bot has exactly the
permissions of its invite link (``bot.ui.invite.PERMISSIONS``) and members only what they need
to use slash commands, a whole game plays in its own thread, the result reaches the channel with
its board, and the thread is archived. SimCord refuses calls that lack View Channels, Send
Messages (in threads too), Create Public Threads or Read Message History; Discord's own checks
of the rest (Manage Threads to archive, Attach Files, Embed Links) are not modelled there. And
what docs/hosting.md's Troubleshooting says of a missing Read Message History: games play in
their channel."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.ui.invite import PERMISSIONS, missing_permissions
from tests.e2e.helpers import only_game, posts, private, room, rows
from tests.e2e.test_platform import play_out
from tests.e2e.test_platform_paths import archived

MEMBERS = discord.Permissions(view_channel=True, use_application_commands=True, read_message_history=True)
"""What @everyone may do here: see the channel and use slash commands; nothing of the bot's comes
from it (read history aside, which the bot's own role has too)."""


def server(env: Any, bot: discord.Permissions, members: discord.Permissions = MEMBERS) -> Any:
    """A server where the bot's role has ``bot`` and @everyone ``members``."""
    guild = env.create_guild("Tiles Club")
    backend = env.backend
    (bot_role,) = [role for role in backend.guilds[guild.id].roles.values() if role.managed]
    backend.edit_role(guild.id, bot_role.id, {"permissions": bot.value})
    backend.edit_role(guild.id, guild.id, {"permissions": members.value})  # @everyone
    return guild


async def test_a_whole_game_with_exactly_the_invites_permissions(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    guild = server(env, PERMISSIONS)
    channel = guild.create_text_channel("games")
    people = {name: guild.add_member(env.create_user(name)) for name in ("alice", "bob")}
    me = env.bot.get_guild(guild.id).me
    assert me.guild_permissions.value == (PERMISSIONS | MEMBERS).value
    assert not missing_permissions(me.guild_permissions)
    assert missing_permissions(MEMBERS) == [
        "Send Messages",
        "Send Messages In Threads",
        "Create Public Threads",
        "Manage Threads",
        "Embed Links",
        "Attach Files",
    ]

    await people["alice"].slash(channel, "tiny new")
    private(await people["bob"].slash(channel, "tiny join"))
    private(await people["alice"].slash(channel, "tiny start"))
    game_id = only_game(db_path)
    thread = room(channel, game_id)
    assert thread is not channel, "the game has its own thread"
    await play_out(env, channel, db_path, people)
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments
    assert archived(env, thread)
    assert not env.errors, "no call the bot made was refused"


@pytest.mark.parametrize("lacking", ["read_message_history"])
async def test_without_a_thread_permission_games_play_in_their_channel(
    simcord_env: Any, db_path: str, lacking: str
) -> None:
    env = simcord_env
    fewer = discord.Permissions(PERMISSIONS.value)
    setattr(fewer, lacking, False)
    guild = server(env, fewer, discord.Permissions(view_channel=True, use_application_commands=True))
    channel = guild.create_text_channel("games")
    people = {name: guild.add_member(env.create_user(name)) for name in ("alice", "bob")}
    await people["alice"].slash(channel, "tiny new")
    private(await people["bob"].slash(channel, "tiny join"))
    private(await people["alice"].slash(channel, "tiny start"))
    game_id = only_game(db_path)
    assert room(channel, game_id) is channel and not channel.threads
    plies = await play_out(env, channel, db_path, people)
    assert len(posts(channel)) == 1 + plies + 1, "the lobby, one board per turn, then the result"
