"""What Tilehost shows in Discord: messages, board and hand files, persistent buttons.

Rendering always runs in a worker thread (``asyncio.to_thread``), never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot import errors
from bot.sessions import Session, SessionService, Update
from games.core import Event, event_phrase
from games.errors import GameError
from games.records import RESIGN, TIMEOUT
from rendering import registry as renderers

if TYPE_CHECKING:
    from bot.client import TilehostBot

log = logging.getLogger(__name__)

NOTHING_RECORDED = "Something went wrong on our side and nothing was recorded. Please try again."
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


# -- files ---------------------------------------------------------------------------------


async def board_file(session: Session) -> discord.File:
    """The public board as a PNG attachment (rendered off the event loop)."""
    view = session.view(None)
    png = await asyncio.to_thread(renderers.board_png, session.game.name, view, session.names)
    return discord.File(io.BytesIO(png), filename=f"{session.game.name}-{session.id}-{session.ply}.png")


async def hand_file(session: Session, seat: int) -> discord.File:
    """``seat``'s private view as a PNG attachment (for ephemeral replies only)."""
    view = session.view(seat)
    png = await asyncio.to_thread(renderers.hand_png, session.game.name, view, seat, session.names)
    return discord.File(io.BytesIO(png), filename=f"{session.game.name}-{session.id}-hand.png")


# -- text ------------------------------------------------------------------------------------


def mention(session: Session, seat: int | None) -> str:
    """A mention of the person in ``seat`` (computers by name)."""
    if seat is None:
        return "nobody"
    row = session.seats[seat]
    return f"<@{row.user_id}>" if row.user_id is not None else f"**{row.name}**"


def name(session: Session, seat: int | None) -> str:
    """The display name of ``seat`` in bold."""
    return f"**{session.seats[seat].name}**" if seat is not None else "nobody"


def describe_events(session: Session, events: tuple[Event, ...]) -> str:
    """Events as a short readable line."""
    words = (event_phrase(session.game, event, session.names) for event in events)
    return "; ".join(word for word in words if word)


def action_line(update: Update) -> str:
    """The first line of a turn message: who did what and what it caused."""
    session = update.session
    who = name(session, update.seat)
    if update.kind == "timeout":
        line = f"⏰ {who} ran out of time"
    elif update.kind == "resign":
        line = f"🏳️ {who} resigned"
    else:
        played = ", ".join(f"`{text}`" for text in update.lines if text not in (TIMEOUT, RESIGN))
        line = f"{who} played {played}" if played else f"{who} acted"
    caused = describe_events(session, update.events)
    return f"{line}: {caused}" if caused else line


def status_lines(session: Session) -> list[str]:
    """Whose turn (with the deadline) or the final standings, and the public facts."""
    lines = []
    outcome = session.outcome()
    if outcome is not None and session.status != "playing":
        lines.append(final_standings(session))
        return lines
    facts = session.game.describe(session.state, session.names)
    if facts:
        lines.append(facts)
    seat = session.to_act()
    if seat is not None:
        turn = f"{mention(session, seat)}, it's your turn"
        if session.deadline is not None:
            turn += f" — time runs out <t:{int(session.deadline)}:R>"
        lines.append(turn + ".")
    return lines


def final_standings(session: Session) -> str:
    """The outcome as text: winner(s), then every seat by rank."""
    outcome = session.outcome()
    if outcome is None:
        return ""
    winners = " and ".join(name(session, seat) for seat in outcome.winners)
    head = f"🏁 **Game over** ({outcome.reason}) — "
    if all(seat in outcome.forfeited for seat in outcome.winners):
        head += "nobody wins."  # e.g. a solitaire given up
    else:
        head += f"a draw between {winners}." if outcome.is_draw else f"{winners} wins!"
    order = sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s))
    unit = " (fewest wins)" if session.game.lower_is_better else ""
    rows = [
        f"{outcome.ranks[s]}. {session.seats[s].name} — {outcome.scores[s]}"
        + (" (forfeited)" if s in outcome.forfeited else "")
        for s in order
    ]
    return head + f"\nStandings{unit}: " + " · ".join(rows)


def turn_message(update: Update) -> str:
    """The whole public message after an update."""
    session = update.session
    lines = [f"**{session.game.title}** #{session.id} — {action_line(update)}"]
    lines.extend(status_lines(session))
    return _clip("\n".join(lines))


def start_message(session: Session) -> str:
    """The message that starts a game."""
    order = ", ".join(f"{i + 1}. {mention(session, i)}" for i in range(len(session.seats)))
    lines = [f"**{session.game.title}** #{session.id} has started! Seat order: {order}."]
    lines.extend(status_lines(session))
    lines.append(f"Play with `/{session.game.name} play`; see your tiles with `/{session.game.name} hand`.")
    return _clip("\n".join(lines))


def lobby_message(session: Session) -> str:
    """The lobby: options, seats, how to join."""
    game = session.game
    seats = "\n".join(f"{i + 1}. {mention(session, i)}" for i in range(len(session.seats)))
    options = session.options.describe()
    clock = session.row.turn_seconds
    timer = game.clock_label(session.options) or (
        f"{clock // 3600} h a move"
        if clock >= 3600
        else (f"{clock // 60} min a move" if clock else "no clock")
    )
    return _clip(
        f"**{game.title}** lobby #{session.id} — host {mention(session, 0 if session.seats else None)}\n"
        f"Options: {options or 'defaults'} · turn clock: {timer}\n"
        f"Players ({len(session.seats)}/{game.max_players}, at least {game.min_players}):\n{seats}\n"
        f"Join with the button or `/{game.name} join`; the host starts with `/{game.name} start`."
    )


def _clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- persistent buttons ------------------------------------------------------------------------


def _service(interaction: discord.Interaction) -> SessionService:
    client: Any = interaction.client
    return client.service


def _display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:(?P<verb>join|start|hand|cpu):(?P<id>\d+)"
):
    """A button on a lobby or turn message; its custom id names the verb and the game, so it
    keeps working after a restart."""

    LABELS: ClassVar[dict[str, str]] = {
        "join": "Join",
        "start": "Start",
        "hand": "My tiles",
        "cpu": "Add computer",
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.primary,
        "hand": discord.ButtonStyle.secondary,
        "cpu": discord.ButtonStyle.secondary,
    }

    def __init__(self, verb: str, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[verb], style=self.STYLES[verb], custom_id=f"th:{verb}:{game_id}"
            )
        )
        self.verb = verb
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(match["verb"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        session = service.get(self.game_id)
        try:
            if session is None:
                raise errors.GameOver("That game is no longer running.")
            await self._run(interaction, service, session)
        except (errors.SessionError, GameError) as error:
            await send_error(interaction, str(error))

    async def _run(self, interaction: discord.Interaction, service: SessionService, session: Session) -> None:
        user = interaction.user
        channel_id = session.row.channel_id
        game = session.game.name
        if self.verb == "join":
            await service.join(channel_id, game, user.id, _display_name(user))
            await interaction.response.edit_message(content=lobby_message(session), view=lobby_view(session))
        elif self.verb == "cpu":
            await service.add_computer(channel_id, game, user.id)
            await interaction.response.edit_message(content=lobby_message(session), view=lobby_view(session))
        elif self.verb == "start":
            await service.start(channel_id, game, user.id)
            await interaction.response.edit_message(content=lobby_message(session), view=None)
            await post_start(interaction, service, session)
        else:
            await send_hand(interaction, session)


def lobby_view(session: Session) -> discord.ui.View:
    """Join / Add computer / Start buttons for a lobby message."""
    view = discord.ui.View(timeout=None)
    for verb in ("join", "cpu", "start"):
        view.add_item(TableButton(verb, session.id))
    return view


def turn_view(session: Session) -> discord.ui.View | None:
    """A "My tiles" button under a turn message while the game runs."""
    if session.status != "playing":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton("hand", session.id))
    return view


# -- replies -----------------------------------------------------------------------------------


async def send_error(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral message saying what was wrong."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message: %s", text)


async def send_hand(interaction: discord.Interaction, session: Session) -> None:
    """The user's own tiles, cards or pieces, ephemerally."""
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        raise errors.NotSeated("You are not playing in this game, so you have no tiles to see.")
    if session.state is None:
        raise errors.NotStarted("The game has not started; tiles are dealt at the start.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    hand = session.game.hand(session.view(seat), seat)
    listed = ", ".join(hand) if hand else "nothing"
    text = f"Your hand in {session.game.title} #{session.id}: {listed}"
    await interaction.followup.send(_clip(text), file=await hand_file(session, seat), ephemeral=True)


async def post_start(interaction: discord.Interaction, service: SessionService, session: Session) -> None:
    """Post the first board of a game in its channel, then let computers move."""
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    message = await channel.send(
        start_message(session),
        file=await board_file(session),
        view=turn_view(session) or discord.utils.MISSING,
        allowed_mentions=MENTION_USERS,
    )
    await service.storage.set_message(session.id, message.id)
    service.continue_game(session)


class TablePoster:
    """Posts the updates made in the background (computer moves, timeouts, reminders)."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def post(self, channel_id: int, content: str, **kwargs: Any) -> discord.Message | None:
        """Send ``content`` in a channel; None when the channel is gone."""
        channel = await self._channel(channel_id)
        if channel is None:
            return None
        return await channel.send(content, allowed_mentions=MENTION_USERS, **kwargs)

    async def on_update(self, update: Update) -> None:
        """Post ``update`` in its game's channel."""
        session = update.session
        channel = await self._channel(session.row.channel_id)
        if channel is None:
            return
        if update.kind == "reminder":
            await self._remind(channel, session)
            return
        message = await channel.send(
            turn_message(update),
            file=await board_file(session),
            view=turn_view(session) or discord.utils.MISSING,
            allowed_mentions=MENTION_USERS,
        )
        await self.bot.service.storage.set_message(session.id, message.id)

    async def _remind(self, channel: discord.abc.Messageable, session: Session) -> None:
        seat = session.seat_to_act()
        if seat is None or seat.user_id is None or session.deadline is None:
            return
        text = (
            f"⏳ {mention(session, seat.seat)}, it's still your turn in {session.game.title} #{session.id} — "
            f"time runs out <t:{int(session.deadline)}:R>."
        )
        await channel.send(text, allowed_mentions=MENTION_USERS)
        if await self.bot.service.storage.dm_reminders(seat.user_id):
            await self._dm(seat.user_id, text)

    async def _dm(self, user_id: int, text: str) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("could not DM a reminder to %s", user_id)
