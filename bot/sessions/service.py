"""The session service: the one entry point of the cogs, the UI and the tests, holding the
collaborators that do the work.

- :attr:`~SessionService.tables` (:class:`~bot.sessions.lookup.Tables`): the live sessions;
- :attr:`~SessionService.lobby` (:class:`~bot.sessions.lobby.Lobby`): lobbies, seats, start, abort;
- :attr:`~SessionService.referee` (:class:`~bot.sessions.play.Referee`): moves, forced turns,
  computer turns, timeouts, the commit;
- :attr:`~SessionService.clocks` (:class:`~bot.sessions.clocks.Clocks`): deadlines, alarms,
  retries, reminders;
- :attr:`~SessionService.advice` (:class:`~bot.sessions.advice.Advice`): suggestions, hints,
  computer choices;
- :attr:`~SessionService.restorer` (:class:`~bot.sessions.restore.Restorer`): restore after a
  restart, reload, finished games;
- :attr:`~SessionService.rematches` (:class:`~bot.sessions.rematch.Rematches`): a finished
  game's rematch lobby;
- :attr:`~SessionService.dailies` (:class:`~bot.sessions.daily.Dailies`): the daily challenge;
- :attr:`~SessionService.reviews` (:class:`~bot.sessions.review.Reviews`): the engine's reviews
  of finished games.

The service's own methods are the API callers use; most hand the call to the collaborator that
does it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.sessions.advice import Advice
from bot.sessions.clocks import Clocks
from bot.sessions.daily import Dailies
from bot.sessions.lobby import Lobby
from bot.sessions.lookup import Shared, Tables
from bot.sessions.play import Referee
from bot.sessions.rematch import Rematches
from bot.sessions.restore import Restorer
from bot.sessions.review import Reviews
from bot.sessions.session import Chooser, Listener, Session, Update, ready
from bot.shards import Shards
from bot.storage import Storage
from games import ai

log = logging.getLogger(__name__)


class SessionService:
    """Runs every table. ``now``, ``sleep`` and ``seed_source`` are injectable for tests."""

    def __init__(
        self,
        storage: Storage,
        *,
        now: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        default_turn_seconds: int = 24 * 3600,
        seed_source: Callable[[], int] | None = None,
        chooser: Chooser | None = None,
        shards: Shards | None = None,
        computer_budget: ai.Budget | None = None,
    ) -> None:
        self.storage = storage
        self.shards = shards
        """The shards whose games this service drives (None: every game in the database)."""
        self.now = now
        self.computer_budget = computer_budget or ai.Budget()
        """What a ``hard`` computer (and a hint) may spend on one decision."""
        self._listeners: list[Listener] = []
        self.tables = Tables()
        shared = Shared(storage, self.tables, now, self._publish)
        self.clocks = Clocks(shared, sleep)
        self.clock = self.clocks.turn
        """The turn clock every game's deadline and reminder is armed on."""
        self.restorer = Restorer(shared, self.clocks, shards)
        self.advice = Advice(self.computer_budget)
        self.referee = Referee(shared, self.clocks, self.restorer, chooser or self.advice.computer_choice)
        self.clocks.flow = self.restorer.flow = self.referee
        seeds = seed_source or (lambda: secrets.randbits(62))
        self.lobby = Lobby(shared, self.clocks, self.referee, seeds, default_turn_seconds)
        self.rematches = Rematches(shared, self.lobby, seeds)
        self.dailies = Dailies(shared, self.lobby)
        self.reviews = Reviews(shared)
        # The API the cogs, the UI and the tests call, answered by the collaborator that does it.
        self.get = self.tables.get
        self.sessions = self.tables.sessions
        self.in_channel = self.tables.in_channel
        self.table = self.tables.table
        self.lobby_in = self.tables.lobby_in
        self.create = self.lobby.create
        self.check_free_table = self.lobby.check_free_table
        self.open_table = self.lobby.open_table
        self.join = self.lobby.join
        self.add_computer = self.lobby.add_computer
        self.leave = self.lobby.leave
        self.start = self.lobby.start
        self.abort = self.lobby.abort
        self.rematch = self.rematches.rematch
        self.play = self.referee.play
        self.resign = self.referee.resign
        self.suggestions = self.advice.suggestions
        self.hint = self.advice.hint
        self.restore = self.restorer.restore
        self.last_finished = self.restorer.last_finished
        self.finished_record = self.restorer.finished_record

    @property
    def default_turn_seconds(self) -> int:
        """A move's time where the lobby set none."""
        return self.lobby.default_turn_seconds

    # -- listeners -----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every update (commands, computers, the clock alike)."""
        self._listeners.append(listener)

    async def _publish(self, update: Update) -> None:
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("listener failed for %s update of game %s", update.kind, update.session.id)

    # -- the table's Discord places ------------------------------------------------------------

    async def set_message(self, session: Session, message_id: int) -> None:
        """Remember the message that shows the table now (its lobby, turn board or result); an
        id the table already has is not written again."""
        if session.row.message_id == message_id:
            return
        self._patch(session, message_id=message_id)
        await self.storage.set_message(session.id, message_id)

    async def set_lobby_message(self, session: Session, message_id: int) -> None:
        """Remember a lobby's message: the table's message now, and the one its thread is made
        from (a thread made from a message has the message's id)."""
        self._patch(session, message_id=message_id, lobby_message_id=message_id)
        await self.storage.set_lobby_message(session.id, message_id)

    async def set_thread(self, session: Session, thread_id: int) -> None:
        """Remember the thread the game plays in (its boards go there)."""
        self._patch(session, thread_id=thread_id, room_id=None)
        await self.storage.set_thread(session.id, thread_id)

    async def set_room(self, session: Session, room_id: int) -> None:
        """Remember that the game's boards go to ``room_id`` (its channel) rather than a thread:
        it plays without one, or went on there when its thread went away."""
        self._patch(session, room_id=room_id)
        await self.storage.set_room(session.id, room_id)

    async def claim_thread(self, session: Session, channel_id: int) -> bool:
        """Take ``channel_id`` as the game's thread when it is the thread made from the game's
        lobby message but its id was never stored (the write failed at the start); True when
        it was. A failure to store it is logged: the thread is the game's in memory anyway."""
        row = session.row
        if row.thread_id is not None or row.lobby_message_id != channel_id:
            return False
        try:
            await self.set_thread(session, channel_id)
        except Exception:
            log.exception("game %s: could not store its thread %s", session.id, channel_id)
        return True

    def _patch(self, session: Session, **changes: Any) -> None:
        """Change the row in memory first: the message or thread exists on Discord whether or not
        storing it works (a failure to store is the caller's to log); the live session is
        patched too where the caller holds another copy of the game."""
        live = self.tables.get(session.id)
        for each in {id(s): s for s in (session, live) if s is not None}.values():
            each.row = replace(each.row, **changes)

    # -- the rest of the API -------------------------------------------------------------------

    async def ready(self, session: Session) -> Session:
        """``session`` once its state is loaded (a restored game is replayed in the background)."""
        return await ready(session)

    async def close(self) -> None:
        """Stop the clock, the retries, the computer players and the background restore."""
        await self.restorer.close()
        await self.clocks.close()
        await self.referee.close()
        await self.reviews.close()
