"""`/triominos ...`: the Tri-Ominos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options and the ``draw`` and ``pass`` actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import GameCog

if TYPE_CHECKING:
    from bot.client import TilehostBot

TARGET_CHOICES = [
    app_commands.Choice(name=f"{target} points{' (default)' if target == 400 else ''}", value=target)
    for target in (200, 300, 400, 500)
]
MAX_DRAWS_CHOICES = [
    app_commands.Choice(name="unlimited: draw until a tile fits (default)", value="unlimited"),
    app_commands.Choice(name="3: after three draws without a fit, −10 and pass", value="3"),
]


class TriominosCog(GameCog, group_name="triominos", group_description="Tri-Ominos: match every corner"):
    """Tri-Ominos in Discord: lobby options, drawing from the well and passing."""

    game_name = "triominos"

    @app_commands.command(description="Open a Tri-Ominos lobby (2–6 players).")
    @app_commands.describe(
        target="The score that ends the game (the round is finished first)",
        max_draws="How many tiles one turn may draw from the well",
        clock_hours="Hours allowed for each move (0: no clock; default: the server's)",
    )
    @app_commands.choices(target=TARGET_CHOICES)
    @app_commands.choices(max_draws=MAX_DRAWS_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        target: app_commands.Choice[int] | None = None,
        max_draws: app_commands.Choice[str] | None = None,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        options = {
            "target": None if target is None else target.value,
            "max_draws": None if max_draws is None else max_draws.value,
        }
        await self.open_lobby(interaction, options, clock_hours)

    @app_commands.command(description="Nothing fits: draw from the well (−5 each) until a tile fits.")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "draw")

    @app_commands.command(name="pass", description="Nothing fits and you cannot draw: pass (−10).")
    async def pass_turn(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass")


async def setup(bot: TilehostBot) -> None:
    """Load the Tri-Ominos cog."""
    await bot.add_cog(TriominosCog(bot))
