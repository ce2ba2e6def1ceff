"""`/geronimos ...`: the Geronimos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options and the ``discard`` action."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import GameCog

if TYPE_CHECKING:
    from bot.client import TilehostBot

BAG_CHOICES = [
    app_commands.Choice(name=f"{size} cards{' (default)' if size == 40 else ''}", value=size)
    for size in (20, 30, 40, 60, 80, 120)
]
LEADER_CHOICES = [
    app_commands.Choice(name=f"{count} Leaders{' (default)' if count == 4 else ''}", value=count)
    for count in range(7)
]
TABLE_CHOICES = [
    app_commands.Choice(name="rings: one contact only outside a full ring (default)", value="rings"),
    app_commands.Choice(name="open: one contact wherever a cell touches one card", value="open"),
]


class GeronimosCog(GameCog, group_name="geronimos", group_description="Geronimos: surround an enemy card"):
    """Geronimos in Discord: lobby options and the discard action."""

    game_name = "geronimos"

    @app_commands.command(description="Open a Geronimos lobby (2 players: Blue cavalry and Red).")
    @app_commands.describe(
        bag="Distinct number cards in each bag (the same cards for both players)",
        leaders="Wild Leader cards in each bag",
        table="Where a card may touch just one card",
        clock_hours="Hours allowed for each move (0: no clock; default: the server's)",
    )
    @app_commands.choices(bag=BAG_CHOICES, leaders=LEADER_CHOICES)
    @app_commands.choices(table=TABLE_CHOICES)
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
