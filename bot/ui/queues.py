"""Work queued per key (a game, a tournament) and done in order by one task per key: what the
announcers use, so that one game's messages never wait for another's and never overtake each
other."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

Item = TypeVar("Item")

Handler = Callable[[int, list[Item]], Awaitable[None]]
"""Does the work of the items queued for a key, oldest first (all those queued so far)."""


class KeyedQueues(Generic[Item]):
    """One queue and at most one task per key. The task takes everything queued for its key at
    once (a batch), hands it to ``handler`` and goes on until the queue is empty; a handler that
    fails is logged and the next batch still runs."""

    def __init__(self, handler: Handler[Item], name: str) -> None:
        self._handler = handler
        self._name = name
        self._queues: dict[int, list[Item]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def put(self, key: int, item: Item) -> None:
        """Queue ``item`` for ``key``, starting the key's task if none runs."""
        self._queues.setdefault(key, []).append(item)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.get_running_loop().create_task(
                self._drain(key), name=f"{self._name}-{key}"
            )

    async def _drain(self, key: int) -> None:
        while self._queues.get(key):
            batch, self._queues[key] = self._queues[key], []
            try:
                await self._handler(key, batch)
            except Exception:
                log.exception("%s %s: %d queued items failed", self._name, key, len(batch))
        self._queues.pop(key, None)
        if self._tasks.get(key) is asyncio.current_task():  # a finished game keeps no task
            del self._tasks[key]

    async def caught_up(self, key: int, seconds: float) -> None:
        """Wait (at most ``seconds``) until what is queued for ``key`` is done."""
        task = self._tasks.get(key)
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=seconds)

    async def close(self) -> None:
        """Let the work under way finish."""
        tasks = [task for task in self._tasks.values() if not task.done()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
