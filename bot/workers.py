"""Heavy work off the event loop, in a pool of processes so that every core works.

Rendering, ranking the legal moves, computer players, replays and imports hold the CPU for
milliseconds to seconds; in a thread they would hold the GIL and stall every other game. Here
they run in worker processes, each call with a time limit. Workers receive only picklable
values: a game object (pickled as its class), states, records, names, and a renderer by its
module name.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from games import ai, records
from games.core import Game
from games.records import Record, RecordedMove
from rendering.base import Renderer
from rendering.common import drawable_names, to_png

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_TIMEOUT = 60.0
"""Seconds any one piece of work may take before the caller is told it took too long."""
PRELOAD = ("games", "games.registry", "games.ai", "rendering.registry", "PIL.Image")

_pool: ProcessPoolExecutor | None = None
_warm: ProcessPoolExecutor | None = None


class WorkTooLong(Exception):
    """A piece of work went over its time limit (the caller says so to the user)."""


def workers() -> int:
    """How many worker processes run: one per core, at least two."""
    return max(2, os.cpu_count() or 2)


def pool() -> ProcessPoolExecutor:
    """The shared pool, started on first use (worker processes fork from a clean server
    process that has the game and rendering modules loaded)."""
    global _pool
    if _pool is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOAD))
        _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=context)
    return _pool


def warm() -> None:
    """Start every worker process now (blocking), so that the first computer move or board
    does not wait for one, and no process is started later while the pool is busy. Tests call
    it before SimCord's virtual clock runs: with ``time.monotonic`` standing still, starting a
    second worker process would wait forever on the first one's (never elapsing) poll."""
    global _warm
    if _warm is pool():
        return
    for future in [pool().submit(os.getpid) for _ in range(workers())]:
        future.result()
    _warm = pool()


async def run(fn: Callable[..., T], *args: Any, timeout: float | None = DEFAULT_TIMEOUT) -> T:  # noqa: ASYNC109
    """``fn(*args)`` in a worker process; raises :class:`WorkTooLong` after ``timeout`` seconds
    (None: no limit). A pool broken by a killed worker is replaced once."""
    global _pool
    loop = asyncio.get_running_loop()
    for attempt in range(2):
        try:
            future = loop.run_in_executor(pool(), fn, *args)
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise WorkTooLong(f"{getattr(fn, '__name__', 'work')} took longer than {timeout} s") from None
        except BrokenProcessPool:
            if attempt:
                raise
            log.warning("the worker pool broke (a worker died); starting a new one")
            _pool = None
    raise AssertionError("unreachable")


def shutdown() -> None:
    """Stop the worker processes (at exit; tests keep one pool for the whole session)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


# -- the work (module-level functions, so that they pickle by name) --------------------------


def ranked_moves(game: Game[Any, Any], state: Any) -> list[tuple[str, str]]:
    """Every legal move as ``(label, notation)``, best first (ties in notation order)."""
    ranked = game.rank_moves(state, game.legal_moves(state))
    return [(game.move_label(state, move), game.format_move(state, move)) for move in ranked]


def computer_move(game: Game[Any, Any], state: Any, level: str | None, seed: int, budget: ai.Budget) -> Any:
    """The move of a computer player of ``level`` for the seat to act (``hard`` thinks within
    ``budget``; it sees only what its seat sees, whatever ``state`` holds)."""
    return ai.player_for(level, seed=seed, budget=budget).choose(game, state)


def hint(game: Game[Any, Any], state: Any, seat: int, seed: int, budget: ai.Budget) -> ai.Decision:
    """The hint for ``seat`` (to act): the ``hard`` player's decision, with what it weighed."""
    return ai.player_for(ai.HINT_LEVEL, seed=seed, budget=budget).decide(game, state, seat=seat)


def replay_final(game: Game[Any, Any], header: Record, lines: Sequence[RecordedMove]) -> Any:
    """The state after a stored game's lines (restoring a game after a restart)."""
    return records.final_state(game, header.with_moves(lines))


def render(renderer: Renderer, what: str, view: Any, *args: Any) -> bytes:
    """A PNG from ``renderer``: ``what`` is ``board`` (args: names) or ``hand`` (seat, names)."""
    if what == "board":
        (names,) = args
        return to_png(renderer.board(view, drawable_names(names)))
    seat, names = args
    return to_png(renderer.hand(view, seat, drawable_names(names)))
