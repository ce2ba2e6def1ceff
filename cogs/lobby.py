"""`/games`, `/help`, `/settings` (a player's own) and `/tilehost` (a server's): what can be
played, what is running, how it works, and the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, words
from bot.sessions import Status
from bot.ui import replies
from games import registry

if TYPE_CHECKING:
    from bot.client import TilehostBot


class LobbyCog(commands.Cog):
    """Commands that are not about one game."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="games", description="What can be played, and what is running in this channel."
    )
    async def games(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Tilehost games")
        for game in registry.all_games():
            if game.name not in self.bot.game_names:
                continue
            embed.add_field(
                name=f"{game.title} — /{game.name}",
                value=f"{words.players_range(game)}. Start: `/{game.name} new`",
                inline=False,
            )
        running = self.bot.service.in_channel(interaction.channel_id or 0)
        lines = []
        for session in running:
            if session.status is Status.LOBBY:
                what = "lobby, " + words.counted(len(session.seats), "player")
            else:
                place = f" in <#{session.row.thread_id}>" if session.row.thread_id else ""
                what = f"{words.name(session, session.to_act())} to play{place}"
            lines.append(f"{session.game.title} #{session.id}: {what}")
        embed.add_field(name="Running here", value="\n".join(lines)[:1024] or "Nothing yet.", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How Tilehost works.")
    async def help(self, interaction: discord.Interaction) -> None:
        text = (
            "**Tilehost** hosts tile-placement board games in this server.\n"
            "1. `/<game> new` opens a lobby here (pick the options there); others press Join or use "
            "`/<game> join`; the host may fill seats with `/<game> computer`.\n"
            "2. The host starts the game: it plays in its own thread, where each turn gets one board and "
            "the player whose turn starts is mentioned. The result comes back to this channel.\n"
            "3. Play with `/<game> play` — autocomplete lists your legal moves, best first. "
            "`/<game> hand` shows your tiles (only to you), `/<game> hint` suggests a move, "
            "`/<game> rules` explains the game and its notation.\n"
            "Games can last days: every move is saved at once, and a turn clock with reminders keeps "
            "them moving (`/settings reminders` for reminders by direct message).\n"
            f"Games: {', '.join(f'`/{name}`' for name in self.bot.game_names)}."
        )
        await interaction.response.send_message(text, ephemeral=True)

    settings = app_commands.Group(name="settings", description="Your Tilehost settings.")

    @settings.command(name="reminders", description="Get turn reminders by direct message, or stop them.")
    async def reminders(self, interaction: discord.Interaction, direct_messages: bool) -> None:
        await self.bot.service.storage.set_dm_reminders(interaction.user.id, direct_messages)
        state = "on" if direct_messages else "off"
        await interaction.response.send_message(f"Reminders by direct message are {state}.", ephemeral=True)

    server = app_commands.Group(
        name="tilehost",
        description="Server settings and moderation for Tilehost.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_channels=True),
    )

    @server.command(
        name="threads", description="Play each game in its own thread (on), or in its channel (off)."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        assert interaction.guild_id is not None  # guild_only
        await self.bot.service.storage.set_threads(interaction.guild_id, enabled)
        where = "in their own threads" if enabled else "in their channels"
        await interaction.response.send_message(f"New games in this server play {where}.", ephemeral=True)

    @server.command(
        name="abort", description="Moderators: call off any game in this server (no result is kept)."
    )
    @app_commands.describe(game_id="The game's number (see /games)")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def abort(self, interaction: discord.Interaction, game_id: int) -> None:
        await replies.defer_private(interaction)
        session = self.bot.service.get(game_id)
        if session is None or session.row.guild_id != interaction.guild_id:
            raise errors.NoGameHere(f"There is no running game #{game_id} in this server.")
        await self.bot.service.abort(session, interaction.user.id, moderator=True)
        await replies.private(interaction, words.aborted(session))

    @server.command(name="sync", description="Bot owner: send the slash commands to Discord now.")
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_operator(interaction.user):
            raise app_commands.CheckFailure(
                "Only the bot's owner may sync its commands (the application's owner or team in the "
                "Developer Portal, or a user listed in TILEHOST_OWNER_IDS)."
            )
        await replies.defer_private(interaction)
        try:
            count = await self.bot.sync_now()
        except discord.HTTPException as error:
            await replies.private(
                interaction, f"Discord refused the sync ({error}); nothing changed. Try again later."
            )
            return
        where = "in this development server" if self.bot.settings.dev_guild_id else "everywhere"
        await replies.private(
            interaction,
            f"Synced {words.counted(count, 'command')} {where}. Discord may take a while to show changes; "
            "a reload of the Discord app (Ctrl+R) shows them sooner.",
        )


async def setup(bot: TilehostBot) -> None:
    """Load the lobby cog."""
    await bot.add_cog(LobbyCog(bot))
