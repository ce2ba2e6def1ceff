"""`/tileup ...`: the Tile Up! cog. The shared verbs come from :class:`GameCog`; this adds ``new``
and the steps of a turn: ``goal``, ``tiles``, placements through the shared ``play``, ``score``,
``discard`` and ``end``. Each is a one-liner through :meth:`GameCog.act` with the move's notation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import CLOCK_HELP, GameCog, MoveTransformer

if TYPE_CHECKING:
    from bot.client import TilehostBot


class ScoreTransformer(MoveTransformer):
    """The goal cards that can be scored right now, each with its region and points."""

    prefix = "score"


class DiscardTransformer(MoveTransformer):
    """The tiles and goal cards that may be discarded at the end of the turn."""

    prefix = "discard"


ScoreText = app_commands.Transform[str, ScoreTransformer]
DiscardText = app_commands.Transform[str, DiscardTransformer]


def with_verb(verb: str, text: str) -> str:
    """``2@E6`` -> ``score 2@E6``; text that already starts with ``verb`` is kept as it is."""
    text = text.strip()
    return text if text.lower().startswith(verb) else f"{verb} {text}"


class TileUpCog(GameCog, group_name="tileup", group_description="Tile Up!: stack tiles to match goal cards"):
    """Tile Up! in Discord: a turn is several commands ending with ``/tileup end``."""

    game_name = "tileup"

    @app_commands.command(description="Open a Tile Up! lobby (2–4 players).")
    @app_commands.describe(clock_hours=CLOCK_HELP)
    async def new(
        self,
        interaction: discord.Interaction,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {}, clock_hours)

    @app_commands.command(description="Your action: draw one goal card (then score or end).")
    async def goal(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "goal")

    @app_commands.command(description="Your action: draw three tiles (then score or end).")
    async def tiles(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "tiles")

    @app_commands.command(description="Score a goal card now (autocomplete lists the cards you can score).")
    @app_commands.describe(card="Card number and a square of its region, e.g. 2@E6 (or just 2)")
    async def score(self, interaction: discord.Interaction, card: ScoreText) -> None:
        await self.act(interaction, with_verb("score", card))

    @app_commands.command(description="Over 7 tiles or 3 goal cards after end: discard one.")
    @app_commands.describe(what="A tile like O4, or a goal card like goal 4")
    async def discard(self, interaction: discord.Interaction, what: DiscardText) -> None:
        await self.act(interaction, with_verb("discard", what))

    @app_commands.command(description="End your turn.")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "end")


async def setup(bot: TilehostBot) -> None:
    """Load the Tile Up! cog."""
    await bot.add_cog(TileUpCog(bot))
