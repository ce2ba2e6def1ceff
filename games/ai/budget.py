"""How long a computer player may think: seconds on a clock, a number of search iterations, or
both (whichever runs out first).

A time budget makes the search *anytime*: it returns its best move so far when the time is up.
An iteration budget makes a decision reproducible: the same view, seed and iteration count give
the same move on any machine. Tests inject a clock to check the time logic without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_SECONDS = 2.0
"""Thinking time per decision when nothing else is said (issue 14)."""


@dataclass(frozen=True)
class Budget:
    """Limits on one decision: ``seconds`` (None: no time limit), ``iterations`` (None: no
    iteration limit), read on ``clock`` (seconds, monotonic)."""

    seconds: float | None = DEFAULT_SECONDS
    iterations: int | None = None
    clock: Callable[[], float] = time.perf_counter

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds, iterations or both")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"a time budget must be positive, not {self.seconds}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"an iteration budget must be at least 1, not {self.iterations}")

    def start(self) -> Deadline:
        """A running deadline from now."""
        now = self.clock()
        end = None if self.seconds is None else now + self.seconds
        return Deadline(self, now, end)


def as_budget(budget: Budget | float | None) -> Budget:
    """A :class:`Budget` from seconds (a number), a budget, or None (the default 2 s)."""
    if budget is None:
        return Budget()
    if isinstance(budget, Budget):
        return budget
    return Budget(seconds=float(budget))


class Deadline:
    """A budget being spent: counts iterations and watches the clock."""

    __slots__ = ("budget", "end", "iterations", "started")

    def __init__(self, budget: Budget, started: float, end: float | None) -> None:
        self.budget = budget
        self.started = started
        self.end = end
        self.iterations = 0

    def out_of_time(self) -> bool:
        """True once the clock has passed the time limit (never, without one)."""
        return self.end is not None and self.budget.clock() >= self.end

    def overdue(self) -> bool:
        """True once the clock has passed twice the time limit: even a search that has no result
        yet stops and plays its first candidate."""
        return self.end is not None and self.budget.clock() >= self.end + (self.end - self.started)

    def exhausted(self) -> bool:
        """True when no further iteration may start."""
        limit = self.budget.iterations
        if limit is not None and self.iterations >= limit:
            return True
        return self.out_of_time()

    def elapsed(self) -> float:
        """Seconds since the start, on the budget's clock."""
        return self.budget.clock() - self.started
