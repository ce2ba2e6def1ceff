"""`/puzzominos ...`: Puzz-Ominos for two players, and the solitaire challenges.

The shared verbs come from :class:`GameCog`. This adds ``new`` with the game's option, ``pass``
(decline a Free Turn's second piece), and solitaire: ``solo`` opens and starts a one-player
game (``puzzosolo``) at once; ``undo`` and ``giveup`` act on it, and ``hint`` places one more
piece of a completion of the position.

``daily`` plays the day's challenge (the same target for everyone) in a private thread of the
member's own, and ``dailyboard`` shows a day's results (see :mod:`bot.ui.daily`).

Every player has a solitaire table of their own in a channel. While you have one running
there, ``play``, ``hint``, ``board``, ``hand`` and ``resign`` act on it; otherwise on the
channel's two-player game. A solitaire is one public message, edited as you play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import errors, words, workers
from bot.between.daily import next_day_starts, parse_day, target_of
from bot.sessions import Session
from bot.ui import buttons, replies
from bot.ui import daily as daily_ui
from cogs.base import CLOCK_HELP, GameCog, channel_of, game_options, owner_of, parent_of
from games import puzzosolo as solo
from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzosolo.state import Options as SoloOptions
from games.puzzosolo.state import State as SoloState

if TYPE_CHECKING:
    from bot.client import TilehostBot

GAME = "puzzominos"
SOLO = solo.GAME.name
CANNOT_COMPLETE = (
    "Your position cannot be completed: no arrangement of the pieces left fills the empty squares. "
    "Take pieces back with `/puzzominos undo` (or `/puzzominos giveup`)."
)
TARGET_LABELS = SoloOptions.spec("target").labels
"""The named targets and what they are (``6x10``: a rectangle 6 wide and 10 high, ...)."""


def hint_place(state: SoloState, limit: int | None) -> Place | None:
    """The solver's next piece for a solitaire position (run in a worker process)."""
    return solo.hint_place(state, limit) if limit is not None else solo.hint_place(state)


class PuzzOminosCog(
    GameCog, group_name=GAME, group_description="Puzz-Ominos: pentominoes, duel or solitaire"
):
    """Puzz-Ominos in Discord: the two-player game and the solitaire challenges."""

    game_name = GAME
    also_hosts = (SOLO,)

    # -- which table ------------------------------------------------------------------------

    def table(self, interaction: discord.Interaction) -> Session:
        """The user's solitaire here if they have one, else the channel's two-player game."""
        where, user, parent = channel_of(interaction), interaction.user.id, parent_of(interaction)
        try:
            return self.service.table(where, (SOLO,), user, parent)
        except errors.NoGameHere:
            return self.service.table(where, (GAME,), user, parent)

    def _solo(self, interaction: discord.Interaction, verb: str) -> Session:
        try:
            return self.service.table(channel_of(interaction), (SOLO,), interaction.user.id)
        except errors.NoGameHere:
            raise errors.NoGameHere(
                f"`{verb}` is for solitaire, and you have no solitaire game in this channel: start one "
                "with `/puzzominos solo`. (In a two-player game, `/puzzominos resign` ends your game.)"
            ) from None

    # -- two players ------------------------------------------------------------------------

    @app_commands.command(description="Open a two-player Puzz-Ominos lobby (Red and Blue).")
    @game_options(GAME, "second_piece", clock_hours=CLOCK_HELP)
    async def new(
        self,
        interaction: discord.Interaction,
        second_piece: str | None = None,
        clock_hours: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"second_piece": second_piece}, clock_hours)

    @app_commands.command(name="pass", description="Decline the second piece of your Free Turn.")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass")

    # -- solitaire --------------------------------------------------------------------------

    @app_commands.command(description="Start a solitaire challenge: fill a target with pentominoes.")
    @app_commands.describe(
        target="A named target (see the suggestions) or any rectangle WxH, e.g. 5x12 (default 6x10)",
        shape="Or draw your own: rows of X (square) and . (empty) with / between rows, e.g. ..XX/XXXXXX",
    )
    async def solo(
        self, interaction: discord.Interaction, target: str | None = None, shape: str | None = None
    ) -> None:
        buttons.throttle(interaction, "solo")
        self.service.check_free_table(SOLO, channel_of(interaction), interaction.user.id)  # before the solver
        await replies.defer_private(interaction)
        value = solo.target_option(target=target, shape=shape)
        self._refuse_the_daily(value)
        if not solo.is_named(value):  # a named target is known fillable: no solver run, no refusal
            await self._check_drawn_target(interaction, value)
        user = interaction.user
        session = await self.service.create(
            SOLO,
            guild_id=interaction.guild_id,
            channel_id=channel_of(interaction),
            user_id=user.id,
            name=buttons.display_name(user),
            options={"target": value},
            turn_seconds=0,
        )
        await self.service.start(session, user.id)
        await replies.private(
            interaction,
            f"{words.header(session)}: your table is the message below. Place pieces with `/puzzominos play` "
            "(e.g. `Lr1f@C4`: piece, orientation, top-left square); `/puzzominos hand` shows your pieces, "
            "`undo` takes one back, `hint` places one for you, `giveup` shows a solution.",
        )

    async def _check_drawn_target(self, interaction: discord.Interaction, value: str) -> None:
        """Refuse a rectangle or drawn shape that the bounded solver does not prove fillable."""
        try:
            check = await workers.run(
                solo.check_target, value, kind=workers.TARGET_CHECK, owner=owner_of(interaction)
            )
        except workers.WorkTooLong:
            # the check is bounded in positions; its time budget only fires on a starved machine,
            # and a target not proven fillable is never played (the same verdict as UNDECIDED)
            raise errors.SessionError(
                "Checking whether that target can be filled took longer than Tilehost allows right "
                "now, so no game starts on it and nothing was stored. Try again in a minute, draw a "
                "smaller or simpler shape, or choose a named target."
            ) from None
        if check.refused:
            raise errors.SessionError(check.message)

    def _refuse_the_daily(self, value: str) -> None:
        """Today's daily target is played with ``daily`` only: a public solitaire of it would show
        everyone a solution."""
        today = self.service.dailies.today()
        target = target_of(today)
        if solo.GAME.variant(SoloOptions(value)) == target.name:
            raise errors.SessionError(
                f"`{target.name}` is today's daily challenge: play it with `/puzzominos daily` (privately). "
                f"It is free for solitaire again <t:{int(next_day_starts(today))}:R>."
            )

    @app_commands.command(
        description="Today's daily challenge: the same target for everyone, in a private thread."
    )
    async def daily(self, interaction: discord.Interaction) -> None:
        await daily_ui.play(interaction, self.bot)

    @app_commands.command(
        description="The daily challenge's results: today's (or a day's), here or everywhere."
    )
    @app_commands.describe(
        scope="This server or all servers", day="A day as YYYY-MM-DD (default: today, UTC)"
    )
    @app_commands.choices(
        scope=[
            app_commands.Choice(name="this server", value="server"),
            app_commands.Choice(name="global", value="global"),
        ]
    )
    async def dailyboard(
        self, interaction: discord.Interaction, scope: str = "server", day: str | None = None
    ) -> None:
        try:
            chosen = parse_day(day) if day else self.service.dailies.today()
        except ValueError:
            raise errors.SessionError(
                f"Give the day as YYYY-MM-DD, e.g. {self.service.dailies.today()}."
            ) from None
        if chosen > self.service.dailies.today():
            raise errors.SessionError("That day has not come yet: its target is a surprise.")
        guild_id = interaction.guild_id if scope == "server" else None
        await interaction.response.send_message(embed=await daily_ui.board(self.bot, guild_id, chosen))

    @solo.autocomplete("target")
    async def _targets(self, interaction: discord.Interaction, value: str) -> list[app_commands.Choice[str]]:
        typed = value.lower().strip()
        return [
            app_commands.Choice(name=f"{name}: {label}"[:100], value=name)
            for name, label in TARGET_LABELS.items()
            if typed in f"{name} {label}".lower()
        ][:25]

    @app_commands.command(description="Solitaire: take your last piece back.")
    async def undo(self, interaction: discord.Interaction) -> None:
        self._solo(interaction, "undo")
        await self.act(interaction, "undo")

    @app_commands.command(description="Solitaire: give up and see a solution.")
    async def giveup(self, interaction: discord.Interaction) -> None:
        self._solo(interaction, "giveup")
        buttons.throttle(interaction, "giveup")
        await self.act(interaction, "giveup")

    @app_commands.command(description="Solitaire: place one more piece of a solution. Duel: a suggestion.")
    async def hint(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        buttons.throttle(interaction, "hint")
        await replies.defer_private(interaction)
        session = await self.ready_table(interaction)
        if session.game.name != SOLO:
            await self.suggest(interaction, session)
            return
        state = session.state
        place = await self._solver_hint(state, owner_of(interaction))
        await self.act(interaction, solo.format_move(solo.hint(place)))

    async def _solver_hint(self, state: SoloState, owner: workers.Owner) -> Place:
        try:
            place = await workers.run(hint_place, state, None, kind=workers.SOLVER, owner=owner)
        except (solver.SearchLimitError, workers.WorkTooLong):
            raise errors.SessionError(
                "Your position is too open to find a solution quickly: place a few more pieces "
                "(or `/puzzominos undo`) and ask again."
            ) from None
        if place is None:
            raise errors.SessionError(CANNOT_COMPLETE)
        return place


async def setup(bot: TilehostBot) -> None:
    """Load the Puzz-Ominos cog."""
    await bot.add_cog(PuzzOminosCog(bot))
