"""How much a ``hard`` computer player may think: a number of playouts, with a time cap.

Strength is bought in work, not seconds: a decision makes ``playouts`` playouts (by default the
game's own number, :attr:`~games.ai.profile.SearchProfile.playouts`, times ``scale``), so the
same view, seed and budget give the same move on any machine, under any load. ``seconds`` is
only a cap that keeps a very busy machine answering: when it runs out the search plays its best
move so far (and a search with no result yet by twice the cap plays its first candidate). Tests
inject a clock to check the time logic without waiting.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_SECONDS = 10.0
"""The time cap per decision when nothing else is said. The games' playouts are sized so that a
decision takes at most about 2 s on a 2-core machine with one search running; the cap only
matters on a machine many times slower or busier."""
MAX_SCALE = 10.0
"""The largest multiple of a game's default playouts a budget may ask for."""


@dataclass(frozen=True)
class Budget:
    """Limits on one decision: ``playouts`` (None: the game's default times ``scale``), and a
    time cap of ``seconds`` (None: none) read on ``clock`` (seconds, monotonic)."""

    playouts: int | None = None
    seconds: float | None = DEFAULT_SECONDS
    scale: float = 1.0
    clock: Callable[[], float] = time.perf_counter

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a time cap must be positive, not {self.seconds}")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError(f"a playout budget must be at least 1, not {self.playouts}")
        if not 0 < self.scale <= MAX_SCALE:
            raise ValueError(f"a playout scale must be in (0, {MAX_SCALE:g}], not {self.scale}")

    def playouts_for(self, default: int) -> int:
        """The playouts this budget allows in a game whose default is ``default``."""
        if self.playouts is not None:
            return self.playouts
        return max(1, math.ceil(default * self.scale))

    def start(self, default: int) -> Deadline:
        """A running budget from now, in a game whose default playouts are ``default``."""
        now = self.clock()
        end = None if self.seconds is None else now + self.seconds
        return Deadline(self, self.playouts_for(default), now, end)

    def label(self) -> str:
        """How a table names the budget: ``400 playouts``, ``default playouts``, ``0.1 x``."""
        if self.playouts is not None:
            return f"{self.playouts} playouts"
        return "default playouts" if self.scale == 1 else f"{self.scale:g} x default playouts"


def as_budget(budget: Budget | float | None) -> Budget:
    """A :class:`Budget` from a budget, a time cap in seconds (a number: the game's default
    playouts within that cap), or None (the defaults)."""
    if budget is None:
        return Budget()
    if isinstance(budget, Budget):
        return budget
    return Budget(seconds=float(budget))


class Deadline:
    """A budget being spent: counts playouts and watches the clock."""

    __slots__ = ("budget", "end", "limit", "playouts", "started")

    def __init__(self, budget: Budget, limit: int, started: float, end: float | None) -> None:
        self.budget = budget
        self.limit = limit
        """The playouts allowed."""
        self.started = started
        self.end = end
        self.playouts = 0

    def out_of_time(self) -> bool:
        """True once the clock has passed the cap (never, without one)."""
        return self.end is not None and self.budget.clock() >= self.end

    def overdue(self) -> bool:
        """True once the clock has passed twice the cap: even a search that has no result yet
        stops and plays its first candidate."""
        return self.end is not None and self.budget.clock() >= self.end + (self.end - self.started)

    def left(self) -> int:
        """Playouts still allowed."""
        return self.limit - self.playouts

    def elapsed(self) -> float:
        """Seconds since the start, on the budget's clock."""
        return self.budget.clock() - self.started
