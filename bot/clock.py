"""The turn clock: one task sleeping until the earliest deadline or reminder of any game.

The clock is re-armed after every change (a move, a start, a restart). Its time source and its
sleep are injected, so tests (and SimCord's virtual time) control it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

Now = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Alarm = Callable[[int, str], Awaitable[None]]
"""Called with ``(game_id, kind)``; ``kind`` is ``"deadline"`` or ``"reminder"``."""

REMINDER_MIN_PERIOD = 30 * 60
"""Turns shorter than this (live clocks) get no reminder."""


def reminder_time(start: float, period: float) -> float | None:
    """When to remind the player of a turn of ``period`` seconds that began at ``start``:
    an hour before the deadline, or after three quarters of shorter periods; None for live
    clocks."""
    if period < REMINDER_MIN_PERIOD:
        return None
    before = min(3600.0, period / 4)
    return start + period - before


@dataclass
class _Entry:
    deadline: float | None
    reminder_at: float | None

    def next_alarm(self) -> tuple[float, str] | None:
        times = []
        if self.reminder_at is not None and (self.deadline is None or self.reminder_at < self.deadline):
            times.append((self.reminder_at, "reminder"))
        if self.deadline is not None:
            times.append((self.deadline, "deadline"))
        return min(times) if times else None


class TurnClock:
    """Sleeps until the earliest alarm of any game and calls ``alarm(game_id, kind)``.

    Each alarm fires once: it is removed before the callback runs, and the callback (which
    typically records a timeout and arms the next deadline) runs in its own task.
    """

    def __init__(self, alarm: Alarm, now: Now = time.time, sleep: Sleep = asyncio.sleep) -> None:
        self._alarm = alarm
        self._now = now
        self._sleep = sleep
        self._entries: dict[int, _Entry] = {}
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._closed = False

    def now(self) -> float:
        """The current time of this clock (unix seconds)."""
        return self._now()

    def arm(self, game_id: int, deadline: float | None, reminder_at: float | None = None) -> None:
        """Set (or clear, with None) a game's deadline and reminder, and re-arm the sleeper."""
        if deadline is None and reminder_at is None:
            self._entries.pop(game_id, None)
        else:
            self._entries[game_id] = _Entry(deadline, reminder_at)
        self._rearm()

    def disarm(self, game_id: int) -> None:
        """Forget a game's alarms."""
        self.arm(game_id, None, None)

    def pending(self) -> dict[int, tuple[float | None, float | None]]:
        """``game_id -> (deadline, reminder_at)`` for every armed game."""
        return {gid: (entry.deadline, entry.reminder_at) for gid, entry in self._entries.items()}

    def next_alarm(self) -> tuple[float, int, str] | None:
        """The earliest ``(when, game_id, kind)``, or None."""
        best: tuple[float, int, str] | None = None
        for game_id, entry in self._entries.items():
            alarm = entry.next_alarm()
            if alarm is not None and (best is None or alarm[0] < best[0]):
                best = (alarm[0], game_id, alarm[1])
        return best

    def _rearm(self) -> None:
        if self._closed:
            return
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="tilehost-turn-clock")

    async def _run(self) -> None:
        while not self._closed:
            upcoming = self.next_alarm()
            if upcoming is None:
                return
            when, game_id, kind = upcoming
            delay = when - self._now()
            if delay > 0:
                await self._sleep(delay)
                continue
            self._consume(game_id, kind)
            task = asyncio.get_running_loop().create_task(self._fire(game_id, kind))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    def _consume(self, game_id: int, kind: str) -> None:
        entry = self._entries.get(game_id)
        if entry is None:
            return
        if kind == "reminder":
            entry.reminder_at = None
        else:
            entry.deadline = None
            entry.reminder_at = None
        if entry.deadline is None and entry.reminder_at is None:
            self._entries.pop(game_id, None)

    async def _fire(self, game_id: int, kind: str) -> None:
        try:
            await self._alarm(game_id, kind)
        except Exception:
            log.exception("turn clock alarm %s for game %s failed", kind, game_id)

    async def close(self) -> None:
        """Stop sleeping and wait for running alarms."""
        self._closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
