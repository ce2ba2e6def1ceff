"""What the benchmark scripts share: timing, median, fresh copies of states (and, from
:mod:`games.ai`, the states of greedy games)."""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from games.ai import greedy_states

T = TypeVar("T")


def timed(action: Callable[[], object], runs: int) -> list[float]:
    """``runs`` wall-clock timings of ``action``, in seconds."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def median_ms(samples: list[float]) -> float:
    """The median of ``samples`` (seconds) in milliseconds."""
    return statistics.median(samples) * 1000


def fresh(state: T) -> T:
    """A copy of a dataclass state without its cached facts (legal moves, grids), so each timed
    run computes them again."""
    fields = [field.name for field in dataclasses.fields(state) if field.init]  # type: ignore[arg-type]
    return type(state)(**{name: getattr(state, name) for name in fields})


__all__ = ["fresh", "greedy_states", "median_ms", "timed"]
