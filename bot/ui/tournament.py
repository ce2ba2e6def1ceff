"""Tournaments on Discord: the sign-up message and its Join / Leave buttons (they keep working
after a restart), and the announcer of every tournament update: a round's pairings with links
to its games, the standings (text and picture) after each round, the winner at the end.

Updates of a tournament are announced in order, in a background task per tournament; a Discord
failure is logged and the tournament goes on (it is stored already)."""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Protocol, cast

import discord

from bot import errors, workers
from bot.sessions import SessionService
from bot.storage import unavailable
from bot.tournaments import words
from bot.tournaments.model import Phase, Tournament
from bot.tournaments.service import TournamentService, TournamentUpdate, TournamentUpdateKind
from bot.tournaments.standings import Standing
from bot.ui import replies
from bot.ui.buttons import display_name
from bot.ui.queues import KeyedQueues
from games import registry
from games.errors import GameError
from rendering.tournament import standings_png

log = logging.getLogger(__name__)

THREAD_WAIT = 5.0
"""How long a round's announcement waits for each game's thread to be made (to link it)."""


class Poster(Protocol):
    """What the tournament announcer asks of the table announcer (:class:`bot.ui.table.TableAnnouncer`)."""

    async def post(
        self,
        channel_id: int,
        content: str,
        *,
        pings: list[int] | None = None,
        file: discord.File | None = None,
    ) -> discord.Message | None:
        """Send ``content`` in a channel, pinging exactly ``pings``."""

    async def caught_up(self, game_id: int, seconds: float = 2.0) -> None:
        """Wait (a little) until a game's announcements are out."""


class TournamentBot(Protocol):
    """The bot as the tournament UI sees it (:class:`bot.client.TilehostBot` is one)."""

    @property
    def service(self) -> SessionService:
        """The session service."""

    @property
    def tournaments(self) -> TournamentService:
        """The tournament service."""

    @property
    def announcer(self) -> Poster:
        """The table announcer (it posts, and makes each game's thread)."""

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None:
        """A cached channel or thread."""


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:(?P<verb>join|leave):(?P<id>\d+)"
):
    """Join or Leave on a sign-up message; its custom id names the verb and the tournament."""

    def __init__(self, verb: str, tournament_id: int) -> None:
        label, style = (
            ("Join", discord.ButtonStyle.success)
            if verb == "join"
            else ("Leave", discord.ButtonStyle.secondary)
        )
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:{verb}:{tournament_id}"))
        self.verb = verb
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(match["verb"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = cast(TournamentBot, interaction.client).tournaments
        try:
            if self.verb == "join":
                tournament = await service.join(
                    self.tournament_id, interaction.user.id, display_name(interaction.user)
                )
                done = f"You are signed up for {words.title(tournament)}."
            else:
                tournament = await service.leave(self.tournament_id, interaction.user.id)
                done = f"You left {words.title(tournament)}."
        except (errors.SessionError, GameError) as error:
            await replies.private(interaction, str(error))
            return
        except Exception as error:
            if unavailable(error):
                await replies.private(interaction, replies.STORAGE_DOWN)
                return
            log.exception("the %s button of tournament %s failed", self.verb, self.tournament_id)
            await replies.private(interaction, replies.NOTHING_RECORDED)
            return
        await replies.private(interaction, done)


def signup_view(tournament: Tournament) -> discord.ui.View | None:
    """Join and Leave while sign-up is open; nothing after."""
    if tournament.phase is not Phase.SIGNUP:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("join", tournament.id))
    view.add_item(TournamentButton("leave", tournament.id))
    return view


async def standings_file(
    tournament: Tournament, lines: list[Standing] | tuple[Standing, ...], heading: str
) -> discord.File:
    """The standings picture (drawn in a worker process)."""
    headings, rows = words.picture_rows(tournament, lines)
    rules = tournament.rules
    game = registry.get(rules.game)
    subtitle = (
        f"{game.title} · {rules.format.label} · {rules.table_size} players a table · "
        f"{len(tournament.entrants)} players · {words.rounds_words(tournament)}"
    )
    if any(line.withdrawn for line in lines):
        subtitle += " · † withdrew"
    leaders = sum(1 for line in lines if line.rank == 1) if tournament.phase is Phase.FINISHED else 0
    png = await workers.run(
        standings_png,
        f"{tournament.name} — {heading}",
        subtitle,
        headings,
        rows,
        leaders,
        kind=workers.PICTURE,
    )
    return discord.File(io.BytesIO(png), filename=f"tournament-{tournament.id}-standings.png")


class TournamentAnnouncer:
    """Announces every tournament update in the tournament's channel."""

    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot
        self._queues: KeyedQueues[TournamentUpdate] = KeyedQueues(self._work, "tournament-announce")

    async def on_update(self, update: TournamentUpdate) -> None:
        """Queue ``update``; the tournament's task announces it."""
        self._queues.put(update.tournament.id, update)

    async def _work(self, tournament_id: int, updates: list[TournamentUpdate]) -> None:
        """Announce a tournament's updates in order (one that fails does not stop the next)."""
        for update in updates:
            try:
                await self._announce(update)
            except Exception:
                log.exception("tournament %s: announcing %s failed", tournament_id, update.kind)

    async def caught_up(self, tournament_id: int, seconds: float = 10.0) -> None:
        """Wait (a little) until a tournament's announcements are out."""
        await self._queues.caught_up(tournament_id, seconds)

    async def close(self) -> None:
        """Let the announcements under way finish."""
        await self._queues.close()

    async def _announce(self, update: TournamentUpdate) -> None:
        tournament = update.tournament
        await self.refresh_signup(tournament)
        kind = update.kind
        if kind in (TournamentUpdateKind.ROUND_STARTED, TournamentUpdateKind.FINISHED):
            await self._results_out(tournament, update)
        if kind is TournamentUpdateKind.ROUND_STARTED:
            links = await self._links(update)
            text = words.round_message(tournament, tournament.round, update.standings, links)
            picture = None
            if update.standings:
                heading = f"after round {tournament.round - 1}"
                picture = await standings_file(tournament, update.standings, heading)
            await self.bot.announcer.post(tournament.channel_id, text, file=picture)
        elif kind is TournamentUpdateKind.FINISHED:
            picture = await standings_file(tournament, update.standings, "final standings")
            await self.bot.announcer.post(
                tournament.channel_id, words.final_message(tournament, update.standings), file=picture
            )
        elif kind is TournamentUpdateKind.CANCELLED:
            why = f" ({update.note})" if update.note else ""
            await self.bot.announcer.post(
                tournament.channel_id,
                f"❌ {words.title(tournament)} is called off{why}. No standings are kept; games already "
                "finished stay as ordinary games, games under way were called off.",
            )

    async def _results_out(self, tournament: Tournament, update: TournamentUpdate) -> None:
        """Wait (a little) for the results of the round that ended to be posted, so that the
        standings come after them."""
        ended = tournament.round if update.kind is TournamentUpdateKind.FINISHED else tournament.round - 1
        for table in tournament.tables_of(ended):
            if table.game_id is not None:
                await self.bot.announcer.caught_up(table.game_id, THREAD_WAIT)

    async def _links(self, update: TournamentUpdate) -> dict[int, str]:
        """Table id -> where its game plays (its thread once the table announcer has made it)."""
        links: dict[int, str] = {}
        tournament = update.tournament
        for table in tournament.tables_of(tournament.round):
            session = update.games.get(table.id)
            if session is None and table.game_id is not None:
                session = self.bot.service.get(table.game_id)
            if session is None:
                continue
            await self.bot.announcer.caught_up(session.id, THREAD_WAIT)
            thread = session.row.thread_id
            links[table.id] = f"<#{thread}>" if thread else f"game #{session.id} in this channel"
        return links

    async def refresh_signup(self, tournament: Tournament) -> None:
        """Show the sign-up message as the tournament stands now (no repost, no pings)."""
        if tournament.message_id is None:
            return
        channel = self.bot.get_channel(tournament.channel_id)
        if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "get_partial_message"):
            return
        try:
            await channel.get_partial_message(tournament.message_id).edit(
                content=words.signup_message(tournament),
                view=signup_view(tournament),
                allowed_mentions=replies.NO_PINGS,
            )
        except discord.HTTPException as error:
            log.info("tournament %s: the sign-up message could not be edited: %s", tournament.id, error)
