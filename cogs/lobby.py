"""`/games`, `/help` and `/settings`: what can be played, what is running, how it works."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import ui
from cogs.base import handle_command_error
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
                value=f"{game.min_players}–{game.max_players} players. Start: `/{game.name} new`",
                inline=False,
            )
        running = self.bot.service.in_channel(interaction.channel_id or 0)
        if running:
            lines = []
            for session in running:
                state = (
                    "lobby" if session.status == "lobby" else f"{ui.name(session, session.to_act())} to play"
                )
                lines.append(f"{session.game.title} #{session.id}: {len(session.seats)} players, {state}")
            embed.add_field(name="Running here", value="\n".join(lines)[:1024], inline=False)
        else:
            embed.add_field(name="Running here", value="Nothing yet.", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How Tilehost works.")
    async def help(self, interaction: discord.Interaction) -> None:
        text = (
            "**Tilehost** hosts tile-placement board games in this channel.\n"
            "1. `/<game> new` opens a lobby (pick the options there); others `/<game> join` or press Join; "
            "the host may fill seats with `/<game> computer`.\n"
            "2. The host starts with `/<game> start`. The board is posted after every turn, and the player "
            "to act is mentioned.\n"
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

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await handle_command_error(interaction, error)


async def setup(bot: TilehostBot) -> None:
    """Load the lobby cog."""
    await bot.add_cog(LobbyCog(bot))
