"""`/turns` and `/review`: between moves and between games (issue 25).

`/turns` lists a member's running games in every server, their own turns first. `/review` has
the ``hard`` engine go through a finished game's moves of one player (see :mod:`bot.between.review`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import buttons, replies
from bot.ui import review as reviews
from bot.ui.turns import TurnsButton, turns_page
from cogs.base import GameNumber

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

    @app_commands.command(
        name="review", description="The engine's review of a finished game: where you lost most, and a chart."
    )
    @app_commands.describe(
        game_id="A finished game's number (default: your last game against others here; see /history)",
        player="Whose play to review (default: yours)",
        public="Post it for everyone (your own review only; default: only you see it)",
    )
    async def review(
        self,
        interaction: discord.Interaction,
        game_id: GameNumber | None = None,
        player: discord.User | None = None,
        public: bool = False,
    ) -> None:
        subject = player or interaction.user
        buttons.throttle(interaction, "review")
        if game_id is None:
            game_id = await reviews.last_reviewable(self.bot, subject.id, interaction.guild_id)
        row, record = game_id
        seat = reviews.check(
            row, await self.bot.service.storage.seats(row.id), subject, interaction.user, public
        )
        await reviews.send(interaction, self.bot, row, record, seat, public)


async def setup(bot: TilehostBot) -> None:
    """Load the between-games cog and its restart-proof buttons."""
    await bot.add_cog(BetweenCog(bot))
    bot.add_dynamic_items(TurnsButton)
