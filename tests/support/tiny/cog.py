"""The cog of the test-only Tiny Tiles game, as thin as a real game cog (``cogs/<game>.py``).

A shipped game is registered by ``games.registry.GAME_MODULES`` and ``rendering.registry.SHIPPED``;
a test game registers itself here, when the bot loads this extension."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import GameCog
from games import registry
from rendering import registry as renderers
from tests.support import tiny
from tests.support.tiny import renderer

if TYPE_CHECKING:
    from bot.client import TilehostBot

registry.register(tiny.GAME)
renderers.register(renderer.RENDERER)


class TinyCog(GameCog, group_name="tiny", group_description="Tiny Tiles (a test game)"):
    """Tiny Tiles in Discord: the lobby with its option and the draw action."""

    game_name = "tiny"

    @app_commands.command(description="Open a Tiny Tiles lobby.")
    async def new(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[int, 1, 4] | None = None,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"hand": hand}, clock_hours)

    @app_commands.command(description="Draw a tile.")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "draw")


async def setup(bot: TilehostBot) -> None:
    """Load the Tiny Tiles cog."""
    await bot.add_cog(TinyCog(bot))
