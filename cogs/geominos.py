"""`/geominos ...`: the Geominos cog. The shared verbs come from :class:`GameCog`; this adds
``new`` with the game's options. A player with no legal placement passes automatically (+5), so
there is no pass command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import GameCog

if TYPE_CHECKING:
    from bot.client import TilehostBot

MODE_CHOICES = [
    app_commands.Choice(name="Five-Tile: hold 5, draw after each placement (default)", value="five"),
    app_commands.Choice(name="All-Tile: every tile dealt before play", value="all"),
    app_commands.Choice(name="One-Tile: draw one tile and place it", value="one"),
]
CLOCK_CHOICES = [
    app_commands.Choice(
        name="live: 1-3 minutes a move, +5 and one more minute, then forfeit (default)", value="live"
    ),
    app_commands.Choice(name="async: hours a move, +5 and the same time again, then forfeit", value="async"),
]
MINUTE_CHOICES = [
    app_commands.Choice(name="1 minute (advanced)", value=1),
    app_commands.Choice(name="2 minutes (intermediate, default)", value=2),
    app_commands.Choice(name="3 minutes (beginners)", value=3),
]
MATCH_CHOICES = [
    app_commands.Choice(name="off: one game (default)", value="off"),
    app_commands.Choice(name="on: one game per player, the starter rotating, points add up", value="on"),
]


class GeominosCog(
    GameCog, group_name="geominos", group_description="Geominos: match pips, avoid light squares"
):
    """Geominos in Discord: the lobby with the game's options."""

    game_name = "geominos"

    @app_commands.command(description="Open a Geominos lobby (2-4 players; fewest points wins).")
    @app_commands.describe(
        mode="How the tiles are given out",
        clock="Live minutes per move, or async hours per move",
        minutes="Live clock: minutes per move",
        hours="Async clock: hours per move (1-168, default 24)",
        match="Match play: as many games as players",
    )
    @app_commands.choices(mode=MODE_CHOICES, clock=CLOCK_CHOICES, match=MATCH_CHOICES)
    @app_commands.choices(minutes=MINUTE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        mode: str | None = None,
        clock: str | None = None,
        minutes: int | None = None,
        hours: app_commands.Range[int, 1, 168] | None = None,
        match: str | None = None,
    ) -> None:
        options = {"mode": mode, "clock": clock, "minutes": minutes, "hours": hours, "match": match}
        clock_hours = (hours or 24) if clock == "async" else None
        await self.open_lobby(interaction, options, clock_hours)


async def setup(bot: TilehostBot) -> None:
    """Load the Geominos cog."""
    await bot.add_cog(GeominosCog(bot))
