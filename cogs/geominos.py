"""`/geominos ...`: the Geominos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options. A player with no legal placement passes automatically (+5), so
there is no pass command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import GameCog, game_options

if TYPE_CHECKING:
    from bot.client import TilehostBot

GAME = "geominos"
ASYNC_HOURS_HELP = "Async clock: hours per move (1-168, default 24)"


class GeominosCog(GameCog, group_name=GAME, group_description="Geominos: match pips, avoid light squares"):
    """Geominos in Discord: the lobby with the game's options."""

    game_name = GAME

    @app_commands.command(description="Open a Geominos lobby (2-4 players; fewest points wins).")
    @game_options(GAME, "mode", "clock", "minutes", "match", hours=ASYNC_HOURS_HELP)
    async def new(
        self,
        interaction: discord.Interaction,
        mode: str | None = None,
        clock: str | None = None,
        minutes: int | None = None,
        hours: app_commands.Range[int, 1, 168] | None = None,
        match: str | None = None,
    ) -> None:
        if clock == "async" and hours is None:
            hours = self.bot.settings.turn_hours  # the server's default async clock
        options = {"mode": mode, "clock": clock, "minutes": minutes, "hours": hours, "match": match}
        clock_hours = hours if clock == "async" else None
        await self.open_lobby(interaction, options, clock_hours)


async def setup(bot: TilehostBot) -> None:
    """Load the Geominos cog."""
    await bot.add_cog(GeominosCog(bot))
