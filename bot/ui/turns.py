"""``/turns`` in Discord: a member's running games as a private embed with page buttons, and
the same list under a reminder sent by direct message."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.between import turns
from bot.sessions import SessionService
from bot.shards import Shards
from bot.words import clip

FOOTER = "Your turns first, nearest deadline first"


class TurnsBot(Protocol):
    """What the list needs of the bot: the session service (its storage), the servers it is in,
    and which shards this process runs."""

    @property
    def service(self) -> SessionService:
        """The session service."""

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """A server the bot is in (cached)."""


def _shards(bot: TurnsBot) -> Shards | None:
    settings = getattr(bot, "settings", None)
    return getattr(settings, "shards", None)


def shared(bot: TurnsBot, guild_id: int | None) -> bool:
    """False for a game in a server the bot has left (known where this process runs that
    server's shard); True otherwise."""
    if guild_id is None:
        return True
    shards = _shards(bot)
    if shards is not None and not shards.owns(guild_id):
        return True  # another process's server: it may well be there
    return bot.get_guild(guild_id) is not None


def server_name(bot: TurnsBot, guild_id: int | None) -> str | None:
    """The server's name, where the bot knows it."""
    guild = bot.get_guild(guild_id) if guild_id is not None else None
    return guild.name if guild is not None else None


async def member_games(bot: TurnsBot, user_id: int) -> list[turns.Running]:
    """The member's running games in the servers they share with the bot, in list order."""
    stored = await bot.service.storage.running_games_of(user_id)
    return turns.running([(row, seats) for row, seats in stored if shared(bot, row.guild_id)], user_id)


async def turns_page(bot: TurnsBot, user_id: int, page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (from 0) of the member's list, with buttons to the others."""
    games = await member_games(bot, user_id)
    embed = discord.Embed(title=turns.title(games))
    if not games:
        embed.description = turns.NOTHING
        return embed, None
    found = turns.pages(games, lambda guild: server_name(bot, guild))
    page = max(0, min(page, len(found) - 1))
    embed.description = found[page]
    embed.set_footer(text=f"{FOOTER}" + (f" · page {page + 1}/{len(found)}" if len(found) > 1 else ""))
    if len(found) == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(TurnsButton(user_id, page - 1, "prev", disabled=page == 0))
    view.add_item(TurnsButton(user_id, page + 1, "next", disabled=page >= len(found) - 1))
    return embed, view


async def digest(bot: TurnsBot, user_id: int) -> str:
    """The list as a reminder by direct message carries it ("" when there is none)."""
    games = await member_games(bot, user_id)
    return turns.digest(games, lambda guild: server_name(bot, guild))


async def reminder_dm(bot: TurnsBot, user_id: int, reminder: str) -> str:
    """A reminder as sent by direct message: the reminder, then the member's list."""
    listed = await digest(bot, user_id)
    return clip(f"{reminder}\n\n{listed}" if listed else reminder)


class TurnsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"turns:(?P<user>\d+):(?P<page>\d+):(?P<label>prev|next)",
):
    """Previous/next page of a member's list (it reads the list again: always up to date)."""

    def __init__(self, user_id: int, page: int, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if label == "prev" else "Next ▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"turns:{user_id}:{max(0, page)}:{label}",
                disabled=disabled,
            )
        )
        self.user_id, self.page = user_id, max(0, page)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnsButton:
        return cls(int(match["user"]), int(match["page"]), match["label"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await interaction.response.send_message(
                "That list is someone else's: use `/turns`.", ephemeral=True
            )
            return
        bot: TurnsBot = interaction.client  # type: ignore[assignment]
        embed, view = await turns_page(bot, self.user_id, self.page)
        await interaction.response.edit_message(embed=embed, view=view)
