"""The shared game cog: every game's `/game ...` verbs, so each game cog stays thin.

A game cog subclasses :class:`GameCog` with ``group_name`` set, names its game in
``game_name``, defines ``new`` (its options as slash options, calling :meth:`open_lobby`) and
its own actions (``draw``, ``pass``, ...) as one-liners calling :meth:`act`.

Every command acknowledges at once (privately, unless it answers in public) and then works; a
refusal is raised as a :class:`bot.errors.SessionError` or a game error and answered once, by
:func:`bot.ui.replies.answer_error`, as a private message saying what was wrong. The board, the pings
and the computers' answers are the table announcer's and the session service's business, not
the command's: a command only tells its user what happened.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import admin, errors, words, workers
from bot.sessions import Session, SessionService, Status, Update
from bot.ui import buttons, files, replies
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

CLOCK_HELP = "Hours allowed for each move (0: no clock; default: the server's)"
RULES_PICTURE_MOVES = 8
MAX_RECORD_BYTES = 1_000_000
T = TypeVar("T")


def option_choices(game_name: str, option: str) -> list[app_commands.Choice[Any]]:
    """A game option's choices for a slash command, labelled and with the default marked, from
    the engine's own option spec (see :func:`games.core.option`)."""
    spec = get_game(game_name).Options.spec(option)
    return [app_commands.Choice(name=spec.label(value)[:100], value=value) for value in spec.choices]


def option_help(game_name: str, option: str) -> str:
    """A game option's help line (at most 100 characters, as Discord wants)."""
    return get_game(game_name).Options.spec(option).help[:100] or option


def owner_of(interaction: discord.Interaction) -> workers.Owner:
    """Whom a member's long work is for (its caps and its turn in the long lane)."""
    return workers.Owner(guild_id=interaction.guild_id, user_id=interaction.user.id)


def game_options(game_name: str, *names: str, **more_help: str) -> Callable[[T], T]:
    """A ``new`` command's slash options ``names``, each described and offered its choices from
    the engine's own option spec; ``more_help`` describes its other options (``clock_hours``)."""
    describe = app_commands.describe(**{name: option_help(game_name, name) for name in names}, **more_help)
    choices = app_commands.choices(**{name: option_choices(game_name, name) for name in names})

    def decorate(command: T) -> T:
        return describe(choices(command))

    return decorate


def channel_of(interaction: discord.Interaction) -> int:
    """Where the command was used (guild-only commands always have a channel)."""
    if interaction.channel_id is None:
        raise errors.NoGameHere("Use this command in a server channel.")
    return interaction.channel_id


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel of the thread the command was used in (None outside a thread)."""
    channel = interaction.channel
    return channel.parent_id if isinstance(channel, discord.Thread) else None


class MoveTransformer(app_commands.Transformer):
    """Move notation: passed through as typed (the engine parses it under the game's lock);
    autocomplete offers the legal moves of the player to act, best first, filtered by what is
    typed."""

    prefix: ClassVar[str] = ""
    """Only suggestions starting with this (e.g. ``score``), typed text prefixed with it."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        if value.strip() == words.NOT_A_MOVE:
            raise errors.SessionError(words.not_a_move(self._note(interaction)))
        return value.strip()

    @staticmethod
    def _note(interaction: discord.Interaction) -> str | None:
        """Why the user has no move to pick now (whose turn it is), if that can be told."""
        cog = getattr(interaction.command, "binding", None)
        if not isinstance(cog, GameCog) or interaction.channel_id is None:
            return None
        try:
            return words.no_moves_note(cog.table(interaction), interaction.user.id)
        except errors.SessionError as error:
            return words.plain(str(error))

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        """The legal moves of the user to act, best first; where there are none to offer, one
        line saying why (whose turn it is), whose value is refused if it is picked."""
        cog = getattr(interaction.command, "binding", None)
        if not isinstance(cog, GameCog) or interaction.channel_id is None:
            return []
        try:
            session = cog.table(interaction)
        except errors.SessionError as error:
            return [_notice(str(error))]
        note = words.no_moves_note(session, interaction.user.id)
        if note is not None:
            return [_notice(note)]
        typed = f"{self.prefix} {value}" if self.prefix else value
        pairs = await cog.service.suggestions(session, interaction.user.id, typed)
        choices = [
            app_commands.Choice(name=label[:100], value=notation[:100])
            for label, notation in pairs
            if notation.startswith(self.prefix)
        ]
        return choices or [_notice(words.nothing_matches(value, self.prefix))]


def _notice(text: str) -> app_commands.Choice[str]:
    """An autocomplete line that only tells something: picking it is refused."""
    return app_commands.Choice(name=words.plain(text), value=words.NOT_A_MOVE)


MoveText = app_commands.Transform[str, MoveTransformer]


class FinishedGame(app_commands.Transformer):
    """A stored game's number, resolved to its header and record; only the game's own server
    (and its players) may see it, and only once it is over."""

    async def transform(self, interaction: discord.Interaction, value: int) -> tuple[Any, Record]:
        client: TilehostBot = interaction.client  # type: ignore[assignment]
        row, record = await client.service.finished_record(int(value))
        seated = interaction.user.id in {seat.user_id for seat in await client.service.storage.seats(row.id)}
        if row.guild_id != interaction.guild_id and not seated:
            raise errors.NoGameHere(f"There is no game #{value} in this server.")
        if row.status in (Status.LOBBY, Status.PLAYING):
            raise errors.SessionError(
                f"Game #{value} is still running; its record and replay come when it ends (the record of a "
                "running game would reveal hidden tiles)."
            )
        await client.service.dailies.check_visible(row, interaction.user.id)
        return row, record

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1


GameNumber = app_commands.Transform[tuple[Any, Record], FinishedGame]


@app_commands.guild_only()
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

    def table(self, interaction: discord.Interaction) -> Session:
        """The game this interaction is about (see :meth:`SessionService.table`)."""
        return self.service.table(
            channel_of(interaction), self.hosted, interaction.user.id, parent_of(interaction)
        )

    async def ready_table(self, interaction: discord.Interaction) -> Session:
        """:meth:`table`, once its state is loaded (a thread made for it whose id was never
        stored is the game's again)."""
        session = self.table(interaction)
        await self.service.claim_thread(session, channel_of(interaction))
        return await self.service.ready(session)

    # -- lobby -----------------------------------------------------------------------------

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        clock_hours: int | None = None,
        game: str | None = None,
    ) -> None:
        """Open a lobby with ``options`` (None values mean the default) and post it."""
        chosen = {key: value for key, value in options.items() if value is not None}
        if clock_hours is None:  # the server's own default, else the bot's (None)
            turn_seconds = await admin.turn_seconds(self.service.storage, interaction.guild_id)
        else:
            turn_seconds = clock_hours * 3600
        session = await self.service.create(
            game or self.game_name,
            guild_id=interaction.guild_id,
            channel_id=channel_of(interaction),
            user_id=interaction.user.id,
            name=buttons.display_name(interaction.user),
            options=chosen,
            turn_seconds=turn_seconds,
        )
        content, view = words.lobby_message(session), buttons.lobby_view(session)
        try:
            await interaction.response.send_message(content, view=view, allowed_mentions=replies.NO_PINGS)
            message: discord.Message | None = await interaction.original_response()
        except discord.HTTPException:
            log.warning("the reply to lobby %s failed; posting it in the channel", session.id)
            message = await self.bot.announcer.post(session.row.channel_id, content, view=view)
        if message is not None:
            await self.service.set_lobby_message(session, message.id)

    @app_commands.command(description="Take a seat in this channel's lobby.")
    async def join(self, interaction: discord.Interaction) -> None:
        session = self.service.lobby_in(channel_of(interaction), self.game_name)
        await self.service.join(session, interaction.user.id, buttons.display_name(interaction.user))
        await replies.private(interaction, f"You have a seat at {words.header(session)}.")
        await self.bot.announcer.refresh_lobby(session)

    @app_commands.command(description="Leave this channel's lobby (the host leaving closes it).")
    async def leave(self, interaction: discord.Interaction) -> None:
        session = self.service.lobby_in(channel_of(interaction), self.game_name)
        closed = await self.service.leave(session, interaction.user.id)
        if closed is not None:
            await replies.private(interaction, f"You left; {words.header(session)} is closed.")
            return
        await replies.private(interaction, f"You left {words.header(session)}.")
        await self.bot.announcer.refresh_lobby(session)

    @app_commands.command(description="Host only: fill the next seat with a computer player.")
    @app_commands.describe(level="How strong the computer plays (default: normal)")
    @app_commands.choices(
        level=[app_commands.Choice(name=label, value=key) for key, label in ai.LEVELS.items()]
    )
    async def computer(self, interaction: discord.Interaction, level: str = ai.DEFAULT_LEVEL) -> None:
        session = self.service.lobby_in(channel_of(interaction), self.game_name)
        await self.service.add_computer(session, interaction.user.id, level)
        await replies.private(interaction, f"A computer player ({level}) takes a seat.")
        await self.bot.announcer.refresh_lobby(session)

    @app_commands.command(description="Host only: start the game with the seated players.")
    async def start(self, interaction: discord.Interaction) -> None:
        await replies.defer_private(interaction)
        session = self.service.lobby_in(channel_of(interaction), self.game_name)
        update = await self.service.start(session, interaction.user.id)
        troubles = await self.bot.announcer.troubles(update)
        where = session.row.thread_id if session.row.room_id is None else None
        started = f"{words.header(session)} has started" + (f": play in <#{where}>." if where else ".")
        await replies.private(interaction, "\n".join([started, *troubles]))

    @app_commands.command(description="Host: call off the lobby or game here (no result is kept).")
    async def abort(self, interaction: discord.Interaction) -> None:
        await replies.defer_private(interaction)
        session = self.table(interaction)
        await self.service.abort(session, interaction.user.id)
        await replies.private(interaction, words.aborted(session))

    # -- play ------------------------------------------------------------------------------

    @app_commands.command(description="Make your move (autocomplete lists the legal moves, best first).")
    @app_commands.describe(move="The move in the game's notation, e.g. from the suggestions")
    async def play(self, interaction: discord.Interaction, move: MoveText) -> None:
        await self.act(interaction, move)

    async def act(self, interaction: discord.Interaction, text: str) -> None:
        """Make the move ``text`` for the user and tell them privately once it is stored (the
        table announcer shows the board)."""
        await replies.defer_private(interaction)
        session = await self.ready_table(interaction)
        if session.waiting:
            await replies.private(interaction, "⏳ Busy at this table: your move is queued.")
        update = await self.service.play(session, interaction.user.id, text)
        await replies.private(interaction, words.private_ack(update.moment, update.steps, update.seat))
        await self.tell_troubles(interaction, update)

    async def tell_troubles(self, interaction: discord.Interaction, update: Update) -> None:
        """Once the update is shown: what the bot could not do for it (post, attach its picture,
        keep its thread), privately to the user who made it."""
        troubles = await self.bot.announcer.troubles(update)
        if troubles:
            await replies.private(interaction, "\n".join(troubles))

    @app_commands.command(description="Resign this game (you rank last; the others play on where they can).")
    async def resign(self, interaction: discord.Interaction) -> None:
        await replies.defer_private(interaction)
        session = await self.ready_table(interaction)
        update = await self.service.resign(session, interaction.user.id)
        await replies.private(interaction, words.private_ack(update.moment, update.steps, update.seat))
        await self.tell_troubles(interaction, update)

    # -- looking -----------------------------------------------------------------------------

    @app_commands.command(description="See your own tiles (only you see them).")
    async def hand(self, interaction: discord.Interaction) -> None:
        await buttons.send_hand(interaction, self.service, self.table(interaction))

    @app_commands.command(description="See the board (the current game here, or the last one to end).")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        buttons.throttle(interaction, "board")
        if public:
            await replies.defer_public(interaction)
        else:
            await replies.defer_private(interaction)
        session = await self._board_session(interaction)
        if session.state is None:
            await interaction.followup.send(words.lobby_message(session), ephemeral=not public)
            return
        text = "\n".join([words.header(session), *words.status_lines(session)])
        if session.is_over:
            text = "\n".join(
                [words.header(session), words.game_over_line(session), words.standings_line(session)]
            )
        await interaction.followup.send(
            words.clip(text),
            file=await files.board_file(session),
            ephemeral=not public,
            allowed_mentions=replies.NO_PINGS,
        )

    async def _board_session(self, interaction: discord.Interaction) -> Session:
        try:
            return await self.ready_table(interaction)
        except errors.NoGameHere:
            last = await self.service.last_finished(channel_of(interaction), self.hosted, interaction.user.id)
            if last is None:
                raise
            return last

    @app_commands.command(description="Ask the computer for a move suggestion (only you see it).")
    async def hint(self, interaction: discord.Interaction) -> None:
        buttons.throttle(interaction, "hint")
        await replies.defer_private(interaction)
        await self.suggest(interaction, await self.ready_table(interaction))

    async def suggest(self, interaction: discord.Interaction, session: Session) -> None:
        """Tell the user privately what the computer would play in their place."""
        decision = await self.service.hint(session, interaction.user.id)
        await replies.private(interaction, words.hint_message(session, decision, f"/{self.game_name} play"))

    @app_commands.command(description="How to play, with the move notation.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await replies.defer_private(interaction)
        game = self.game
        embed = discord.Embed(title=f"{game.title} — rules", description=game.summary[:4000])
        embed.add_field(name="Notation", value=game.notation_help[:1024] or "-", inline=False)
        embed.add_field(name="Players", value=words.players_range(game))
        embed.set_image(url=f"attachment://{self.game_name}-rules.png")
        if self._rules_png is None:
            self._rules_png = await workers.run(rules_picture, game, kind=workers.PICTURE)
        file = discord.File(io.BytesIO(self._rules_png), filename=f"{self.game_name}-rules.png")
        await interaction.followup.send(embed=embed, file=file, ephemeral=True)

    @app_commands.command(description="Get a game record as a file (the last game here, or a game number).")
    @app_commands.describe(game_id="A finished game's number (default: the last game to end here)")
    async def export(self, interaction: discord.Interaction, game_id: GameNumber | None = None) -> None:
        row, record = await self._finished(interaction, game_id)
        data = record.to_text().encode()
        await interaction.followup.send(
            f"Record of {get_game(row.game).title} #{row.id}.",
            file=discord.File(io.BytesIO(data), filename=f"{row.game}-{row.id}.txt"),
            allowed_mentions=replies.NO_PINGS,
        )

    async def _finished(
        self, interaction: discord.Interaction, game_id: tuple[Any, Record] | None
    ) -> tuple[Any, Record]:
        """The finished game an export or replay shows (the last one here by default), once the
        rate limit let the request through; acknowledged publicly only after the checks, so that
        a refusal is answered privately."""
        buttons.throttle(interaction, "replay")
        if game_id is None:
            game_id = await self._last_here(interaction)
        self._check_hosted(game_id[0])
        await replies.defer_public(interaction)
        return game_id

    async def _last_here(self, interaction: discord.Interaction) -> tuple[Any, Record]:
        last = await self.service.storage.last_finished(
            channel_of(interaction), self.hosted, interaction.user.id
        )
        if last is None:
            raise errors.NoGameHere(
                f"No {self.game.title} game has ended in this channel yet; name one with `game_id` "
                "(see `/history`)."
            )
        return await self.service.finished_record(last.id)

    def _check_hosted(self, row: Any) -> None:
        if row.game not in self.hosted:
            other = get_game(row.game)
            raise errors.SessionError(f"Game #{row.id} is a {other.title} game: use `/{other.name}`.")

    @app_commands.command(description="Watch a finished game again: an animated board and a score chart.")
    @app_commands.describe(game_id="The game's number (see /history; default: the last game to end here)")
    async def replay(self, interaction: discord.Interaction, game_id: GameNumber | None = None) -> None:
        row, record = await self._finished(interaction, game_id)
        await self._send_replay(interaction, record, f"Replay of {get_game(row.game).title} #{row.id}")

    @app_commands.command(name="import", description="Show a game record file (from export) as a replay.")
    @app_commands.describe(record="A record file made by /export (nothing is stored)")
    async def import_record(self, interaction: discord.Interaction, record: discord.Attachment) -> None:
        buttons.throttle(interaction, "replay")
        await replies.defer_private(interaction)
        if record.size > MAX_RECORD_BYTES:
            raise errors.SessionError(
                f"That file is too big for a record ({record.size} bytes; at most {MAX_RECORD_BYTES})."
            )
        text = (await record.read()).decode("utf-8", errors="replace")
        try:
            parsed = await workers.run(
                read_record, text, self.hosted, kind=workers.IMPORT, owner=owner_of(interaction)
            )
        except workers.WorkTooLong:
            raise errors.SessionError("That record took too long to read; nothing was shown.") from None
        await self._send_replay(interaction, parsed, f"Imported {get_game(parsed.game).title} record")

    async def _send_replay(self, interaction: discord.Interaction, record: Record, title: str) -> None:
        try:
            gif, chart, summary = await workers.run(
                replay_files, record, kind=workers.REPLAY, owner=owner_of(interaction)
            )
        except workers.WorkTooLong:
            raise errors.SessionError("That replay took too long to draw.") from None
        except GameError as error:
            raise RecordError(f"That record does not replay: {error}") from None
        lines = [f"**{words.escape(title)}** — {words.counted(summary.moves, 'move')}"]
        for seat, player in enumerate(record.players):
            won = " 🏆" if summary.won(seat) else ""
            lines.append(f"{words.escape(words.short(player))}: {summary.scores[seat]}{won}")
        if not summary.finished:
            lines.append("(the record stops before the end of the game)")
        attachments = [
            discord.File(io.BytesIO(gif), filename=f"{record.game}-replay.gif"),
            discord.File(io.BytesIO(chart), filename=f"{record.game}-scores.png"),
        ]
        await interaction.followup.send(
            words.clip("\n".join(lines)), files=attachments, allowed_mentions=replies.NO_PINGS
        )


def read_record(text: str, hosted: tuple[str, ...]) -> Record:
    """An uploaded record, read and replayed (in a worker process): a bad one is refused with
    what is wrong, before anything is drawn."""
    parsed = Record.from_text(text)
    other = get_game(parsed.game)
    if other.name not in hosted:
        raise RecordError(f"That is a {other.title} record; use `/{other.name} import`.")
    try:
        records.final_state(other, parsed)
    except GameError as error:
        raise RecordError(f"That record does not replay: {error}") from None
    return parsed


def rules_picture(game: Game[Any, Any]) -> bytes:
    """A board from the first moves of a seeded computer game, for ``/game rules``."""
    state = ai.greedy_states(game, game.min_players, seed=1, plies=RULES_PICTURE_MOVES)[-1]
    names = [f"Player {seat + 1}" for seat in range(game.players(state))]
    return renderers.board_png(game.name, game.view(state, None), names)
