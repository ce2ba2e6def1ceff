"""`/turns` and `/review`: between moves and between games (issue 25).

`/turns` lists a member's running games in every server, their own turns first. `/review` has
the ``hard`` engine go through a finished game's moves of one player (see :mod:`bot.between.review`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import replies
from bot.ui.turns import TurnsButton, turns_page

if TYPE_CHECKING:
    from bot.client import TilehostBot


class BetweenCog(commands.Cog):
    """Commands for between moves and between games."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="turns", description="Your running games in every server, your turns first (only you see it)."
    )
    async def turns(self, interaction: discord.Interaction) -> None:
        await replies.defer_private(interaction)
        embed, view = await turns_page(self.bot, interaction.user.id, 0)
        if view is None:
            await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=replies.NO_PINGS)
            return
        await interaction.followup.send(
            embed=embed, view=view, ephemeral=True, allowed_mentions=replies.NO_PINGS
        )


async def setup(bot: TilehostBot) -> None:
    """Load the between-games cog and its restart-proof buttons."""
    await bot.add_cog(BetweenCog(bot))
    bot.add_dynamic_items(TurnsButton)
