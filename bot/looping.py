"""Sharing the event loop fairly when many commands arrive at once.

When a burst of commands arrives in the same instant (200 tables moving together), each one's
first step (reading the move against the rules, applying it, preparing its record line) is
ready in the same turn of the event loop, and asyncio runs every callback that is ready in a
turn before it looks again: the loop would spend that whole turn on the burst while the moves
already committed, the boards already drawn and the heartbeat wait behind it. A
:class:`StepGate` lets such steps through one per turn of the loop: a step that passes the gate
runs at once when the gate is free; otherwise it waits its turn, behind whatever else became
ready meanwhile. Nothing is held across an ``await``: the gate only orders when steps start.
A step that carries on work already let in (a forced move after a person's move) waits ahead of
new work: a command's later steps never queue behind every command that arrived after it.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections import deque


class StepGate:
    """Lets steps of work on the event loop start one per turn of the loop, in arrival order."""

    def __init__(self) -> None:
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._ahead: deque[asyncio.Future[None]] = deque()
        """Steps that carry on work already let in: their turn comes before new work's."""
        self._open = True
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def waiting(self) -> int:
        """How many steps wait for their turn."""
        return sum(not future.done() for future in (*self._ahead, *self._waiting))

    async def turn(self, *, carrying_on: bool = False) -> None:
        """Return when this step may run: at once if the gate is free, else in its turn. The
        step is the caller's code up to its next ``await``; the gate opens again after the turn
        of the loop that runs it. ``carrying_on``: the step continues work the gate let in
        before (its turn comes before every new step's)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests run one each): nothing of the old one waits
            self._loop, self._waiting, self._ahead, self._open = loop, deque(), deque(), True
        if self._open and not self._waiting and not self._ahead:
            self._open = False
            loop.call_soon(self._next)
            return
        future: asyncio.Future[None] = loop.create_future()
        (self._ahead if carrying_on else self._waiting).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # given the turn, then cancelled
                loop.call_soon(self._next)
            raise
        loop.call_soon(self._next)

    def _next(self) -> None:
        """Give the turn to the next step waiting (or open the gate)."""
        for queue in (self._ahead, self._waiting):
            while queue:
                future = queue.popleft()
                if not future.done():
                    future.set_result(None)
                    return
        self._open = True


SWITCH_INTERVAL = 0.001
"""How long (seconds) the thread holding the interpreter runs before it must hand it to another
thread that waits for it (Python's default is 0.005). The bot's SQLite writer, its readers and
the lanes' dispatcher are threads beside the event loop: each statement the writer runs gives
the interpreter up and takes it back, and while the loop works through a burst each taking-back
waited up to the whole interval; a group of moves then took tens of milliseconds of waiting for
a few milliseconds of work (measured: see docs/notes/load2.md)."""


def share_the_interpreter(interval: float = SWITCH_INTERVAL) -> None:
    """Make the threads beside the event loop wait less for the interpreter (process-wide: the
    bot's process calls it once as it starts)."""
    sys.setswitchinterval(interval)


_frozen = False


def freeze_the_heap() -> bool:
    """Once per process, when the bot has started (its modules imported, its games restored):
    collect the garbage there is, then leave every object alive now out of the collector's
    full collections (``gc.freeze``). A full collection scans every object the collector
    tracks, on the thread that triggered it (usually the event loop's): with discord.py, Pillow,
    numpy and the games loaded, 60-93 ms a collection (once 160 ms), about one a burst of 200 moves
    (measured: docs/notes/loop.md); frozen, it scans only what came after. Objects frozen are
    still freed when nothing refers to them; only a reference cycle among them would stay.
    Returns whether it froze (False: done before in this process)."""
    global _frozen
    if _frozen:
        return False
    _frozen = True
    gc.collect()
    gc.freeze()
    return True
