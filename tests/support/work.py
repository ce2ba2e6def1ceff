"""Work counted, not timed: how many steps a piece of code takes, the same on every machine and
under any load, so a test may assert on it where asserting on seconds would make its verdict
depend on the machine (docs/development.md, "Rules for tests").

A step is a line of Python run (a loop's body counts each time round), a Python function called
(a generator resumed counts again) or a built-in function or method called::

    with counted() as work, pytest.raises(InvalidMoveError):
        notation.parse_move(text)
    assert work.steps < 200

:func:`linear` compares the work on an input and on one twice as long: linear work at most
doubles (``a·2n + b <= 2·(a·n + b)``), quadratic work quadruples. What a built-in does inside
one call (a regular expression's backtracking, ``str.lower`` over the whole text, a slice) is one
step here: a check on that reads the code, not the count.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

Expected = type[BaseException] | tuple[type[BaseException], ...]
"""Exceptions a counted call may raise (they end it normally)."""


@dataclass
class Work:
    """Steps counted so far."""

    steps: int = 0


@contextlib.contextmanager
def counted() -> Iterator[Work]:
    """Count the steps taken in this thread inside the ``with`` block. The garbage collector is
    held meanwhile: a collection runs whatever callbacks and finalizers other code left behind,
    whenever it happens to fall, and their steps are not the counted code's."""
    work = Work()

    def lines(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            work.steps += 1
        return lines

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        work.steps += 1  # a Python call ("call" event, then the frame's lines are traced)
        return lines

    def builtins(frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call":
            work.steps += 1

    tracer, profiler = sys.gettrace(), sys.getprofile()
    collecting = gc.isenabled()
    gc.disable()
    sys.settrace(calls)
    sys.setprofile(builtins)
    try:
        yield work
    finally:
        sys.setprofile(profiler)
        sys.settrace(tracer)
        if collecting:
            gc.enable()


def steps_of(fn: Callable[[], object], expected: Expected = ()) -> int:
    """The steps ``fn()`` takes (``expected``: exceptions it may raise, which end it normally)."""
    with counted() as work, contextlib.suppress(*(expected if isinstance(expected, tuple) else (expected,))):
        fn()
    return work.steps


def linear(run: Callable[[int], object], size: int, expected: Expected = ()) -> tuple[int, int]:
    """``(steps for size, steps for 2·size)`` of ``run(n)``, after one run on a small input (so
    that caches and first-time imports count in neither). Assert with :func:`at_most_doubles`."""
    steps_of(lambda: run(max(1, size // 100)), expected)
    return steps_of(lambda: run(size), expected), steps_of(lambda: run(2 * size), expected)


def at_most_doubles(pair: tuple[int, int]) -> bool:
    """True when the work on twice the input is at most twice the work (and a little): linear
    (or constant: the input was refused before it was read)."""
    once, twice = pair
    return twice <= 2 * once + 16


def does_not_grow(pair: tuple[int, int]) -> bool:
    """True when twice the input took no more work: it was refused before it was read."""
    once, twice = pair
    return twice <= once
