"""A controllable clock for the service and scheduler tests."""

from __future__ import annotations

import asyncio


class FakeTime:
    """``now()`` and ``sleep()`` that only move when the test calls :meth:`advance`."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.time = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.time

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.time + delay, future))
        await future

    async def settle(self) -> None:
        """Let every runnable task (and the database thread) finish what it can."""
        for _ in range(40):
            await asyncio.sleep(0.002)

    async def advance(self, seconds: float) -> None:
        target = self.time + seconds
        while True:
            due = [when for when, future in self._sleepers if not future.done() and when <= target]
            self.time = min(due) if due else target
            for when, future in self._sleepers:
                if when <= self.time and not future.done():
                    future.set_result(None)
            self._sleepers = [(w, f) for w, f in self._sleepers if not f.done()]
            await self.settle()
            if not due:
                return
