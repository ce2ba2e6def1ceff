"""`/puzzominos ...`: Puzz-Ominos for two players, and the solitaire challenges.

The shared verbs come from :class:`GameCog`. This adds ``new`` with the game's option, ``pass``
(decline a Free Turn's second piece), and solitaire: ``solo`` opens and starts a one-player
game (``puzzosolo``) at once; ``undo`` and ``giveup`` act on it, and ``hint`` places one more
piece of a completion of the position.

Every player has a solitaire table of their own in a channel. While you have one running
there, ``play``, ``hint``, ``board``, ``hand`` and ``resign`` act on it; otherwise on the
channel's two-player game.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import errors, ui
from bot.sessions import Session
from cogs.base import GameCog, MoveTransformer, refusals
from games import puzzosolo as solo
from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzominos.state import SECOND_PIECE_CHOICES
from games.puzzominos.targets import TARGETS
from games.puzzosolo.state import State as SoloState

if TYPE_CHECKING:
    from bot.client import TilehostBot

SOLO = solo.GAME.name
QUICK_HINT = 50_000
"""Positions the solver looks at for a hint before the reply is deferred (half a second at worst,
well inside Discord's three seconds)."""
CANNOT_COMPLETE = (
    "Your position cannot be completed: no arrangement of the pieces left fills the empty squares. "
    "Take pieces back with `/puzzominos undo` (or `/puzzominos giveup`)."
)

SECOND_PIECE = [
    app_commands.Choice(name="optional: `pass` declines it (default)", value="optional"),
    app_commands.Choice(name="compulsory: place one when you can", value="compulsory"),
]
assert [choice.value for choice in SECOND_PIECE] == list(SECOND_PIECE_CHOICES)
TARGET_CHOICES = [
    app_commands.Choice(name=f"{target.name}: {target.title}"[:100], value=target.name)
    for target in TARGETS.values()
]


class TableMoveTransformer(MoveTransformer):
    """Move notation, autocompleted from the user's solitaire table when they have one here."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        cog = getattr(interaction.command, "binding", None)
        if not isinstance(cog, PuzzOminosCog) or interaction.channel_id is None:
            return []
        try:
            session = cog.table(interaction)
        except errors.SessionError:
            return []
        pairs = await asyncio.to_thread(cog.service.suggestions, session, interaction.user.id, value)
        return [app_commands.Choice(name=label[:100], value=notation[:100]) for label, notation in pairs]


TableMove = app_commands.Transform[str, TableMoveTransformer]


class PuzzOminosCog(
    GameCog, group_name="puzzominos", group_description="Puzz-Ominos: pentominoes, duel or solitaire"
):
    """Puzz-Ominos in Discord: the two-player game and the solitaire challenges."""

    game_name = "puzzominos"
    also_hosts = (SOLO,)

    # -- which table ------------------------------------------------------------------------

    def _solo_here(self, interaction: discord.Interaction) -> bool:
        user = interaction.user.id
        sessions = self.service.in_channel(interaction.channel_id or 0, SOLO)
        return any(session.seat_of(user) is not None for session in sessions)

    def _game_for(self, interaction: discord.Interaction) -> str:
        return SOLO if self._solo_here(interaction) else self.game_name

    def table(self, interaction: discord.Interaction) -> Session:
        """The user's solitaire here if they have one, else the channel's two-player game."""
        assert interaction.channel_id is not None
        return self.service.find(interaction.channel_id, self._game_for(interaction), interaction.user.id)

    def _session(self, interaction: discord.Interaction) -> Session:
        return self.table(interaction)

    def _solo(self, interaction: discord.Interaction, verb: str) -> None:
        if not self._solo_here(interaction):
            raise errors.NoGameHere(
                f"`{verb}` is for solitaire, and you have no solitaire game in this channel: start one "
                "with `/puzzominos solo`. (In a two-player game, `/puzzominos resign` ends your game.)"
            )

    async def act(self, interaction: discord.Interaction, text: str) -> None:
        """Make the move ``text`` at the user's table, reply with the board, let computers answer."""
        async with refusals(interaction):
            assert interaction.channel_id is not None
            update = await self.service.play(
                interaction.channel_id, self._game_for(interaction), interaction.user.id, text
            )
            await self.reply_update(interaction, update)
            self.service.continue_game(update.session)

    # -- two players ------------------------------------------------------------------------

    @app_commands.command(description="Open a two-player Puzz-Ominos lobby (Red and Blue).")
    @app_commands.describe(
        second_piece="Whether a Free Turn's second piece may be declined",
        clock_hours="Hours allowed for each move (0: no clock; default: the server's)",
    )
    @app_commands.choices(second_piece=SECOND_PIECE)
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

    @app_commands.command(description="Place a piece (autocomplete lists the legal moves).")
    @app_commands.describe(move="e.g. Lr1f@3,-2 (two players) or Lr1f@C4 (solitaire)")
    async def play(self, interaction: discord.Interaction, move: TableMove) -> None:  # type: ignore[override]
        await self.act(interaction, move)

    @app_commands.command(description="Resign your game here (a solitaire: give up and see a solution).")
    async def resign(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        async with refusals(interaction):
            assert interaction.channel_id is not None
            update = await self.service.resign(
                interaction.channel_id, self._game_for(interaction), interaction.user.id
            )
            await self.reply_update(interaction, update)
            self.service.continue_game(update.session)

    # -- solitaire --------------------------------------------------------------------------

    @app_commands.command(description="Start a solitaire challenge: fill a target with pentominoes.")
    @app_commands.describe(target="The shape to fill (default 6x10)")
    @app_commands.choices(target=TARGET_CHOICES)
    async def solo(self, interaction: discord.Interaction, target: str = solo.DEFAULT_TARGET) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            user = interaction.user
            await self.service.create(
                SOLO,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=user.id,
                name=user.display_name,
                options={"target": target},
                turn_seconds=0,
            )
            session = await self.service.start(interaction.channel_id, SOLO, user.id)
            await interaction.response.defer(thinking=True)
            message = await interaction.followup.send(
                solo_start_message(session),
                file=await ui.board_file(session),
                allowed_mentions=ui.MENTION_USERS,
                wait=True,
            )
            await self.service.storage.set_message(session.id, message.id)

    @app_commands.command(description="Solitaire: take your last piece back.")
    async def undo(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            self._solo(interaction, "undo")
            await self.act(interaction, "undo")

    @app_commands.command(description="Solitaire: give up and see a solution.")
    async def giveup(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            self._solo(interaction, "giveup")
            await self.act(interaction, "giveup")

    @app_commands.command(description="Solitaire: place one more piece of a solution. Duel: a suggestion.")
    async def hint(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        if not self._solo_here(interaction):
            await self._duel_hint(interaction)
            return
        async with refusals(interaction):
            state = self._session(interaction).state
            try:  # most positions are decided at once; answer within Discord's 3 seconds
                place = await asyncio.to_thread(solo.hint_place, state, QUICK_HINT)
            except solver.SearchLimitError:
                await interaction.response.defer(thinking=True)
                place = await self._slow_hint(state)
                assert interaction.channel_id is not None
                text = solo.format_move(solo.hint(place))
                update = await self.service.play(interaction.channel_id, SOLO, interaction.user.id, text)
                await self.reply_update(interaction, update)
                return
            if place is None:
                raise errors.SessionError(CANNOT_COMPLETE)
            await self.act(interaction, solo.format_move(solo.hint(place)))

    async def _slow_hint(self, state: SoloState) -> Place:
        try:
            place = await asyncio.to_thread(solo.hint_place, state)
        except solver.SearchLimitError:
            raise errors.SessionError(
                "Your position is too open to find a solution quickly: place a few more pieces "
                "(or `/puzzominos undo`) and ask again."
            ) from None
        if place is None:
            raise errors.SessionError(CANNOT_COMPLETE)
        return place

    async def _duel_hint(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            session = self._session(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            suggestion = await self.service.hint(session, interaction.user.id)
            await interaction.followup.send(
                f"The computer would play `{suggestion}` — `/puzzominos play move:{suggestion}`",
                ephemeral=True,
            )


def solo_start_message(session: Session) -> str:
    """The message that starts a solitaire game."""
    state = session.state
    lines = [
        f"**{session.game.title}** #{session.id} — {ui.mention(session, 0)} takes on "
        f"**{state.target.title}**.",
        *ui.status_lines(session),
        "Place pieces with `/puzzominos play` (e.g. `Lr1f@C4`: piece, orientation, top-left square); "
        "`/puzzominos hand` shows your pieces, `/puzzominos undo` takes one back, `/puzzominos hint` "
        "places one for you, `/puzzominos giveup` shows a solution.",
    ]
    return "\n".join(lines)[:2000]


async def setup(bot: TilehostBot) -> None:
    """Load the Puzz-Ominos cog."""
    await bot.add_cog(PuzzOminosCog(bot))
