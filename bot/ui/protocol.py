"""What the UI needs of the bot, as a protocol: the UI is handed the bot (:mod:`bot.client`
builds the UI), so it names only what it uses and imports nothing back from the client."""

from __future__ import annotations

from typing import Protocol

import discord

from bot.sessions import Session, SessionService, Update


class Lobbies(Protocol):
    """What a button asks of the table announcer (:class:`bot.ui.table.TableAnnouncer`)."""

    async def refresh_lobby(self, session: Session) -> None:
        """Show the lobby as it is now, in its message."""

    async def troubles(self, update: Update) -> list[str]:
        """Once ``update`` is shown: what the bot could not do for it."""

    async def post(
        self,
        channel_id: int,
        content: str,
        *,
        pings: list[int] | None = None,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.Message | None:
        """Send ``content`` in a channel or thread, pinging exactly ``pings``."""


class TableBot(Protocol):
    """The bot as the UI sees it (:class:`bot.client.TilehostBot` is one): the session service,
    the announcer, and Discord's channels and users."""

    @property
    def service(self) -> SessionService:
        """The session service every table runs on."""

    @property
    def announcer(self) -> Lobbies:
        """The table announcer."""

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None:
        """A cached channel or thread."""

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread:
        """A channel or thread from Discord."""

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """A server the bot is in (cached)."""

    def get_user(self, id: int, /) -> discord.User | None:
        """A cached user."""

    async def fetch_user(self, user_id: int, /) -> discord.User:
        """A user from Discord."""
