"""The one place that shows what happened at a table: every update of the session service,
whether a command, a button, a computer or the clock made it, comes here.

- A game plays in its own thread, made from its lobby message and named after the game and its
  players, who are added to it; the channel keeps the lobby and gets the result. Where the bot
  may not make threads (or the server turned them off), the game plays in the channel.
- One public board message per turn: the steps of a running turn edit that turn's message; a
  new message (pinging the player whose turn starts) comes when the turn passes.
- At the end the players are pinged with the result (not the one who just moved).

Updates of a game are announced in order, one game at a time, in a background task per game:
nothing here holds up a command, a computer player or the clock, and when Discord fails the
game goes on (the failure is logged and the next update tries again).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from bot import words
from bot.sessions import Session, Status, Step, Update, UpdateKind
from bot.ui import buttons, files, replies
from bot.ui.protocol import TableBot
from bot.ui.rematch import result_view
from bot.ui.turns import reminder_dm

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread stays open a week without a message (games last days)."""


@dataclass
class _Turn:
    """What the current turn message of a game shows."""

    message_id: int | None = None
    before: list[Step] = field(default_factory=list)
    """The steps since the previous message (the turns that led here)."""
    running: list[Step] = field(default_factory=list)
    """The steps of the running turn so far."""


class TableAnnouncer:
    """Announces every update of every game in its room (thread or channel)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._queues: dict[int, list[Update]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._turns: dict[int, _Turn] = {}

    # -- the queue ---------------------------------------------------------------------------

    async def on_update(self, update: Update) -> None:
        """Queue ``update`` for its game; the game's task announces it."""
        game_id = update.session.id
        self._queues.setdefault(game_id, []).append(update)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._drain(game_id), name=f"announce-{game_id}")
            self._tasks[game_id] = task

    async def _drain(self, game_id: int) -> None:
        while self._queues.get(game_id):
            batch, self._queues[game_id] = self._queues[game_id], []
            try:
                await self._announce(batch)
            except Exception:
                log.exception("game %s: announcing %d updates failed", game_id, len(batch))
        self._queues.pop(game_id, None)

    async def caught_up(self, game_id: int, seconds: float = 2.0) -> None:
        """Wait (a little, at most ``seconds``) until a game's announcements are out."""
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=seconds)

    async def close(self) -> None:
        """Let the announcements under way finish."""
        tasks = [task for task in self._tasks.values() if not task.done()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _announce(self, batch: list[Update]) -> None:
        moves: list[Update] = []
        for update in batch:
            if update.kind is UpdateKind.MOVES:
                moves.append(update)
                continue
            if moves:
                await self._moves(moves)
                moves = []
            if update.kind is UpdateKind.STARTED:
                await self._started(update)
            elif update.kind is UpdateKind.REMINDER:
                await self._remind(update.session)
            elif update.kind is UpdateKind.ABORTED:
                await self._aborted(update.session)
        if moves:
            await self._moves(moves)

    # -- rooms -------------------------------------------------------------------------------

    async def _room(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def post(
        self,
        channel_id: int,
        content: str,
        *,
        pings: list[int] | None = None,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.Message | None:
        """Send ``content`` in a channel or thread, pinging exactly ``pings``; None when the
        channel is gone or Discord refused (logged)."""
        room = await self._room(channel_id)
        if room is None:
            return None
        extras: dict[str, Any] = {}
        if file is not None:
            extras["file"] = file
        if view is not None:
            extras["view"] = view
        try:
            return await room.send(content, allowed_mentions=replies.pinging(pings or ()), **extras)
        except discord.HTTPException as error:
            log.warning("could not post in %s: %s", channel_id, error)
            return None

    async def _edit(self, channel_id: int, message_id: int, content: str, **kwargs: Any) -> bool:
        room = await self._room(channel_id)
        if room is None or not hasattr(room, "get_partial_message"):
            return False
        try:
            await room.get_partial_message(message_id).edit(
                content=content,
                allowed_mentions=replies.NO_PINGS,
                **kwargs,
            )
        except discord.HTTPException as error:
            log.warning("could not edit message %s in %s: %s", message_id, channel_id, error)
            return False
        return True

    async def _remember(self, session: Session, message: discord.Message | None) -> None:
        if message is None:
            return
        try:
            await self.bot.service.set_message(session, message.id)
        except Exception:
            log.exception("game %s: could not remember board message %s", session.id, message.id)

    # -- lobby ---------------------------------------------------------------------------------

    async def refresh_lobby(self, session: Session) -> None:
        """Show the lobby as it is now, in its message (no repost, no pings)."""
        message_id = session.row.message_id
        if message_id is None:
            return
        await self._edit(
            session.row.channel_id, message_id, words.lobby_message(session), view=buttons.lobby_view(session)
        )

    # -- start ---------------------------------------------------------------------------------

    async def _started(self, update: Update) -> None:
        session = update.session
        lobby_id = session.row.message_id
        thread = await self._open_thread(session, lobby_id)
        if thread is not None:
            await self._add_players(thread, session)
        where = thread.mention if thread is not None else None
        if lobby_id is not None:
            await self._edit(session.row.channel_id, lobby_id, words.started_lobby(session, where), view=None)
        turn = self._turns[session.id] = _Turn(before=list(update.steps))
        if session.game.max_players == 1:
            turn.before = []
        await self._post_turn(session, turn)

    async def _open_thread(self, session: Session, lobby_id: int | None) -> discord.Thread | None:
        """The game's own thread, made from its lobby message; None where threads are off or the
        bot may not make them (the game then plays in the channel)."""
        if session.row.guild_id is None or session.game.table_per_player:
            return None
        if not await self.bot.service.storage.threads_enabled(session.row.guild_id):
            return None
        channel = await self._room(session.row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        allowed = channel.permissions_for(channel.guild.me)
        if not (allowed.create_public_threads and allowed.send_messages_in_threads):
            log.info(
                "game %s plays in its channel: the bot may not make threads there or post in them", session.id
            )
            return None
        name = words.thread_name(session)
        try:
            if lobby_id is not None:
                thread = await channel.get_partial_message(lobby_id).create_thread(
                    name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
            else:
                thread = await channel.create_thread(
                    name=name,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    type=discord.ChannelType.public_thread,
                )
        except discord.HTTPException as error:
            log.info("game %s plays in its channel: no thread (%s)", session.id, error)
            return None
        try:
            await self.bot.service.set_thread(session, thread.id)
        except Exception:
            log.exception("game %s: could not store its thread %s", session.id, thread.id)
        return thread

    async def _add_players(self, thread: discord.Thread, session: Session) -> None:
        for user_id in session.humans:
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException as error:
                log.info("could not add %s to the thread of game %s: %s", user_id, session.id, error)

    # -- moves -----------------------------------------------------------------------------------

    async def _moves(self, updates: list[Update]) -> None:
        session = updates[-1].session
        turn = self._turns.setdefault(session.id, _Turn(message_id=session.row.message_id))
        steps = [step for update in updates for step in update.steps]
        if session.is_over:
            await self._finish(session, turn, steps, updates[-1])
            return
        passed = any(update.turn_passed for update in updates) and session.game.max_players > 1
        if passed:
            missed = turn.before if turn.message_id is None else []  # its message never went out
            fresh = _Turn(before=[*missed, *turn.running, *steps])
            self._turns[session.id] = fresh
            await self._post_turn(session, fresh)
            return
        turn.running.extend(steps)
        await self._edit_turn(session, turn)

    async def _post_turn(self, session: Session, turn: _Turn) -> None:
        """A new public board message for the turn that starts, pinging its player."""
        seat = session.seat_to_act()
        ping = [seat.user_id] if seat is not None and seat.user_id is not None else []
        if session.game.max_players == 1:
            ping = []
        content = words.turn_message(session, turn.before, turn.running, ping=bool(ping))
        board = await files.board_file(session)
        view = buttons.turn_view(session)
        message = await self.post(session.room_id, content, pings=ping, file=board, view=view)
        turn.message_id = message.id if message is not None else None
        await self._remember(session, message)

    async def _edit_turn(self, session: Session, turn: _Turn) -> None:
        """The running turn's message, showing its steps so far and the board now."""
        content = words.turn_message(session, turn.before, turn.running, ping=False)
        board = await files.board_file(session)
        if turn.message_id is None or not await self._edit(
            session.room_id, turn.message_id, content, attachments=[board]
        ):
            await self._post_turn(session, turn)

    # -- the end ---------------------------------------------------------------------------------

    async def _finish(self, session: Session, turn: _Turn, steps: list[Step], last: Update) -> None:
        self._turns.pop(session.id, None)
        solitaire = session.game.max_players == 1
        mover = last.user_id
        pings = [] if solitaire else [user for user in session.humans if user != mover]
        if solitaire and turn.message_id is not None:
            turn.running.extend(steps)
            content = words.turn_message(session, [], turn.running, ping=False)
            if await self._edit(
                session.room_id,
                turn.message_id,
                content,
                attachments=[await files.board_file(session)],
                view=None,
            ):
                return
        if session.row.thread_id is None:
            final = words.turn_message(session, [*turn.running, *steps], [], ping=False)
            content = words.clip(final + ("\n" + " ".join(words.mention(u) for u in pings) if pings else ""))
            message = await self.post(
                session.room_id,
                content,
                pings=pings,
                file=await files.board_file(session),
                view=result_view(session),
            )
            await self._remember(session, message)
            return
        closing = words.turn_message(session, [*turn.before, *turn.running, *steps], [], ping=False)
        if turn.message_id is None or not await self._edit(
            session.room_id,
            turn.message_id,
            closing,
            attachments=[await files.board_file(session)],
            view=None,
        ):
            await self.post(session.room_id, closing, file=await files.board_file(session))
        thread = await self._room(session.row.thread_id)
        where = thread.mention if isinstance(thread, discord.Thread) else None
        result = words.result_message(session, pings, where)
        message = await self.post(
            session.row.channel_id,
            result,
            pings=pings,
            file=await files.board_file(session),
            view=result_view(session),
        )
        await self._remember(session, message)
        await self._archive(thread)

    async def _archive(self, thread: object) -> None:
        if isinstance(thread, discord.Thread):
            try:
                await thread.edit(archived=True)
            except discord.HTTPException as error:
                log.info("could not archive thread %s: %s", thread.id, error)

    async def _aborted(self, session: Session) -> None:
        self._turns.pop(session.id, None)
        text = words.aborted(session)
        if session.row.thread_id is not None:
            await self.post(session.row.thread_id, text)
            await self._archive(await self._room(session.row.thread_id))
            return
        lobby_id = session.row.message_id
        if (
            lobby_id is not None
            and not session.lines
            and await self._edit(session.row.channel_id, lobby_id, text, view=None)
        ):
            return
        await self.post(session.row.channel_id, text)

    # -- reminders -------------------------------------------------------------------------------

    async def _remind(self, session: Session) -> None:
        seat = session.seat_to_act()
        if (
            seat is None
            or seat.user_id is None
            or session.deadline is None
            or session.status is not Status.PLAYING
        ):
            return
        text = words.reminder(session)
        await self.post(session.room_id, text, pings=[seat.user_id])
        if await self.bot.service.storage.dm_reminders(seat.user_id):
            await self._dm(seat.user_id, await reminder_dm(self.bot, seat.user_id, text))

    async def _dm(self, user_id: int, text: str) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=replies.NO_PINGS)
        except discord.HTTPException:
            log.info("could not send a reminder by direct message to %s", user_id)
