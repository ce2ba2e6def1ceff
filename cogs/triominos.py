"""`/triominos ...`: the Tri-Ominos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options and the ``draw`` and ``pass`` actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import CLOCK_HELP, GameCog, game_options

if TYPE_CHECKING:
    from bot.client import TilehostBot

GAME = "triominos"


class TriominosCog(GameCog, group_name=GAME, group_description="Tri-Ominos: match every corner"):
    """Tri-Ominos in Discord: lobby options, drawing from the well and passing."""

    game_name = GAME

    @app_commands.command(description="Open a Tri-Ominos lobby (2–6 players).")
    @game_options(GAME, "target", "max_draws", clock_hours=CLOCK_HELP)
    async def new(
        self,
        interaction: discord.Interaction,
        target: int | None = None,
        max_draws: str | None = None,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"target": target, "max_draws": max_draws}, clock_hours)

    @app_commands.command(description="Nothing fits: draw from the well (−5 each) until a tile fits.")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "draw")

    @app_commands.command(name="pass", description="Nothing fits and you cannot draw: pass (−10).")
    async def pass_turn(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass")


async def setup(bot: TilehostBot) -> None:
    """Load the Tri-Ominos cog."""
    await bot.add_cog(TriominosCog(bot))
