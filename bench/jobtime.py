"""A worker job timed where it runs (imported by the worker processes: nothing else here)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed_job(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """``fn(*args)``, with how long it took in the worker (without the queue before it)."""
    started = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - started, result
