"""`/geronimos ...`: the Geronimos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options and the ``discard`` action."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import CLOCK_HELP, GameCog, option_choices, option_help

if TYPE_CHECKING:
    from bot.client import TilehostBot

GAME = "geronimos"


class GeronimosCog(GameCog, group_name=GAME, group_description="Geronimos: surround an enemy card"):
    """Geronimos in Discord: lobby options and the discard action."""

    game_name = GAME

    @app_commands.command(description="Open a Geronimos lobby (2 players: Blue cavalry and Red).")
    @app_commands.describe(
        bag=option_help(GAME, "bag"),
        leaders=option_help(GAME, "leaders"),
        table=option_help(GAME, "table"),
        clock_hours=CLOCK_HELP,
    )
    @app_commands.choices(
        bag=option_choices(GAME, "bag"),
        leaders=option_choices(GAME, "leaders"),
        table=option_choices(GAME, "table"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        bag: int | None = None,
        leaders: int | None = None,
        table: str | None = None,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"bag": bag, "leaders": leaders, "table": table}, clock_hours)

    @app_commands.command(description="Discard your drawn card (only when it fits nowhere on the table).")
    async def discard(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "discard")


async def setup(bot: TilehostBot) -> None:
    """Load the Geronimos cog."""
    await bot.add_cog(GeronimosCog(bot))
