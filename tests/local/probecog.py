"""A test-only cog for local mode's clock: ``/later seconds`` answers at once, then posts the
bot's clock from a background task after ``seconds``, the way the turn clock wakes up."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

PREFIX = "bot clock "


class ProbeCog(commands.Cog):
    """``/later``: a background task that sleeps and then posts."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    @app_commands.command(name="later", description="Post the bot's clock after a while.")
    async def later(self, interaction: discord.Interaction, seconds: float) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await interaction.response.send_message("later")

        async def post() -> None:
            await asyncio.sleep(seconds)
            await channel.send(f"{PREFIX}{discord.utils.utcnow().timestamp():.3f}")

        task = asyncio.get_running_loop().create_task(post())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def setup(bot: commands.Bot) -> None:
    """Load the probe."""
    await bot.add_cog(ProbeCog())
