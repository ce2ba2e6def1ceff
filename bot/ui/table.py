"""The one place that shows what happened at a table: every update of the session service,
whether a command, a button, a computer or the clock made it, comes here.

- A game plays in its own thread, made from its lobby message and named after the game and its
  players, who are added to it; the channel keeps the lobby and gets the result. Where the bot
  may not make threads (or the server turned them off), the game plays in the channel.
- One public board message per turn: the steps of a running turn edit that turn's message; a
  new message comes when the turn passes, and the player whose turn starts is pinged once (the
  first message of their turn pings them; edits notify nobody).
- Each update is shown as it stood when it was made (:attr:`Update.moment`), not as the game
  stands by the time its turn to be shown comes: a computer's next move never changes what the
  previous update says or whom it pings.
- At the end the players are pinged with the result (not the one who just moved).
- A thread that went away (deleted, locked, archived, closed to the bot) does not stop the
  game: an archived thread is reopened; otherwise the game goes on in a new thread (or in the
  channel), which is stored, and the channel is told why.
- What the bot may not do (post, attach its pictures, make threads) is said to the player who
  moved (:meth:`TableAnnouncer.troubles`, which the command answers with) and, by direct
  message, to the game's host: what is missing and who can grant it.

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
from bot.ui.queues import KeyedQueues
from bot.ui.rematch import result_view
from bot.ui.turns import reminder_dm

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread stays open a week without a message (games last days)."""
STORE_TRIES = 3
"""How many times the thread a game was given is written before the write is left to the next
update of the game (a game must never lose its place)."""
TROUBLE_SECONDS = 60.0
"""How long a command waits for its update to be shown before answering without its troubles."""
ARCHIVED_THREAD = 50083
LOCKED_THREAD = 160005
"""Discord's error codes for an action in an archived or a locked thread."""


@dataclass
class _Turn:
    """What the current turn message of a game shows."""

    message_id: int | None = None
    before: list[Step] = field(default_factory=list)
    """The steps since the previous message (the turns that led here)."""
    running: list[Step] = field(default_factory=list)
    """The steps of the running turn so far."""
    pinged: bool = False
    """Whether a message of this turn notified its player (once is enough)."""


@dataclass(frozen=True)
class _Moved:
    """A game's thread was deleted or locked: show the game where it goes on."""

    session: Session


class TableAnnouncer:
    """Announces every update of every game in its room (thread or channel)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._queues: KeyedQueues[Update | _Moved] = KeyedQueues(self._work, "announce")
        self._turns: dict[int, _Turn] = {}
        self._shown: dict[int, asyncio.Future[list[str]]] = {}
        """Per update (by ``id``): resolved with its troubles once it has been shown."""
        self._said: dict[int, list[str]] = {}
        """Per game: the troubles of the updates being shown."""
        self._host_told: set[tuple[int, str]] = set()
        self._unsaved: dict[int, int] = {}
        """Per game: a thread whose id could not be stored yet."""
        self._looked_for_thread: set[int] = set()
        self._last_shown: dict[int, Session] = {}
        """Per game: the moment its last update showed (what a new room shows first)."""

    # -- the queue ---------------------------------------------------------------------------

    async def on_update(self, update: Update) -> None:
        """Queue ``update`` for its game; the game's task announces it."""
        self._shown[id(update)] = asyncio.get_running_loop().create_future()
        self._queue(update.session.id, update)

    def _queue(self, game_id: int, item: Update | _Moved) -> None:
        self._queues.put(game_id, item)

    async def _work(self, game_id: int, batch: list[Update | _Moved]) -> None:
        """Show a batch of a game's updates, then hand out the troubles met on the way."""
        said = self._said[game_id] = []
        try:
            await self._announce(batch)
        finally:
            self._said.pop(game_id, None)
            await self._settle(batch, said)

    async def _settle(self, batch: list[Update | _Moved], said: list[str]) -> None:
        """Hand each update's troubles to whoever waits for them; tell the host by direct
        message what nobody in the batch will be told (the host did not act in it)."""
        updates = [item for item in batch if isinstance(item, Update)]
        for update in updates:
            shown = self._shown.pop(id(update), None)
            if shown is not None and not shown.done():
                shown.set_result(list(said))
        if not said or not batch:
            return
        session = batch[-1].session
        host = session.row.host_id
        if any(update.user_id == host for update in updates):
            return
        for text in dict.fromkeys(said):
            if (session.id, text) not in self._host_told:
                self._host_told.add((session.id, text))
                await self._dm(host, text)

    async def troubles(self, update: Update, seconds: float = TROUBLE_SECONDS) -> list[str]:
        """Once ``update`` has been shown: what the bot could not do (for its mover), or
        nothing (also when showing it takes longer than ``seconds``)."""
        shown = self._shown.get(id(update))
        if shown is None:
            return []
        try:
            return await asyncio.wait_for(asyncio.shield(shown), seconds)
        except TimeoutError:
            return []

    def _trouble(self, session: Session, text: str) -> None:
        log.info("game %s: %s", session.id, text)
        said = self._said.get(session.id)
        if said is not None and text not in said:
            said.append(text)

    async def caught_up(self, game_id: int, seconds: float = 2.0) -> None:
        """Wait (a little, at most ``seconds``) until a game's announcements are out."""
        await self._queues.caught_up(game_id, seconds)

    async def close(self) -> None:
        """Let the announcements under way finish."""
        await self._queues.close()

    async def _announce(self, batch: list[Update | _Moved]) -> None:
        moves: list[Update] = []
        for item in batch:
            if isinstance(item, Update) and item.kind is UpdateKind.MOVES:
                moves.append(item)
                continue
            if moves:
                await self._moves(moves)
                moves = []
            if isinstance(item, _Moved):
                await self._moved(item.session)
            elif item.kind is UpdateKind.STARTED:
                await self._started(item)
            elif item.kind is UpdateKind.REMINDER:
                await self._remind(item.session)
            elif item.kind is UpdateKind.ABORTED:
                await self._aborted(item.session)
        if moves:
            await self._moves(moves)

    # -- rooms -------------------------------------------------------------------------------

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """A channel or thread by id (None when it is gone or out of reach)."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _place(self, session: Session) -> discord.abc.Messageable | None:
        """Where the game's messages go now: its thread (reopened if it was archived), else
        the room it went on in when its thread went away (a new thread, or its channel)."""
        await self._find_thread(session)
        await self._store_thread(session)
        row = session.row
        if row.room_id is not None or row.thread_id is None:
            return await self._channel(session.room_id)
        thread, why = await self._open_thread_of(row.thread_id)
        if thread is not None:
            return thread
        return await self._relocate(session, why)

    async def _open_thread_of(self, thread_id: int) -> tuple[discord.Thread | None, str]:
        """The thread, open for the bot's messages; else None and why not."""
        try:
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
        except discord.NotFound:
            return None, "was deleted"
        except discord.HTTPException as error:
            return None, f"cannot be reached ({error.status})"
        if not isinstance(thread, discord.Thread):
            return None, "was deleted"
        if thread.locked:
            return None, "was locked"
        if thread.archived:
            try:
                thread = await thread.edit(archived=False)
            except discord.HTTPException as error:
                log.info("could not reopen the archived thread %s: %s", thread_id, error)
                return None, "was archived and could not be reopened"
        allowed = _allowed(thread)
        if allowed is not None and not allowed.send_messages_in_threads:
            return None, "is closed to Tilehost (it may not send messages in threads)"
        return thread, ""

    async def _relocate(self, session: Session, why: str) -> discord.abc.Messageable | None:
        """The game's thread went away (``why``): go on in a new thread made from a message in
        the channel that says why, or in the channel itself; remember it (stored); the running
        turn is shown afresh there, pinging its player again (their message is gone)."""
        channel = await self._channel(session.row.channel_id)
        if channel is None:
            self._trouble(session, words.not_posted(session, "its channel is out of reach"))
            return None
        log.info("game %s: its thread %s %s; it goes on elsewhere", session.id, session.row.thread_id, why)
        turn = self._turns.get(session.id)
        if turn is not None:
            turn.message_id, turn.pinged = None, False
        thread, notice = None, None
        if isinstance(channel, discord.TextChannel) and await self._threads_allowed(session, channel):
            notice = await self.post(session.row.channel_id, words.thread_gone(session, why, new_thread=True))
            if notice is not None:
                thread = await self._make_thread(session, channel, notice.id)
        if thread is not None:
            await self._add_players(thread, session)
            await self._keep_thread(session, thread.id)
            return thread
        here = words.thread_gone(session, why, new_thread=False)
        if notice is None or not await self._edit_in(channel, notice.id, here):
            await self.post(session.row.channel_id, here)
        try:
            await self.bot.service.set_room(session, session.row.channel_id)
        except Exception:
            log.exception("game %s: could not store that it plays in its channel", session.id)
        return channel

    async def _threads_allowed(self, session: Session, channel: object) -> bool:
        """Whether the game may have a thread in ``channel`` (the server allows threads, and
        the bot may make them and post in them); what it lacks is a trouble."""
        if session.row.guild_id is None or session.game.table_per_player:
            return False
        if not isinstance(channel, discord.TextChannel):
            return False
        if not await self.bot.service.storage.threads_enabled(session.row.guild_id):
            return False
        allowed = _allowed(channel)
        needed = ("create_public_threads", "send_messages_in_threads")
        missing = [key for key in needed if allowed is not None and not getattr(allowed, key)]
        if missing:
            what = "it plays in this channel, not in a thread of its own"
            self._trouble(
                session, words.missing_permissions(session, missing, channel.id, _role(channel), what)
            )
            return False
        return True

    async def _make_thread(
        self, session: Session, channel: discord.TextChannel, message_id: int | None
    ) -> discord.Thread | None:
        name = words.thread_name(session)
        try:
            if message_id is not None:
                return await channel.get_partial_message(message_id).create_thread(
                    name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
            return await channel.create_thread(
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread,
            )
        except discord.HTTPException as error:
            log.info("game %s plays in its channel: no thread (%s)", session.id, error)
            return None

    async def _keep_thread(self, session: Session, thread_id: int) -> None:
        """Store the game's thread, trying again at once, then at the game's next updates: a
        game must not lose its place (its thread is its in memory meanwhile)."""
        self._unsaved[session.id] = thread_id
        await self._store_thread(session, tries=STORE_TRIES)

    async def _store_thread(self, session: Session, tries: int = 1) -> None:
        thread_id = self._unsaved.get(session.id)
        if thread_id is None:
            return
        for attempt in range(1, tries + 1):
            try:
                await self.bot.service.set_thread(session, thread_id)
            except Exception:
                log.exception(
                    "game %s: could not store its thread %s (try %d)", session.id, thread_id, attempt
                )
                continue
            self._unsaved.pop(session.id, None)
            return

    async def _find_thread(self, session: Session) -> None:
        """After a restart, a game whose thread's id was never stored finds it again: the
        thread made from its lobby message has that message's id."""
        row = session.row
        if (
            session.id in self._looked_for_thread
            or row.thread_id is not None
            or row.room_id is not None
            or row.lobby_message_id is None
            or row.guild_id is None
        ):
            return
        self._looked_for_thread.add(session.id)
        try:
            found = self.bot.get_channel(row.lobby_message_id) or await self.bot.fetch_channel(
                row.lobby_message_id
            )
        except discord.HTTPException:
            return
        if isinstance(found, discord.Thread) and found.parent_id == row.channel_id:
            log.info("game %s: found its thread %s again", session.id, found.id)
            await self.bot.service.claim_thread(session, found.id)

    # -- posting -------------------------------------------------------------------------------

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
        room = await self._channel(channel_id)
        if room is None:
            return None
        try:
            return await room.send(
                content, allowed_mentions=replies.pinging(pings or ()), **_extras(file, view)
            )
        except discord.HTTPException as error:
            log.warning("could not post in %s: %s", channel_id, error)
            return None

    async def _send(
        self,
        session: Session,
        content: str,
        *,
        pings: list[int] | None = None,
        board: Session | None = None,
        view: discord.ui.View | None = None,
        channel: bool = False,
    ) -> discord.Message | None:
        """Post in the game's room (or its ``channel``) with ``board``'s picture, pinging exactly
        ``pings``. Where the bot may not attach files the message goes without its picture and
        says why; where it may not post, nothing goes and the trouble is said; a thread found
        gone on the way is replaced (see :meth:`_relocate`) and the message goes there."""
        for _ in range(2):
            room = await (self._channel(session.row.channel_id) if channel else self._place(session))
            if room is None:
                self._trouble(session, words.not_posted(session, "its thread or channel is out of reach"))
                return None
            allowed = _allowed(room)
            thread = isinstance(room, discord.Thread)
            send = "send_messages_in_threads" if thread else "send_messages"
            if allowed is not None and not (allowed.view_channel and getattr(allowed, send)):
                missing = [key for key in ("view_channel", send) if not getattr(allowed, key)]
                what = "no board could be posted for it"
                self._trouble(
                    session, words.missing_permissions(session, missing, _parent(room), _role(room), what)
                )
                return None
            text, file = content, None
            if board is not None:
                if allowed is None or allowed.attach_files:
                    file = await _picture(session, board)
                else:
                    text = words.clip(f"{content}\n{words.no_picture_note(_role(room))}")
                    self._no_picture(session, room)
            try:
                return await room.send(
                    text, allowed_mentions=replies.pinging(pings or ()), **_extras(file, view)
                )
            except discord.HTTPException as error:
                if not await self._refused(session, room, error):
                    return None
        return None

    async def _refused(self, session: Session, room: object, error: discord.HTTPException) -> bool:
        """Discord refused a message in ``room``: True when it is worth another try (the thread
        was found gone or archived, and is replaced or reopened); else the trouble is said."""
        log.warning("could not post for game %s in %s: %s", session.id, getattr(room, "id", "?"), error)
        if (
            isinstance(room, discord.Thread)
            and session.row.thread_id == room.id
            and session.row.room_id is None
        ):
            if isinstance(error, discord.NotFound):
                await self._relocate(session, "was deleted")
                return True
            if error.code == ARCHIVED_THREAD:
                try:
                    await room.edit(archived=False)
                except discord.HTTPException:
                    await self._relocate(session, "was archived and could not be reopened")
                return True
            if error.code == LOCKED_THREAD:
                await self._relocate(session, "was locked")
                return True
        if isinstance(error, discord.Forbidden):
            why = f"Discord refused it: {error.text or 'missing permissions'}"
        else:
            why = f"Discord answered {error.status}"
        self._trouble(session, words.not_posted(session, why))
        return False

    async def _edit(self, channel_id: int, message_id: int, content: str, **kwargs: Any) -> bool:
        room = await self._channel(channel_id)
        return room is not None and await self._edit_in(room, message_id, content, **kwargs)

    async def _edit_in(self, room: object, message_id: int, content: str, **kwargs: Any) -> bool:
        if not hasattr(room, "get_partial_message"):
            return False
        try:
            await room.get_partial_message(message_id).edit(
                content=content,
                allowed_mentions=replies.NO_PINGS,
                **kwargs,
            )
        except discord.HTTPException as error:
            log.warning("could not edit message %s in %s: %s", message_id, getattr(room, "id", "?"), error)
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
        session, shown = update.session, update.moment
        lobby_id = session.row.lobby_message_id or session.row.message_id
        thread = await self._open_thread(session, lobby_id)
        if thread is not None:
            await self._add_players(thread, session)
        where = thread.mention if thread is not None else None
        if lobby_id is not None:
            await self._edit(session.row.channel_id, lobby_id, words.started_lobby(session, where), view=None)
        turn = self._turns[session.id] = _Turn(before=list(update.steps))
        if session.game.max_players == 1:
            turn.before = []
        await self._post_turn(session, shown, turn)

    async def _open_thread(self, session: Session, lobby_id: int | None) -> discord.Thread | None:
        """The game's own thread, made from its lobby message; None where threads are off or the
        bot may not make them (the game then plays in the channel, which is stored)."""
        if session.row.guild_id is None or session.game.table_per_player:
            return None
        channel = await self._channel(session.row.channel_id)
        thread = None
        if await self._threads_allowed(session, channel):
            assert isinstance(channel, discord.TextChannel)
            thread = await self._make_thread(session, channel, lobby_id)
        if thread is not None:
            await self._keep_thread(session, thread.id)
            return thread
        try:
            await self.bot.service.set_room(session, session.row.channel_id)
        except Exception:
            log.exception("game %s: could not store that it plays in its channel", session.id)
        return None

    async def _add_players(self, thread: discord.Thread, session: Session) -> None:
        for user_id in session.humans:
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException as error:
                log.info("could not add %s to the thread of game %s: %s", user_id, session.id, error)

    # -- moves -----------------------------------------------------------------------------------

    async def _moves(self, updates: list[Update]) -> None:
        session, shown = updates[-1].session, updates[-1].moment
        turn = self._turns.setdefault(session.id, _Turn(message_id=session.row.message_id, pinged=True))
        steps = [step for update in updates for step in update.steps]
        if shown.is_over:
            await self._finish(session, shown, turn, steps, updates[-1])
            return
        passed = any(update.turn_passed for update in updates) and session.game.max_players > 1
        if passed:
            missed = turn.before if turn.message_id is None else []  # its message never went out
            fresh = _Turn(before=[*missed, *turn.running, *steps])
            self._turns[session.id] = fresh
            await self._post_turn(session, shown, fresh)
            return
        turn.running.extend(steps)
        await self._edit_turn(session, shown, turn)

    async def _post_turn(self, session: Session, shown: Session, turn: _Turn) -> None:
        """A new public board message for the turn ``shown``, pinging its player unless a
        message of this turn already did."""
        self._last_shown[session.id] = shown
        seat = shown.seat_to_act()
        ping = [seat.user_id] if seat is not None and seat.user_id is not None and not turn.pinged else []
        if session.game.max_players == 1:
            ping = []
        content = words.turn_message(shown, turn.before, turn.running, ping=bool(ping))
        view = buttons.turn_view(shown)
        message = await self._send(session, content, pings=ping, board=shown, view=view)
        turn.message_id = message.id if message is not None else None
        turn.pinged = turn.pinged or (message is not None and bool(ping))
        await self._remember(session, message)

    async def _edit_turn(self, session: Session, shown: Session, turn: _Turn) -> None:
        """The running turn's message, showing its steps so far and the board now (a new
        message when it cannot be edited: gone, or left behind in a thread that went away)."""
        self._last_shown[session.id] = shown
        content = words.turn_message(shown, turn.before, turn.running, ping=False)
        room = await self._place(session)
        if room is not None and turn.message_id is not None:
            extras: dict[str, Any] = {}
            allowed = _allowed(room)
            if allowed is None or allowed.attach_files:
                extras["attachments"] = [await _picture(session, shown)]
            else:
                content = words.clip(f"{content}\n{words.no_picture_note(_role(room))}")
                self._no_picture(session, room)
            if await self._edit_in(room, turn.message_id, content, **extras):
                return
        await self._post_turn(session, shown, turn)

    def _no_picture(self, session: Session, room: object) -> None:
        what = "its boards are posted without their pictures"
        self._trouble(
            session, words.missing_permissions(session, ["attach_files"], _parent(room), _role(room), what)
        )

    async def _moved(self, session: Session) -> None:
        """The game's thread was deleted or locked: its current turn, where it goes on."""
        if session.status is not Status.PLAYING or session.state is None:
            return
        row = session.row
        if row.thread_id is None or row.room_id is not None:
            return
        thread, _ = await self._open_thread_of(row.thread_id)
        if thread is not None:
            return
        turn = self._turns.setdefault(session.id, _Turn())
        turn.message_id, turn.pinged = None, False
        await self._post_turn(session, self._last_shown.get(session.id) or session.moment(), turn)

    def thread_changed(self, thread_id: int, *, deleted: bool = False, locked: bool = False) -> None:
        """Discord says a thread was deleted or locked: a game playing there goes on elsewhere
        at once (its player to act is told where), not only at its next move."""
        if not (deleted or locked):
            return
        for session in self.bot.service.sessions():
            if session.row.thread_id == thread_id and session.row.room_id is None:
                self._queue(session.id, _Moved(session))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """Discord's event: a thread was deleted."""
        self.thread_changed(payload.thread_id, deleted=True)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Discord's event: a thread changed (locked, archived, renamed...)."""
        metadata = payload.data.get("thread_metadata") or {}
        self.thread_changed(payload.thread_id, locked=bool(metadata.get("locked")))

    # -- the end ---------------------------------------------------------------------------------

    async def _finish(
        self, session: Session, shown: Session, turn: _Turn, steps: list[Step], last: Update
    ) -> None:
        self._turns.pop(session.id, None)
        self._last_shown.pop(session.id, None)
        solitaire = session.game.max_players == 1
        mover = last.user_id
        pings = [] if solitaire else [user for user in session.humans if user != mover]
        if solitaire and turn.message_id is not None:
            turn.running.extend(steps)
            content = words.turn_message(shown, [], turn.running, ping=False)
            if await self._edit(
                session.room_id,
                turn.message_id,
                content,
                attachments=[await _picture(session, shown)],
                view=None,
            ):
                return
        if session.room_id == session.row.channel_id:
            final = words.turn_message(shown, [*turn.running, *steps], [], ping=False)
            content = words.clip(final + ("\n" + " ".join(words.mention(u) for u in pings) if pings else ""))
            message = await self._send(
                session, content, pings=pings, board=shown, view=result_view(session), channel=True
            )
            await self._remember(session, message)
            return
        closing = words.turn_message(shown, [*turn.before, *turn.running, *steps], [], ping=False)
        room = await self._place(session)
        if (
            room is None
            or turn.message_id is None
            or not await self._edit_in(
                room, turn.message_id, closing, attachments=[await _picture(session, shown)], view=None
            )
        ):
            await self._send(session, closing, board=shown)
        where = room.mention if isinstance(room, discord.Thread) else None
        result = words.result_message(shown, pings, where)
        message = await self._send(
            session, result, pings=pings, board=shown, view=result_view(session), channel=True
        )
        await self._remember(session, message)
        await self._archive(room)

    async def _archive(self, thread: object) -> None:
        if isinstance(thread, discord.Thread):
            try:
                await thread.edit(archived=True)
            except discord.HTTPException as error:
                log.info("could not archive thread %s: %s", thread.id, error)

    async def _aborted(self, session: Session) -> None:
        self._turns.pop(session.id, None)
        self._last_shown.pop(session.id, None)
        text = words.aborted(session)
        if session.room_id != session.row.channel_id:
            room = await self._channel(session.room_id)
            if isinstance(room, discord.Thread):
                await self.post(room.id, text)
                await self._archive(room)
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
        await self._send(session, text, pings=[seat.user_id])
        if await self.bot.service.storage.dm_reminders(seat.user_id):
            await self._dm(seat.user_id, await reminder_dm(self.bot, seat.user_id, text))

    async def _dm(self, user_id: int, text: str) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=replies.NO_PINGS)
        except discord.HTTPException:
            log.info("could not send a direct message to %s", user_id)


async def _picture(session: Session, shown: Session) -> discord.File:
    """The board a message about ``shown`` carries: the game's own while it is still at that
    position (drawn once for every message and request of it), else exactly ``shown``'s."""
    if session.ply == shown.ply:
        return await files.board_file(session)
    return await files.board_file(shown, exact=True)


def _extras(file: discord.File | None, view: discord.ui.View | None) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    if file is not None:
        extras["file"] = file
    if view is not None:
        extras["view"] = view
    return extras


def _allowed(room: object) -> discord.Permissions | None:
    """What the bot may do in ``room`` (from Discord's cache), or None when it cannot be told."""
    guild = getattr(room, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(room, "permissions_for"):
        return None
    try:
        return room.permissions_for(me)
    except discord.ClientException:
        return None


def _parent(room: object) -> int:
    """The channel whose permissions rule ``room`` (a thread's parent)."""
    if isinstance(room, discord.Thread):
        return room.parent_id
    return int(getattr(room, "id", 0))


def _role(room: object) -> str:
    """The bot's own role in ``room``'s server (the one a server admin grants permissions to)."""
    guild = getattr(room, "guild", None)
    role = getattr(guild, "self_role", None)
    if role is not None:
        return str(role.name)
    me = getattr(guild, "me", None)
    return str(getattr(me, "display_name", None) or "Tilehost")
