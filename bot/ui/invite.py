"""The permissions the bot uses in a server, and the link that invites it with them.

Each permission is here because of something the bot does (the reasons are the table in
docs/hosting.md); a test plays a whole game in a thread on a server where the bot has exactly
these, and checks the docs list the same.
"""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")

PERMISSION_REASONS: dict[str, str] = {
    "view_channel": "see the channels where games are played",
    "send_messages": "post the lobby, each game's result, and every board where a game plays in its channel",
    "send_messages_in_threads": "post the boards, turn messages and reminders in a game's thread, and add "
    "the players to it",
    "create_public_threads": "give each game its own thread, made from its lobby message",
    "manage_threads": "archive a game's thread when the game ends or is called off",
    "embed_links": "`/games`, rules, leaderboards, stats and history are embeds",
    "attach_files": "the board pictures, hands, replays and record files",
    "read_message_history": "reach its own earlier messages: edit the lobby and the running turn's board, "
    "and start a game's thread from its lobby message",
}
"""Every permission the invite asks for (discord.py's names), and what the bot does with it."""

PERMISSIONS = discord.Permissions(**dict.fromkeys(PERMISSION_REASONS, True))


def permission_title(name: str) -> str:
    """A permission as Discord's settings show it (``send_messages_in_threads`` -> Send
    Messages In Threads; Discord writes "View Channels" for ``view_channel``)."""
    if name == "view_channel":
        return "View Channels"
    return name.replace("_", " ").title()


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with :data:`PERMISSIONS`."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def missing_permissions(granted: discord.Permissions) -> list[str]:
    """The permissions of :data:`PERMISSIONS` that ``granted`` lacks, as Discord names them."""
    return [permission_title(name) for name in PERMISSION_REASONS if not getattr(granted, name)]
