"""The shared game cog: every game's `/game ...` verbs, so each game cog stays thin.

A game cog subclasses :class:`GameCog` with ``group_name`` set, names its game in
``game_name``, defines ``new`` (its options as slash options, calling :meth:`open_lobby`) and
its own actions (``draw``, ``pass``, ...) as one-liners calling :meth:`act`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, ui
from bot.sessions import Session, SessionService, Update
from games import ai, records
from games.core import Game
from games.errors import GameError, RecordError
from games.records import Record
from games.registry import get as get_game
from rendering import registry as renderers
from rendering.replay import replay_files

if TYPE_CHECKING:
    from bot.client import TilehostBot

log = logging.getLogger(__name__)

RULES_PICTURE_MOVES = 8
MAX_RECORD_BYTES = 1_000_000


@asynccontextmanager
async def refusals(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Turn a refused request (a session or game error) into an ephemeral reply saying what was
    wrong; nothing was stored. Other errors go on to the error handler."""
    try:
        yield
    except (errors.SessionError, GameError) as error:
        await ui.send_error(interaction, str(error))


class MoveTransformer(app_commands.Transformer):
    """Move notation: passed through as typed (the engine parses it under the game's lock);
    autocomplete offers the legal moves of the player to act, best first, filtered by what is
    typed."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return value.strip()

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        command = interaction.command
        cog = getattr(command, "binding", None)
        if not isinstance(cog, GameCog) or interaction.channel_id is None:
            return []
        try:
            session = cog.service.find(interaction.channel_id, cog.game_name)
        except errors.SessionError:
            return []
        pairs = await asyncio.to_thread(cog.service.suggestions, session, interaction.user.id, value)
        return [app_commands.Choice(name=label[:100], value=notation[:100]) for label, notation in pairs]


MoveText = app_commands.Transform[str, MoveTransformer]


class GameCog(commands.GroupCog):
    """The verbs every game shares. Subclasses set ``game_name`` and ``group_name``."""

    game_name: ClassVar[str]
    also_hosts: ClassVar[tuple[str, ...]] = ()
    """Other registered games played through this cog's commands (their results show in the
    standings), e.g. Puzz-Ominos solitaire under ``/puzzominos solo``."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot
        self._rules_png: bytes | None = None
        super().__init__()

    @property
    def service(self) -> SessionService:
        """The session service of the bot."""
        return self.bot.service

    @property
    def hosted(self) -> tuple[str, ...]:
        """Every game played through this cog: its own and ``also_hosts``."""
        return (self.game_name, *self.also_hosts)

    @property
    def game(self) -> Game[Any, Any]:
        """This cog's game."""
        return get_game(self.game_name)

    def _session(self, interaction: discord.Interaction) -> Session:
        assert interaction.channel_id is not None
        return self.service.find(interaction.channel_id, self.game_name)

    # -- lobby -----------------------------------------------------------------------------

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], clock_hours: int | None = None
    ) -> None:
        """Open a lobby with ``options`` (None values mean the default) and post it."""
        async with refusals(interaction):
            assert interaction.channel_id is not None
            chosen = {key: value for key, value in options.items() if value is not None}
            turn_seconds = None if clock_hours is None else clock_hours * 3600
            session = await self.service.create(
                self.game_name,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                name=interaction.user.display_name,
                options=chosen,
                turn_seconds=turn_seconds,
            )
            content, view = ui.lobby_message(session), ui.lobby_view(session)
            try:
                await interaction.response.send_message(content, view=view, allowed_mentions=ui.MENTION_USERS)
            except discord.HTTPException:
                log.warning("reply to a stored lobby %s failed; posting it in the channel", session.id)
                await self.bot.poster.post(session.row.channel_id, content, view=view)

    @app_commands.command(description="Take a seat in this channel's lobby.")
    async def join(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            session = await self.service.join(
                interaction.channel_id, self.game_name, interaction.user.id, interaction.user.display_name
            )
            await interaction.response.send_message(
                ui.lobby_message(session), allowed_mentions=ui.MENTION_USERS
            )

    @app_commands.command(description="Leave this channel's lobby (the host leaving closes it).")
    async def leave(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            session = await self.service.leave(interaction.channel_id, self.game_name, interaction.user.id)
            if session.status == "aborted":
                await interaction.response.send_message(f"The host left; lobby #{session.id} is closed.")
            else:
                await interaction.response.send_message(
                    ui.lobby_message(session), allowed_mentions=ui.MENTION_USERS
                )

    @app_commands.command(description="Host only: fill the next seat with a computer player.")
    async def computer(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            session = await self.service.add_computer(
                interaction.channel_id, self.game_name, interaction.user.id
            )
            await interaction.response.send_message(
                ui.lobby_message(session), allowed_mentions=ui.MENTION_USERS
            )

    @app_commands.command(description="Host only: start the game with the seated players.")
    async def start(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            session = await self.service.start(interaction.channel_id, self.game_name, interaction.user.id)
            await interaction.response.defer(thinking=True)
            message = await interaction.followup.send(
                ui.start_message(session),
                file=await ui.board_file(session),
                view=ui.turn_view(session) or discord.utils.MISSING,
                allowed_mentions=ui.MENTION_USERS,
                wait=True,
            )
            await self.service.storage.set_message(session.id, message.id)
            self.service.continue_game(session)

    # -- play ------------------------------------------------------------------------------

    @app_commands.command(description="Make your move (autocomplete lists the legal moves, best first).")
    @app_commands.describe(move="The move in the game's notation, e.g. from the suggestions")
    async def play(self, interaction: discord.Interaction, move: MoveText) -> None:
        async with refusals(interaction):
            await self.act(interaction, move)

    async def act(self, interaction: discord.Interaction, text: str) -> None:
        """Make the move ``text`` for the user, reply with the board, let computers answer."""
        assert interaction.channel_id is not None
        async with refusals(interaction):
            update = await self.service.play(
                interaction.channel_id, self.game_name, interaction.user.id, text
            )
            await self.reply_update(interaction, update)
            self.service.continue_game(update.session)

    async def reply_update(self, interaction: discord.Interaction, update: Update) -> None:
        """Reply with the turn message and board (as the followup of a reply already deferred,
        if it was); the move is already stored, so if Discord fails here the board is posted in
        the channel instead."""
        session = update.session
        try:
            if not interaction.response.is_done():
                await interaction.response.defer(thinking=True)
            message = await interaction.followup.send(
                ui.turn_message(update),
                file=await ui.board_file(session),
                view=ui.turn_view(session) or discord.utils.MISSING,
                allowed_mentions=ui.MENTION_USERS,
                wait=True,
            )
        except discord.HTTPException:
            log.warning("reply to a stored move of game %s failed; posting in the channel", session.id)
            await self.bot.poster.on_update(update)
            return
        await self.service.storage.set_message(session.id, message.id)

    @app_commands.command(description="Resign this game (you rank last; the others play on where they can).")
    async def resign(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            update = await self.service.resign(interaction.channel_id, self.game_name, interaction.user.id)
            await self.reply_update(interaction, update)
            self.service.continue_game(update.session)

    @app_commands.command(description="Host or moderator: abort the lobby or game here (no result is kept).")
    async def abort(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            assert interaction.channel_id is not None
            permissions = getattr(interaction, "permissions", None)
            moderator = bool(permissions and permissions.manage_channels)
            session = await self.service.abort(
                interaction.channel_id, self.game_name, interaction.user.id, moderator=moderator
            )
            await interaction.response.send_message(
                f"{self.game.title} #{session.id} was aborted; no result is kept."
            )

    # -- looking -----------------------------------------------------------------------------

    @app_commands.command(description="See your own tiles (only you see them).")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            await ui.send_hand(interaction, self._session(interaction))

    @app_commands.command(description="See the current board.")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        async with refusals(interaction):
            session = self._session(interaction)
            if session.state is None:
                await interaction.response.send_message(ui.lobby_message(session), ephemeral=not public)
                return
            await interaction.response.defer(ephemeral=not public, thinking=True)
            text = "\n".join([f"**{session.game.title}** #{session.id}", *ui.status_lines(session)])
            await interaction.followup.send(
                text,
                file=await ui.board_file(session),
                ephemeral=not public,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(description="Ask the computer for a move suggestion (only you see it).")
    async def hint(self, interaction: discord.Interaction) -> None:
        async with refusals(interaction):
            session = self._session(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            suggestion = await self.service.hint(session, interaction.user.id)
            await interaction.followup.send(
                f"The computer would play `{suggestion}` — `/{self.game_name} play move:{suggestion}`",
                ephemeral=True,
            )

    @app_commands.command(description="How to play, with the move notation.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = self.game
        embed = discord.Embed(title=f"{game.title} — rules", description=game.summary[:4000])
        embed.add_field(name="Notation", value=game.notation_help[:1024] or "-", inline=False)
        embed.add_field(name="Players", value=f"{game.min_players}–{game.max_players}")
        embed.set_image(url=f"attachment://{self.game_name}-rules.png")
        png = await self._rules_picture()
        file = discord.File(io.BytesIO(png), filename=f"{self.game_name}-rules.png")
        await interaction.followup.send(embed=embed, file=file, ephemeral=True)

    async def _rules_picture(self) -> bytes:
        if self._rules_png is None:
            self._rules_png = await asyncio.to_thread(rules_picture, self.game)
        return self._rules_png

    @app_commands.command(description="Get the game record as a file (finished games, or a game id).")
    @app_commands.describe(game_id="A finished game's number (default: the last game here)")
    async def export(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        async with refusals(interaction):
            if game_id is None:
                running = self.service.in_channel(interaction.channel_id or 0, self.game_name)
                if running:
                    raise errors.SessionError(
                        "The record of a running game holds its seed, which would reveal hidden tiles: "
                        "export it when it ends, or name a finished game with `game_id`."
                    )
                raise errors.SessionError(
                    f"Name the finished game to export, e.g. `/{self.game_name} export game_id:12`."
                )
            row, record = await self.service.finished_record(game_id)
            if row.game not in self.hosted:
                raise errors.SessionError(
                    f"Game #{game_id} is a {get_game(row.game).title} game, not {self.game.title}."
                )
            if row.status in ("lobby", "playing"):
                raise errors.SessionError(
                    f"Game #{game_id} is still running; its record is available when it ends."
                )
            data = record.to_text().encode()
            await interaction.response.send_message(
                f"Record of {self.game.title} #{game_id}.",
                file=discord.File(io.BytesIO(data), filename=f"{self.game_name}-{game_id}.txt"),
            )

    @app_commands.command(description="Watch a finished game again: an animated board and a score chart.")
    @app_commands.describe(game_id="The game's number (see /history)")
    async def replay(self, interaction: discord.Interaction, game_id: int) -> None:
        async with refusals(interaction):
            row, record = await self.service.finished_record(game_id)
            if row.game not in self.hosted:
                raise errors.SessionError(f"Game #{game_id} is not a {self.game.title} game.")
            if row.status in ("lobby", "playing"):
                raise errors.SessionError(
                    f"Game #{game_id} is still running; replays are for finished games."
                )
            await interaction.response.defer(thinking=True)
            await self._send_replay(interaction, record, f"Replay of {self.game.title} #{game_id}")

    @app_commands.command(name="import", description="Show a game record file (from export) as a replay.")
    @app_commands.describe(record="A record file made by /export (nothing is stored)")
    async def import_record(self, interaction: discord.Interaction, record: discord.Attachment) -> None:
        async with refusals(interaction):
            if record.size > MAX_RECORD_BYTES:
                raise errors.SessionError(f"That file is too big for a record ({record.size} bytes).")
            text = (await record.read()).decode("utf-8", errors="replace")
            parsed = Record.from_text(text)
            other = get_game(parsed.game)
            if other.name not in self.hosted:
                raise RecordError(f"That is a {other.title} record; use `/{other.name} import`.")
            # Replay it before answering, so a bad record is refused privately (it takes ms).
            try:
                await asyncio.to_thread(records.replay, parsed)
            except GameError as error:
                raise RecordError(f"That record does not replay: {error}") from None
            await interaction.response.defer(thinking=True)
            await self._send_replay(interaction, parsed, f"Imported {self.game.title} record")

    async def _send_replay(self, interaction: discord.Interaction, record: Record, title: str) -> None:
        try:
            gif, chart, summary = await asyncio.to_thread(replay_files, record)
        except GameError as error:
            await interaction.followup.send(f"That record does not replay: {error}", ephemeral=True)
            return
        lines = [f"**{title}** — {summary['moves']} moves"]
        outcome = summary["outcome"]
        for seat, player in enumerate(record.players):
            won = outcome and seat in outcome["winners"] and seat not in outcome["forfeited"]
            mark = " 🏆" if won else ""
            lines.append(f"{player}: {summary['scores'][seat]}{mark}")
        if not summary["finished"]:
            lines.append("(the record stops before the end of the game)")
        files = [
            discord.File(io.BytesIO(gif), filename=f"{self.game_name}-replay.gif"),
            discord.File(io.BytesIO(chart), filename=f"{self.game_name}-scores.png"),
        ]
        await interaction.followup.send("\n".join(lines)[:2000], files=files)

    # -- errors ------------------------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await handle_command_error(interaction, error)


async def handle_command_error(interaction: discord.Interaction, error: Exception) -> None:
    """Refusals become ephemeral messages; anything else is logged and the user is told that
    nothing was recorded."""
    original = getattr(error, "original", error)
    if isinstance(original, errors.SessionError | GameError):
        await ui.send_error(interaction, str(original))
        return
    if isinstance(original, app_commands.TransformerError | app_commands.CheckFailure):
        await ui.send_error(interaction, str(original))
        return
    log.error(
        "unexpected error in /%s", getattr(interaction.command, "qualified_name", "?"), exc_info=original
    )
    await ui.send_error(interaction, ui.NOTHING_RECORDED)


def rules_picture(game: Game[Any, Any]) -> bytes:
    """A board from the first moves of a seeded computer game, for ``/game rules``."""
    state = game.new(game.min_players, game.Options(), seed=1)
    player = ai.GreedyPlayer(1)
    for _ in range(RULES_PICTURE_MOVES):
        if game.to_act(state) is None:
            break
        state, _ = game.apply(state, player.choose(game, state))
    names = [f"Player {seat + 1}" for seat in range(game.players(state))]
    return renderers.board_png(game.name, game.view(state, None), names)
