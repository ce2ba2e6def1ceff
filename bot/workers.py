"""Heavy work off the event loop, in worker processes, in two lanes (see :mod:`bot.lanes`).

Rendering, ranking the legal moves, computer players, solver runs, replays and imports hold the
CPU for milliseconds to minutes; in a thread they would hold the GIL and stall every other game.
Here they run in worker processes. A caller names the job's :class:`Kind`, which says its lane
(interactive work never waits behind long work), its budget (real seconds; past it the worker
is stopped and replaced, and :class:`WorkTooLong` is raised) and whether a member's request
counts against the caps on long work (over a cap: :class:`Busy`, a message for the member).
Workers receive only picklable values: a game object (pickled as its class), states, records,
names, and a renderer by its module name.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from bot.lanes import (
    LONG_NICE,
    Busy,
    Caps,
    Kind,
    Lane,
    Lanes,
    Owner,
    Stopped,
    Superseded,
    WorkerLost,
    WorkTooLong,
)
from games import ai, records
from games.core import Game
from games.records import Record, RecordedMove
from rendering.base import Renderer
from rendering.common import drawable_names, to_png

__all__ = [
    "BOARD",
    "COMPUTER",
    "GIVE_UP",
    "HAND",
    "HINT",
    "IMPORT",
    "LOAD",
    "OTHER",
    "PAIRING",
    "PICTURE",
    "REPLAY",
    "RESTORE",
    "SOLVER",
    "SUGGESTIONS",
    "TARGET_CHECK",
    "Busy",
    "Caps",
    "Kind",
    "Lane",
    "Owner",
    "Stopped",
    "Superseded",
    "WorkTooLong",
    "WorkerLost",
    "run",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

PRELOAD = (
    "games",
    "games.registry",
    "games.ai",
    "rendering.registry",
    "PIL.Image",
    "bot.workers:warm_caches",
)
"""Modules the worker processes have loaded before they start (``module:function``: and that
function run once in the zygote, whose memory every worker starts from)."""
_long_nice = LONG_NICE
"""The long lane's niceness (``TILEHOST_LONG_NICE``, see :func:`use_long_nice`)."""

# -- the kinds of job ---------------------------------------------------------------------------

BOARD = Kind("board", Lane.INTERACTIVE, 30.0, retry=True)
"""The public board of a position (after a move, ``/board``)."""
HAND = Kind("hand", Lane.INTERACTIVE, 30.0, retry=True)
"""A player's private hand picture."""
SUGGESTIONS = Kind("suggestions", Lane.INTERACTIVE, 20.0, retry=True)
"""Ranking the legal moves for autocomplete."""
PICTURE = Kind("picture", Lane.INTERACTIVE, 60.0, retry=True)
"""A small one-off picture (the rules' example board, drawn once)."""
COMPUTER = Kind("computer move", Lane.LONG, 120.0)
"""A computer seat's move (the game's own: never refused, shared out in turn between games)."""
HINT = Kind("hint", Lane.LONG, 60.0, capped=True)
"""A member's hint (the ``hard`` player's search)."""
SOLVER = Kind("solver", Lane.LONG, 20.0, capped=True)
"""The solitaire solver's next piece for a member."""
GIVE_UP = Kind("give-up", Lane.LONG, 30.0, capped=True)
"""A solitaire given up: the solution it shows."""
TARGET_CHECK = Kind("target check", Lane.LONG, 4.0, capped=True)
"""Whether a solitaire target can be filled, before the game starts."""
IMPORT = Kind("import", Lane.LONG, 20.0, capped=True)
"""Reading and replaying an uploaded record."""
REPLAY = Kind("replay", Lane.LONG, 60.0, capped=True)
"""Drawing a replay (an animation and a score chart)."""
LOAD = Kind("load", Lane.LONG, 60.0, urgent=True)
"""Reading a stored game back on demand (someone waits: first in the long lane)."""
RESTORE = Kind("restore", Lane.LONG, 300.0, background=True)
"""Replaying a running game's record after a restart, behind every other long job."""
PAIRING = Kind("pairing", Lane.LONG, 300.0)
"""A tournament round's pairing or schedule (the bot's own work: never refused)."""
OTHER = Kind("other", Lane.LONG, 60.0)
"""Anything else (long lane, not capped)."""

_lanes: Lanes | None = None
_lock = threading.Lock()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 2


def sizes() -> dict[Lane, int]:
    """How many worker processes each lane has: one per core each, at least two interactive and
    one long. (The long lane runs at a lower CPU priority, so on a busy machine its workers take
    what the interactive ones leave.)"""
    return {Lane.INTERACTIVE: max(2, cores()), Lane.LONG: max(1, cores())}


def lanes() -> Lanes:
    """The bot's lanes (their processes start on :func:`warm` or the first job)."""
    global _lanes
    with _lock:
        if _lanes is None:
            _lanes = Lanes(sizes(), tuple(PRELOAD), long_nice=_long_nice)
        return _lanes


def use_long_nice(nice: int) -> None:
    """Run the long lane's workers at niceness ``nice`` (0-19; ``TILEHOST_LONG_NICE``, which the
    bot passes on as it is created): 10 leaves the cores to interactive work when both lanes want
    them, 0 where other programs on the machine must not starve it. For lanes made after this
    call (the bot's are made with its first job or :func:`warm`)."""
    global _long_nice
    _long_nice = nice


def warm() -> None:
    """Start every worker process now (blocking), so that the first board does not wait for
    one. Safe from any thread and while a test's virtual clock stands still: nothing here
    reads ``time.monotonic`` (see :mod:`bot.processes`)."""
    lanes().start()


async def run(
    fn: Callable[..., T],
    *args: Any,
    kind: Kind = OTHER,
    owner: Owner | None = None,
    stale: Callable[[], bool] | None = None,
    key: Hashable | None = None,
    budget: float | None = None,
) -> T:
    """``fn(*args)`` in a worker of ``kind``'s lane, within ``budget`` seconds (default: the
    kind's). ``owner``: whom long work is for (caps and turns); ``stale``: asked just before the
    job starts, True means the job is no longer wanted (:class:`Superseded`); ``key``: a newer
    job with the same key replaces this one while it waits (:class:`Superseded`).

    Raises :class:`Busy` at once when a cap refuses the job, :class:`WorkTooLong` when it went
    past its budget (its worker is replaced), :class:`WorkerLost` when its worker died under it,
    and whatever ``fn`` raised. Cancelling the call drops the job, or stops its worker."""
    pool = lanes()
    if not pool.started:
        await asyncio.to_thread(pool.start)  # seconds (the zygote imports): never on the loop
    job = pool.submit(kind, fn, args, owner=owner, stale=stale, key=key, budget=budget)
    try:
        return await asyncio.wrap_future(job.future)
    except asyncio.CancelledError:
        pool.abandon(job)
        raise


def shutdown() -> None:
    """Stop every worker process (at exit; tests keep one set for the whole session)."""
    global _lanes
    with _lock:
        pool, _lanes = _lanes, None
    if pool is not None:
        pool.shutdown()


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


def apply_move(game: Game[Any, Any], state: Any, move: Any) -> tuple[Any, tuple[Any, ...]]:
    """``game.apply(state, move)`` for a move whose rules run a search (``Game.searches``)."""
    return game.apply(state, move)


def replay_final(game: Game[Any, Any], header: Record, lines: Sequence[RecordedMove]) -> Any:
    """The state after a stored game's lines (restoring a game after a restart)."""
    return records.final_state(game, header.with_moves(lines))


def warm_caches() -> None:
    """Fill the caches a first board fills (the fonts' glyph maps and sizes, each game's
    drawing caches, the encoder) by drawing each shipped game's opening board, in the zygote
    before it forks: a fresh worker's first board (the first after a restart) is then no slower
    than the next (0.7 s slower on a quiet machine otherwise)."""
    from games import registry
    from rendering import registry as renderers

    for name in registry.shipped_names():
        try:
            game = registry.get(name)
            players = min(max(2, game.min_players), game.max_players)
            view = game.view(game.new(players, None, 0), None)
            render(renderers.renderer(name), "board", view, ["Ann", "Ben"][:players])
        except Exception:  # a cache left cold costs time, not correctness
            log.exception("warming the caches: the %s board could not be drawn", name)


def render(renderer: Renderer, what: str, view: Any, *args: Any) -> bytes:
    """A PNG from ``renderer``: ``what`` is ``board`` (args: names) or ``hand`` (seat, names)."""
    if what == "board":
        (names,) = args
        return to_png(renderer.board(view, drawable_names(names)))
    seat, names = args
    return to_png(renderer.hand(view, seat, drawable_names(names)))
