"""Puzz-Ominos solver benchmark: counting every target's solutions, and completing positions.

Run: ``.venv/bin/python bench/bench_puzzominos_solver.py [--copies]`` (the issue's aim: all 6x10
solutions in about 1-2 s). Counts are of distinct solutions (symmetric copies once); "compile" is
the one-off preparation of a target (placements, symmetries), cached afterwards. ``--copies``
also counts every symmetric copy (slower: no symmetry to exploit).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzominos.targets import TARGETS, Target

T = TypeVar("T")

SINGLE_SET = [name for name, target in TARGETS.items() if len(target.pieces) == 12]
TWO_SETS = [name for name, target in TARGETS.items() if len(target.pieces) == 24]


def timed(action: Callable[[], T]) -> tuple[T, float]:
    """The result of ``action`` and its wall time in seconds."""
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def bench_counts(runs: int, every_copy: bool) -> None:
    """Distinct counts of every one-set target (median of ``runs`` for 6x10)."""
    print(
        f"{'target':12} {'compile':>8} {'distinct':>9} {'time':>8}"
        + ("   with copies   time" if every_copy else "")
    )
    for name in SINGLE_SET:
        target = TARGETS[name]
        solver.problem.cache_clear()
        _, compile_time = timed(lambda: solver.problem(target))  # noqa: B023
        times = []
        total = 0
        for _ in range(runs if name == "6x10" else 1):
            total, seconds = timed(lambda: solver.count_solutions(target))  # noqa: B023
            times.append(seconds)
        line = f"{name:12} {compile_time * 1000:6.0f}ms {total:9} {statistics.median(times):7.2f}s"
        if every_copy:
            copies, seconds = timed(lambda: solver.count_solutions(target, distinct=False))  # noqa: B023
            line += f"   {copies:11} {seconds:6.2f}s"
        print(line, flush=True)
        if name == "6x10":
            median, best = statistics.median(times), min(times)
    print(f"6x10 distinct count over {runs} runs: median {median:.2f}s, best {best:.2f}s")


def random_position(target: Target, pieces: int, rng: random.Random) -> list[Place]:
    """``pieces`` random non-overlapping placements (often hopeless: a hard test)."""
    compiled = solver.problem(target)
    masks = list(compiled.place_of)
    placed: list[Place] = []
    empty, left = compiled.full, compiled.all_pieces
    while len(placed) < pieces:
        mask = rng.choice(masks)
        place = compiled.place_of[mask]
        field, unit = compiled.fields[place.piece]
        if mask & empty == mask and left & field:
            placed.append(place)
            empty ^= mask
            left -= unit
    return placed


def bench_completions(samples: int) -> None:
    """``complete`` (hints) from empty and from random positions."""
    print(f"\ncomplete(): from empty, and from {samples} random positions (seconds)")
    header = ["empty", "pieces", "solvable", "none", "gave up", "median", "max"]
    print(f"{'target':12} " + " ".join(f"{word:>8}" for word in header))
    for name in TARGETS:
        target = TARGETS[name]
        solver.problem(target)
        _, from_empty = timed(lambda: solver.complete(target, ()))  # noqa: B023
        pieces = 4 if name in TWO_SETS else 1
        rng = random.Random(2024)
        outcomes = {"solvable": 0, "none": 0, "gave up": 0}
        times = []
        for _ in range(samples):
            placed = random_position(target, pieces, rng)
            start = time.perf_counter()
            try:
                found = solver.complete(target, placed)
                outcomes["solvable" if found is not None else "none"] += 1
            except solver.SearchLimitError:
                outcomes["gave up"] += 1
            times.append(time.perf_counter() - start)
        print(
            f"{name:12} {from_empty:8.2f} {pieces:8} {outcomes['solvable']:8} {outcomes['none']:8} "
            f"{outcomes['gave up']:8} {statistics.median(times):8.3f} {max(times):8.2f}",
            flush=True,
        )


def main() -> None:
    bench_counts(runs=3, every_copy="--copies" in sys.argv)
    bench_completions(samples=20)


if __name__ == "__main__":
    main()
