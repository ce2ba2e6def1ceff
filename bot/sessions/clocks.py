"""The clocks: each game's deadline and reminder, the alarms that ring when they come, the
retries of a timeout that could not be stored, and the reminders."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot import errors
from bot.clock import TurnClock, reminder_time
from bot.sessions.lookup import Shared
from bot.sessions.session import Session, Update, UpdateKind, ready
from bot.status import Status
from bot.storage import Clock

log = logging.getLogger(__name__)

CLOCK_RETRY_SECONDS = (1, 5, 30, 120, 600)
"""How long to wait before trying again a clock's write that failed (the last one repeats)."""


class Flow(Protocol):
    """What the clocks and the restore ask of the referee (:class:`bot.sessions.play.Referee`):
    a timeout played, a restored game resumed, computer seats woken."""

    async def time_out(self, session: Session) -> Update | None:
        """Store what the rules do when the seat to act runs out of time (None: not due)."""

    async def resume(self, session: Session) -> None:
        """Carry a game on after a restart (forced turns left pending, computer seats)."""

    def carry_on(self, session: Session) -> None:
        """Let computer players move if one of them is to act."""


class Clocks:
    """Every game's turn clock, on one :class:`~bot.clock.TurnClock` (:attr:`turn`).

    ``flow`` plays the timeouts; the service sets it once the referee exists (the referee arms
    the clocks after every move, and the clocks call it back when a deadline passes).
    """

    def __init__(self, shared: Shared, sleep: Callable[[float], Awaitable[None]]) -> None:
        self.shared = shared
        self._sleep = sleep
        self.flow: Flow
        self.turn = TurnClock(self._alarm, now=shared.now, sleep=sleep)
        self._retries: set[asyncio.Task[None]] = set()

    # -- deadlines ---------------------------------------------------------------------------

    def period(self, session: Session) -> float:
        """Seconds a move of the seat to act may take (the game's own, else the table's)."""
        own = session.game.turn_seconds(session.state)
        return float(own) if own is not None else float(session.row.turn_seconds)

    def next_clock(self, session: Session, *, same_turn: bool, force: bool) -> Clock:
        """The clock after a change: the running deadline while the mover's turn goes on, else a
        fresh period for the seat to act (none for computers)."""
        seat = session.seat_to_act()
        if seat is None or seat.is_computer:
            return Clock()
        if not force and same_turn and session.deadline is not None:
            return Clock(session.deadline, session.reminder_at)
        period = self.period(session)
        if period <= 0:
            return Clock()
        start = self.shared.now()
        return Clock(start + period, reminder_time(start, period))

    def set_clock(self, session: Session, clock: Clock) -> None:
        """Adopt a stored clock and arm its alarms."""
        session.deadline, session.reminder_at = clock.deadline, clock.reminder_at
        self.turn.arm(session.id, clock.deadline, clock.reminder_at)

    def disarm(self, session: Session) -> None:
        """Forget a game's alarms (it is over, or cannot be loaded)."""
        self.turn.disarm(session.id)

    # -- alarms ------------------------------------------------------------------------------

    async def _alarm(self, game_id: int, kind: str) -> None:
        session = self.shared.tables.get(game_id)
        if session is None or session.status is not Status.PLAYING:
            return
        try:
            await ready(session)
        except errors.SessionError:
            return
        if kind == "reminder":
            await self._remind(session)
            return
        await self._expire(session, 0)

    async def _expire(self, session: Session, attempt: int) -> None:
        """Play the timeout; if it cannot be stored, try again later (the database may be full
        or read-only for a while): the deadline is never dropped, so the player to act cannot
        stall the game."""
        try:
            update = await self.flow.time_out(session)
        except Exception:
            if attempt == 0:
                log.exception("game %s: the timeout could not be stored; trying again", session.id)
            else:
                log.warning(
                    "game %s: the timeout still cannot be stored (attempt %d)", session.id, attempt + 1
                )
            self._retry(session, attempt)
            return
        if update is not None:
            await self.shared.publish(update)
            self.flow.carry_on(session)

    def _retry(self, session: Session, attempt: int) -> None:
        wait = CLOCK_RETRY_SECONDS[min(attempt, len(CLOCK_RETRY_SECONDS) - 1)]

        async def again() -> None:
            await self._sleep(wait)
            if self.shared.tables.get(session.id) is not session or session.status is not Status.PLAYING:
                return
            await self._expire(session, attempt + 1)

        task = asyncio.get_running_loop().create_task(again(), name=f"clock-retry-{session.id}")
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def _remind(self, session: Session) -> None:
        session.reminder_at = None
        try:
            await self.shared.storage.set_clock(session.id, Clock(session.deadline, None))
        except Exception:
            log.warning("game %s: could not store that the reminder was sent", session.id)
        await self.shared.publish(Update(session, UpdateKind.REMINDER))

    async def close(self) -> None:
        """Stop the turn clock and the retries."""
        await self.turn.close()
        retries = list(self._retries)
        for task in retries:
            task.cancel()
        await asyncio.gather(*retries, return_exceptions=True)
