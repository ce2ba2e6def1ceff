"""`/geronimos ...`: the Geronimos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options and the ``discard`` action."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import CLOCK_HELP, GameCog, game_options

if TYPE_CHECKING:
    from bot.client import TilehostBot

GAME = "geronimos"


class GeronimosCog(GameCog, group_name=GAME, group_description="Geronimos: surround an enemy card"):
    """Geronimos in Discord: lobby options and the discard action."""

    game_name = GAME

    @app_commands.command(description="Open a Geronimos lobby (2 players: Blue cavalry and Red).")
    @game_options(GAME, "bag", "leaders", "table", "bonus", clock_hours=CLOCK_HELP)
    async def new(
        self,
        interaction: discord.Interaction,
        bag: int | None = None,
        leaders: int | None = None,
        table: str | None = None,
        bonus: str | None = None,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        options = {"bag": bag, "leaders": leaders, "table": table, "bonus": bonus}
        await self.open_lobby(interaction, options, clock_hours)

    @app_commands.command(description="Discard your drawn card (only when it fits nowhere on the table).")
    async def discard(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "discard")


async def setup(bot: TilehostBot) -> None:
    """Load the Geronimos cog."""
    await bot.add_cog(GeronimosCog(bot))
